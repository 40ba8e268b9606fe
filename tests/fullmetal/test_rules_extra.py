"""Further rule checks beyond the acceptance scenarios (FM-8.3, FM-13.3, FM-14.3, FM-20.3, FM-D14, FM-D20)."""

from __future__ import annotations

import pytest

from spacetable.games.fullmetal.ai import AGENTS
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.pontoons import anchored, groups, remove_unit
from spacetable.games.fullmetal.scenario import Scenario


@pytest.mark.rule("FM-8.3", "FM-D5")
def test_fm_8_3_deployment_clash_cancels_both() -> None:
    """FM-8.3: two players using the same cell both lose that placement; the rest is placed."""
    sc = Scenario({
        "board": {"width": 16, "height": 12, "fill": "$"}, "phase": "deploy", "config": {"landing_min_distance": 4},
        "ships": [
            {"label": "SA", "player": 0, "dome": [4, 5], "orientation": "north",
             "cargo": [{"label": "TA", "kind": "T"}, {"label": "TA2", "kind": "T"}]},
            {"label": "SB", "player": 1, "dome": [10, 5], "orientation": "north", "cargo": [{"label": "TB", "kind": "T"}]},
        ],
    })
    assert sc.run_step({"action": {"type": "deploy", "units": [{"unit": "TA", "at": [7, 5]}, {"unit": "TA2", "at": [2, 5]}]},
                        "player": 0, "as_turn_player": False})[0]
    check = {"inside": {"TA": "SA", "TB": "SB"}, "at": {"TA2": [2, 5]}, "phase": "play"}
    ok, msg = sc.run_step({"action": {"type": "deploy", "units": [{"unit": "TB", "at": [7, 5]}]}, "player": 1,
                           "as_turn_player": False, "check": check})
    assert ok, msg


@pytest.mark.rule("FM-14.3", "FM-D14")
def test_d_14_lifting_a_pontoon_sinks_the_chain() -> None:
    """FM-D14 / FM-14.3: lifting the anchoring pontoon sinks the rest with its load."""
    sc = Scenario({
        "board": {"width": 6, "height": 5, "fill": ".", "columns": {"0": "$"}, "cells": {"1,2": "$"}},
        "pontoons": [{"label": "P1", "at": [2, 2]}, {"label": "P2", "at": [3, 2]}],
        "units": [{"label": "CR", "kind": "CR", "player": 0, "at": [1, 2]},
                  {"label": "T", "kind": "T", "player": 0, "at": [3, 2]}],
    })
    check = {"destroyed": ["P2", "T"], "inside": {"P1": "CR"}}
    ok, msg = sc.run_step({"action": {"type": "load", "carrier": "CR", "item": "P1"}, "check": check})
    assert ok, msg


@pytest.mark.rule("FM-20.3", "FM-D20")
def test_d_20_auto_takeoff_most_valuable_first() -> None:
    """FM-20.3 / FM-D20: with AP for one ship only, the higher-scoring ship takes off at end_turn."""
    sc = Scenario({
        "board": {"width": 20, "height": 12, "fill": "$"}, "turn": 25, "ap": {"0": 1},
        "ships": [
            {"label": "S1", "player": 0, "dome": [4, 5], "orientation": "north"},
            {"label": "S2", "player": 1, "dome": [14, 5], "orientation": "north", "captor": 0, "cargo": [{"kind": "OR"}]},
        ],
        "controller": {"1": 0},
    })
    check = {"departed": ["S2"], "not_departed": ["S1"], "score": {"0": 5}}
    ok, msg = sc.run_step({"action": {"type": "end_turn"}, "check": check})
    assert ok, msg


@pytest.mark.rule("FM-13.3")
def test_fm_13_3_seen_forecasts_stay_known() -> None:
    """FM-13.3: a forecast once seen stays in the player's view after the weather layer is gone."""
    sc = Scenario({
        "board": {"width": 20, "height": 12, "fill": "$"}, "turn": 5, "pile": ["high", "low", "normal"],
        "ships": [{"label": "SA", "player": 0, "dome": [4, 5], "orientation": "north"}],
        "units": [{"label": "W", "kind": "WL", "player": 0, "at": [10, 10]}],
    })
    assert sc.run_step({"tide": "normal", "check": {"forecast_count": {"0": 1}}})[0]
    remove_unit(sc.state, sc.state.units[sc.uid("W")])
    assert sc.run_step({"tide": "normal", "check": {"forecast_count": {"0": 1}}})[0]
    assert GAME.view(sc.state, 0)["forecast"] == {"6": "high"}


@pytest.mark.rule("FM-14.2", "FM-14.3", "FM-20.3")
@pytest.mark.parametrize(("players", "kinds"), [(3, ("greedy",)), (4, ("greedy", "commander"))])
def test_fm_14_3_no_pontoon_outlives_its_anchor_in_seeded_ai_games(players: int, kinds: tuple[str, ...]) -> None:
    """FM-14.2 / FM-14.3: after every action of these seeded AI games every pontoon group is anchored. In both,
    a chain hangs on a ship standing on swamp at high tide when that ship takes off at the end of turn 25: the
    chain must sink with the ship's departure (it once stayed afloat)."""
    cfg = GAME.normalize_config({"players": players})
    s = GAME.initial_state(cfg, 26)
    agents = [AGENTS[kinds[i % len(kinds)]](26 + i, 1.0) for i in range(players)]
    sank_at_take_off = False
    while GAME.to_act(s):
        p = GAME.to_act(s)[0]
        before = s
        s = GAME.apply(s, p, agents[p].choose(GAME, s, p))
        assert all(anchored(s, g) for g in groups(s)), f"turn {s.turn}: an unanchored pontoon group survived"
        lost = [x for x in s.graveyard[len(before.graveyard):] if x.startswith("pontoon")]
        sank_at_take_off |= bool(lost) and len(s.departed) > len(before.departed)
    assert sank_at_take_off
