"""Worlds & Suns decisions that depend on the dice, taken on the board: a tie loss (WS-5.6), a Factory taken (WS-6.4)
and a retreat to the Sun (WS-6.3), in a scenario whose dice are scripted (WS-8.5). Red plays in chromium by gestures
only; Blue is a second person whose moves are sent through the API, so the test knows every roll. Also: a refused
tap is explained in plain words with the rule's link, the rules' notices are folded behind the info button, and the
results stay in their panel after the combat."""

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
    shot,
    version,
    wait_version_change,
)
from .test_worlds_fullgame import tap_place

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: Red (5 pieces against 4) attacks X.w1 first; Blue (4 against 3) then attacks X.w2. Nobody holds cards or energy, so
#: every battle is rolled at once; dice pairs are (attacker, defender), one per battle in the order fought.
SCENARIO: dict[str, Any] = {
    "format": "worlds-skirmish/1", "id": "browser-choices", "label": "browser test: ties, conversion, retreat",
    "sides": ["red", "blue"], "first_player": "red",
    "systems": [{"id": "X", "starting_system_of": None, "sun": {"id": "X.sun", "pieces": {}},
                 "worlds": [{"id": "X.w1", "pieces": {"red": {"P": 3, "F": 2}, "blue": {"P": 1, "F": 3}}},
                            {"id": "X.w2", "pieces": {"red": {"P": 3}, "blue": {"P": 2, "F": 2}}}]}],
    "energy": {"red": 0, "blue": 0}, "energy_income": {"red": 0, "blue": 0},
    "hands": {"red": [], "blue": []}, "max_rounds": 3, "seed": 1,
    # X.w1: tie (3+1 = 2+2), Red wins, Red wins, Blue wins; X.w2 (Blue attacks): Blue, Blue, Red
    "dice_script": [[1, 2], [6, 1], [6, 1], [1, 6], [6, 1], [6, 1], [1, 6]],
}
RED_BATTLES = [("blue.X.w1.P1", ["red.X.w1.P1", "red.X.w1.F1"]), ("blue.X.w1.F1", ["red.X.w1.P2"]),
               ("blue.X.w1.F2", ["red.X.w1.P3"]), ("blue.X.w1.F3", ["red.X.w1.F2"])]
BLUE_BATTLES = [{"anchor": "red.X.w2.P1", "pieces": ["blue.X.w2.P1", "blue.X.w2.F1"]},
                {"anchor": "red.X.w2.P2", "pieces": ["blue.X.w2.P2"]}, {"anchor": "red.X.w2.P3", "pieces": ["blue.X.w2.F2"]}]


def blue_plays(server: str, mid: str, token: str, action: dict[str, Any]) -> None:
    snap = seat_state(server, mid, 1, token)
    body = {"seat": 1, "token": token, "version": snap["version"], "action": action}
    r = HTTP.post(f"{server}/api/matches/{mid}/actions", json=body)
    assert r.status_code == 200, r.text


def ready(page: Page) -> None:
    page.wait_for_selector("[data-testid=worlds-board]")  # the renderer module is loaded
    page.wait_for_function(READY_OR_OVER, timeout=60_000)


def test_tie_conversion_and_retreat_on_the_board(server: str, browser: Browser) -> None:
    mid, seat, token = create(server, "worlds", {"scenario_json": SCENARIO}, join_seat=0, name="Ann")
    assert seat == 0 and token
    r = HTTP.post(f"{server}/api/matches/{mid}/seats/1/join", json={"name": "Bob"})
    assert r.status_code == 200, r.text
    blue = r.json()["token"]
    page = open_page(browser)
    goto(page, seat_url(server, mid, 0, token))
    ready(page)
    # the notices of the rules are folded behind the info button
    assert page.locator("[data-testid=worlds-about]:not([open])").count() == 1
    assert page.locator("[data-testid=worlds-you] [data-side=red]").count() == 1
    # a refused tap is explained: X.sun holds nobody, so no combat there (WS-2.3)
    tap_place(page, "card:X.sun")
    notice = page.locator("[data-testid=notices] [data-testid=error]")
    notice.wait_for()
    assert "starting system" in notice.inner_text()
    assert page.locator("[data-testid=rule-link]").get_attribute("href") == "/rules/worlds#WS-2.3"

    # Red attacks X.w1 and pairs its five pieces against Blue's four
    before = version(page)
    tap_place(page, "card:X.w1")
    tap_place(page, "attack:X.w1")
    wait_version_change(page, before)
    ready(page)
    lane_of = {page.get_attribute(f"[data-testid=board] [data-place='lane:{i}']", "data-anchor"): i for i in range(4)}
    for anchor, pieces in RED_BATTLES:
        for pid in pieces:
            tap_place(page, f"pc:{pid}")
            if not page.locator(f"[data-testid=board] [data-place='pc:{pid}'].is-selected").count():
                tap_place(page, f"pc:{pid}")
            tap_place(page, f"lane:{lane_of[anchor]}")
    def order() -> list[str | None]:
        return [page.get_attribute(f"[data-testid=board] [data-place='lane:{j}']", "data-anchor") for j in range(4)]

    for i, (anchor, _) in enumerate(RED_BATTLES):  # fight them in the order the dice were scripted for
        while order()[i] != anchor:
            page.click(f"[data-testid=worlds-up-{order().index(anchor)}]")
    before = version(page)
    page.click("[data-testid=worlds-fight]")
    wait_version_change(page, before)
    ready(page)

    # battle 1 is a tie: Red gives up its Factory by tapping it (Blue's single piece goes by itself)
    snap = seat_state(server, mid, 0, token)
    assert {a["type"] for a in snap["legal"]} - {"offer_draw"} == {"choose_tie_loss"}  # offer_draw: the core draw offer (WS-D25)
    assert place_count(page, ".wpawn.is-target") == 2
    shot(page, "worlds-choices-1-tie-desktop")
    before = version(page)
    tap_place(page, "pc:red.X.w1.F1")
    wait_version_change(page, before)
    ready(page)

    # Red won 3 losses to 2 and may take Blue's last Factory on X.w1
    snap = seat_state(server, mid, 0, token)
    assert snap["view"]["combat"]["step"] == "convert"
    assert page.locator("[data-testid=worlds-verdict]").count() == 1
    shot(page, "worlds-choices-2-convert-desktop")
    before = version(page)
    tap_place(page, "pc:blue.X.w1.F3")
    wait_version_change(page, before)
    ready(page)
    snap = seat_state(server, mid, 0, token)
    assert snap["view"]["combat"] is None
    owners = {p["id"]: p["side"] for s in snap["view"]["systems"] for w in s["worlds"] for p in w["pieces"]}
    assert owners["blue.X.w1.F3"] == "red"
    # the results of the closed combat stay in their panel
    assert page.locator("[data-testid=worlds-results] li").count() == 4
    before = version(page)
    page.click("[data-testid=worlds-end-turn]")
    wait_version_change(page, before)

    # Blue attacks X.w2 and wins two battles of three: Red keeps one Population, which flees to the Sun
    blue_plays(server, mid, blue, {"type": "declare_combat", "card": "X.w2"})
    blue_plays(server, mid, blue, {"type": "allocate", "battles": BLUE_BATTLES})
    ready(page)
    snap = seat_state(server, mid, 0, token)
    assert snap["view"]["combat"]["step"] == "retreat"
    tap_place(page, "pc:red.X.w2.P3")
    page.wait_for_selector("[data-testid=board] .wpawn.picked")
    page.wait_for_selector("[data-testid=board] [data-place=sun].is-target")
    shot(page, "worlds-choices-3-retreat-desktop")
    phone = open_page(browser, PHONE)
    goto(phone, seat_url(server, mid, 0, token))
    ready(phone)
    shot(phone, "worlds-choices-3-retreat-phone")
    before = version(page)
    tap_place(page, "sun")
    wait_version_change(page, before)
    snap = seat_state(server, mid, 0, token)
    suns = {p["id"] for s in snap["view"]["systems"] for p in s["sun"]["pieces"]}
    assert suns == {"red.X.w2.P3"}
    blue_plays(server, mid, blue, {"type": "end_turn"})
    page.wait_for_selector("[data-testid=result]")
    assert page.locator("[data-testid=legal-actions][open]").count() == 0
    assert errors_of(page) == [] and errors_of(phone) == []


def place_count(page: Page, selector: str) -> int:
    return page.locator(f"[data-testid=board] {selector}").count()
