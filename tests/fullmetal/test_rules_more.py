"""One test per rule or decision that no scenario file checks: geometry, ore, unit roles, the turn cycle and the
house decisions of the rules doc (FM-D10, FM-D16, FM-D27, FM-D33, FM-D34, FM-D38, FM-D39, FM-D43, FM-D44,
FM-D46, FM-D49)."""

from __future__ import annotations

from typing import Any

import pytest

from spacetable.core.errors import RuleError
from spacetable.games.fullmetal.endgame import ranking, ship_score
from spacetable.games.fullmetal.fire import shooter_problem
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.legal import deployment_options
from spacetable.games.fullmetal.scenario import Scenario
from spacetable.games.fullmetal.state import ORE
from spacetable.games.fullmetal.terrain import SEA, get_board
from spacetable.games.fullmetal.transport import room_for

PLAIN_10x9 = {"width": 10, "height": 9, "fill": "$"}


def run(sc: Scenario, step: dict[str, Any]) -> None:
    ok, msg = sc.run_step(step)
    assert ok, msg


@pytest.mark.rule("FM-1.2", "FM-1.5", "FM-D2")
def test_odd_columns_sit_half_a_hex_lower() -> None:
    board = get_board(4, 3, "$" * 12)
    assert board.pixel(board.index(0, 0)) == (0.0, 0.0)
    x1, y1 = board.pixel(board.index(1, 0))
    assert x1 == 1.5 and y1 == pytest.approx(3**0.5 / 2)
    assert board.pixel(board.index(2, 1)) == (3.0, pytest.approx(3**0.5))
    # odd-q: (1,0) touches (0,0) and (0,1), and (2,0) and (2,1)
    assert {board.xy(n) for n in board.neigh[board.index(1, 0)]} == {(1, 1), (0, 0), (0, 1), (2, 0), (2, 1)}


@pytest.mark.rule("FM-3.2", "FM-4.3")
def test_ore_fills_its_cell_and_may_lie_on_a_pontoon() -> None:
    sc = Scenario({"board": PLAIN_10x9, "ore": [{"label": "O", "at": [3, 2]}],
                   "units": [{"label": "T", "kind": "T", "player": 0, "at": [2, 2]}]})
    run(sc, {"action": {"type": "move", "unit": "T", "path": [[3, 2]]}, "expect": "illegal", "rule": "FM-4.3"})
    on_pontoon = Scenario({"board": PLAIN_10x9, "pontoons": [{"label": "P", "at": [3, 2]}], "ore": [{"label": "O", "at": [3, 2]}],
                           "units": [{"label": "CR", "kind": "CR", "player": 0, "at": [2, 2]}]})
    run(on_pontoon, {"action": {"type": "load", "carrier": "CR", "item": "O"}, "check": {"inside": {"O": "CR"}, "alive": ["P"]}})


@pytest.mark.rule("FM-3.4", "FM-4.1")
def test_carriers_and_destroyers_have_their_roles() -> None:
    """Ore: a crab carries 2, a WL 1, each worth 2 points in a ship; only destroyers fire, only carriers load."""
    sc = Scenario({"board": PLAIN_10x9,
                   "ships": [{"label": "S", "player": 0, "dome": [5, 5], "cargo": [{"kind": "OR"}, {"kind": "OR"}]}],
                   "units": [{"label": "CR", "kind": "CR", "player": 0, "at": [1, 1], "cargo": [{"kind": "OR"}]},
                             {"label": "W", "kind": "WL", "player": 0, "at": [1, 3], "cargo": [{"kind": "OR"}]},
                             {"label": "T", "kind": "T", "player": 0, "at": [2, 2]},
                             {"label": "X", "kind": "CR", "player": 1, "at": [3, 2]}]})
    s = sc.state
    ore = s.new_unit(ORE)
    assert room_for(s, s.units[sc.uid("CR")], ore) and not room_for(s, s.units[sc.uid("W")], ore)
    assert ship_score(s, s.units[sc.uid("S")]) == (2 * 2 + 3, 2)
    assert shooter_problem(s, s.units[sc.uid("CR")], 0, s.cell_of([3, 2])) is not None
    run(sc, {"action": {"type": "load", "carrier": "T", "item": "X"}, "expect": "illegal", "rule": "FM-4.1"})


@pytest.mark.rule("FM-6.2", "FM-6.3", "FM-6.4", "FM-9.3")
def test_the_turn_cycle() -> None:
    """end_turn saves AP and passes on; the next player's destroyers get 2 shots and locks clear; after the last
    seat the next game turn draws a tide card and the first seat plays again."""
    sc = Scenario({"board": {"width": 20, "height": 12, "fill": "$"}, "turn": 6, "active": 0,
                   "ships": [{"label": "SA", "player": 0, "dome": [4, 5]}, {"label": "SB", "player": 1, "dome": [15, 5]}],
                   "units": [{"label": "A", "kind": "T", "player": 0, "at": [1, 1], "shots": 0},
                             {"label": "B", "kind": "T", "player": 1, "at": [18, 1], "shots": 0, "locked": True}],
                   "ap": {"0": 12, "1": 3}})
    pile = len(sc.state.pile)
    run(sc, {"action": {"type": "end_turn"}, "check": {"active": 1, "saved": {"0": 10}, "pool": {"1": 15}, "unlocked": ["B"]}})
    assert sc.state.units[sc.uid("B")].shots == 2 and sc.state.retreat_window
    run(sc, {"action": {"type": "end_turn"}, "check": {"turn": 7, "active": 0, "pool": {"0": 25}}})
    assert len(sc.state.pile) == pile - 1
    assert sc.state.units[sc.uid("A")].shots == 2


@pytest.mark.rule("FM-D10", "FM-9.2")
def test_an_illegal_action_costs_nothing() -> None:
    sc = Scenario({"board": PLAIN_10x9, "units": [{"label": "T", "kind": "T", "player": 0, "at": [2, 2]}], "ap": {"0": 1}})
    before = GAME.state_to_json(sc.state)
    with pytest.raises(RuleError) as err:
        GAME.apply(sc.state, 0, {"type": "move", "unit": sc.uid("T"), "path": [[2, 3], [2, 4]]})
    assert err.value.rule == "FM-9.2"
    assert GAME.state_to_json(sc.state) == before


@pytest.mark.rule("FM-D16", "FM-5.4", "FM-17.2")
def test_the_capturer_chooses_one_of_the_captors_colours() -> None:
    """A multicoloured army (player 0 controls colours 0 and 1) captures for either captor's colour, no other."""
    spec = {"players": 3, "board": PLAIN_10x9, "controller": {"1": 0},
            "units": [{"label": "A", "kind": "T", "player": 0, "at": [4, 4]},
                      {"label": "B", "kind": "T", "colour": 1, "at": [4, 5]},
                      {"label": "X", "kind": "CR", "player": 2, "at": [5, 4]}]}
    run(Scenario(spec), {"action": {"type": "capture", "a": "A", "b": "B", "target": "X"}, "check": {"colour": {"X": 0}}})
    run(Scenario(spec), {"action": {"type": "capture", "a": "A", "b": "B", "target": "X", "colour": 1},
                         "check": {"colour": {"X": 1}, "controller": {"X": 0}}})
    run(Scenario(spec), {"action": {"type": "capture", "a": "A", "b": "B", "target": "X", "colour": 2},
                         "expect": "illegal", "rule": "FM-17.1"})


@pytest.mark.rule("FM-D27")
def test_no_clock_by_default() -> None:
    cfg = GAME.normalize_config({})
    assert cfg["turn_clock_s"] is None and cfg["landing_clock_s"] is None and cfg["deploy_clock_s"] is None
    assert not any("clock" in k or "time" in k for k in GAME.view(GAME.initial_state(cfg, 1), None) if k != "config")


@pytest.mark.rule("FM-D33", "FM-11.2")
def test_unloaded_ore_follows_the_land_domain() -> None:
    board = {"width": 10, "height": 9, "fill": "$", "cells": {"3,2": "*", "1,2": "."}}
    spec = {"board": board, "units": [{"label": "CR", "kind": "CR", "player": 0, "at": [2, 2],
                                       "cargo": [{"label": "O", "kind": "OR"}]}]}
    run(Scenario(spec), {"action": {"type": "unload", "carrier": "CR", "item": "O", "to": [3, 2]},
                         "check": {"at": {"O": [3, 2]}}})
    run(Scenario(spec), {"action": {"type": "unload", "carrier": "CR", "item": "O", "to": [1, 2]}, "expect": "illegal"})


@pytest.mark.rule("FM-D34", "FM-11.1", "FM-15.3")
def test_neutralized_or_locked_units_are_not_loaded() -> None:
    units = [{"label": "CR", "kind": "CR", "player": 0, "at": [2, 2]},
             {"label": "T", "kind": "T", "player": 0, "at": [3, 2], "neutralized_by": [1]},
             {"label": "L", "kind": "T", "player": 0, "at": [2, 3], "locked": True}]
    sc = Scenario({"board": PLAIN_10x9, "units": units, "settle": False})
    run(sc, {"action": {"type": "load", "carrier": "CR", "item": "T"}, "expect": "illegal", "rule": "FM-11.1"})
    run(sc, {"action": {"type": "load", "carrier": "CR", "item": "L"}, "expect": "illegal", "rule": "FM-15.5"})


@pytest.mark.rule("FM-D38", "FM-17.1")
def test_a_turret_captures_only_from_a_pod_out_of_fire() -> None:
    """A's turret on pod (5,4) and tank (4,3) may take B's crab at (5,3), unless B's tanks at (3,5) and (7,5)
    put the pod under fire (the target and the tank stay out of it)."""
    units = [{"label": "T", "kind": "T", "player": 0, "at": [4, 3]}, {"label": "X", "kind": "CR", "player": 1, "at": [5, 3]}]
    guards = [{"kind": "T", "player": 1, "at": [3, 5]}, {"kind": "T", "player": 1, "at": [7, 5]}]
    spec = {"board": {"width": 12, "height": 10, "fill": "$"}, "ships": [{"label": "SA", "player": 0, "dome": [5, 5]}]}
    free = Scenario({**spec, "units": units})
    turret = free.state.units[free.uid("SA")].turrets[0]
    run(free, {"action": {"type": "capture", "a": turret, "b": "T", "target": "X"}, "check": {"controller": {"X": 0}}})
    guarded = Scenario({**spec, "units": units + guards, "settle": False})
    assert guarded.state.under_fire(guarded.state.cell_of([5, 4]), 0)
    assert not guarded.state.under_fire(guarded.state.cell_of([5, 3]), 0)
    run(guarded, {"action": {"type": "capture", "a": turret, "b": "T", "target": "X"}, "expect": "illegal", "rule": "FM-17.1"})


@pytest.mark.rule("FM-D39", "FM-20.6")
def test_a_later_elimination_ranks_higher() -> None:
    sc = Scenario({"players": 3, "board": PLAIN_10x9})
    s = sc.state
    s.eliminated[1] = s.lot_counter_next()
    s.eliminated[2] = s.lot_counter_next()
    assert ranking(s)[1] == [0, 2, 1]


@pytest.mark.rule("FM-D43", "FM-16.2", "FM-10.4")
def test_either_hex_lets_shooters_reach_either_barge_cell() -> None:
    """The barge stands on (5,4) and (5,5); A's tanks at (5,7) and (4,7) reach only (5,5) but the action names (5,4)."""
    spec = {"board": {"width": 12, "height": 10, "fill": "."},
            "units": [{"label": "BG", "kind": "BG", "player": 1, "at": [[5, 4], [5, 5]]},
                      {"label": "A1", "kind": "MB", "player": 0, "at": [5, 7]},
                      {"label": "A2", "kind": "MB", "player": 0, "at": [4, 7]}]}
    shot = {"action": {"type": "fire", "a": "A1", "b": "A2", "target": [5, 4]}}
    run(Scenario(spec), {**shot, "expect": "illegal", "rule": "FM-16.1"})
    run(Scenario({**spec, "config": {"barge_target": "either_hex"}}), {**shot, "check": {"destroyed": ["BG"]}})


@pytest.mark.rule("FM-D44", "FM-8.1")
def test_open_deployments_are_shown_at_once() -> None:
    for secret in (True, False):
        s = GAME.initial_state(GAME.normalize_config({"deploy_secret": secret}), 4)
        while s.phase == "land":
            s = GAME.apply(s, GAME.to_act(s)[0], GAME.legal_actions(s, GAME.to_act(s)[0])[0])
        action = GAME.legal_actions(s, 0)[0]
        seen = GAME.action_view(s, 0, action, 1)
        assert seen == ({"type": "deploy", "sealed": True} if secret else action)


@pytest.mark.rule("FM-D46", "FM-3.1")
def test_random_ore_placement_keeps_the_lattice_count() -> None:
    lattice = GAME.initial_state(GAME.normalize_config({}), 3)
    spread = GAME.initial_state(GAME.normalize_config({"ore_placement": "random"}), 3)
    cells = [u.cells[0] for u in spread.units.values() if u.kind == ORE]
    assert len(cells) == sum(1 for u in lattice.units.values() if u.kind == ORE)
    board = spread.board
    assert all(board.terrain[c] != SEA for c in cells)
    assert not any(n in set(cells) for c in cells for n in board.neigh[c])


@pytest.mark.rule("FM-D49", "FM-8.2")
def test_deployment_is_offered_as_three_formations() -> None:
    s = GAME.initial_state(GAME.normalize_config({}), 2)
    while s.phase == "land":
        s = GAME.apply(s, GAME.to_act(s)[0], GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    options = deployment_options(s, 0)
    legal = GAME.legal_actions(s, 0)
    assert [a["units"] for a in legal] == options and len(options) == 3 and options[-1] == []
    assert len(options[0]) > len(options[1]) > 0
