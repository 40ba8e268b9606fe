"""The arena web renderer (spacetable/web/static/games/arena.js) in Debian chromium: it draws the
view, offers the legal moves by clicks (a bonus choice after a triggering move, AR-8.6), placement by
clicks (AR-2.7) and the result (AR-10.5), without page errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacetable.games.arena import GAME

from ..chromium import require_chromium
from .arena_helpers import make

JS = Path(__file__).resolve().parents[2] / "spacetable" / "web" / "static" / "games" / "arena.js"

pytestmark = [pytest.mark.browser]

RENDER = """([view, legal]) => { window.ctx = {seat: 0, legal, send: (a) => window.sent.push(a), t: (k, f) => f, lang: 'en'};
  window.R.render(document.getElementById('root'), view, window.ctx); }"""


def test_renderer_clicks_send_legal_actions() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=require_chromium(), args=["--no-sandbox", "--disable-gpu"])
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


def test_renderer_composes_any_sealed_layout() -> None:
    """AR-2.7 simultaneous placement in the browser: besides the two listed suggestions, the seat composes
    its own layout (ship, then home cell), can move a ship again, and seals it once all 8 stand; the engine
    accepts the result."""
    from playwright.sync_api import sync_playwright

    st = GAME.initial_state(GAME.normalize_config({"setup": "free", "placement": "simultaneous", "red_seat": 0}), 1)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=require_chromium(), args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_content("<div id=root></div><script>window.sent=[];"
                         "window.Spacetable={registerRenderer:(id,r)=>{window.R=r;window.RID=id}};</script>")
        page.add_script_tag(content=JS.read_text(encoding="utf-8"))
        page.evaluate(RENDER, [GAME.view(st, 0), GAME.legal_actions(st, 0)])
        assert page.locator("[data-arena-send-layout]").is_disabled()
        assert "Both sides seal a layout" in page.inner_text("#root")  # nobody is "to move" while sealing
        cells = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"]
        codes = ["222", "111", "112", "121", "122", "211", "212", "221"]
        page.click("[data-draft-ship='222']")
        page.click("rect[data-cell=d2]")
        assert page.locator("[data-draft='222']").count() == 1
        for code, cell in zip(codes, cells, strict=True):  # 222 moves from d2 to a1
            page.click(f"[data-draft-ship='{code}']")
            page.click(f"rect[data-cell={cell}]")
        assert page.locator("[data-draft]").count() == 8
        page.click("[data-arena-send-layout]")
        sent = page.evaluate("window.sent")[-1]
        assert sent == {"type": "layout", "cells": dict(zip(cells, codes, strict=True))}
        after = GAME.apply(st, 0, sent)
        assert after.sealed is not None and GAME.to_act(after) == (1,)
        browser.close()
        assert errors == []


def test_renderer_inside_the_real_server_page(tmp_path) -> None:
    """The renderer in the served match page (spacetable/web + server app): an arena match against the
    random AI is created through the HTTP API, the seat clicks a ship and a destination, the server accepts
    the move (AR-4) and the AI replies; no page errors."""
    import json
    import socket
    import threading
    import time
    import urllib.request

    import uvicorn
    from playwright.sync_api import sync_playwright

    from spacetable.server.app import create_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = create_app(f"sqlite:///{tmp_path / 'arena.db'}", ai_workers=0)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        body = {"game": "arena", "config": {"red_seat": 0}, "seed": 4, "open_seed": True, "ai_seats": {"1": "random"},
                "ai_seconds": 0.05, "join_seat": 0}
        req = urllib.request.Request(base + "/api/matches", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        created = json.loads(urllib.request.urlopen(req, timeout=10).read())
        match_id = created["match"]["id"]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=require_chromium(), args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(base + created["link"])
            page.wait_for_selector("svg.arena-board", timeout=15000)
            assert page.locator("[data-ship]").count() == 16
            page.click("g[data-cell=b2]")
            assert page.locator("[data-target]").count() == 4  # 222 on b2: b3, b4, a3, c3 (AR-4.2)
            page.click("rect[data-cell=b4]")
            info: dict = {}
            for _ in range(100):
                info = json.loads(urllib.request.urlopen(f"{base}/api/matches/{match_id}", timeout=10).read())
                if info["version"] >= 2:
                    break
                time.sleep(0.1)
            assert info["version"] >= 2 and info["to_act"] == [0]  # our move and the AI's reply
            page.wait_for_selector("g[data-cell=b4]", timeout=10000)
            browser.close()
            assert errors == []
    finally:
        server.should_exit = True
        thread.join(timeout=10)
