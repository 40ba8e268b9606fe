"""A complete Battleship Galaxies game against the AI in Debian chromium, played only by board gestures and composer
controls (the folded list of every legal action is never used).

The match is created from the lobby (the "First contact" preset: fixed fleets, house mission 1). Ships are launched
by picking a card behind the screen (the tray under the board) and tapping a marked hex of the starting zone (BG-8.1;
a card in a hold beside its transporter, the frame's menu when a two-hex ship fits there several ways);
a card is activated by tapping one of its ships (BG-9.2); a ship moves by selecting it and tapping the marked hex
where its footprint ends (BG-10; the frame's menu when one hex ends several footprints); an attack by picking the
weapon in the composer and tapping the ringed enemy (BG-12.5, the odds shown); charges, energy choices, the first
player, tactic windows (pass) and the ends of steps are composer buttons. Screenshots of each main phase at
1400x900 and 390x844 (one in French) go to tests/browser/screenshots/ (not committed)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from spacetable.core.rng import Rng
from spacetable.games.galaxies.state import HAND_LIMIT

from .pages import (
    PHONE,
    errors_of,
    goto,
    open_page,
    pick_menu_item,
    seat_of,
    seat_state,
    shot,
    version,
    wait_played,
)
from .test_accessibility import serious

pytestmark = [pytest.mark.browser, pytest.mark.fullgame, pytest.mark.timeout(900)]

#: Ready for the seat's next decision (with the Galaxies renderer loaded: until then no composer is drawn), or over;
#: incoming moves are skipped through the frame's skip button.
READY = """() => {
  if (document.querySelector('[data-testid=result]')) return true;
  const skip = document.querySelector('[data-testid=skip]');
  if (skip) skip.click();
  const m = document.querySelector('[data-testid=match-page]');
  const t = document.querySelector('[data-testid=turn-indicator]');
  return !!(m && m.dataset.caughtUp === 'yes' && m.dataset.renderer !== 'loading' && t && t.dataset.myTurn === 'yes');
}"""
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hexd(a: list[int], b: list[int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def pieces(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: {**p, "card": c} for c in view["cards"] for p in c["ships"] if p["alive"] and p["hexes"]}


def move_end(view: dict[str, Any], a: dict[str, Any]) -> list[list[int]]:
    """The footprint a move ends on (as the renderer computes it: small and large step, medium lead-and-trail)."""
    hexes = pieces(view)[a["ship"]]["hexes"]
    if len(hexes) != 2:
        c = hexes[0]
        for d in a["path"]:
            c = [c[0] + DIRS[d][0], c[1] + DIRS[d][1]]
        return [c]
    lead = a["lead"] or hexes[0]
    trail = hexes[1] if lead == hexes[0] else hexes[0]
    for d in a["path"]:
        lead, trail = [lead[0] + DIRS[d][0], lead[1] + DIRS[d][1]], lead
    return [lead, trail]


def enemy_hexes(view: dict[str, Any]) -> list[list[int]]:
    me = view["you"]["side"]
    return [h for p in pieces(view).values() if p["card"]["side"] != me for h in p["hexes"]]


def choose(snap: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A purposeful player: launch everything, activate, close in on the enemy and fire; pass tactic windows."""
    legal, view = snap["legal"], snap["view"]
    by: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    for kind in ("choose_first", "market_draw"):
        if kind in by:
            return by[kind][0]
    if "pass" in by:
        return by["pass"][0]
    if "discard_for_energy" in by and len(my_side(view).get("hand") or []) > HAND_LIMIT:
        return by["discard_for_energy"][0]  # over the hand limit (BG-6.5): the page asks for the discards first
    plays = [a for a in by.get("play_tactic", []) if not a.get("choices", {}).get("hexes")]
    if plays and rng.randbelow(3) == 0:  # now and then a tactic card, its target picked on the board
        return plays[rng.randbelow(len(plays))]
    if "regen_shield" in by:
        return by["regen_shield"][0]
    if "end_energy" in by:
        return by["end_energy"][0]
    launches = [a for a in by.get("launch", []) if not a["cargo"]] + by.get("launch_from_hold", [])
    holds = {a["card"] for a in by.get("launch", []) if a["cargo"]}
    if holds:  # a transporter first, while cargo can still go in its hold (loaded in the composer, BG-8.7)
        launches = [a for a in launches if a["type"] == "launch" and a["card"] in holds]
    if launches:
        return launches[rng.randbelow(len(launches))]
    if "attack" in by:
        return by["attack"][rng.randbelow(len(by["attack"]))]
    if "charge" in by and rng.randbelow(2) == 0:
        return by["charge"][0]
    if "move" in by:
        enemies = enemy_hexes(view)
        if enemies:
            def closeness(a: dict[str, Any]) -> int:
                return min(hexd(h, e) for h in move_end(view, a) for e in enemies)
            best = min(closeness(a) for a in by["move"])
            here = min(hexd(h, e) for h in pieces(view)[by["move"][0]["ship"]]["hexes"] for e in enemies)
            if best < here:
                options = [a for a in by["move"] if closeness(a) == best]
                return options[rng.randbelow(len(options))]
    for kind in ("end_movement", "end_activation"):
        if kind in by:
            return by[kind][0]
    if "activate" in by:
        return by["activate"][rng.randbelow(len(by["activate"]))]
    for kind in ("end_deploy", "end_turn"):
        if kind in by:
            return by[kind][0]
    if "discard_for_energy" in by:  # over the hand limit (BG-6.5): a card must go before the turn ends
        return by["discard_for_energy"][0]
    raise AssertionError(f"no choice among {sorted(by)}")


def hk(h: list[int]) -> str:
    return f"h:{h[0]},{h[1]}"


def tap(page: Page, place: str) -> None:
    """Tap a board place: a ship by its piece id, a hex as h:q,r, a card under the board as tray:<card>."""
    if place.startswith("tray:"):
        page.locator(f"[data-testid=tray] [data-place='{place}']").click()
    elif place.startswith("h:"):
        page.locator(f"[data-testid=board] .cell[data-place='{place}']").click()
    else:
        page.locator(f"[data-testid=board] .ship[data-place='{place}']").first.click()


def adjacency_order(hexes: list[list[int]]) -> list[list[int]]:
    """The hexes from the first, each next one beside one already taken (how a player places a squadron)."""
    order, rest = [hexes[0]], list(hexes[1:])
    while rest:
        nxt = next(h for h in rest if any(hexd(h, o) == 1 for o in order))
        order.append(nxt)
        rest.remove(nxt)
    return order


def composer_button(page: Page, action: dict[str, Any]) -> None:
    buttons = page.locator("[data-testid=composer] button[data-action]")
    # two copies of a tactic card make one button (the same play): a play matches it whatever copy it names
    loose = (lambda a: {**a, "card": None}) if action["type"] in ("play_tactic", "respond") else (lambda a: a)
    for i in range(buttons.count()):
        shown = json.loads(buttons.nth(i).get_attribute("data-action") or "null")
        if shown == action or (shown and shown.get("type") == action["type"] and loose(shown) == loose(action)):
            buttons.nth(i).click()
            return
    raise AssertionError(f"no composer control for {action}")


def is_selected(page: Page, place: str) -> bool:
    return page.locator(f"[data-testid=board] .ship[data-place='{place}'].is-selected").count() > 0


def my_side(view: dict[str, Any]) -> dict[str, Any]:
    return dict(next(s for s in view["sides"] if s["side"] == view["you"]["side"]))


def entry_copies(view: dict[str, Any], card: str) -> list[str]:
    """The copies of tactic card ``card`` that the hand shows as one entry (in hand, or among the prepped), the first
    copy first: the entry and its controls go by that one's id."""
    side = my_side(view)
    for cards in (side.get("hand") or [], side.get("prepped") or []):
        key = next((c["key"] for c in cards if c["id"] == card), None)
        if key is not None:
            return [c["id"] for c in cards if c["key"] == key]
    return [card]


def perform(page: Page, snap: dict[str, Any], action: dict[str, Any]) -> None:
    """Do ``action`` with gestures on the board or the composer, as a player would."""
    kind, view = action["type"], snap["view"]
    same_place: list[dict[str, Any]] = []
    if kind == "launch" and len(action["placement"]) > 1:  # a squadron, ship by ship, each beside one placed (BG-8.2)
        tap(page, "tray:" + action["card"])
        for h in adjacency_order([fp[0] for fp in action["placement"].values()]):
            tap(page, hk(h))
    elif kind in ("launch", "launch_from_hold"):
        src = ("tray:" if kind == "launch" else "tray:hold:") + action["card"]
        tap(page, src)
        cargo = page.locator("[data-testid=gx-cargo] input[type=checkbox]:not([disabled])")
        if kind == "launch" and cargo.count():  # load the hold in the composer (BG-8.7): its first candidate
            cargo.first.check()
        footprint = next(iter(action["placement"].values()))
        tap(page, hk(footprint[0]))
        if kind == "launch_from_hold":  # a two-hex ship that fits beside its transporter several ways: the frame's menu
            same_place = [a for a in snap["legal"] if a["type"] == kind and a["card"] == action["card"]
                          and next(iter(a["placement"].values()))[0] == footprint[0]]
        elif page.locator("[data-testid=board] .gx-pinned").count():  # it fits there several ways: tap its second hex
            tap(page, hk(footprint[1]))
    elif kind == "activate":
        card = next(c for c in view["cards"] if c["id"] == action["card"])
        tap(page, next(p["id"] for p in card["ships"] if p["alive"] and p["hexes"]))
    elif kind == "move":
        if not is_selected(page, action["ship"]):
            tap(page, action["ship"])
        if action["lead"] is not None and page.locator("[data-testid^=gx-lead-][aria-checked=true]").count() == 0:
            tap(page, hk(action["lead"]))  # a medium ship's lead hex, chosen on the board (D-3)
        end = move_end(view, action)
        start = version(page)
        tap(page, hk(end[0]))  # by the least-ECM path there
        if len(end) > 1:
            # the page plays the move, or pins its end when the ship can end there facing several ways; the pin is
            # drawn a moment after the tap, so wait for one of the two before looking for it (a busy machine once
            # looked too early, left the stern untapped and the move unplayed)
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(
                    f"() => document.querySelector('[data-testid=version]').dataset.version !== '{start}'"
                    " || !!document.querySelector('[data-testid=board] .gx-pinned')", timeout=30_000)
        if page.locator("[data-testid=board] .gx-pinned").count():  # it can end there facing several ways: its stern
            tap(page, hk(end[1]))
    elif kind == "attack":
        if not is_selected(page, action["ship"]) and len(pieces(view)) and page.locator(
                f"[data-testid=board] .ship[data-place='{action['ship']}'].is-source").count():
            tap(page, action["ship"])
        chip = page.locator(f"[data-testid=gx-weapon-{action['weapon']}]")
        if chip.get_attribute("aria-checked") != "true":
            chip.click()
        tap(page, action["target"])
    elif kind == "play_tactic" and action.get("targets"):
        # the hand shows copies of one card as one entry, named by its first copy; a play of another copy is the
        # same play (the page aims the first one). Targets not drawn on the board are listed as buttons instead.
        copies = entry_copies(view, action["card"])
        entry = copies[0]
        aim = page.locator(f"[data-testid=gx-aim-{entry}]")
        try:
            page.wait_for_selector(f"[data-testid=gx-aim-{entry}], [data-testid^=gx-play-{entry}-]", timeout=60_000)
        except PlaywrightTimeout:
            hand = page.locator("[data-testid=gx-hand]")
            shown = hand.inner_text() if hand.count() else "no hand drawn"
            raise AssertionError(f"no control for {action} in the hand entry {entry}: {shown!r}") from None
        if not aim.count():
            composer_button(page, action)
            return
        aim.click()
        # the page aims the first of the entry's copies with an aimed play listed: the same play with that copy
        aimed = next((a["card"] for a in snap["legal"] if a["type"] == kind and a.get("targets") and a["card"] in copies),
                     action["card"])
        if {**action, "card": aimed} in snap["legal"]:
            action = {**action, "card": aimed}
        target = next(iter(action["targets"].values()))
        card = next((c for c in view["cards"] if c["id"] == target), None)
        tap(page, next(p["id"] for p in card["ships"] if p["alive"] and p["hexes"]) if card else target)
        same_place = [a for a in snap["legal"] if a["type"] == kind and a["card"] == action["card"]
                      and next(iter(a["targets"].values()), None) == target]
    else:
        composer_button(page, action)
    if len(same_place) > 1:
        pick_menu_item(page, action)


def phone_shot(phone: Page, url: str, name: str) -> None:
    phone.goto(url)
    phone.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    phone.wait_for_timeout(300)
    shot(phone, name)


def test_galaxies_full_game_by_board_gestures(server: str, browser: Browser) -> None:
    page = open_page(browser)
    phone = open_page(browser, PHONE, lang="fr")
    goto(page, server + "/")
    page.click("[data-testid=game-card-galaxies]")
    page.click("[data-testid=preset-intro]")
    page.click("[data-testid=level-policy]")
    page.click("[data-testid=more-options] summary")
    page.fill("[data-testid=ai-seconds]", "0.1")
    page.fill("[data-testid=player-name]", "Ann")
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=match-page][data-seat='0']")
    url = page.url
    seat, token = seat_of(page)
    mid = page.get_attribute("[data-testid=match-page]", "data-match")
    assert mid and seat == 0
    rng = Rng.from_seed(11)
    shots: set[str] = set()
    used: set[str] = set()

    def snapshot(name: str) -> None:
        if name in shots:
            return
        shots.add(name)
        shot(page, f"galaxies-{len(shots)}-{name}-desktop")
        assert serious(page) == [], name  # axe: no serious violation with a ship selected, odds and menus shown
        phone_shot(phone, url, f"galaxies-{len(shots)}-{name}-phone-fr")

    for _ in range(1500):
        page.wait_for_function(READY, timeout=180_000)
        if page.locator("[data-testid=result]").count():
            break
        snap = seat_state(server, mid, seat, token)
        action = choose(snap, rng)
        used.add(action["type"])
        window = snap["view"]["window"]
        if window == "deploy" and "deploy" not in shots and action["type"] == "launch":
            tap(page, "tray:" + action["card"])  # the picked card and its marked hexes
            snapshot("deploy")
            tap(page, "tray:" + action["card"])
        if action["type"] == "move" and "move" not in shots:
            if not is_selected(page, action["ship"]):  # a tap on the selected ship would put it down again
                tap(page, action["ship"])
            snapshot("move")
        if action["type"] == "attack" and "attack" not in shots:
            if not is_selected(page, action["ship"]) and page.locator(
                    f"[data-testid=board] .ship[data-place='{action['ship']}'].is-source").count():
                tap(page, action["ship"])
            page.click(f"[data-testid=gx-weapon-{action['weapon']}]")
            snapshot("attack")
        before = version(page)
        perform(page, snap, action)
        wait_played(page, before, {"window": window, "action": action})
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("[data-testid=result]")
    final = seat_state(server, mid, seat, token)
    assert final["match"]["status"] == "finished"
    title = page.inner_text("[data-testid=result-title]")
    assert ("You won" in title) == (0 in final["match"]["outcome"]["winners"])
    print("galaxies full game, actions used:", sorted(used))
    assert {"launch", "activate", "move", "attack", "end_turn"} <= used, used
    launched = [e for e in final["log"] if e["seat"] == 0 and (e["action"] or {}).get("type") == "launch"]
    assert any(e["action"].get("cargo") for e in launched), "a hold was loaded in the composer"
    shot(page, "galaxies-9-result-desktop")
    phone_shot(phone, url, "galaxies-9-result-phone-fr")
    # the log shows the server's notation for every action
    texts = page.locator("[data-testid=move-log] .log-what").all_inner_texts()
    assert len(texts) == final["version"]
    # the dice results panel showed the attacks
    assert page.locator("[data-testid=galaxies-results] li").count() > 0
    # the legal-action list was never opened
    assert page.locator("[data-testid=legal-actions][open]").count() == 0
    assert errors_of(page) == [] and errors_of(phone) == []
