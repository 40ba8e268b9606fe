"""Issue 23, round 2, in Debian chromium: Tremble, Humans! on a 390x844 phone (the hand and the table fit, nothing is
cut off, no sideways scrolling of the page, the board back in sight after the player's own action), and a Worlds &
Suns battle left empty in the pairing (drawn on the board and in the panel, Fight waiting and saying why)."""

from __future__ import annotations

import re
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
    keep_station_redraws,
    open_page,
    seat_state,
    seat_url,
    version,
    wait_version_change,
)
from .test_accessibility import serious
from .test_boards import SMALL_44, act, my_turn, ready
from .test_tremble_fullgame import click, tap_board, tap_hand
from .test_tremble_pages import ready as tremble_ready
from .test_worlds_fullgame import tap_place

pytestmark = [pytest.mark.browser, pytest.mark.boards, pytest.mark.timeout(600)]

#: What a phone cuts off or pushes sideways: the page wider than the screen, a visible element whose content is
#: clipped by overflow hidden, a card of the hand or the table reaching past the screen's edge (inside a container
#: that does not scroll sideways).
CUT = """(sel) => {
  const out = [], vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) out.push('page ' + document.documentElement.scrollWidth + ' px wide');
  const scrolls = (el) => {
    for (let e = el.parentElement; e && e !== document.documentElement; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll('[data-testid=match-page] *')) {
    const cs = getComputedStyle(el), r = el.getBoundingClientRect();
    if (!r.width || cs.visibility === 'hidden' || el.clientWidth <= 2 || el.closest('.sr-only, svg')) continue;
    const name = el.getAttribute('data-testid') || el.getAttribute('data-place') || el.className;
    const hides = (o) => o === 'hidden' || o === 'clip';
    if (hides(cs.overflowX) && el.scrollWidth > el.clientWidth + 1 && !cs.textOverflow.includes('ellipsis'))
      out.push(`cut sideways: ${name} ${el.scrollWidth}>${el.clientWidth}`);
    if (hides(cs.overflowY) && el.scrollHeight > el.clientHeight + 1)
      out.push(`cut at the bottom: ${name} ${el.scrollHeight}>${el.clientHeight}`);
  }
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > vw + 1) && !scrolls(el))
      out.push(`past the edge: ${el.getAttribute('data-place')} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return out;
}"""
CARDS = ("[data-testid=tray] [data-place^='ship:'], [data-testid=tremble-board] [data-place^='slot:'],"
         " [data-testid=tremble-board] [data-place^='card:'], [data-testid=tremble-board] [data-place^='ship:']")


def tremble_at_plan(server: str) -> tuple[str, int, str]:
    """A two-captain match against the random computer, the seat's purchases made through the API (as many ships
    as allowed each time) until its first plan: a hand of several ships and cities on the table."""
    mid, seat, token = create(server, "tremble", {"players": 2}, ai={1: "random"}, ai_seconds=0.05)
    assert seat is not None and token is not None
    for _ in range(20):
        st = my_turn(server, mid, seat, token)
        if st["view"]["phase"] == "plan":
            return mid, seat, token
        legal = st["legal"]
        a = max(legal, key=lambda x: len(x.get("buy", []))) if legal[0]["type"] == "buy" else legal[0]
        act(server, mid, seat, token, st["version"], a)
    raise AssertionError("no plan came")


def one_ship_plan(server: str, mid: str, seat: int, token: str) -> dict[str, Any]:
    """A legal plan sending one ship of the hand to one city, without fuel cards (paged from the whole legal list)."""
    offset = 0
    while True:
        r = HTTP.get(f"{server}/api/matches/{mid}/legal", params={"seat": seat, "offset": offset, "limit": 1000},
                      headers={"X-Seat-Token": token})
        assert r.status_code == 200, r.text
        page = r.json()
        for a in page["actions"]:
            if a["type"] == "plan" and len(a["groups"]) == 1 and len(a["groups"][0]["ships"]) == 1 \
                    and not a["fuel_cards"] and not a["stations"]:
                return dict(a)
        offset += len(page["actions"])
        assert page["actions"] and offset < page["count"], "no plan with one ship"


def test_tremble_hand_and_table_fit_a_phone_and_the_board_comes_back(server: str, browser: Browser) -> None:
    mid, seat, token = tremble_at_plan(server)
    page = open_page(browser, PHONE)
    goto(page, seat_url(server, mid, seat, token))
    snap = tremble_ready(page)
    hand = snap["view"]["players"][seat]["hand"]
    assert len(hand) >= 2 and snap["view"]["slots"]
    assert page.locator("[data-testid=tray] [data-place^='ship:']").count() >= len(hand)
    assert page.evaluate(CUT, CARDS) == [], "the plan on a phone"
    plan = one_ship_plan(server, mid, seat, token)
    tap_hand(page, "ship:" + plan["groups"][0]["ships"][0])
    tap_board(page, f"slot:{plan['groups'][0]['slot']}")
    assert page.evaluate(CUT, CARDS) == [], "a ship sent to a city"
    # the seal button lies below the board: the page scrolls down to it, and back up to the board once sealed
    page.locator("[data-testid=tremble-seal-plan]").scroll_into_view_if_needed()
    assert page.evaluate("document.querySelector('[data-testid=board]').getBoundingClientRect().top") < 0
    before = version(page)
    click(page, "tremble-seal-plan")
    wait_version_change(page, before)
    page.wait_for_function("""() => { const t = document.querySelector('[data-testid=board]').getBoundingClientRect().top;
      return t > -2 && t < innerHeight / 2; }""")
    page.wait_for_function(READY_OR_OVER, timeout=120_000)
    assert page.evaluate(CUT, CARDS) == [], "after the plan"
    assert errors_of(page) == []


def too_many(refused: list[str]) -> Any:
    """A route handler answering every request 429 (a rate limit reached), noting its address in ``refused``."""
    def handler(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(status=429, content_type="application/json",
                      body='{"error": {"status": 429, "code": "rate_limited", "message": "too many checks"}}')
    return handler


def mine_since(page: Page, server: str, mid: str, seat: int, token: str, before: int, kind: str) -> list[dict[str, Any]]:
    """The seat's ``kind`` actions logged after version ``before``, once one is there (a minute at most). It waits
    with the page, so that Playwright's handlers (routes) run meanwhile."""
    mine: list[dict[str, Any]] = []
    for _ in range(600):
        log = seat_state(server, mid, seat, token)["log"]
        mine = [e for e in log[before:] if e["seat"] == seat and (e["action"] or {}).get("type") == kind]
        if mine:
            break
        page.wait_for_timeout(100)
    return mine


def test_a_check_that_cannot_be_made_does_not_hold_the_plan_back(server: str, browser: Browser) -> None:
    """The plan's seal asks the server's check first (to explain a refusal in the composer); when that check itself
    is refused (its rate limit reached: 429) the plan is still sent, and the server, which checks every action,
    takes it."""
    mid, seat, token = tremble_at_plan(server)
    page = open_page(browser)
    refused: list[str] = []
    page.route(f"**/api/matches/{mid}/check", too_many(refused))
    goto(page, seat_url(server, mid, seat, token))
    tremble_ready(page)
    plan = one_ship_plan(server, mid, seat, token)
    tap_hand(page, "ship:" + plan["groups"][0]["ships"][0])
    tap_board(page, f"slot:{plan['groups'][0]['slot']}")
    before = seat_state(server, mid, seat, token)["version"]
    click(page, "tremble-seal-plan")
    mine = mine_since(page, server, mid, seat, token, before, "plan")
    assert refused, "the seal asked for a check"
    assert mine and mine[0]["action"]["groups"][0]["ships"] == plan["groups"][0]["ships"]
    assert page.locator("[data-testid=tremble-refusal]").count() == 0
    assert [e for e in errors_of(page) if "status of 429" not in e] == []  # the browser logs the refused check


def test_a_purchase_whose_check_cannot_be_made_can_still_be_confirmed(server: str, browser: Browser) -> None:
    """When the seat's list of purchases is a partial one, the shop asks the server's check whether the purchase is
    allowed before its confirm button opens; when that check cannot be made (429) the button opens all the same and
    the purchase goes to the server, which takes it. The page is told its list is partial by its socket's messages,
    rewritten on the way (``legal_complete`` false): a partial shop needs a position no short test reaches."""
    mid, seat, token = create(server, "tremble", {"players": 2}, ai={1: "random"}, ai_seconds=0.05)
    assert seat is not None and token is not None
    keep_station_redraws(server, mid, {seat: token})  # the purchase comes first
    snap = my_turn(server, mid, seat, token)
    buys = [a for a in snap["legal"] if a["type"] == "buy" and len(a["buy"]) == 1 and not a["discard"]
            and not a["comp"] and not a["credits"] and not a["repay"]]
    assert buys, "a purchase of one card"
    action = buys[0]
    page = open_page(browser)
    refused: list[str] = []
    page.route(f"**/api/matches/{mid}/check", too_many(refused))

    def partial(ws: Any) -> None:
        upstream = ws.connect_to_server()
        upstream.on_message(lambda message: ws.send(
            message.replace('"legal_complete":true', '"legal_complete":false') if isinstance(message, str) else message))

    page.route_web_socket(re.compile(r".*/ws/matches/.*"), partial)
    goto(page, seat_url(server, mid, seat, token))
    tremble_ready(page)
    assert page.locator("[data-testid=tremble-buy-verdict]").count() == 1
    tap_board(page, "card:" + action["buy"][0])
    page.wait_for_selector("[data-testid=tremble-confirm-buy]:not([disabled])", timeout=30_000)
    assert refused, "the shop asked for a check"
    before = seat_state(server, mid, seat, token)["version"]
    click(page, "tremble-confirm-buy")
    mine = mine_since(page, server, mid, seat, token, before, "buy")
    assert mine and mine[0]["action"]["buy"] == action["buy"]
    assert [e for e in errors_of(page) if "status of 429" not in e] == []


def test_worlds_empty_battle_is_drawn_and_named(server: str, browser: Browser) -> None:
    """Pairing with one battle left empty: its side of the lane says so on the board, the panel's row too, Fight
    waits and names the battle; a battle tapped with nothing selected says what to do."""
    mid, _, token = create(server, "worlds", {"scenario": "border-worlds"}, join_seat=0, name="Ann")
    assert token
    assert HTTP.post(f"{server}/api/matches/{mid}/seats/1/join", json={"name": "Bob"}).status_code == 200
    page = open_page(browser)
    goto(page, seat_url(server, mid, 0, token))
    page.wait_for_selector("[data-testid=worlds-board]")
    page.wait_for_function(READY_OR_OVER)
    tap_place(page, "card:M.w1")
    before = version(page)
    tap_place(page, "attack:M.w1")
    wait_version_change(page, before)
    page.wait_for_function(READY_OR_OVER)
    lanes = page.locator("[data-testid=board] [data-place^='lane:']")
    assert lanes.count() >= 2
    assert page.locator("[data-testid=board] [data-place^='lane:'][data-empty=yes]").count() == lanes.count()
    tap_place(page, "lane:0")  # nothing selected: the page says what to do
    page.wait_for_function("() => document.body.innerText.includes('Select your pieces first')")
    tap_place(page, "pc:red.M.w1.P1")
    page.wait_for_selector("[data-testid=board] .wlane.is-target")
    tap_place(page, "lane:0")
    page.wait_for_selector("[data-testid=board] [data-place='lane:0'][data-empty=no]")
    empty: list[Any] = page.eval_on_selector_all("[data-testid=board] [data-place^='lane:'][data-empty=yes]",
                                                 "els => els.map(e => Number(e.dataset.lane))")
    assert empty and 0 not in empty
    k = empty[0]
    assert page.locator("[data-testid=board] .wscore.empty .wscore-empty").count() >= len(empty)
    assert "no piece yet" in page.locator("[data-testid=board] .wscore-empty").first.text_content()
    row = page.locator(f"[data-testid=worlds-lane-row-{k}]")
    assert "wlane-empty" in (row.get_attribute("class") or "") and "no piece yet" in row.inner_text()
    assert f"battle {k + 1}" in page.inner_text("[data-testid=worlds-fight-missing]").lower()
    assert page.locator("[data-testid=worlds-fight]").is_disabled()
    assert serious(page) == [], "an empty battle"
    assert errors_of(page) == []


def test_galaxies_fleet_choice_has_big_taps_on_a_phone(server: str, browser: Browser) -> None:
    """The fleet chosen by check boxes (a mission without fixed fleets): every box with its label, and every other
    control of the page, at least 44 px high on a phone; no serious axe violation."""
    mid, seat, token = create(server, "galaxies", {"mission": "m2-skirmish"}, ai={1: "random"}, ai_seconds=0.05)
    assert seat is not None and token is not None
    page = open_page(browser, PHONE)
    goto(page, seat_url(server, mid, seat, token))
    ready(page)
    boxes = page.locator("[data-testid=gx-fleet] input[type=checkbox]")
    assert boxes.count() >= 2  # the fleet's cards
    assert page.evaluate(SMALL_44) == []
    assert serious(page) == [], "fleet choice on a phone"
    assert errors_of(page) == []
