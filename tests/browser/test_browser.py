"""Browser tests (Playwright + Debian chromium) of the frame: language switching. Every game is on the new renderer
interface and played by board gestures: the arena, tremble, worlds and Full Metal Planète in test_arena_fullgame.py,
test_tremble_fullgame.py, test_worlds_fullgame.py and test_fullmetal_fullgame.py; tremble's private panels and long
legal lists in test_tremble_pages.py, Full Metal's gestures in test_fullmetal_page.py.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, Page

from .pages import errors_of, goto, open_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


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


# ------------------------------------------------------------------------------------------ i18n
LANGS = [("fr", "Nouvelle partie", "Salon"), ("nl", "Nieuwe partij", "Lobby"), ("en", "New game", "Lobby"),
         ("ru", "Новая партия", "Лобби")]


def test_language_switching(server: str, browser: Browser) -> None:
    """The interface language is chosen by the user, applies at once, on every page, and is remembered (each of the
    four in turn, in one browser); the match page gets the server's texts (refusals) in that language too (Russian,
    the last one chosen; every language's texts are checked on the catalogues in test_i18n.py)."""
    page = open_page(browser)
    goto(page, server + "/")
    for lang, new_match, lobby in LANGS:
        page.select_option("[data-testid=lang-select]", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        assert page.inner_text("[data-testid=create-form] h2").startswith(new_match), lang
        assert page.inner_text("[data-testid=nav-lobby]") == lobby, lang
        goto(page, server + "/")  # remembered across visits
        assert page.input_value("[data-testid=lang-select]") == lang
        assert page.inner_text("[data-testid=create-form] h2").startswith(new_match), lang
    mid = create_match(page, server, "arena")
    page.wait_for_selector("[data-testid=turn-indicator]")
    assert "Ждём" in page.inner_text("[data-testid=turn-indicator]")
    assert re.search(r"\d", page.inner_text("[data-testid=version]"))
    assert mid
    assert errors_of(page) == []
