"""The arena web renderer (spacetable/web/static/games/arena.js) in Debian chromium: it draws the
view, offers the legal moves by clicks (a bonus choice after a triggering move, AR-8.6), placement by
clicks (AR-2.7) and the result (AR-10.5), without page errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spacetable.games.arena import GAME

from .arena_helpers import make

CHROMIUM = "/usr/bin/chromium"
JS = Path(__file__).resolve().parents[2] / "spacetable" / "web" / "static" / "games" / "arena.js"

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian chromium")]

RENDER = """([view, legal]) => { window.ctx = {seat: 0, legal, send: (a) => window.sent.push(a), t: (k, f) => f, lang: 'en'};
  window.R.render(document.getElementById('root'), view, window.ctx); }"""


def test_renderer_clicks_send_legal_actions() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_content("<div id=root></div><script>window.sent=[];"
                         "window.Spacetable={registerRenderer:(id,r)=>{window.R=r;window.RID=id}};</script>")
        page.add_script_tag(content=JS.read_text(encoding="utf-8"))
        assert page.evaluate("window.RID") == "arena"
        st = make("6x4 111a1,212b5,121c3,122d2,221a3 111d6 r 0 -")
        page.evaluate(RENDER, [GAME.view(st, 0), GAME.legal_actions(st, 0)])
        assert page.locator("[data-ship]").count() == 6
        page.click("g[data-cell=b5]")
        assert page.locator("[data-target]").count() == 10  # b5 has 10 destinations (AR-A12)
        page.click("rect[data-cell=b6]")
        assert page.locator(".arena-bonus button").all_inner_texts() == ["no bonus", "P121", "RD+", "RD-"]
        page.click(".arena-bonus button >> nth=2")
        assert page.evaluate("window.sent")[-1] == {"type": "move", "from": "b5", "to": "b6",
                                                    "bonus": {"type": "rotate", "cls": "D", "dir": "+"}}
        page.click("[data-arena-action=P112]")
        assert page.evaluate("window.sent")[-1] == {"type": "permute", "pair": "P112"}
        free = GAME.initial_state(GAME.normalize_config({"setup": "free", "red_seat": 0}), 1)
        page.evaluate(RENDER, [GAME.view(free, 0), GAME.legal_actions(free, 0)])
        page.click("[data-ship-choice='212']")
        page.click("rect[data-cell=d2]")
        assert page.evaluate("window.sent")[-1] == {"type": "place", "ship": "212", "cell": "d2"}
        over = make("6x4 111a1 112a2,122b1,111d6 r 0 -")
        page.evaluate(RENDER, [GAME.view(over, 1), []])
        assert page.inner_text("[data-testid=arena-result]") == "Blue wins 1–0 (no_action)"
        assert page.evaluate("window.R.actionText({type:'move',from:'c5',to:'c6',bonus:{type:'permute',pair:'P112'}})") \
            == "c5-c6/P112"
        browser.close()
        assert errors == []
