"""Issue 23, "Guarded against regressions": every game's board at its main decision points after the first one
(tests/browser/test_boards.py compares the first decision), at 1400x900 and 390x844, against stored references in
tests/browser/screens/ with the same tolerance. Each match has two seated people and a fixed seed; the test plays
both seats through the API by a fixed rule, so every run reaches the same positions (no computer, no long game).
Regenerate the references with ``SPACETABLE_UPDATE_SCREENS=1`` (then look at them before committing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser

from .pages import DESKTOP, HTTP, PHONE, errors_of, goto, open_page, seat_state, seat_url
from .test_boards import act, compare, ready

pytestmark = [pytest.mark.browser, pytest.mark.boards, pytest.mark.timeout(600)]

State = dict[str, Any]
Rule = Callable[[State], dict[str, Any]]


def two_people(server: str, game: str, config: dict[str, Any]) -> tuple[str, list[str]]:
    body = {"game": game, "config": config, "ai_seats": {}, "player_name": "Ann", "join_seat": 0, "seed": 11,
            "open_seed": True}
    r = HTTP.post(f"{server}/api/matches", json=body)
    assert r.status_code == 201, r.text
    mid, ann = r.json()["match"]["id"], str(r.json()["token"])
    r = HTTP.post(f"{server}/api/matches/{mid}/seats/1/join", json={"name": "Bob"})
    assert r.status_code == 200, r.text
    return mid, [ann, str(r.json()["token"])]


def play_until(server: str, mid: str, tokens: list[str], rule: Rule, stop: Callable[[State], bool], most: int = 200,
               who: int = 0) -> None:
    """Both seats play ``rule`` until ``stop`` holds for seat ``who`` (on its turn)."""
    for _ in range(most):
        mine = seat_state(server, mid, who, tokens[who])
        assert mine["match"]["status"] == "running", "the game ended before the position came"
        if who in mine["to_act"] and stop(mine):
            return
        seat = who if who in mine["to_act"] else mine["to_act"][0]
        st = mine if seat == who else seat_state(server, mid, seat, tokens[seat])
        act(server, mid, seat, tokens[seat], st["version"], rule(st))
    raise AssertionError("the position never came")


def types(st: State) -> set[str]:
    return {a["type"] for a in st["legal"]}


def first_of(*kinds: str) -> Rule:
    """The first legal action of the first kind listed that is legal (else the first legal action)."""
    def rule(st: State) -> dict[str, Any]:
        for k in kinds:
            for a in st["legal"]:
                if a["type"] == k:
                    return dict(a)
        return dict(st["legal"][0])
    return rule


def shoot(server: str, browser: Browser, mid: str, token: str, name: str, seat: int = 0) -> None:
    for viewport, kind in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = open_page(browser, viewport)
        goto(page, seat_url(server, mid, seat, token))
        ready(page)
        page.wait_for_timeout(600)  # the opening zoom and the pieces' glides
        compare(page.locator("[data-testid=board]").screenshot(animations="disabled"), f"{name}-{kind}")
        assert errors_of(page) == []
        page.context.close()


def test_arena_placement_screens(server: str, browser: Browser) -> None:
    mid, tokens = two_people(server, "arena", {"red_seat": 0, "setup": "free"})
    play_until(server, mid, tokens, first_of("place"), lambda st: bool(types(st) & {"place", "setup"}))
    shoot(server, browser, mid, tokens[0], "arena-placement")


def test_fullmetal_deploy_and_play_screens(server: str, browser: Browser) -> None:
    mid, tokens = two_people(server, "fullmetal", {})
    rule = first_of("land", "deploy", "end_turn")
    play_until(server, mid, tokens, rule, lambda st: "deploy" in types(st))
    shoot(server, browser, mid, tokens[0], "fullmetal-deploy")
    play_until(server, mid, tokens, rule, lambda st: st["view"].get("phase") == "play" and "end_turn" in types(st))
    shoot(server, browser, mid, tokens[0], "fullmetal-play")


def test_galaxies_deploy_and_move_screens(server: str, browser: Browser) -> None:
    mid, tokens = two_people(server, "galaxies", {"mission": "m1-first-contact"})
    rule = first_of("choose_first", "launch", "end_deploy", "activate", "move", "end_movement", "end_activation",
                    "pass", "end_energy", "end_turn")
    play_until(server, mid, tokens, rule, lambda st: "launch" in types(st))
    shoot(server, browser, mid, tokens[0], "galaxies-deploy")
    play_until(server, mid, tokens, rule, lambda st: "move" in types(st))
    shoot(server, browser, mid, tokens[0], "galaxies-move")


def test_tremble_plan_screens(server: str, browser: Browser) -> None:
    mid, tokens = two_people(server, "tremble", {"players": 2})

    def rule(st: State) -> dict[str, Any]:  # the buy with the most ships (a fuller table), else the first action
        legal = st["legal"]
        return dict(max(legal, key=lambda a: len(a.get("buy", []))) if legal[0]["type"] == "buy" else legal[0])

    play_until(server, mid, tokens, rule, lambda st: "plan" in types(st))
    shoot(server, browser, mid, tokens[0], "tremble-plan")


def test_worlds_pairing_and_energy_screens(server: str, browser: Browser) -> None:
    mid, tokens = two_people(server, "worlds", {})
    rule = first_of("declare_combat", "allocate", "play_event", "commit_energy", "choose_tie_loss", "retreat",
                    "convert", "end_turn")
    play_until(server, mid, tokens, rule, lambda st: "allocate" in types(st))
    shoot(server, browser, mid, tokens[0], "worlds-pairing")
    play_until(server, mid, tokens, rule, lambda st: "commit_energy" in types(st), who=1)  # the defender's energy
    shoot(server, browser, mid, tokens[1], "worlds-energy", seat=1)
