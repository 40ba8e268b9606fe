"""Browser tests (Playwright + Debian chromium) of the games whose renderers are not on the new renderer interface
yet (fullmetal): its page loads and is playable through the list of legal actions (opened for it, folded for the
others); plus language switching. The arena, tremble and worlds, on the new interface, are played by board gestures
in test_arena_fullgame.py, test_tremble_fullgame.py and test_worlds_fullgame.py; tremble's private panels and long
legal lists are tested in test_tremble_pages.py.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.rng import Rng

from .pages import errors_of, goto, open_page, version, wait_version_change

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LEGACY_READY = """() => {
  if (document.querySelector('[data-testid=result]')) return true;
  const m = document.querySelector('[data-testid=match-page]');
  const t = document.querySelector('[data-testid=turn-indicator]');
  return !!(m && m.dataset.caughtUp === 'yes' && t && t.dataset.myTurn === 'yes'
    && document.querySelector('[data-testid=legal-actions] [data-action]:not([disabled])'));
}"""


def create_match(page: Page, base: str, game: str, players: int | None = None, mode: str = "friend",
                 level: str | None = None, ai_seconds: float = 0.2) -> str:
    """Create a match from the lobby: the game's card, a mode (computer, friend), players, a level."""
    goto(page, base + "/")
    page.click(f"[data-testid=game-card-{game}]")
    page.click(f"[data-testid=mode-{mode}]")
    if players is not None:
        page.click(f"[data-testid=players-{players}]")
    if level is not None:
        page.click(f"[data-testid=level-{level}]")
    page.click("[data-testid=more-options] summary")
    page.fill("[data-testid=ai-seconds]", str(ai_seconds))
    page.fill("[data-testid=player-name]", "Tester")
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=match-page]")
    return urlparse(page.url).path.rsplit("/", 1)[-1]


def click_action(page: Page, rng: Rng, prefer: str = "random") -> dict[str, Any]:
    """Click one of the legal-action buttons of the fallback list (games whose renderer is not on the new
    interface yet; never resign or agreement offers)."""
    buttons = page.locator("[data-testid=legal-actions] [data-action]")
    actions = [json.loads(buttons.nth(i).get_attribute("data-action") or "{}") for i in range(buttons.count())]
    calm = [i for i, a in enumerate(actions) if a.get("type") not in ("resign", "accept_end") and not a.get("offer_end")]
    pool = calm or list(range(len(actions)))
    index = pool[-1] if prefer == "last" else pool[0] if prefer == "first" else pool[rng.randbelow(len(pool))]
    before = version(page)
    buttons.nth(index).click()
    wait_version_change(page, before)
    return actions[index]


def test_fullmetal_page_loads_and_plays_through_the_list(server: str, browser: Browser) -> None:
    """Full Metal Planète against the AI: the page draws its board and the first decisions are played from the list."""
    page = open_page(browser)
    mid = create_match(page, server, "fullmetal", mode="computer", level="greedy", ai_seconds=0.1)
    rng = Rng.from_seed(5)
    for _ in range(3):
        page.wait_for_function(LEGACY_READY, timeout=120_000)
        if page.locator("[data-testid=result]").count():
            break
        click_action(page, rng)
    assert httpx.get(f"{server}/api/matches/{mid}").json()["version"] >= 3
    assert page.locator("[data-testid=board] svg").count() >= 1
    assert errors_of(page) == []


# ------------------------------------------------------------------------------------------ i18n
@pytest.mark.parametrize(("lang", "new_match", "lobby"), [("fr", "Nouvelle partie", "Salon"), ("nl", "Nieuwe partij", "Lobby"),
                                                          ("ru", "Новая партия", "Лобби"), ("en", "New game", "Lobby")])
def test_language_switching(server: str, browser: Browser, lang: str, new_match: str, lobby: str) -> None:
    """The interface language is chosen by the user, applies at once, on every page, and is remembered; the match
    page gets the server's texts (refusals) in that language too."""
    page = open_page(browser)
    goto(page, server + "/")
    page.select_option("[data-testid=lang-select]", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    assert page.inner_text("[data-testid=create-form] h2").startswith(new_match)
    assert page.inner_text("[data-testid=nav-lobby]") == lobby
    goto(page, server + "/")  # remembered across visits
    assert page.input_value("[data-testid=lang-select]") == lang
    assert page.inner_text("[data-testid=create-form] h2").startswith(new_match)
    mid = create_match(page, server, "arena")
    expected = {"fr": "En attente", "nl": "Wachten", "ru": "Ждём", "en": "Waiting"}[lang]
    page.wait_for_selector("[data-testid=turn-indicator]")
    assert expected in page.inner_text("[data-testid=turn-indicator]")
    assert re.search(r"\d", page.inner_text("[data-testid=version]"))
    assert mid
    assert errors_of(page) == []
