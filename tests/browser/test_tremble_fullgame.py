"""A complete Tremble, Humans! game against the AI in Debian chromium, played only by board gestures and composer
controls (the folded list of every legal action is never used): the match is created from the lobby (two captains,
the computer at the medium level); purchases are made in the shop (cards tapped on the board, discards tapped under
it, credits with the stepper, TH-4.3, TH-4.4, TH-4.5, TH-4.6, TH-13), plans composed by tapping or dragging ships onto cities with
the fuel budget and support tokens in the composer and sealed after the server's check (TH-6); battles, rewards,
army fights, response windows, losses and the other small decisions through their panels or by tapping a station
or card and then a ship, the ship to lose, the army to ignore (TH-7, TH-9, TH-10, TH-11). Screenshots of each main
phase at 1400x900 and 390x844 (the phone in Russian, one desktop view in French) go to tests/browser/screenshots/
(not committed)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.rng import Rng

from .pages import (
    PHONE,
    READY_OR_OVER,
    SHOTS,
    errors_of,
    goto,
    open_page,
    seat_of,
    seat_state,
    shot,
    version,
    wait_played,
)

pytestmark = [pytest.mark.browser, pytest.mark.fullgame, pytest.mark.timeout(900)]


# ------------------------------------------------------------------------------------------------ gestures
def board_place(page: Page, place: str) -> Any:
    return page.locator(f"[data-testid=board] [data-place='{place}']").first


def tap_board(page: Page, place: str) -> None:
    """Tap a place on the table: a city card away from its ships (its top left corner), a ship, an army."""
    if place.startswith("slot:"):
        board_place(page, place).click(position={"x": 12, "y": 12})
    else:
        board_place(page, place).click()


def tap_hand(page: Page, place: str) -> None:
    page.locator(f"[data-testid=tray] [data-place='{place}']").first.click()


def click(page: Page, testid: str) -> None:
    page.locator(f"[data-testid=composer] [data-testid='{testid}']").click()


def ship_ids(view: dict[str, Any]) -> set[str]:
    me = view["players"][view["viewer"]]
    return {s["id"] for s in me.get("hand", [])}


# ----------------------------------------------------------------------------------------------- decisions
def buy(page: Page, snap: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """The purchase a keen captain makes: as many ships as the legal list allows (credits if needed), in the shop."""
    legal = [a for a in snap["legal"] if a["type"] == "buy"]
    drawn = snap["view"]["players"][snap["view"]["viewer"]]["drawn"]
    ships = ship_ids(snap["view"]) | {c["id"] for c in drawn if c["card"] == "ship"}

    def worth(a: dict[str, Any]) -> float:
        return len([c for c in a["buy"] if c in ships]) + 0.5 * len(a["buy"]) - 0.1 * a["repay"]

    best = max(worth(a) for a in legal)
    pool = [a for a in legal if worth(a) == best]
    action = pool[rng.randbelow(len(pool))]
    for c in action["buy"]:
        tap_board(page, "card:" + c)
    own = ship_ids(snap["view"])
    for c in action["discard"]:
        tap_hand(page, ("ship:" if c in own else "card:") + c)
    for c in action["comp"]:
        click(page, "gain-" + c)
    for _ in range(action["credits"]):
        click(page, "tremble-credits-plus")
    for _ in range(action["repay"]):
        click(page, "tremble-repay-plus")
    page.wait_for_selector("[data-testid=tremble-confirm-buy]:not([disabled])")
    click(page, "tremble-confirm-buy")
    return action


def plan(page: Page, snap: dict[str, Any], rng: Rng, drag: bool) -> dict[str, Any]:
    """A plan by gestures: the strongest ships to the richest city within the fuel limit, the rest to a second city
    (a split), extra fuel toggled when it lets one more ship go, support tokens on the main city."""
    view = snap["view"]
    me = view["players"][view["viewer"]]
    hand = sorted(me["hand"], key=lambda s: (-s["strength"], s["id"]))
    fuel_res = [c for c in me["stations"] if not c["tapped"] and c["effect"]["op"] == "extra_fuel"]
    fuel_res += [c for c in me["comps"] if c["received"] < view["turn"] and c["effect"]["op"] == "extra_fuel"]
    budget = view["fuel_limit"] + sum(c["effect"]["n"] for c in fuel_res)
    cities = sorted(view["slots"], key=lambda sl: (-sl["city"]["raid"], sl["slot"]))
    main, second = cities[0]["slot"], cities[min(1, len(cities) - 1)]["slot"]
    used, sent = 0, {}
    for k, s in enumerate(hand):
        if used + s["fuel"] <= budget and rng.randbelow(6):
            sent[s["id"]] = main if k < 2 or len(cities) == 1 else second
            used += s["fuel"]
    for i, (sid, slot) in enumerate(sent.items()):
        if drag and i == 0:  # the first ship of the game goes by drag and drop
            page.drag_and_drop(f"[data-testid=tray] [data-place='ship:{sid}']",
                               f"[data-testid=board] [data-place='slot:{slot}']", target_position={"x": 12, "y": 12})
        else:
            tap_hand(page, "ship:" + sid)
            tap_board(page, f"slot:{slot}")
    need = used - view["fuel_limit"]
    for c in fuel_res:
        if need <= 0:
            break
        click(page, "fuel-" + c["id"])
        need -= c["effect"]["n"]
    for st in me["stations"]:
        if not st["tapped"] and st["effect"]["op"] == "city_support" and sent:
            click(page, f"support-{st['id']}-{main}")
    summary = page.inner_text("[data-testid=tremble-plan-summary]")
    for sid in sent:
        name = next(s["name"] for s in hand if s["id"] == sid)
        assert name in summary, f"{name} missing from the plan summary"
    click(page, "tremble-seal-plan")
    return {"sent": sent}


def respond(page: Page, snap: dict[str, Any], rng: Rng) -> None:
    """After a roll: a targeted effect by gestures (card under the board, then a ship), else an untargeted one from
    the panel now and then, else pass."""
    legal = snap["legal"]
    targeted = [a for a in legal if a.get("target")]
    if targeted and rng.randbelow(2):
        a = targeted[rng.randbelow(len(targeted))]
        tap_hand(page, "card:" + (a.get("station") or a.get("card")))
        tap_board(page, "ship:" + a["target"])
        return
    plain = [i for i, a in enumerate(x for x in legal if x["type"] in ("use_station", "use_compensation"))]
    if plain and not targeted and rng.randbelow(2):
        click(page, f"tremble-use-{plain[0]}")
        return
    click(page, "tremble-pass")


def decide(page: Page, snap: dict[str, Any], rng: Rng, state: dict[str, Any]) -> str:
    view, legal = snap["view"], snap["legal"]
    types = {a["type"] for a in legal}
    phase = view["phase"]
    if "buy" in types:
        buy(page, snap, rng)
    elif "plan" in types:
        plan(page, snap, rng, drag=not state.get("dragged"))
        state["dragged"] = True
    elif phase == "redraw":
        click(page, "tremble-keep" if rng.randbelow(2) else "tremble-redraw_stations")
    elif "declare" in types:
        click(page, "tremble-declare-fight" if rng.randbelow(4) else "tremble-declare-flee")
    elif "reward" in types:
        click(page, "tremble-reward-catch" if rng.randbelow(2) else "tremble-reward-raid")
    elif "army" in types:
        click(page, "tremble-army-fight" if rng.randbelow(5) else "tremble-army-flee")
    elif phase == "respond":
        respond(page, snap, rng)
    elif phase == "loss":
        ships = [a["ship"] for a in legal if a["type"] == "choose_loss"]
        if ships:
            tap_board(page, "ship:" + ships[rng.randbelow(len(ships))])
        else:
            click(page, "tremble-salvage")
    elif phase == "claim":
        click(page, "tremble-claim_city" if "claim_city" in types else "tremble-decline")
    elif phase == "ignore_army":
        uses = [a for a in legal if a["type"] == "ignore_army"]
        if uses:
            tap_hand(page, "card:" + uses[0]["card"])
            tap_board(page, f"army:{uses[0]['army_index']}")
        else:
            click(page, "tremble-pass")
    elif phase == "station_move":
        moves = [a for a in legal if a["type"] == "relocate_enemy"]
        if moves and rng.randbelow(2):
            tap_board(page, "ship:" + moves[0]["ship"])
            tap_board(page, f"slot:{moves[0]['to_slot']}")
            if page.locator("[data-testid=action-menu]").count():
                page.locator("[data-testid=action-menu] [data-action]").first.click()
        else:
            click(page, "tremble-pass")
    elif phase == "self_move":
        a = legal[rng.randbelow(len(legal))]
        for m in a["moves"]:
            if m["to_slot"] != "stay":
                tap_board(page, "ship:" + m["ship"])
                tap_board(page, f"slot:{m['to_slot']}")
        click(page, "tremble-confirm-moves")
    else:
        raise AssertionError(f"no gesture for {phase}: {sorted(types)}")
    return phase


# ------------------------------------------------------------------------------------------------- the game
def phone_shot(phone: Page, url: str, name: str, draft: list[tuple[str, str]] | None = None) -> None:
    phone.goto(url)
    phone.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    phone.wait_for_selector("[data-testid=tremble-board]")
    for ship, slot in draft or []:  # the same gestures by touch
        phone.locator(f"[data-testid=tray] [data-place='ship:{ship}']").first.tap()
        phone.locator(f"[data-testid=board] [data-place='slot:{slot}']").first.tap(position={"x": 12, "y": 12})
    phone.wait_for_timeout(450)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390, f"{name}: wider than the phone"
    SHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)  # the whole page: table, hand and panel


def still(page: Page, name: str) -> None:
    """A screenshot once the pieces that just arrived have settled (their entry animation is .35 s)."""
    page.wait_for_timeout(450)
    shot(page, name)


def test_tremble_full_game_by_board_gestures(server: str, browser: Browser) -> None:
    page = open_page(browser)
    phone = open_page(browser, PHONE, lang="ru")
    french = open_page(browser, lang="fr")
    goto(page, server + "/")
    page.click("[data-testid=game-card-tremble]")
    still(page, "tremble-1-lobby-desktop")
    page.click("[data-testid=mode-computer]")
    page.click("[data-testid=players-2]")
    page.click("[data-testid=level-heuristic]")
    page.click("[data-testid=more-options] summary")
    page.fill("[data-testid=ai-seconds]", "0.05")
    page.fill("[data-testid=player-name]", "Ann")
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=match-page][data-seat='0']")
    page.wait_for_selector("[data-testid=tremble-board]")
    url = page.url
    seat, token = seat_of(page)
    mid = page.get_attribute("[data-testid=match-page]", "data-match")
    assert mid and seat == 0
    rng = Rng.from_seed(11)
    state: dict[str, Any] = {}
    shots: set[str] = set()
    phases: list[str] = []
    for _step in range(600):
        page.wait_for_function(READY_OR_OVER, timeout=120_000)
        if page.locator("[data-testid=result]").count():
            break
        snap = seat_state(server, mid, seat, token)
        view = snap["view"]
        phase = view["phase"]
        # players are named, never "seat 0"
        assert "seat 0" not in page.inner_text("[data-testid=tremble-board]").lower()
        if phase == "buy" and "buy" not in shots:
            still(page, "tremble-2-buy-desktop")
            phone_shot(phone, url, "tremble-2-buy-phone")
            shots.add("buy")
        if phase == "plan" and "plan" not in shots and len(view["players"][0]["hand"]) >= 2:
            hand = view["players"][0]["hand"]
            draft = [(hand[0]["id"], view["slots"][0]["slot"]), (hand[1]["id"], view["slots"][-1]["slot"])]
            for ship, slot in draft:
                tap_hand(page, "ship:" + ship)
                tap_board(page, f"slot:{slot}")
            page.wait_for_function("() => document.querySelectorAll('[data-testid=board] .tr-group.draft').length === 2")
            tap_hand(page, "ship:" + hand[1]["id"])  # a ship picked: the cities are marked
            still(page, "tremble-3-plan-desktop")
            tap_hand(page, "ship:" + hand[1]["id"])
            phone_shot(phone, url, "tremble-3-plan-phone", draft)
            french.goto(url)
            french.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
            french.wait_for_selector("[data-testid=tremble-board]")
            still(french, "tremble-3-plan-desktop-fr")
            # a drafted ship dragged from its city to the other one: one group of two
            page.drag_and_drop(f"[data-testid=board] .tr-group.draft [data-place='ship:{hand[0]['id']}']",
                               f"[data-testid=board] [data-place='slot:{draft[1][1]}']", target_position={"x": 12, "y": 12})
            page.wait_for_function("() => document.querySelectorAll('[data-testid=board] .tr-group.draft').length === 1")
            assert page.locator("[data-testid=board] .tr-group.draft .tr-chip").count() == 2
            page.click("[data-testid=tremble-clear-plan]")
            shots.add("plan")
        if phase in ("declare", "respond") and "battle" not in shots and view["contest"]["kind"] == "battle":
            still(page, "tremble-4-battle-desktop")
            phone_shot(phone, url, "tremble-4-battle-phone")
            shots.add("battle")
        if phase in ("reward", "army") and "reward" not in shots:
            still(page, "tremble-5-reward-desktop")
            phone_shot(phone, url, "tremble-5-reward-phone")
            shots.add("reward")
        before = version(page)
        phases.append(decide(page, snap, rng, state))
        wait_played(page, before, {"phase": phases[-1], "legal": [a["type"] for a in snap["legal"]]})
        # a city's results once its dice are rolled: the winner of a battle, or the army fights of a catch
        if "story" not in shots and \
                page.locator("[data-testid=tremble-battle] tr.won, [data-testid=tremble-catch] li").count():
            still(page, "tremble-6-results-desktop")
            phone_shot(phone, url, "tremble-6-results-phone")
            shots.add("story")
        if view["turn"] >= 3:  # later turns: the computer's moves at once (the button goes when the moves are all shown)
            page.evaluate("() => { const b = document.querySelector('[data-testid=skip]'); if (b) b.click(); }")
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("[data-testid=result]")
    final = seat_state(server, mid, seat, token)
    assert final["match"]["status"] == "finished"
    assert final["view"]["phase"] == "over" and final["view"]["turn"] == final["view"]["turns"]
    title = page.inner_text("[data-testid=result-title]")
    assert ("You won" in title) == (0 in final["match"]["outcome"]["winners"])
    assert page.locator("[data-testid=tremble-final]").count() == 1
    assert page.locator("[data-testid=move-log] [data-testid=log-entry]").count() == final["version"]
    assert {"buy", "plan"} <= set(phases) and len(phases) >= 20
    still(page, "tremble-7-result-desktop")
    phone_shot(phone, url, "tremble-7-result-phone")
    assert {"buy", "plan", "story"} <= shots
    # the list of every legal action was never opened
    assert page.locator("[data-testid=legal-actions][open]").count() == 0
    assert errors_of(page) == [] and errors_of(phone) == [] and errors_of(french) == []
    kinds = json.dumps(sorted(set(phases)))
    print(f"tremble full game: {len(phases)} decisions by gestures, {final['version']} actions in all; {kinds}")
