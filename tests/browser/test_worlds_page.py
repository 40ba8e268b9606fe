"""The worlds match page for everyone: no serious accessibility violation (axe-core), nothing wider than a 390 px
phone, every tap target at least 32 px, no console error — on the map with a card picked, while pairing the pieces
with one picked, at the event step with the cards in hand and at the energy step (its odds drawn)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .pages import (
    HTTP,
    PHONE,
    READY_OR_OVER,
    create,
    errors_of,
    goto,
    open_page,
    seat_state,
    seat_url,
    version,
    wait_version_change,
)
from .test_accessibility import serious
from .test_layout import SMALL_TARGETS
from .test_worlds_fullgame import tap_place

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def problems(page: Page, what: str, phone: bool) -> list[str]:
    out = [f"{what}: axe {v['id']} {v['nodes']}" for v in serious(page)]
    if phone:
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            out.append(f"{what}: {width} px wide")
        out += [f"{what}: small target {s}" for s in page.evaluate(SMALL_TARGETS)]
    return out


def blue_plays(server: str, mid: str, token: str, action: dict[str, Any]) -> None:
    snap = seat_state(server, mid, 1, token)
    body = {"seat": 1, "token": token, "version": snap["version"], "action": action}
    r = HTTP.post(f"{server}/api/matches/{mid}/actions", json=body)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_worlds_page_is_accessible_and_fits(server: str, browser: Browser, viewport: dict[str, int] | None) -> None:
    mid, _, token = create(server, "worlds", {"scenario": "border-worlds"}, join_seat=0, name="Ann")
    assert token
    r = HTTP.post(f"{server}/api/matches/{mid}/seats/1/join", json={"name": "Bob"})
    blue = r.json()["token"]
    page = open_page(browser, viewport)
    phone = viewport == PHONE
    goto(page, seat_url(server, mid, 0, token))
    page.wait_for_selector("[data-testid=worlds-board]")
    page.wait_for_function(READY_OR_OVER)
    found: list[str] = []
    tap_place(page, "card:M.w1")
    page.wait_for_selector("[data-testid=board] [data-place='attack:M.w1']")
    found += problems(page, "map, a card picked", phone)
    before = version(page)
    tap_place(page, "attack:M.w1")
    wait_version_change(page, before)
    page.wait_for_function(READY_OR_OVER)
    tap_place(page, "pc:red.M.w1.P1")
    page.wait_for_selector("[data-testid=board] .wlane.is-target")
    found += problems(page, "pairing, a piece picked", phone)
    if phone:  # a finger drags a piece onto a battle (touch pointer events, as a phone sends them)
        page.evaluate("""() => {
          const pawn = document.querySelector("[data-testid=board] [data-place='pc:red.M.w1.P2']");
          const lane = document.querySelector("[data-testid=board] [data-place='lane:1']").getBoundingClientRect();
          const a = pawn.getBoundingClientRect();
          const ev = (el, type, x, y) => el.dispatchEvent(new PointerEvent(type, {pointerId: 7, pointerType: 'touch',
            isPrimary: true, bubbles: true, clientX: x, clientY: y}));
          const x0 = a.left + a.width / 2, y0 = a.top + a.height / 2;
          ev(pawn, 'pointerdown', x0, y0);
          const x1 = lane.left + 40, y1 = lane.top + 14;
          for (let k = 1; k <= 5; k++) ev(document, 'pointermove', x0 + ((x1 - x0) * k) / 5, y0 + ((y1 - y0) * k) / 5);
          ev(document, 'pointerup', lane.left + 40, lane.top + 14);
        }""")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=worlds-lane-row-1]').textContent.includes('Populations: 1')")
    page.click("[data-testid=worlds-suggest]")
    before = version(page)
    page.click("[data-testid=worlds-fight]")
    wait_version_change(page, before)
    page.wait_for_function(READY_OR_OVER)
    snap = seat_state(server, mid, 0, token)
    if snap["view"]["combat"]["step"] == "event":
        page.wait_for_selector("[data-testid=worlds-hand][data-deciding=yes]")
        found += problems(page, "event cards", phone)
        blue_plays(server, mid, blue, {"type": "play_event", "card": None})
        before = version(page)
        page.click("[data-testid=worlds-no-event]")
        wait_version_change(page, before)
        page.wait_for_function(READY_OR_OVER)
    snap = seat_state(server, mid, 0, token)
    assert snap["view"]["combat"]["step"] == "energy"
    page.click("[data-testid=worlds-energy-plus]")
    page.wait_for_selector("[data-testid=worlds-combat-odds]")
    found += problems(page, "energy", phone)
    assert found == [], "\n".join(found)
    assert errors_of(page) == []


#: the named side colours of ``worlds-model.js`` (``NAMED``) and a short form
SIDE_COLOURS = ["#d9463e", "#3f7fd6", "#eef0f4", "#8d97aa", "#3fae5a", "#e8cf3a", "#f0a030", "#e8812f", "#26b0a0",
                "#9b6bd6", "#e070a8", "#2a2d36", "#9a6a44", "#3cc4e0", "#d9b440", "#b9c0cc", "#abc"]


@pytest.mark.boards
def test_side_chips_take_dark_ink_where_white_would_be_unreadable(server: str, browser: Browser) -> None:
    """A side's chip shows white text (with its shadow) only where white contrasts at least 3:1 with the side's
    colour; elsewhere the dark ink, which contrasts at least 4.5:1 (a grey side's chip failed the accessibility
    check whenever the checker did not count the shadow)."""
    page = open_page(browser)
    goto(page, server + "/")
    got = page.evaluate("""async (colours) => {
      const { chipInk } = await import('/static/games/worlds-panels.js');
      const lum = (hex) => {
        const d = hex.length === 4 ? hex.slice(1).replace(/./g, '$&$&') : hex.slice(1);
        const [r, g, b] = [0, 2, 4].map((i) => { const c = parseInt(d.slice(i, i + 2), 16) / 255;
          return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
      return colours.map((c) => [c, chipInk(c), ratio(c, chipInk(c) || '#ffffff')]);
    }""", SIDE_COLOURS)
    for colour, ink, contrast in got:
        assert contrast >= (4.5 if ink else 3.0), (colour, ink, contrast)
    inks = {colour: ink for colour, ink, _ in got}
    assert inks["#8d97aa"] == "#10131c" and inks["#eef0f4"] == "#10131c"  # grey and white: dark ink
    assert inks["#d9463e"] is None and inks["#3f7fd6"] is None  # the default red and blue keep white
    assert page.evaluate("import('/static/games/worlds-panels.js').then((m) => m.chipInk('not a colour'))") is None
