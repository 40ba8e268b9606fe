"""Issue 23, round 2, in Debian chromium with real pointer events: a Battleship Galaxies ship's path dragged through
hexes (the drawn path follows the pointer, a refused step is marked on its hex, letting go moves the ship by exactly
the path drawn)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .pages import errors_of, goto, open_page, seat_state, seat_url, version, wait_version_change
from .test_accessibility import serious
from .test_boards import by_type, galaxies_until, last_action, ready

pytestmark = [pytest.mark.browser, pytest.mark.boards, pytest.mark.timeout(600)]

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def step(h: list[int], d: int) -> list[int]:
    return [h[0] + DIRS[d][0], h[1] + DIRS[d][1]]


def expand(runs: list[list[int]]) -> set[tuple[int, int]]:
    return {(q, r) for r, q0, q1 in runs for q in range(q0, q1 + 1)}


def centre(page: Page, h: list[int]) -> tuple[float, float]:
    box = page.locator(f"[data-testid=board] .cell[data-place='h:{h[0]},{h[1]}']").bounding_box()
    assert box, h
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def detour(st: dict[str, Any]) -> tuple[str, list[int], list[int], list[int]] | None:
    """A small ship of the activation with an end two steps away that it can reach by a path other than the listed
    (least-ECM) one: (ship, its hex, the other path, a hex beyond its move points)."""
    view = st["view"]
    full = expand(view["board"]["full"])
    bad = {tuple(h) for h in view["board"]["obstacles"]["asteroid"]} | {tuple(h) for h in view["board"]["obstacles"]["debris"]}
    occupied = {tuple(h) for c in view["cards"] for p in c["ships"] if p["alive"] for h in p["hexes"]}
    movable = {a["ship"] for a in by_type(st).get("move", [])}
    for c in view["cards"]:
        if c["size"] != "small":
            continue
        for p in c["ships"]:
            if p["id"] not in movable or not p["hexes"] or p.get("move", 0) < 2:
                continue
            start = p["hexes"][0]
            for r in view["activation"]["ships"].get(p["id"], {}).get("reachable", []):
                path = r["path"]
                if len(path) != 2 or path[0] == path[1] or r["cost"] != 2:
                    continue
                other = [path[1], path[0]]
                mid = step(start, other[0])
                if tuple(mid) not in full or tuple(mid) in bad:
                    continue
                far = start
                for _ in range(p["move"] + 1):  # straight on, past the move points, while on the board
                    nxt = step(far, other[0])
                    if tuple(nxt) not in full:
                        break
                    far = nxt
                if far == start or tuple(far) in occupied:
                    continue
                return p["id"], start, other, far
    return None


def test_galaxies_path_dragged_through_hexes(server: str, browser: Browser) -> None:
    found: dict[str, Any] = {}

    def stop(st: dict[str, Any]) -> bool:
        if "move" not in by_type(st):
            return False
        got = detour(st)
        if got:
            found["it"] = got
        return got is not None

    mid, seat, token = galaxies_until(server, stop, True)
    ship, start, path, far = found["it"]
    page = open_page(browser)
    goto(page, seat_url(server, mid, seat, token))
    ready(page)
    first = step(start, path[0])
    end = step(first, path[1])
    page.mouse.move(*centre(page, start))
    page.mouse.down()
    page.mouse.move(*centre(page, first), steps=8)
    drawn = page.locator("[data-testid=gx-drag-path]")
    drawn.wait_for()
    assert drawn.get_attribute("data-path") == str(path[0])  # the path follows the pointer, hex by hex
    # past the ship's move points (or onto rock or the edge): the step is refused on its hex, with the reason
    page.mouse.move(*centre(page, far), steps=12)
    refused = page.locator("[data-testid=gx-drag-refused]")
    refused.wait_for()
    assert refused.get_attribute("data-why") in ("points", "asteroid", "edge")
    assert (refused.text_content() or "").strip()  # the reason, written by the hex
    # back to the first hex (the path shrinks back to it), then on to the end
    page.mouse.move(*centre(page, first), steps=12)
    page.wait_for_function("() => document.querySelector('[data-testid=gx-drag-path]').dataset.steps === '1'")
    assert refused.count() == 0
    page.mouse.move(*centre(page, end), steps=8)
    page.wait_for_function("() => document.querySelector('[data-testid=gx-drag-path]').dataset.steps === '2'")
    assert serious(page) == [], "a path being dragged"
    before = version(page)
    page.mouse.up()
    wait_version_change(page, before)
    a = last_action(server, mid, seat, token)
    assert a["type"] == "move" and a["ship"] == ship
    assert a["path"] == path  # exactly the path drawn, not the listed least-ECM one
    piece = next(p for c in seat_state(server, mid, seat, token)["view"]["cards"] for p in c["ships"] if p["id"] == ship)
    assert not piece["alive"] or piece["hexes"] in ([end], [first])  # ECM may stop it on the way (BG-11.4)
    assert errors_of(page) == []
