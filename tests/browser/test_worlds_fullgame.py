"""A complete Worlds & Suns skirmish against the AI in Debian chromium, played only by board gestures and composer
controls (the folded list of every legal action is never used): the match is created from the lobby (the "border
worlds" preset: home systems, a contested border, random event cards, energy income), combats are declared by
tapping a card marked in gold and then its Attack badge (WS-3.1), the pieces are paired by dragging them onto the
battles or tapping a piece and then a battle, the battle order changed with the composer's arrows (WS-4.2, WS-D2),
event cards played from the hand under the board (WS-5.1), energy set with the stepper and committed (WS-5.3), tie
losses, retreats and conversions tapped on the board (WS-5.6, WS-6.3, WS-6.4), turns ended from the composer
(WS-8.2). Screenshots of each main phase at 1400x900 and 390x844 (the phone in Russian, the longest words of the
four languages; the others' texts are checked on the catalogues, tests/browser/test_i18n.py) go to
tests/browser/screenshots/ (not committed)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.rng import Rng

from .pages import PHONE, READY_OR_OVER, errors_of, goto, open_page, seat_of, seat_state, shot, version, wait_played

pytestmark = [pytest.mark.browser, pytest.mark.fullgame, pytest.mark.timeout(900)]


def place(page: Page, where: str) -> Any:
    return page.locator(f"[data-testid=board] [data-place='{where}']")


def tap_place(page: Page, where: str) -> None:
    """Tap a board place the way a finger does: a lane by its number (its middle may hold a pawn), the pool and the
    Sun by their title."""
    if where.startswith("lane:") or where in ("pool", "sun"):
        place(page, where).click(position={"x": 16, "y": 14})
    else:
        place(page, where).first.click()


def drag(page: Page, source: str, target: str) -> None:
    """Drag a pawn onto a lane with the mouse (press, move in steps, release)."""
    a = place(page, source).bounding_box()
    b = place(page, target).bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 20, a["y"] + a["height"] / 2 + 10, steps=3)
    page.mouse.move(b["x"] + 60, b["y"] + 16, steps=6)
    page.mouse.up()


def pair_pieces(page: Page, snap: dict[str, Any], rng: Rng, shots: dict[str, bool], phone: Page, url: str) -> None:
    """Pair by gestures: the first piece dragged, the others tapped then a battle; every battle gets one piece first."""
    options = [a for a in snap["legal"] if a["type"] == "allocate"]
    target = options[rng.randbelow(len(options))]
    lane_of = {place(page, f"lane:{i}").get_attribute("data-anchor"): i for i in range(len(target["battles"]))}
    for n, battle in enumerate(target["battles"]):
        i = lane_of[battle["anchor"]]
        for k, pid in enumerate(battle["pieces"]):
            if n == 0 and k == 0:
                drag(page, f"pc:{pid}", f"lane:{i}")
            else:
                tap_place(page, f"pc:{pid}")
                if not page.locator(f"[data-testid=board] [data-place='pc:{pid}'].is-selected").count():
                    tap_place(page, f"pc:{pid}")  # it was picked already (the pool's next piece): the tap let it go
                tap_place(page, f"lane:{i}")
            page.wait_for_selector(f"[data-testid=board] [data-place='pc:{pid}']:not(.is-selected)")
            if not shots["allocate"]:
                shot(page, "worlds-3-pairing-desktop")
                phone_shot(phone, url, "worlds-3-pairing-phone-ru")
                shots["allocate"] = True
    page.wait_for_selector("[data-testid=worlds-fight]:not([disabled])")
    if len(target["battles"]) > 1 and rng.randbelow(2):
        page.click("[data-testid=worlds-down-0]")  # fight the first battle later (WS-D2)
    page.wait_for_selector("[data-testid=worlds-combat-odds]")
    page.click("[data-testid=worlds-fight]")


def perform(page: Page, snap: dict[str, Any], rng: Rng, shots: dict[str, bool], phone: Page, url: str) -> str:
    legal = snap["legal"]
    kinds = {a["type"] for a in legal}
    view = snap["view"]
    if "declare_combat" in kinds and (rng.randbelow(4) or "end_turn" not in kinds):
        cards = [a["card"] for a in legal if a["type"] == "declare_combat"]
        card = cards[rng.randbelow(len(cards))]
        tap_place(page, f"card:{card}")
        page.wait_for_selector("[data-testid=worlds-declare-box]")
        if not shots["declare"]:
            shot(page, "worlds-2-declare-desktop")
            shots["declare"] = True
        tap_place(page, f"attack:{card}")
        return "declare"
    if "end_turn" in kinds:
        page.click("[data-testid=worlds-end-turn]")
        return "end"
    if "allocate" in kinds:
        pair_pieces(page, snap, rng, shots, phone, url)
        return "allocate"
    if "play_event" in kinds:
        if not shots["event"]:
            shot(page, "worlds-4-event-desktop")
            phone_shot(phone, url, "worlds-4-event-phone-ru")
            shots["event"] = True
        cards = [a["card"] for a in legal if a["type"] == "play_event" and a["card"]]
        if cards and rng.randbelow(3):
            page.click(f"[data-testid=worlds-play-{cards[rng.randbelow(len(cards))]}]")
        else:
            page.click("[data-testid=worlds-no-event]")
        return "event"
    if "commit_energy" in kinds:
        pool = view["energy"][view["seat"]]
        n = rng.randbelow(min(pool, 3) + 1)
        for _ in range(n):
            page.click("[data-testid=worlds-energy-plus]")
        page.wait_for_function(f"() => document.querySelector('[data-testid=worlds-energy-value]').textContent.trim() === '{n}'")
        page.wait_for_selector("[data-testid=worlds-combat-odds]")
        if not shots["energy"]:
            shot(page, "worlds-5-energy-desktop")
            phone_shot(phone, url, "worlds-5-energy-phone-ru")
            shots["energy"] = True
        page.click("[data-testid=worlds-commit]")
        return "energy"
    if "choose_tie_loss" in kinds:
        pick = next(a for a in legal if a["type"] == "choose_tie_loss")["piece"]
        if not shots["tie"]:
            shot(page, "worlds-6-tie-desktop")
            shots["tie"] = True
        tap_place(page, f"pc:{pick}")
        return "tie"
    if "retreat" in kinds:
        cands = max((a["pieces"] for a in legal if a["type"] == "retreat"), key=len)
        chosen = cands[: 1 + rng.randbelow(len(cands))]
        for pid in chosen:
            tap_place(page, f"pc:{pid}")
        page.wait_for_function(f"() => document.querySelectorAll('[data-testid=board] .wpawn.picked').length === {len(chosen)}")
        if not shots["retreat"]:
            shot(page, "worlds-7-retreat-desktop")
            phone_shot(phone, url, "worlds-7-retreat-phone-ru")
            shots["retreat"] = True
        tap_place(page, "sun")
        return "retreat"
    if "convert" in kinds:
        facs = [a["factory"] for a in legal if a["type"] == "convert" and a["factory"]]
        if not shots["convert"]:
            shot(page, "worlds-8-convert-desktop")
            shots["convert"] = True
        if facs and rng.randbelow(3):
            tap_place(page, f"pc:{facs[0]}")
        else:
            page.click("[data-testid=worlds-convert-none]")
        return "convert"
    raise AssertionError(f"no gesture for {sorted(kinds)}")


def phone_shot(phone: Page, url: str, name: str) -> None:
    phone.goto(url)
    phone.wait_for_selector("[data-testid=match-page][data-caught-up=yes] [data-testid=worlds-board]")
    phone.wait_for_timeout(300)
    shot(phone, name)


def test_worlds_full_game_by_board_gestures(server: str, browser: Browser) -> None:
    page = open_page(browser)
    phone = open_page(browser, PHONE, lang="ru")
    goto(page, server + "/")
    page.click("[data-testid=game-card-worlds]")
    page.click("[data-testid=preset-border-worlds]")
    shot(page, "worlds-1-lobby-desktop")
    page.click("[data-testid=more-options] summary")
    page.fill("[data-testid=ai-seconds]", "0.1")
    page.fill("[data-testid=player-name]", "Ann")
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=match-page][data-seat='0'] [data-testid=worlds-board]")
    url = page.url
    seat, token = seat_of(page)
    mid = page.get_attribute("[data-testid=match-page]", "data-match")
    assert mid and seat == 0
    # the player is told which side it plays, in that side's colour
    page.wait_for_selector("[data-testid=worlds-you] [data-side=red]")
    rng = Rng.from_seed(11)
    shots = dict.fromkeys(("map", "declare", "allocate", "event", "energy", "tie", "retreat", "convert", "results"), False)
    done: list[str] = []
    for _ in range(400):
        page.wait_for_function(READY_OR_OVER, timeout=120_000)
        if page.locator("[data-testid=result]").count():
            break
        snap = seat_state(server, mid, seat, token)
        if not shots["map"] and snap["view"]["combat"] is None:
            # the event cards in hand show their text and why they cannot be played now
            page.click("[data-testid=worlds-hand] summary")
            for code in set(snap["view"]["hand"]):
                assert page.locator(f"[data-testid=worlds-card-{code}] .wcard-text").inner_text().strip()
                assert page.locator(f"[data-testid=worlds-why-{code}]").inner_text().strip()
            shot(page, "worlds-2-map-desktop")
            phone_shot(phone, url, "worlds-2-map-phone-ru")
            shots["map"] = True
        if not shots["results"] and snap["view"]["combat"] and any(b["totals"] for b in snap["view"]["combat"]["battles"]):
            shot(page, "worlds-6-battles-desktop")
            phone_shot(phone, url, "worlds-6-battles-phone-ru")
            shots["results"] = True
        before = version(page)
        done.append(perform(page, snap, rng, shots, phone, url))
        wait_played(page, before, done[-1])
    else:
        raise AssertionError("the skirmish did not end")
    page.wait_for_selector("[data-testid=result]")
    final = seat_state(server, mid, seat, token)
    assert final["match"]["status"] == "finished"
    title = page.inner_text("[data-testid=result-title]")
    assert ("You won" in title) == (0 in final["match"]["outcome"]["winners"])
    assert page.locator("[data-testid=move-log] [data-testid=log-entry]").count() == final["version"]
    shot(page, "worlds-9-result-desktop")
    phone_shot(phone, url, "worlds-9-result-phone-ru")
    # every kind of decision of a skirmish was taken by gestures or composer controls
    assert {"declare", "allocate", "event", "energy", "end"} <= set(done), done
    assert shots["results"]
    # the legal-action list was never opened
    assert page.locator("[data-testid=legal-actions][open]").count() == 0
    # the replay shows everything, step by step with the keyboard
    page.click("[data-testid=result-replay]")
    page.wait_for_selector("[data-testid=replay-page] [data-testid=worlds-board]")
    steps = final["version"]
    page.keyboard.press("Home")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '0 / {steps}'")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '4 / {steps}'")
    page.wait_for_selector("[data-testid=replay-page] [data-testid=worlds-board][data-step=allocate], "
                           "[data-testid=replay-page] [data-testid=worlds-board] .wlane")
    shot(page, "worlds-10-replay-desktop")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '{steps} / {steps}'")
    assert errors_of(page) == [] and errors_of(phone) == []
