"""Rule-audit regressions: deviations found by a second reading of the rules and of chapter 9 (seed).

Each test cites the rule it pins down (FM-*, D-*, seed §9.*).
"""

from __future__ import annotations

from typing import Any

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.rng import Rng
from spacetable.core.serial import action_key
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.scenario import Scenario


def run(sc: Scenario, step: dict[str, Any]) -> None:
    ok, msg = sc.run_step(step)
    assert ok, msg


def capture_position(red_neutralized: bool = True) -> Scenario:
    """Three players; A's ship at (5,5) has lost its three turrets, B's tank BT stands next to pod (5,4).
    C neutralizes both B's own tank BX and A's red tank RT (or only BX: RT then stands far away at (1,1))."""
    return Scenario({
        "players": 3, "active": 1, "board": {"width": 16, "height": 14, "fill": "$"},
        "ships": [{"label": "SA", "player": 0, "dome": [5, 5], "orientation": "north",
                   "destroyed": [[5, 4], [6, 6], [4, 6]]}],
        "units": [
            {"label": "BT", "kind": "T", "player": 1, "at": [5, 3]},
            {"label": "BM", "kind": "T", "player": 1, "at": [12, 1]},
            {"label": "BX", "kind": "T", "player": 1, "at": [12, 12], "neutralized_by": [2]},
            {"label": "RT", "kind": "T", "player": 0, "at": [10, 10] if red_neutralized else [1, 1],
             "neutralized_by": [2] if red_neutralized else []},
            {"label": "RS", "kind": "T", "player": 0, "at": [1, 12], "shots": 0},
            {"label": "C1", "kind": "T", "player": 2, "at": [10, 12]},
            {"label": "C2", "kind": "T", "player": 2, "at": [12, 10]},
        ],
        "ap": {"1": 10},
    })


@pytest.mark.rule("FM-18.2", "FM-15.6", "FM-D29")
def test_fm_18_2_retreat_window_after_a_ship_capture_is_for_acquired_units_only() -> None:
    """FM-18.2 / FM-15.6 / seed §9.3: after a mid-turn ship capture only the acquired neutralized units may
    retreat; the capturer's own units lost their window with the first action."""
    sc = capture_position()
    run(sc, {"action": {"type": "move", "unit": "BM", "path": [[12, 2]]}})
    run(sc, {"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"},
             "check": {"controller": {"RT": 1}, "neutralized": {"RT": [2], "BX": [2]}, "eliminated": [0]}})
    run(sc, {"action": {"type": "retreat", "unit": "BX", "to": [13, 12]}, "expect": "illegal", "rule": "FM-15.6"})
    run(sc, {"action": {"type": "retreat", "unit": "RT", "to": [9, 9]}, "check": {"neutralized": {"RT": []}}})


@pytest.mark.rule("FM-15.6", "FM-D29")
def test_fm_18_2_capture_first_keeps_the_full_retreat_window() -> None:
    """FM-15.6: a ship capture as the first action keeps the ordinary window open for every unit."""
    sc = capture_position()
    run(sc, {"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"}})
    run(sc, {"action": {"type": "retreat", "unit": "BX", "to": [13, 12]}, "check": {"neutralized": {"BX": []}}})
    run(sc, {"action": {"type": "retreat", "unit": "RT", "to": [9, 9]}})


@pytest.mark.rule("FM-18.2", "FM-D36")
def test_seed_9_2_acquired_units_are_at_once_useful() -> None:
    """Seed §9.2: the captured colour's units are 'at once useful for any action': destroyers get their
    2 shots for the capturer's turn (as captured units do, FM-17.2)."""
    sc = capture_position()
    assert sc.state.units[sc.uid("RS")].shots == 0
    run(sc, {"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"}})
    assert sc.state.units[sc.uid("RS")].shots == 2


@pytest.mark.rule("FM-D21", "FM-D40")
def test_d_21_resign_at_any_time() -> None:
    """FM-D21 / FM-D40: resign is allowed 'any time', not only on one's own turn."""
    sc = Scenario({"players": 3, "active": 0, "board": {"width": 30, "height": 12, "fill": "$"},
                   "ships": [{"player": 0, "dome": [4, 5]}, {"player": 1, "dome": [15, 5]}, {"player": 2, "dome": [26, 5]}]})
    s = GAME.apply(sc.state, 1, {"type": "resign"})
    assert s.eliminated[1] >= 0 and s.resigned[1] and s.controller[1] == -1
    assert s.active_player() == 0 and s.phase == "play"
    with pytest.raises(RuleError):
        GAME.apply(s, 1, {"type": "resign"})  # already out
    with pytest.raises(RuleError):
        GAME.apply(s, 2, {"type": "end_turn"})  # other actions still wait for their turn


@pytest.mark.rule("FM-18.3", "FM-D35")
def test_fm_18_3_recolouring_an_own_carrier_that_holds_foreign_units() -> None:
    """FM-18.3: the former controller 'prevents this by recolouring the carrier and cargo (capture it)':
    capturing one's own red barge with red captors recolours the blue tank inside it."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "$", "columns": {"5": ".", "6": "."}},
        "units": [
            {"label": "BG", "kind": "BG", "player": 0, "at": [[5, 4], [5, 5]],
             "cargo": [{"label": "BT", "kind": "T", "colour": 1}]},
            {"label": "A1", "kind": "T", "player": 0, "at": [4, 4]},
            {"label": "A2", "kind": "T", "player": 0, "at": [4, 5]},
        ],
    })
    run(sc, {"action": {"type": "capture", "a": "A1", "b": "A2", "target": "BG"},
             "check": {"colour": {"BT": 0, "BG": 0}, "pool": {"0": 29}}})


@pytest.mark.rule("FM-17.1", "FM-D35")
def test_fm_17_1_own_unit_of_that_colour_with_nothing_to_recolour_is_no_target() -> None:
    """FM-17.1: recolouring needs something of another colour."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "$"},
        "units": [{"label": "T", "kind": "T", "player": 0, "at": [5, 4]},
                  {"label": "A1", "kind": "T", "player": 0, "at": [4, 4]},
                  {"label": "A2", "kind": "T", "player": 0, "at": [4, 5]}],
    })
    run(sc, {"action": {"type": "capture", "a": "A1", "b": "A2", "target": "T"}, "expect": "illegal", "rule": "FM-17.1"})


@pytest.mark.rule("FM-2.2", "FM-D31")
def test_fm_2_2_no_gt_unloaded_into_a_crab_on_a_mountain() -> None:
    """FM-2.2: a crab carrying a GT never stands on a mountain, so a GT cannot be transshipped into one."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "$", "columns": {"4": "#", "5": ".", "6": "."}},
        "units": [
            {"label": "BG", "kind": "BG", "player": 0, "at": [[5, 4], [5, 5]], "cargo": [{"label": "G", "kind": "GT"}]},
            {"label": "CR", "kind": "CR", "player": 0, "at": [4, 4]},
        ],
    })
    run(sc, {"action": {"type": "unload", "carrier": "BG", "item": "G", "to": "CR"}, "expect": "illegal", "rule": "FM-2.2"})


@pytest.mark.rule("FM-16.2", "FM-D15")
def test_d_15_no_shot_at_a_carrier_holding_a_unit_you_control() -> None:
    """FM-16.2 / FM-D15: a cell holding anything the shooter controls is no target, cargo included
    (FM-18.3: acquired units may sit in the former controller's carriers)."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "$"},
        "units": [
            {"label": "BC", "kind": "CR", "player": 1, "at": [4, 4], "cargo": [{"label": "RT", "kind": "T", "colour": 0}]},
            {"label": "A1", "kind": "T", "player": 0, "at": [2, 4]},
            {"label": "A2", "kind": "T", "player": 0, "at": [2, 3]},
        ],
    })
    run(sc, {"action": {"type": "fire", "a": "A1", "b": "A2", "target": [4, 4]}, "expect": "illegal", "rule": "FM-16.2"})


@pytest.mark.rule("FM-15.5", "FM-21", "FM-D37")
def test_fm_15_5_locked_destroyers_may_still_capture() -> None:
    """FM-15.5 / FM-21: a locked destroyer 'may still fire and capture' (it only cannot change cell)."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "$"},
        "units": [{"label": "BC", "kind": "CR", "player": 1, "at": [5, 4]},
                  {"label": "A1", "kind": "T", "player": 0, "at": [4, 4], "locked": True},
                  {"label": "A2", "kind": "T", "player": 0, "at": [4, 5], "locked": True}],
    })
    assert any(a["type"] == "capture" for a in GAME.legal_actions(sc.state, 0))
    run(sc, {"action": {"type": "capture", "a": "A1", "b": "A2", "target": "BC"}, "check": {"controller": {"BC": 0}}})


@pytest.mark.rule("FM-11.2", "FM-D31")
def test_fm_11_2_no_transship_into_the_same_carrier() -> None:
    """FM-11.2: transshipping goes to *another* carrier; a barge cannot 'unload' into itself for 1 AP."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "."},
        "units": [{"label": "BG", "kind": "BG", "player": 0, "at": [[5, 4], [5, 5]], "cargo": [{"label": "T", "kind": "T"}]}],
    })
    run(sc, {"action": {"type": "unload", "carrier": "BG", "item": "T", "to": "BG"}, "expect": "illegal", "rule": "FM-11.2"})


@pytest.mark.rule("FM-13.3", "FM-D45")
def test_spec_1_2_deploy_forecast_is_seen_while_deploying() -> None:
    """FM-D45 ``deploy_forecast=true`` (PC): a weather layer sees the turn-3 tide *while deploying*,
    privately (FM-13.3); without the option nobody does."""
    for on in (True, False):
        cfg = GAME.normalize_config({"players": 2, "deploy_forecast": on})
        s = GAME.initial_state(cfg, 5)
        while s.phase == "land":
            p = GAME.to_act(s)[0]
            s = GAME.apply(s, p, GAME.legal_actions(s, p)[0])
        assert s.phase == "deploy"
        card = s.pile[0]
        for p in range(2):
            view = GAME.view(s, p)
            assert view["forecast"] == ({"3": card} if on else {})
        assert "forecast" not in GAME.view(s, None)


@pytest.mark.rule("FM-16.5", "FM-D8", "FM-D50")
def test_fm_16_5_two_step_assault_is_reachable_step_by_step() -> None:
    """FM-16.5 / FM-D50: an assault with a two-cell path equals `move` of the approach step followed by the
    one-step assault that legal_actions enumerates (only the last step and the shots are atomic)."""
    spec = {
        "board": {"width": 10, "height": 9, "fill": "$"},
        "units": [{"label": "B1", "kind": "T", "player": 1, "at": [6, 3]},
                  {"label": "B2", "kind": "T", "player": 1, "at": [6, 5]},
                  {"label": "A1", "kind": "GT", "player": 0, "at": [3, 3]},
                  {"label": "A2", "kind": "T", "player": 0, "at": [2, 4]}],
        "ap": {"0": 10},
    }
    atomic = Scenario(spec)
    run(atomic, {"action": {"type": "assault", "mover": "A2", "path": [[3, 4], [4, 4]],
                            "shots": [{"partner": "A1", "target": [6, 3]}]},
                 "check": {"destroyed": ["B1"], "neutralized": {"B2": [0]}, "pool": {"0": 6}}})
    stepwise = Scenario(spec)
    a1, a2 = stepwise.uid("A1"), stepwise.uid("A2")
    assert {"type": "move", "unit": a2, "path": [[3, 4]]} in GAME.legal_actions(stepwise.state, 0)
    run(stepwise, {"action": {"type": "move", "unit": "A2", "path": [[3, 4]]}})
    assault = {"type": "assault", "mover": a2, "path": [[4, 4]], "shots": [{"partner": a1, "target": [6, 3]}]}
    assert assault in GAME.legal_actions(stepwise.state, 0)
    run(stepwise, {"action": assault})
    assert GAME.state_to_json(stepwise.state) == GAME.state_to_json(atomic.state)
    # the atomic form is all or nothing: a failing last part leaves no trace of the approach step
    bad = Scenario(spec)
    run(bad, {"action": {"type": "assault", "mover": "A2", "path": [[3, 4], [4, 4]],
                         "shots": [{"partner": "A1", "target": [6, 5]}, {"partner": "A1", "target": [6, 5]}]},
              "expect": "illegal", "check": {}})
    run(bad, {"action": {"type": "move", "unit": "A2", "path": [[3, 4]]}, "check": {"pool": {"0": 9}, "at": {"A2": [3, 4]}}})


@pytest.mark.rule("FM-15.6")
def test_fm_15_6_a_stranded_neutralized_unit_cannot_retreat() -> None:
    """FM-15.6: 'stranded units cannot' retreat (a tank stuck on a reef at normal tide, under B's fire)."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "$", "cells": {"3,4": "*"}},
        "units": [{"label": "T", "kind": "T", "player": 0, "at": [3, 4]},
                  {"label": "B1", "kind": "T", "player": 1, "at": [5, 4]},
                  {"label": "B2", "kind": "T", "player": 1, "at": [5, 5]}],
        "settle": False,
    })
    sc.state.units[sc.uid("T")].neut = [1]
    run(sc, {"action": {"type": "retreat", "unit": "T", "to": [2, 4]}, "expect": "illegal"})


@pytest.mark.rule("FM-18.4", "FM-D26")
def test_seed_9_2_a_repaired_turret_fires_at_once() -> None:
    """Seed §9.2 / FM-18.4: 'a repaired turret can fire at once' (2 shots), here with a tank at a C unit."""
    sc = Scenario({
        "players": 3, "active": 1, "board": {"width": 16, "height": 12, "fill": "$"},
        "ships": [{"label": "SA", "player": 0, "dome": [5, 5], "orientation": "north", "destroyed": [[5, 4], [6, 6], [4, 6]]}],
        "units": [{"label": "BT", "kind": "T", "player": 1, "at": [5, 3]},
                  {"label": "BX", "kind": "T", "player": 1, "at": [3, 3]},
                  {"label": "C3", "kind": "T", "player": 2, "at": [5, 2]}],
        "ap": {"1": 10},
    })
    run(sc, {"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"}})
    run(sc, {"action": {"type": "repair", "ship": "SA", "pod": [5, 4]}, "check": {"pool": {"1": 12}}})
    turret = sc.state.units[sc.uid("SA")].turrets[0]
    assert sc.state.units[turret].shots == 2 and sc.state.units[turret].colour == 0
    run(sc, {"action": {"type": "fire", "a": turret, "b": "BX", "target": [5, 2]},
             "check": {"destroyed": ["C3"], "pool": {"1": 10}}})


@pytest.mark.rule("FM-12.2")
def test_seed_9_1_enter_through_a_pod_under_fire_from_a_cell_out_of_fire() -> None:
    """Seed §9.1 / FM-12.2: a unit goes in through a pod under opponent fire (here also turretless) if its own
    cell is out of fire."""
    sc = Scenario({
        "board": {"width": 10, "height": 9, "fill": "$"},
        "ships": [{"label": "SA", "player": 0, "dome": [5, 5], "orientation": "north", "destroyed": [[6, 6]]}],
        "units": [{"label": "T", "kind": "T", "player": 0, "at": [7, 5]},
                  {"label": "B1", "kind": "T", "player": 1, "at": [6, 8]},
                  {"label": "B2", "kind": "T", "player": 1, "at": [8, 7]}],
        "ap": {"0": 5},
    })
    run(sc, {"tide": "normal", "check": {"cov": {"1": {"6,6": 2, "7,5": 1}}}})
    run(sc, {"action": {"type": "enter", "unit": "T", "ship": "SA"}, "check": {"inside": {"T": "SA"}, "pool": {"0": 4}}})


@pytest.mark.rule("FM-22.1", "FM-22.2", "FM-D19")
def test_fm_22_1_server_timeout_plays_the_clock_rule_not_resign() -> None:
    """FM-22.1: when a clock runs out the server plays ``game.timeout_action`` (SRV-C2) instead of resigning:
    landing at a legal site, an empty deployment, ``stay`` on turn 21, ``end_turn`` in play; with an
    FM-19.1 mountain pair that could still separate, a separating move (end_turn would be rejected)."""

    def proposed(state: Any, seat: int) -> dict[str, Any]:
        before = GAME.state_to_json(state)
        action = GAME.timeout_action(state, seat)
        assert GAME.state_to_json(state) == before  # a pure query: the live state (RNG included) is untouched
        assert action is not None and action["type"] != "resign"
        assert action_key(action) in {action_key(a) for a in GAME.legal_actions(state, seat)}
        return action

    cfg = GAME.normalize_config({"players": 2})
    s = GAME.initial_state(cfg, 3)
    seen = set()
    while GAME.to_act(s) and s.turn <= 4:
        seat = GAME.to_act(s)[0]
        action = proposed(s, seat)
        seen.add(action["type"])
        s = GAME.apply(s, seat, action)
    assert seen == {"land", "deploy", "end_turn"}
    sc = Scenario({"board": {"width": 20, "height": 12, "fill": "$"}, "turn": 20, "active": 1,
                   "ships": [{"label": "SA", "player": 0, "dome": [15, 5]}, {"label": "SB", "player": 1, "dome": [4, 5]}],
                   "ap": {"1": 0}})
    s = GAME.apply(sc.state, 1, {"type": "end_turn"})
    assert s.phase == "depart"
    for seat in (0, 1):
        action = proposed(s, seat)
        assert set(action["choices"].values()) == {"stay"}
        s = GAME.apply(s, seat, action)
    assert s.phase == "play" and not s.departed
    pair = Scenario({"board": {"width": 10, "height": 9, "fill": "$", "cells": {"2,2": "#", "3,2": "#"}},
                     "units": [{"label": "T1", "kind": "T", "player": 0, "at": [2, 2]},
                               {"label": "T2", "kind": "T", "player": 0, "at": [3, 2]}], "ap": {"0": 3}})
    action = proposed(pair.state, 0)
    assert action["type"] == "move"
    s = GAME.apply(pair.state, 0, action)
    assert proposed(s, 0) == {"type": "end_turn"}


@pytest.mark.rule("FM-14.2", "FM-D14")
def test_d_14_ship_cells_anchor_pontoons_at_high_tide() -> None:
    """FM-14.2 / FM-D14: spaceship cells count as land for anchoring, which matters on swamp at high tide; a
    chain hanging on the ship survives the tide, a chain hanging on a swamp cell sinks with its load."""
    sc = Scenario({
        "board": {"width": 12, "height": 10, "fill": ".",
                  "cells": {"5,5": "%", "5,4": "%", "6,6": "%", "4,6": "%", "1,1": "%"}},
        "ships": [{"label": "SA", "player": 0, "dome": [5, 5], "orientation": "north"}],
        "pontoons": [{"label": "P1", "at": [7, 5]}, {"label": "P2", "at": [8, 5]}, {"label": "Q1", "at": [2, 1]}],
        "units": [{"label": "T", "kind": "T", "player": 0, "at": [8, 5]},
                  {"label": "T2", "kind": "T", "player": 0, "at": [2, 1]}],
    })
    run(sc, {"tide": "high", "check": {"alive": ["P1", "P2", "T"], "destroyed": ["Q1", "T2"]}})


@pytest.mark.rule("FM-8.3", "FM-2.6")
def test_spec_4_determinize_hides_the_first_player_lot_and_unseen_walk_tides() -> None:
    """FM-8.3 / hidden information: the turn-3 first player is drawn at reveal, so before it a determinized state must not
    carry the real lot; with ``random_walk`` the tides drawn for someone else's forecast stay hidden."""

    s = GAME.initial_state(GAME.normalize_config({"players": 4}), 9)
    lots = {GAME.determinize(s, 0, Rng.from_seed(k)).lot for k in range(40)}
    assert len(lots) > 1
    sc = Scenario({"board": {"width": 30, "height": 9, "fill": "$"}, "config": {"tide_generator": "random_walk"},
                   "ships": [{"player": 0, "dome": [20, 4]}, {"player": 1, "dome": [26, 4]}],
                   "units": [{"label": "W", "kind": "WL", "player": 1, "at": [2, 2]},
                             {"label": "W2", "kind": "WL", "player": 1, "at": [6, 6]}]})
    run(sc, {"tide": "normal", "check": {"forecast_count": {"1": 2, "0": 0}}})
    assert len(sc.state.pile) == 2
    mine = GAME.determinize(sc.state, 0, Rng.from_seed(1))
    assert mine.pile == [] and mine.forecasts[1] == {}
    theirs = GAME.determinize(sc.state, 1, Rng.from_seed(1))
    assert theirs.pile == sc.state.pile


@pytest.mark.rule("FM-15.6", "FM-18.2")
def test_fm_18_2_a_capture_acquiring_no_neutralized_unit_reopens_no_retreat() -> None:
    """FM-15.6 / FM-18.2 / seed §9.3 ("before any action"): a mid-turn ship capture that acquires no
    neutralized unit opens no window, so the capturer's own unit neutralized before it still cannot
    retreat (an empty list of acquired units once read as "every unit")."""
    sc = capture_position(red_neutralized=False)
    run(sc, {"action": {"type": "move", "unit": "BM", "path": [[12, 2]]}})
    run(sc, {"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"},
             "check": {"controller": {"RT": 1}, "neutralized": {"RT": [], "BX": [2]}}})
    run(sc, {"action": {"type": "retreat", "unit": "BX", "to": [13, 12]}, "expect": "illegal", "rule": "FM-15.6"})
    assert not [a for a in GAME.legal_actions(sc.state, 1) if a["type"] == "retreat"]
    assert GAME.view(sc.state, 1)["retreat_window"] is False


@pytest.mark.rule("FM-11.2", "FM-12.2", "FM-12.3", "FM-D31")
def test_seed_9_1_ship_and_carrier_transship_in_apply_and_legal_actions_alike() -> None:
    """Seed §9.1 ("for any load and unload the spaceship obeys the same rules as carriers"), FM-11.2, FM-12.3:
    the ship unloads straight into an adjacent carrier with room (through a pod with an intact turret) and a
    carrier unloads into the ship; the legal list offers exactly what apply accepts. A crab under fire
    receives nothing."""
    sc = Scenario({
        "board": {"width": 12, "height": 10, "fill": "$"},
        "ships": [{"label": "SA", "player": 0, "dome": [5, 5], "orientation": "north",
                   "cargo": [{"label": "T", "kind": "T"}, {"label": "G", "kind": "GT"}, {"label": "MB", "kind": "MB"}]}],
        "units": [{"label": "CR", "kind": "CR", "player": 0, "at": [5, 3], "cargo": [{"label": "O", "kind": "OR"}]},
                  {"label": "CX", "kind": "CR", "player": 0, "at": [7, 5]},
                  {"label": "B1", "kind": "T", "player": 1, "at": [9, 5]},
                  {"label": "B2", "kind": "T", "player": 1, "at": [9, 6]}],
    })
    ship, cr, cx = sc.uid("SA"), sc.uid("CR"), sc.uid("CX")
    legal = [a for a in GAME.legal_actions(sc.state, 0) if a["type"] == "unload" and isinstance(a["to"], int)]
    pairs = {(a["carrier"], a["item"], a["to"]) for a in legal}
    assert pairs == {(ship, sc.uid("T"), cr), (ship, sc.uid("G"), cr), (cr, sc.uid("O"), ship)}
    for a in legal:
        GAME.apply(sc.state, 0, a)
    run(sc, {"action": {"type": "unload", "carrier": "SA", "item": "T", "to": "CX"}, "expect": "illegal", "rule": "FM-11.1"})
    run(sc, {"action": {"type": "unload", "carrier": "SA", "item": "MB", "to": "CR"}, "expect": "illegal", "rule": "FM-11.3"})
    assert cx not in {a["to"] for a in legal}
