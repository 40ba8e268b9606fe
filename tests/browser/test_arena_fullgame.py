"""A complete Cosmic Arena game against the AI in Debian chromium, played only by board gestures and composer controls
(the folded list of every legal action is never used): the match is created from the lobby (free placement), the
ships are placed by picking them in the tray and tapping home cells (AR-2.7), moves are made by selecting a ship and
tapping a marked cell (the frame's menu when a cell offers a move with and without a bonus teleport, AR-8.6),
teleports from the composer (AR-6, AR-7). Screenshots of each main phase at 1400x900 and 390x844 go to
tests/browser/screenshots/ (not committed)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.rng import Rng

from .pages import (
    PHONE,
    READY_OR_OVER,
    errors_of,
    goto,
    open_page,
    pick_menu_item,
    seat_of,
    seat_state,
    shot,
    tap,
    version,
    wait_played,
)

pytestmark = [pytest.mark.browser, pytest.mark.fullgame, pytest.mark.timeout(600)]


def choose(snap: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A calm but purposeful choice: a capture when there is one, else a random move or teleport (never offers)."""
    legal = [a for a in snap["legal"] if a["type"] != "accept_end"]
    enemy = {s["cell"] for s in snap["view"]["ships"] if s["colour"] != snap["view"]["you"]}
    captures = [a for a in legal if a["type"] == "move" and a["to"] in enemy]
    if captures:
        return captures[rng.randbelow(len(captures))]
    moves = [a for a in legal if a["type"] in ("move", "place")]
    if moves and (rng.randbelow(5) or len(moves) == len(legal)):
        return moves[rng.randbelow(len(moves))]
    return legal[rng.randbelow(len(legal))]


def perform(page: Page, snap: dict[str, Any], action: dict[str, Any]) -> None:
    """Do ``action`` with gestures on the board or the composer, as a player would."""
    kind = action["type"]
    if kind == "place":
        tap(page, "tray:" + action["ship"])
        tap(page, action["cell"])
    elif kind == "move":
        tap(page, action["from"])
        tap(page, action["to"])
        same = [a for a in snap["legal"] if a["type"] == "move" and a["from"] == action["from"] and a["to"] == action["to"]]
        if len(same) > 1:
            pick_menu_item(page, action)
    elif kind in ("permute", "rotate"):
        chips = page.locator("[data-testid=arena-teleports] [data-arena-action]")  # under the board
        for i in range(chips.count()):
            if json.loads(chips.nth(i).get_attribute("data-arena-action") or "null") == action:
                chips.nth(i).click()  # the ships it moves are drawn with arrows on the board
                page.wait_for_selector("[data-testid=arena-arrows] .arena-arrow")
                page.click("[data-testid=arena-teleport-go]")
                break
        else:
            raise AssertionError(f"no teleport control for {action}")
    else:
        raise AssertionError(f"unexpected action {action}")


def phone_shot(phone: Page, url: str, name: str) -> None:
    phone.goto(url)
    phone.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    phone.wait_for_timeout(300)
    shot(phone, name)


def test_arena_full_game_by_board_gestures(server: str, browser: Browser) -> None:
    page = open_page(browser)
    phone = open_page(browser, PHONE)
    goto(page, server + "/")
    goto(phone, server + "/")
    shot(page, "arena-1-lobby-desktop")
    shot(phone, "arena-1-lobby-phone")
    page.click("[data-testid=game-card-arena]")
    page.click("[data-testid=preset-free]")
    page.click("[data-testid=level-shallow]")
    page.click("[data-testid=more-options] summary")
    page.select_option("[data-testid=opt-red_seat]", json.dumps(0))
    page.fill("[data-testid=ai-seconds]", "0.1")
    page.fill("[data-testid=player-name]", "Ann")
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=match-page][data-seat='0']")
    url = page.url
    seat, token = seat_of(page)
    mid = page.get_attribute("[data-testid=match-page]", "data-match")
    assert mid and seat == 0
    rng = Rng.from_seed(2024)
    shots = {"place": False, "play": False, "mid": False}
    for turn in range(400):
        page.wait_for_function(READY_OR_OVER, timeout=120_000)
        if page.locator("[data-testid=result]").count():
            break
        snap = seat_state(server, mid, seat, token)
        phase = snap["view"]["phase"]
        if phase == "place" and not shots["place"]:
            tap(page, "tray:111")  # show the marked home cells in the screenshot, then put the ship back
            shot(page, "arena-2-placement-desktop")
            tap(page, "tray:111")
            phone_shot(phone, url, "arena-2-placement-phone")
            shots["place"] = True
        if phase == "play" and (not shots["play"] or (turn > 20 and not shots["mid"])):
            mine = [a for a in snap["legal"] if a["type"] == "move"]
            tap(page, mine[0]["from"])  # a selected ship and its marked targets
            key = "play" if not shots["play"] else "mid"
            shot(page, f"arena-{3 if key == 'play' else 4}-{key}-desktop")
            tap(page, mine[0]["from"])
            phone_shot(phone, url, f"arena-{3 if key == 'play' else 4}-{key}-phone")
            shots[key] = True
            page.wait_for_function(READY_OR_OVER, timeout=120_000)
            snap = seat_state(server, mid, seat, token)
        action = choose(snap, rng)
        before = version(page)
        perform(page, snap, action)
        wait_played(page, before, action)
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("[data-testid=result]")
    title = page.inner_text("[data-testid=result-title]")
    final = seat_state(server, mid, seat, token)
    assert final["match"]["status"] == "finished"
    assert ("You won" in title) == (0 in final["match"]["outcome"]["winners"])
    assert page.locator("[data-testid=move-log] [data-testid=log-entry]").count() == final["version"]
    # the log shows every capture with x, for both sides (notation from the server)
    texts = page.locator("[data-testid=move-log] .log-what").all_inner_texts()
    assert texts == [e["notation"] for e in final["log"]]
    assert any("x" in t for t in texts)
    shot(page, "arena-5-result-desktop")
    phone_shot(phone, url, "arena-5-result-phone")
    assert shots["place"] and shots["play"]
    # the legal-action list was never opened
    assert page.locator("[data-testid=legal-actions][open]").count() == 0
    # the replay steps with the keyboard
    page.click("[data-testid=result-replay]")
    page.wait_for_selector("[data-testid=replay-page]")
    steps = final["version"]
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '{steps} / {steps}'")
    page.keyboard.press("Home")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '0 / {steps}'")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '2 / {steps}'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '1 / {steps}'")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '{steps} / {steps}'")
    shot(page, "arena-6-replay-desktop")
    assert errors_of(page) == [] and errors_of(phone) == []
