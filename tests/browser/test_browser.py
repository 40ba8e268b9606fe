"""Browser tests (Playwright + Debian chromium) of the games whose renderers are not on the new renderer interface
yet (tremble, worlds, fullmetal): their pages load and are playable through the list of legal actions (opened for
them, folded for the others), private panels stay private, long legal lists arrive as a selection; plus language
switching. The arena, on the new interface, is played by board gestures in test_arena_fullgame.py.
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

from .pages import errors_of, goto, open_page, seat_of, seat_state, version, wait_synced, wait_version_change

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


def play_to_the_end(page: Page, seed: int, limit: int = 400) -> int:
    rng = Rng.from_seed(seed)
    for moves in range(limit):
        page.wait_for_function(LEGACY_READY, timeout=120_000)
        if page.locator("[data-testid=result]").count():
            return moves
        click_action(page, rng)
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------------------------------ tremble
def _pairs(view: Any) -> dict[str, str]:
    """Cards in a view: every object with an ``id`` and a ``name``."""
    out: dict[str, str] = {}
    if isinstance(view, dict):
        if isinstance(view.get("id"), str) and isinstance(view.get("name"), str):
            out[view["id"]] = view["name"]
        for v in view.values():
            out.update(_pairs(v))
    elif isinstance(view, list):
        for v in view:
            out.update(_pairs(v))
    return out


def check_private(server: str, mid: str, pages: list[Page]) -> int:
    """Each page shows its seat's private cards and nothing private to another seat. Returns #private cards checked."""
    snaps = []
    for p in pages:
        seat, token = seat_of(p)
        snaps.append(seat_state(server, mid, seat, token))
    for p, snap in zip(pages, snaps, strict=True):
        wait_synced(p, snap["version"])
    texts = [json.dumps(s["view"], ensure_ascii=False) + json.dumps(s["legal"], ensure_ascii=False) for s in snaps]
    checked = 0
    for i, p in enumerate(pages):
        html = p.content()
        board = p.inner_text("[data-testid=board]") + p.inner_text("[data-testid=legal-actions]")
        for j, other in enumerate(snaps):
            if j == i:
                continue
            for cid, name in _pairs(other["view"]).items():
                if cid in texts[i]:
                    continue  # public, or also known to seat i
                checked += 1
                assert cid not in html, f"seat {i}'s page shows card {cid} private to seat {j}"
                if name not in texts[i]:
                    assert name not in html, f"seat {i}'s page shows {name!r}, private to seat {j}"
        for cid, name in _pairs(snaps[i]["view"]).items():
            if all(cid not in texts[j] for j in range(len(pages)) if j != i):
                assert cid in board or name in board, f"seat {i}'s own private card {cid} is not shown"
    return checked


def test_tremble_three_seats_each_sees_only_its_own_hand_and_plan(server: str, browser: Browser) -> None:
    """Three browser contexts on one tremble match: each shows its own hand and plan, never another's (TH IM-1..IM-3)."""
    host = open_page(browser)
    mid = create_match(host, server, "tremble", players=3)
    pages = [host]
    for seat in (1, 2):
        p = open_page(browser)
        goto(p, f"{server}/match/{mid}")
        p.fill("[data-testid=join-name]", f"Guest {seat}")
        p.click(f"[data-testid=join-seat-{seat}]")
        p.wait_for_selector(f"[data-testid=match-page][data-seat='{seat}']")
        pages.append(p)
    for p in pages:
        p.wait_for_selector("[data-testid=match-status][data-status=running]")
    checked = check_private(server, mid, pages)
    # correspondence: the host leaves, finds the match marked "your turn" in the lobby and comes back
    link = host.url
    goto(host, server + "/")
    row = host.locator(f"[data-testid=list-yours] [data-match='{mid}']")
    row.locator("[data-testid=your-turn]").wait_for()
    row.locator("[data-testid=resume]").click()
    host.wait_for_selector("[data-testid=match-page][data-seat='0']")
    assert seat_of(host) == seat_of_url(link)
    rng = Rng.from_seed(3)
    # buy phase: seat 0 commits first; the others must see only "committed"
    bought = click_action(pages[0], rng, prefer="last")
    secret_cards = re.findall(r"[\w-]+#\d+", json.dumps(bought))
    assert secret_cards, bought
    for p in pages[1:]:
        wait_synced(p, 1)
        entries = p.locator("[data-testid=move-log] [data-testid=log-entry]")
        assert entries.count() == 1
        assert not any(c in entries.first.inner_text() for c in secret_cards)
    checked += check_private(server, mid, pages)
    for p in pages[1:]:
        click_action(p, rng, prefer="last")
    # plan phase: seat 0 commits a plan, then the others
    for p in pages:
        p.wait_for_function(LEGACY_READY)
    click_action(pages[0], rng, prefer="last")
    checked += check_private(server, mid, pages)
    own = seat_state(server, mid, 0, seat_of(pages[0])[1])
    assert own["view"]["sealed"]["own"] is not None  # seat 0 sees its own sealed plan ...
    for p in pages[1:]:
        seat, token = seat_of(p)
        other = seat_state(server, mid, seat, token)
        assert other["view"]["sealed"]["own"] is None  # ... the others only that it committed
        assert json.dumps(own["view"]["sealed"]["own"]) not in p.content()
    for p in pages[1:]:
        click_action(p, rng, prefer="first")
    checked += check_private(server, mid, pages)
    assert checked > 0
    for p in pages:
        assert errors_of(p) == []


# ------------------------------------------------------------------------------------------ worlds
def test_worlds_skirmish_against_the_ai(server: str, browser: Browser) -> None:
    """A worlds skirmish against the AI, played through the action list to its result."""
    page = open_page(browser)
    games = httpx.get(server + "/api/lobby").json()
    worlds = next(g for g in games if g["id"] == "worlds")
    default = next(a["name"] for a in worlds["agents"] if a["default"])
    mid = create_match(page, server, "worlds", mode="computer", level=default)
    # the renderer module loads asynchronously: wait for it instead of reading the attribute at once
    page.wait_for_selector("[data-testid=match-page][data-renderer=legacy]")
    moves = play_to_the_end(page, seed=2)
    assert moves > 0
    summary = httpx.get(f"{server}/api/matches/{mid}").json()
    assert summary["status"] == "finished"
    assert page.locator("[data-testid=score-0]").count() == 1
    assert errors_of(page) == []


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


# ------------------------------------------------------------------------------------------ long legal lists
def test_long_legal_list_is_shown_as_a_selection(server: str, browser: Browser) -> None:
    """SRV-L1 in the page: a tremble plan decision with thousands of legal plans reaches the seat as a bounded
    selection; the page says how many exist, renders, and a selected action can be played."""
    r = httpx.post(f"{server}/api/matches", json={"game": "tremble", "config": {}, "seed": 1, "open_seed": True,
                                                          "join_seat": 0})
    assert r.status_code == 201, r.text
    mid, n = r.json()["match"]["id"], len(r.json()["match"]["seats"])
    tokens = [r.json()["token"]] + [
        httpx.post(f"{server}/api/matches/{mid}/seats/{s}/join", json={}).json()["token"] for s in range(1, n)]
    pick = Rng.from_seed(3)
    big: tuple[int, dict[str, Any]] | None = None
    for _ in range(300):
        snaps = [seat_state(server, mid, s, tokens[s]) for s in range(n)]
        to_act = snaps[0]["to_act"]
        assert to_act, "the match ended before a long legal list"
        big = next(((s, snaps[s]) for s in to_act if not snaps[s]["legal_complete"]), None)
        if big:
            break
        seat = to_act[0]
        legal = snaps[seat]["legal"]
        action = legal[pick.randbelow(len(legal))]
        body = {"seat": seat, "token": tokens[seat], "version": snaps[seat]["version"], "action": action}
        assert httpx.post(f"{server}/api/matches/{mid}/actions", json=body).status_code == 200
    assert big is not None, "no decision with a partial legal list in 300 steps"
    seat, snap = big
    page = open_page(browser)
    goto(page, f"{server}/match/{mid}?seat={seat}&token={tokens[seat]}")  # the server's seat links use the query
    note = page.wait_for_selector("[data-testid=legal-partial]")
    assert note is not None and note.get_attribute("data-count") == str(snap["legal_count"])
    assert str(snap["legal_count"]) in note.inner_text()
    assert page.locator("[data-testid=legal-actions] [data-action]").count() == len(snap["legal"])
    before = version(page)
    page.locator("[data-testid=legal-actions] [data-action]").first.click()
    page.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'")
    assert not errors_of(page), errors_of(page)


def seat_of_url(url: str) -> tuple[int, str]:
    frag = urlparse(url).fragment or urlparse(url).query
    q = dict(p.split("=", 1) for p in frag.split("&"))
    return int(q["seat"]), httpx.URL("?t=" + q["token"]).params["t"]
