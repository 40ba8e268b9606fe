"""Browser client figures on loopback (Debian chromium through Playwright), printed in milliseconds, never asserted:

* **interactive**: from the start of navigation to a seat's match page showing its board with the pieces it can
  pick highlighted (everything loaded, the socket's snapshot drawn), each visit in a fresh browser context (nothing
  cached); the first visit after the server started is printed apart (the server loads the games' AI modules
  for the lobby data then); target < 1,000 ms;
* **click feedback**: from a tap on a piece to the next frame painted with its selection and targets drawn
  (measured inside the page: pointer event -> DOM updated -> requestAnimationFrame); target < 100 ms;
* **board redraw**: one full redraw of the game's board from its view (fresh DOM, then layout), and one redraw
  of the mounted board with a different selection (the frame's usual update); target < 16 ms. Renderers on the
  new interface draw their ``Board``; older renderers (``Spacetable.registerRenderer``) their ``render``.

    .venv/bin/python bench/web.py                    # arena, 20 runs each
    .venv/bin/python bench/web.py --game fullmetal   # Full Metal's board (the original 36 x 23 map)
    .venv/bin/python bench/web.py --game galaxies    # Battleship Galaxies, both fleets launched, an activation open

The server is started on 127.0.0.1 with a temporary SQLite database and stopped at the end.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

from spacetable.server.cli import wait_until_healthy

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"

#: Records when the page first shows a board with pickable places (or, for older renderers, the action list).
WATCH_READY = """
(() => {
  const done = () => {
    const m = document.querySelector('[data-testid=match-page][data-caught-up=yes]');
    if (!m) return false;
    const kind = m.dataset.renderer;
    if (kind === 'module') return !!document.querySelector('[data-testid=board] .is-source');
    return kind !== 'loading' && !!document.querySelector('[data-testid=board] .legacy-board *');
  };
  new MutationObserver((_, obs) => { if (!window.__ready && done()) { window.__ready = performance.now(); obs.disconnect(); } })
    .observe(document, {subtree: true, childList: true, attributes: true});
})();
"""

CLICK = """async ([selector, wanted]) => {
  const el = document.querySelector(selector);
  const t0 = performance.now();
  const r = el.getBoundingClientRect();
  const opts = {bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, pointerId: 1,
    pointerType: 'mouse', button: 0};
  el.dispatchEvent(new PointerEvent('pointerdown', opts));
  el.dispatchEvent(new PointerEvent('pointerup', opts));
  await new Promise((resolve) => {
    const check = () => (document.querySelectorAll('[data-testid=board] .is-selected').length > 0) === wanted;
    if (check()) return resolve();
    const obs = new MutationObserver(() => { if (check()) { obs.disconnect(); resolve(); } });
    obs.observe(document.querySelector('[data-testid=board]'), {subtree: true, attributes: true, childList: true});
  });
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));
  return performance.now() - t0;
}"""

REDRAW = """async ([gameId, view, legal, runs]) => {
  const box = document.createElement('div');
  box.style.cssText = 'position:absolute;left:0;top:0;width:900px;height:800px';
  document.body.append(box);
  const full = [], update = [];
  const mod = await import(`/static/games/${gameId}.js`);
  if (mod.default && mod.default.Board) {
    const { h, render } = await import('preact');
    const R = mod.default;
    const t = (k) => k;
    const props = (sel) => ({ view, seat: 0, you: 0, legal, legalText: legal.map(() => ''), ui: {}, setUi() {}, play() {}, t,
      seatName: (i) => 'seat ' + i, interactive: true,
      hl: { selected: sel, sources: new Set(), targets: new Map(), last: new Set(), hover: new Set(), interactive: true } });
    const spots = (a) => { const p = R.places ? R.places(a, view, {}) : null; return Array.isArray(p) ? p : p ? [p] : []; };
    const places = legal.flatMap(spots).filter((p) => p.to !== null && p.to !== undefined);
    const froms = [...new Set(places.map((p) => p.from).filter(Boolean))];
    for (let i = 0; i < runs; i++) {
      render(null, box);
      let t0 = performance.now();
      render(h(R.Board, props(null)), box);
      box.getBoundingClientRect(); document.body.offsetHeight;
      full.push(performance.now() - t0);
      const p = props(froms.length ? froms[i % froms.length] : null);
      p.hl.targets = new Map(places.filter((s) => s.from === p.hl.selected).map((s) => [s.to, { kind: s.kind }]));
      t0 = performance.now();
      render(h(R.Board, p), box);
      document.body.offsetHeight;
      update.push(performance.now() - t0);
    }
  } else {
    const r = window.Spacetable.renderer(gameId);
    const ctx = { seat: 0, legal, send() {}, t: (k, f) => f ?? k, lang: 'en' };
    for (let i = 0; i < runs; i++) {
      box.replaceChildren();
      const t0 = performance.now();
      r.render(box, view, ctx);
      document.body.offsetHeight;
      full.push(performance.now() - t0);
    }
  }
  box.remove();
  return { full, update, kind: mod.default && mod.default.Board ? 'module' : 'legacy' };
}"""


def start(port: int, db: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "spacetable.server.cli", "--host", "127.0.0.1", "--port", str(port),
                             "--database-url", f"sqlite:///{db}", "--log-level", "warning", "--ai-workers", "0"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not wait_until_healthy(port, proc):
        raise SystemExit("server did not start")
    return proc


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


CONFIGS: dict[str, dict[str, Any]] = {"arena": {"red_seat": 0}, "galaxies": {"mission": "m1-first-contact"}}


def new_match(base: str, game: str) -> tuple[str, str]:
    r = httpx.post(f"{base}/api/matches", json={"game": game, "config": CONFIGS.get(game, {}), "join_seat": 0,
                                               "player_name": "bench"})
    r.raise_for_status()
    mid = r.json()["match"]["id"]
    n = len(r.json()["match"]["seats"])
    tokens = [r.json()["token"]]
    for s in range(1, n):  # people in every seat: nothing moves while we measure
        j = httpx.post(f"{base}/api/matches/{mid}/seats/{s}/join", json={"name": f"p{s}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    if game == "fullmetal":
        to_play(base, mid, tokens)
    if game == "galaxies":
        galaxies_to_activation(base, mid, tokens)
    return mid, tokens[0]


def to_play(base: str, mid: str, tokens: list[str]) -> None:
    """Full Metal: both ships land and deploy every unit they can, then turns end until seat 0 plays (a full board
    with units to select, as in a game)."""
    for _ in range(20):
        snap = httpx.get(f"{base}/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": tokens[0]}).json()
        view, to_act = snap["view"], snap["to_act"]
        if view["phase"] == "play" and to_act == [0]:
            return
        seat = to_act[0]
        mine = httpx.get(f"{base}/api/matches/{mid}/state", params={"seat": seat}, headers={"X-Seat-Token": tokens[seat]}).json()
        action = next(a for a in mine["legal"] if a["type"] in ("land", "deploy", "end_turn"))
        httpx.post(f"{base}/api/matches/{mid}/actions", json={"seat": seat, "token": tokens[seat], "version": mine["version"],
                                                              "action": action}).raise_for_status()
    raise SystemExit("the Full Metal match did not reach seat 0's turn")


def galaxies_to_activation(base: str, mid: str, tokens: list[str]) -> None:
    """Play both fleets onto the board until seat 0 has an open activation with ships to move (a board with every
    kind of piece and a selection to measure)."""
    for _ in range(200):
        snap = httpx.get(f"{base}/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": tokens[0]}).json()
        seat = snap["to_act"][0]
        st = snap if seat == 0 else httpx.get(f"{base}/api/matches/{mid}/state", params={"seat": seat},
                                              headers={"X-Seat-Token": tokens[seat]}).json()
        legal = st["legal"]
        if seat == 0 and any(a["type"] == "move" for a in legal):
            return
        order = ["choose_first", "pass", "end_energy", "launch", "activate" if seat == 0 else "end_turn", "end_deploy",
                 "end_turn", "discard_for_energy"]
        action = next(a for kind in order for a in legal if a["type"] == kind and not a.get("cargo"))
        httpx.post(f"{base}/api/matches/{mid}/actions", json={"seat": seat, "token": tokens[seat], "version": st["version"],
                                                              "action": action}).raise_for_status()
    raise SystemExit("galaxies: no activation reached")


def fmt(values: list[float]) -> str:
    if not values:
        return "n/a"
    q = statistics.quantiles(values, n=10) if len(values) >= 2 else values
    return f"median {statistics.median(values):7.1f}   p90 {q[-1]:7.1f}   min {min(values):7.1f}"


def interactive(page: Page, url: str) -> float:
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_function("window.__ready > 0", timeout=30_000)
    return float(page.evaluate("window.__ready"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="arena")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(port, f"{tmp}/web.sqlite3")
        base = f"http://127.0.0.1:{port}"
        try:
            mid, token = new_match(base, args.game)
            url = f"{base}/match/{mid}#seat=0&token={token}"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                ready = []
                for _ in range(max(4, args.runs // 4)):
                    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
                    ctx.add_init_script(WATCH_READY)
                    page = ctx.new_page()
                    ready.append(interactive(page, url))
                kind = page.get_attribute("[data-testid=match-page]", "data-renderer")
                clicks: list[float] = []
                if kind == "module":
                    source = page.get_attribute("[data-testid=board] .is-source", "data-place")
                    sel = f"[data-testid=board] .ship[data-place='{source}'], [data-testid=board] [data-place='{source}']"
                    for _ in range(args.runs):
                        clicks.append(page.evaluate(CLICK, [sel, True]))
                        clicks.append(page.evaluate(CLICK, [sel, False]))
                snap = httpx.get(f"{base}/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": token}).json()
                redraw = page.evaluate(REDRAW, [args.game, snap["view"], snap["legal"], args.runs])
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"web client, {args.game} ({kind} renderer), chromium on loopback, {args.runs} runs; milliseconds")
    print(f"  match page interactive   {fmt(ready[1:])}   (target < 1000); first visit after the server started: {ready[0]:.0f}")
    note = "" if clicks else "  [no board selection in this renderer]"
    print(f"  click feedback           {fmt(clicks)}   (target < 100){note}")
    print(f"  full board redraw        {fmt(redraw['full'])}   (target < 16)")
    if redraw["update"]:
        print(f"  board update (selection) {fmt(redraw['update'])}   (target < 16)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
