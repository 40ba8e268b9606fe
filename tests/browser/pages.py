"""Helpers for the browser tests: pages that record every console error, matches made through the API, waiting
for the page to be ready to play, and clicks on board places the way a player taps them."""

from __future__ import annotations

import json
import time
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parent / "screenshots"
#: The contexts opened by ``open_page`` during the current test: closed after it (tests/browser/conftest.py), so that
#: the pages of finished tests no longer follow their matches (sockets, animations) while later tests run.
OPENED: list[BrowserContext] = []
#: The tests' HTTP client for the API, as ``httpx.get`` would make it (its five-second timeout, no cookie kept from one
#: request to the next) but made once: ``httpx.get`` makes a client for each call, and each loads the system's
#: certificates (about 50 ms), which the full games paid at every decision.
HTTP = httpx.Client(cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])))

#: The page is ready for the seat's next decision, or the game is over. Ready means caught up, the seat's turn and
#: the game's renderer loaded: until its module has loaded the page draws neither board nor composer.
READY_OR_OVER = """() => {
  if (document.querySelector('[data-testid=result]')) return true;
  const m = document.querySelector('[data-testid=match-page]');
  const t = document.querySelector('[data-testid=turn-indicator]');
  return !!(m && m.dataset.caughtUp === 'yes' && m.dataset.renderer !== 'loading' && t && t.dataset.myTurn === 'yes');
}"""


def open_page(browser: Browser, viewport: dict[str, int] | None = None, lang: str | None = None) -> Page:
    """A new page whose console errors and uncaught exceptions are kept in ``page.errors``."""
    ctx = browser.new_context(viewport=viewport or DESKTOP, has_touch=viewport == PHONE)
    OPENED.append(ctx)
    ctx.set_default_timeout(90_000)  # a busy machine (CI shares its cores) may take more than Playwright's 30 s
    if lang:
        ctx.add_init_script(f"localStorage.setItem('spacetable.lang', {json.dumps(lang)})")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def errors_of(page: Page) -> list[str]:
    return list(page.errors)  # type: ignore[attr-defined]


def goto(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")


def create(server: str, game: str, config: dict[str, Any] | None = None, ai: dict[int, str] | None = None,
           join_seat: int | None = 0, ai_seconds: float = 0.2, name: str = "Tester") -> tuple[str, int | None, str | None]:
    body: dict[str, Any] = {"game": game, "config": config or {}, "ai_seats": {str(k): v for k, v in (ai or {}).items()},
                            "ai_seconds": ai_seconds, "player_name": name}
    if join_seat is not None:
        body["join_seat"] = join_seat
    r = HTTP.post(f"{server}/api/matches", json=body, timeout=120)  # a busy machine may take a while
    assert r.status_code == 201, r.text
    data = r.json()
    return data["match"]["id"], data.get("seat"), data.get("token")


def seat_url(server: str, mid: str, seat: int, token: str) -> str:
    return f"{server}/match/{mid}#seat={seat}&token={token}"


def seat_state(server: str, mid: str, seat: int, token: str) -> dict[str, Any]:
    r = HTTP.get(f"{server}/api/matches/{mid}/state", params={"seat": seat}, headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def keep_station_redraws(server: str, mid: str, tokens: dict[int, str], timeout: float = 120.0) -> int:
    """Tremble: keep every station redraw offered before the seats' first purchase, through the API (TH-4.2: with a
    few drawn seeds, one in 30 for two captains, a seat's drawn cards are all stations and it is asked first whether to
    redraw them). ``tokens``: the seats played here; another seat's redraw (a computer's) is waited for. Returns the
    match's version once none is pending."""
    seat0 = next(iter(tokens))
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        st = seat_state(server, mid, seat0, tokens[seat0])
        if st["view"]["phase"] != "redraw":
            version: int = st["version"]
            return version
        seat = st["to_act"][0]
        if seat in tokens:
            r = HTTP.post(f"{server}/api/matches/{mid}/actions",
                           json={"seat": seat, "token": tokens[seat], "version": st["version"], "action": {"type": "keep"}})
            assert r.status_code == 200, r.text
        else:
            time.sleep(0.05)
    raise AssertionError("a station redraw stayed pending")


def seat_of(page: Page) -> tuple[int, str]:
    """Seat and token of the page's seat link (fragment ``#seat=..&token=..``)."""
    frag = page.evaluate("location.hash.slice(1) || location.search.slice(1)")
    q = dict(p.split("=", 1) for p in frag.split("&") if "=" in p)
    return int(q["seat"]), httpx.URL("?t=" + q["token"]).params["t"]


def version(page: Page) -> int:
    return int(page.get_attribute("[data-testid=version]", "data-version") or 0)


def wait_version_change(page: Page, before: int, timeout: int = 120_000) -> None:
    page.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'",
                           timeout=timeout)


def wait_synced(page: Page, v: int, timeout: int = 120_000) -> None:
    """Wait until the page shows version ``v`` (its incoming moves all shown)."""
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=version]').dataset.version === '{v}'"
        " && document.querySelector('[data-testid=match-page]').dataset.caughtUp === 'yes'"
        " && document.querySelector('[data-testid=match-page]').dataset.renderer !== 'loading'", timeout=timeout)


def tap(page: Page, place: str) -> None:
    """Tap a board place as a player does: the piece standing there if any, else the cell; tray places too."""
    if place.startswith("tray:"):
        page.locator(f"[data-testid=tray] [data-place='{place}']").click()
        return
    # one locator for both, resolved again on every retry: a piece drawn a moment later (the board is still
    # being measured or a move is gliding) is the one tapped; pieces are drawn after the cells
    board = "[data-testid=board]"
    page.locator(f"{board} .cell[data-place='{place}'], {board} .ship[data-place='{place}']:not(.ghost)").last.click()


def pick_menu_item(page: Page, action: dict[str, Any]) -> None:
    """Pick ``action`` in the menu that opens when one place offers several actions."""
    menu = page.locator("[data-testid=action-menu]")
    menu.wait_for()
    items = menu.locator("[data-action]")
    for i in range(items.count()):
        if json.loads(items.nth(i).get_attribute("data-action") or "null") == action:
            items.nth(i).click()
            return
    raise AssertionError(f"{action} is not in the menu")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def show(page: Page, place: str) -> None:
    """Bring a board place into sight when the zoomed board hides it, the way the mini-map does (a board that opens
    zoomed, such as Full Metal's, keeps most of the map out of the viewport)."""
    moved = page.evaluate("""(place) => {
      const board = document.querySelector('[data-testid=board]');
      const el = board && board.querySelector(`[data-place="${CSS.escape(place)}"]`);
      if (!el) return false;
      const r = el.getBoundingClientRect(), o = board.getBoundingClientRect();
      const inside = r.left >= o.left && r.right <= o.right && r.top >= o.top && r.bottom <= o.bottom;
      if (inside) return false;
      board.dispatchEvent(new CustomEvent('spacetable:focus', {detail: {place}}));
      return true;
    }""", place)
    if moved:
        page.wait_for_function("""(place) => {
          const board = document.querySelector('[data-testid=board]');
          const el = board.querySelector(`[data-place="${CSS.escape(place)}"]`);
          const r = el.getBoundingClientRect(), o = board.getBoundingClientRect();
          return r.left >= o.left - 1 && r.right <= o.right + 1 && r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
        }""", arg=place, timeout=10_000)


#: What the page shows when a gesture did nothing: the selection, the composer's actions, open menus and notices.
_PAGE_STATE = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const m = document.querySelector('[data-testid=match-page]');
  const t = document.querySelector('[data-testid=turn-indicator]');
  const v = document.querySelector('[data-testid=version]');
  return {
    version: v && v.dataset.version, caught_up: m && m.dataset.caughtUp, my_turn: t && t.dataset.myTurn,
    selected: q('[data-testid=board] .is-selected, [data-testid=tray] .is-selected').map((e) => e.getAttribute('data-place')),
    targets: q('[data-testid=board] .is-target').length,
    menu: q('[data-testid=action-menu] [data-action]').map((e) => e.getAttribute('data-action')),
    composer: q('[data-testid=composer] button[data-action]').map((e) => e.getAttribute('data-action')),
    checked: q('[data-testid=composer] [aria-checked=true]').map((e) => e.getAttribute('data-testid')),
    notices: q('[data-testid=notices] .notice').map((e) => e.innerText.replace(/\\s+/g, ' ').trim()),
  };
}"""


def page_state(page: Page) -> dict[str, Any]:
    """The page's state for a failure message (see ``_PAGE_STATE``), read within 5 s: a locator's evaluation has a
    timeout, a page's has none, and a hung page must not hang the run."""
    try:
        state: dict[str, Any] = page.locator("html").evaluate(_PAGE_STATE, timeout=5_000)
    except Exception as e:  # a failure message must not hide the failure
        return {"unreadable": f"{type(e).__name__}: {str(e)[:200]}", "errors": errors_of(page)}
    state["errors"] = errors_of(page)
    return state


def wait_played(page: Page, before: int, what: Any, timeout: int = 120_000) -> None:
    """Wait until the page's version moves on from ``before`` after the gestures for ``what``; if it never does, fail
    naming ``what`` and what the page showed (a gesture that did nothing)."""
    try:
        wait_version_change(page, before, timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"the gestures for {what} did nothing; the page: {page_state(page)}") from None
