"""Every action a board offers can be reached by taps, in all five games: at positions reached by seeded random play
through the API (every seat a person, so nothing moves by itself), each place the game's renderer names for a legal
action (``renderer.places``, what the frame marks) is drawn on the page. A place picked first (a unit, a card, an
item in a hold) is tapped (Enter on it, the keyboard's tap), and every place it leads to must then be drawn and marked
as a target; a place tapped directly must be drawn and marked at once (laid out, not hidden: on a desktop for the
first seat, on a phone for the second). Nothing is played. This found Full Metal's transfer of an item back into
the ship (or onto a barge): its target, the hold itself, had nothing to tap."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.rng import Rng

from .pages import HTTP, PHONE, errors_of, goto, open_page, seat_url, wait_synced

pytestmark = [pytest.mark.browser, pytest.mark.boards, pytest.mark.timeout(600)]

#: game: (config, seed, positions to check, random actions played between two checks)
CASES: dict[str, tuple[dict[str, Any], int, int, int]] = {
    "arena": ({}, 5, 3, 9),
    "fullmetal": ({"map": "generated", "map_size": "small"}, 4, 4, 11),
    "galaxies": ({}, 6, 4, 7),
    "tremble": ({}, 7, 2, 6),
    "worlds": ({}, 8, 3, 1),
}
#: Sources tapped at most per position (the rarest kinds of action first).
PER_POSITION = 14
SKIP = {"resign", "offer_draw", "accept_draw", "decline_draw"}

SPOTS = """async ({game, view, legal}) => {
  const r = (await import(`/static/games/${game}.js`)).default;
  const out = [];
  legal.forEach((a) => {
    const p = r.places ? r.places(a, view, {}) : null;
    for (const q of Array.isArray(p) ? p : [p]) {
      if (q && q.to !== null && q.to !== undefined) out.push({ from: q.from ?? null, to: q.to, type: a.type });
    }
  });
  return out;
}"""


class Table:
    """A match where every seat is a person played through the API."""

    def __init__(self, server: str, game: str, config: dict[str, Any], seed: int) -> None:
        body = {"game": game, "config": config, "join_seat": 0, "player_name": "P0", "seed": seed, "open_seed": True}
        r = HTTP.post(f"{server}/api/matches", json=body, timeout=120)
        assert r.status_code == 201, r.text
        self.server, self.game, self.id = server, game, r.json()["match"]["id"]
        self.tokens = {0: r.json()["token"]}
        for seat in range(1, len(r.json()["match"]["seats"])):
            j = HTTP.post(f"{server}/api/matches/{self.id}/seats/{seat}/join", json={"name": f"P{seat}"})
            assert j.status_code == 200, j.text
            self.tokens[seat] = j.json()["token"]

    def state(self, seat: int) -> dict[str, Any]:
        r = HTTP.get(f"{self.server}/api/matches/{self.id}/state", params={"seat": seat},
                      headers={"X-Seat-Token": self.tokens[seat]})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def play_random(self, rng: Rng) -> bool:
        """One random legal action of a seat to act; False once the game is over."""
        st = self.state(0)
        if st.get("outcome") or not st["to_act"]:
            return False
        seat = st["to_act"][rng.randbelow(len(st["to_act"]))]
        snap = self.state(seat)
        legal = [a for a in snap["legal"] if a["type"] not in SKIP]
        if not legal:
            return False
        a = legal[rng.randbelow(len(legal))]
        r = HTTP.post(f"{self.server}/api/matches/{self.id}/actions",
                       json={"seat": seat, "token": self.tokens[seat], "version": snap["version"], "action": a})
        assert r.status_code == 200, r.text
        return True


def sel(place: str, cls: str = "") -> str:
    return f"[data-testid=match-page] [data-place={json.dumps(place)}]{cls}"


def drawn(page: Page, place: str, cls: str) -> bool:
    """Whether an element for ``place`` with class ``cls`` is laid out on the page (not hidden, not of zero size)."""
    return bool(page.evaluate("""(s) => [...document.querySelectorAll(s)].some((e) => e.getClientRects().length > 0
      && getComputedStyle(e).visibility !== 'hidden')""", sel(place, cls)))


def spots_of(page: Page, game: str, snap: dict[str, Any]) -> list[dict[str, Any]]:
    """Where the page's renderer picks each legal action of ``snap`` (computed from the snapshot, so a page that is
    not yet showing that position can tell)."""
    return list(page.evaluate(SPOTS, {"game": game, "view": snap["view"], "legal": snap["legal"]}))


def check_position(page: Page, game: str, spots: list[dict[str, Any]]) -> int:
    """Tap through what the position offers (``spots``, shown on ``page``); returns how many places were checked."""
    direct = {s["to"] for s in spots if s["from"] is None}
    by_source: dict[str, set[str]] = {}
    kinds: dict[str, set[str]] = {}
    for s in spots:
        if s["from"] is not None:
            by_source.setdefault(s["from"], set()).add(s["to"])
            kinds.setdefault(s["from"], set()).add(s["type"])
    for to in sorted(direct):
        assert drawn(page, to, ".is-target"), f"{game}: {to} (tapped directly) is not drawn as a target"
    rarity = Counter(t for ks in kinds.values() for t in ks)
    order = sorted((s for s in by_source if s not in direct), key=lambda s: (min(rarity[t] for t in kinds[s]), s))
    checked = len(direct)
    for src in order[:PER_POSITION]:
        assert drawn(page, src, ".is-source"), f"{game}: {src} (picked first, for {sorted(kinds[src])}) is not drawn"
        # the keyboard's tap; a piece drawn over its cell is the last of the two
        page.locator(sel(src, ".is-source")).last.press("Enter")
        page.wait_for_selector(sel(src, ".is-selected"))
        missing = [to for to in sorted(by_source[src]) if not drawn(page, to, ".is-target")]
        assert not missing, f"{game}: from {src} ({sorted(kinds[src])}) nothing to tap at {missing}"
        checked += len(by_source[src])
        page.locator(sel(src, ".is-selected")).last.press("Enter")  # let go
        page.wait_for_function("() => !document.querySelector('[data-testid=match-page] .is-selected')")
    return checked


@pytest.mark.parametrize("game", sorted(CASES))
def test_every_offered_place_can_be_tapped(server: str, browser: Browser, game: str) -> None:
    config, seed, positions, gap = CASES[game]
    rng = Rng.from_seed(seed)
    opened: list[Page] = []
    done = checked = tables = 0
    while done < positions and tables < 4:  # a game over early (Worlds & Suns: one battle) is followed by another
        table = Table(server, game, config, seed + tables)
        tables += 1
        pages: dict[int, Page] = {}
        for _ in range(40):
            st = table.state(0)
            if st.get("outcome") or not st["to_act"]:
                break
            seat = st["to_act"][0]
            snap = table.state(seat)
            if seat not in pages:
                pages[seat] = open_page(browser, PHONE if seat % 2 else None)  # both layouts, at no extra cost
                opened.append(pages[seat])
                goto(pages[seat], seat_url(server, table.id, seat, table.tokens[seat]))
            page = pages[seat]
            spots = spots_of(page, game, snap)
            if spots:  # a position with nothing to tap (a shop, a plan, a composer) is played on at once
                page.wait_for_selector("[data-testid=version]")
                wait_synced(page, snap["version"])
                page.wait_for_selector("[data-testid=board]")
                checked += check_position(page, game, spots)
                assert table.state(seat)["version"] == snap["version"], "a tap played something"
                done += 1
            if done >= positions:
                break
            for _ in range(gap):
                if not table.play_random(rng):
                    break
    assert done >= positions, f"{game}: only {done} positions offered places to tap ({checked} places)"
    for page in opened:
        assert errors_of(page) == []
