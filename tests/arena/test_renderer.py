"""The arena renderer (spacetable/web/static/games/arena.js, on the renderer interface of docs/architecture.md "Web
client") in Debian chromium: which board places stand for which legal actions (moves AR-4, captures AR-5, placement
AR-2.7), what a refused tap would have meant, the offer attached to a move (AR-10.4), the drafted secret layout
(AR-2.7), the last move's places, and the drawing of the board, tray, composer and status from engine views.
The files are served to the page from the package (no server); the full game in the real page is
tests/browser/test_arena_fullgame.py."""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacetable.games.arena import GAME

from ..chromium import ARGS, require_chromium
from .arena_helpers import make

STATIC = Path(__file__).resolve().parents[2] / "spacetable" / "web" / "static"
ORIGIN = "http://renderer.test"

pytestmark = [pytest.mark.browser]

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports": {"preact": "/static/vendor/preact.js", "preact/hooks": "/static/vendor/preact-hooks.js",
 "htm": "/static/vendor/htm.js"}}</script>
<link rel="stylesheet" href="/static/style.css">
<script type="module">
import { h, render } from "preact";
import R from "/static/games/arena.js";
window.R = R;
window.sent = [];
window.ui = {};
window.draw = (name, view, legal, hl) => {
  const props = { view, seat: 0, you: 0, legal, legalText: legal.map((a) => JSON.stringify(a)), ui: window.ui,
    setUi: (p) => { window.ui = { ...window.ui, ...p }; }, play: (a) => window.sent.push(a),
    t: (k, v) => k + (v ? JSON.stringify(v) : ""), seatName: (i) => "seat" + i, interactive: true,
    hl: { selected: hl.selected ?? null, sources: new Set(hl.sources || []), targets: new Map(Object.entries(hl.targets || {})),
      last: new Set(hl.last || []), hover: new Set(hl.hover || []), interactive: true } };
  render(h(R[name], props), document.getElementById("root"));
};
window.ready = true;
</script></head><body><div id="root"></div></body></html>"""


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import Route, sync_playwright

    def serve(route: Route) -> None:
        path = route.request.url[len(ORIGIN):].split("?")[0]
        if path == "/test.html":
            route.fulfill(body=PAGE, content_type="text/html")
            return
        file = (STATIC / path[len("/static/"):]).resolve()
        if not path.startswith("/static/") or STATIC not in file.parents or not file.is_file():
            route.fulfill(status=404, body="")
            return
        kind = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        route.fulfill(body=file.read_bytes(), content_type=kind)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=require_chromium(), args=ARGS)
        pg = browser.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.route(ORIGIN + "/**", serve)
        pg.goto(ORIGIN + "/test.html")
        pg.wait_for_function("window.ready === true")
        pg.errors = errors
        yield pg
        assert errors == []
        browser.close()


def call(page: Any, fn: str, *args: Any) -> Any:
    return page.evaluate(f"(args) => window.R.{fn}(...args)", list(args))


@pytest.mark.rule("AR-4.1", "AR-4.2", "AR-5.2", "AR-8.6")
def test_places_of_moves_and_captures(page: Any) -> None:
    st = make("6x4 111a1,212b5,121c3,122d2,221a3 111d6 r 0 -")
    view, legal = GAME.view(st, 0), GAME.legal_actions(st, 0)
    spots = [call(page, "places", a, view) for a in legal]
    moves = [(a, s) for a, s in zip(legal, spots, strict=True) if a["type"] == "move"]
    assert all(s["from"] == a["from"] and s["to"] == a["to"] for a, s in moves)
    assert len({s["to"] for a, s in moves if a["from"] == "b5"}) == 10  # b5 has 10 destinations (AR-A12)
    # a cell reached with and without a bonus teleport: several actions on one place, the frame's menu
    b6 = [a for a, s in moves if a["from"] == "b5" and a["to"] == "b6"]
    assert len(b6) == 4 and {json.dumps(a["bonus"]) for a in b6} >= {"null"}
    # teleports are composer controls, not board places
    assert all(s is None for a, s in zip(legal, spots, strict=True) if a["type"] in ("permute", "rotate"))
    cap = make("6x4 221b3,111a1 112b4,111d6 r 0 -")
    spot = call(page, "places", {"type": "move", "from": "b3", "to": "b4", "bonus": None}, GAME.view(cap, 0))
    assert spot["kind"] == "capture"


@pytest.mark.rule("AR-2.7", "AR-10.4")
def test_placement_offer_and_refusal_guesses(page: Any) -> None:
    free = GAME.initial_state(GAME.normalize_config({"setup": "free", "red_seat": 0}), 1)
    view = GAME.view(free, 0)
    place = {"type": "place", "ship": "212", "cell": "d2"}
    assert call(page, "places", place, view) == {"from": "tray:212", "to": "d2", "kind": "place"}
    assert call(page, "guess", "tray:212", "d5") == {"type": "place", "ship": "212", "cell": "d5"}
    assert call(page, "guess", "b3", "b5") == {"type": "move", "from": "b3", "to": "b5", "bonus": None}
    assert call(page, "guess", None, "b5") is None
    move = {"type": "move", "from": "a2", "to": "a3", "bonus": None}
    assert call(page, "finalize", move, view, {"offer": True}) == {**move, "offer_end": True}
    assert call(page, "finalize", move, view, {}) == move
    # the offer is what the engine accepts
    st = GAME.initial_state(GAME.normalize_config({"red_seat": 0}), 1)
    after = GAME.apply(st, 0, call(page, "finalize", move, GAME.view(st, 0), {"offer": True}))
    assert GAME.view(after, 1)["offer"] == "red"


@pytest.mark.rule("AR-2.7")
def test_secret_layout_is_drafted_by_taps(page: Any) -> None:
    st = GAME.initial_state(GAME.normalize_config({"setup": "free", "placement": "simultaneous", "red_seat": 0}), 1)
    view, legal = GAME.view(st, 0), GAME.legal_actions(st, 0)
    page.evaluate("window.ui = {}")
    tap = """([place, view, legal]) => window.R.onPlace(place, {view, legal, ui: window.ui, enabled: true,
      setUi: (p) => { window.ui = {...window.ui, ...p}; }})"""
    assert page.evaluate(tap, ["tray:222", view, legal]) is True
    assert page.evaluate(tap, ["d5", view, legal]) is False  # not a home cell of Red
    cells = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"]
    codes = ["222", "111", "112", "121", "122", "211", "212", "221"]
    for code, cell in zip(codes, cells, strict=True):
        page.evaluate(tap, ["tray:" + code, view, legal])
        assert page.evaluate(tap, [cell, view, legal]) is True
    draft = page.evaluate("window.ui.draft")
    assert draft == dict(zip(cells, codes, strict=True))
    after = GAME.apply(st, 0, {"type": "layout", "cells": draft})  # the engine accepts the drafted layout
    assert after.sealed is not None and GAME.to_act(after) == (1,)
    # tapping a drafted ship picks it up again
    page.evaluate(tap, ["a1", view, legal])
    assert page.evaluate("window.ui.pick") == "222" and "a1" not in page.evaluate("window.ui.draft")


def test_last_move_places(page: Any) -> None:
    st = GAME.initial_state(GAME.normalize_config({"red_seat": 0}), 1)
    view = GAME.view(st, 0)
    entry = {"seat": 0, "action": {"type": "move", "from": "a2", "to": "a3", "bonus": None}}
    assert call(page, "lastPlaces", entry, view) == ["a2", "a3"]
    swap = {"seat": 0, "action": {"type": "permute", "pair": "P112"}}
    assert sorted(call(page, "lastPlaces", swap, view)) == sorted(s["cell"] for s in view["ships"]
                                                                    if s["colour"] == "red" and s["code"] in ("112", "221"))


def test_drawing_from_engine_views(page: Any) -> None:
    st = make("6x4 111a1,212b5,121c3,122d2,221a3 111d6 r 0 -")
    view, legal = GAME.view(st, 0), GAME.legal_actions(st, 0)
    page.evaluate("([v, l]) => window.draw('Board', v, l, {selected: 'b5', sources: ['b5', 'a3'], targets: {b6: {kind: 'move'}, "
                  "d6: {kind: 'capture'}}, last: ['c3']})", [view, legal])
    assert page.locator(".ship").count() == 6
    assert page.locator(".cell.is-selected[data-place=b5]").count() == 1
    assert page.locator(".cell.is-target").count() == 2 and page.locator(".target-mark.capture").count() == 1
    assert page.locator(".cell.is-last[data-place=c3]").count() == 1
    assert page.locator(".cell.is-source[tabindex='0'][role=button]").count() == 2  # keyboard reachable
    # teleports under the board: a tap shows the ships it moves with arrows on the board, a second tap does it
    page.evaluate("([v, l]) => window.draw('Tray', v, l, {})", [view, legal])
    chips = page.locator("[data-arena-action]")
    assert chips.count() == len([a for a in legal if a["type"] in ("permute", "rotate")])
    sent = len(page.evaluate("window.sent"))
    chips.first.click()
    assert page.evaluate("window.ui.teleport")["type"] in ("permute", "rotate")
    assert len(page.evaluate("window.sent")) == sent  # looked at, not done
    arrows = 0
    for i in range(chips.count()):  # a teleport of ships both on the board draws its arrows (a banished one has none)
        page.evaluate("([v, l]) => window.draw('Tray', v, l, {})", [view, legal])
        page.locator("[data-arena-action]").nth(i).click()
        page.evaluate("([v, l]) => window.draw('Board', v, l, {})", [view, legal])
        arrows = max(arrows, page.locator(".arena-arrow").count())
    assert arrows >= 2
    page.evaluate("([v, l]) => window.draw('Tray', v, l, {})", [view, legal])
    page.locator("[data-arena-action]").first.click()
    assert page.evaluate("window.sent")[-1]["type"] in ("permute", "rotate")
    page.evaluate("() => { window.ui = {}; }")
    page.evaluate("([v, l]) => window.draw('Status', v, l, {})", [view, legal])
    assert page.locator("[data-testid=arena-quiet]").count() == 1
    over = make("6x4 111a1 112a2,122b1,111d6 r 0 -")
    page.evaluate("([v, l]) => window.draw('Status', v, l, {})", [GAME.view(over, 1), []])
    assert "arena.result" in page.inner_text("[data-testid=arena-result]")
    free = GAME.initial_state(GAME.normalize_config({"setup": "free", "red_seat": 0}), 1)
    page.evaluate("([v, l]) => window.draw('Tray', v, l, {sources: ['tray:111']})",
                  [GAME.view(free, 0), GAME.legal_actions(free, 0)])
    assert page.locator("[data-place='tray:111'].is-source").count() == 1
    assert page.locator("[data-colour=blue][data-place]").count() == 0  # the other side's ships are not pickable
