"""The variant options (rules doc, "Variants") change the rules they name."""

from __future__ import annotations

import pytest

from spacetable.core.errors import RuleError
from spacetable.games.fullmetal.fmp import FmpMap, write_fmp
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.scenario import Scenario

BASE = {"board": {"width": 10, "height": 9, "fill": "$"}}


def sc(config: dict, units: list[dict], **extra: object) -> Scenario:
    return Scenario({**BASE, "config": config, "units": units, **extra})


@pytest.mark.rule("FM-15.5")
def test_neutralization_fmg_has_no_lock() -> None:
    """`neutralization=fmg`: neutralizers are not locked (FM-15.5 variant)."""
    units = [{"label": "B1", "kind": "T", "player": 1, "at": [6, 3]}, {"label": "A1", "kind": "GT", "player": 0, "at": [3, 3]},
             {"label": "A3", "kind": "T", "player": 0, "at": [4, 6]}]
    s = sc({"neutralization": "fmg"}, units)
    s.run_step({"action": {"type": "move", "unit": "A3", "path": [[4, 5], [5, 4]]}})
    assert s.state.units[s.uid("B1")].neut == [0]
    assert not s.state.units[s.uid("A1")].locked
    ok, msg = s.run_step({"action": {"type": "move", "unit": "A3", "path": [[5, 5]]}, "check": {"neutralized": {"B1": []}}})
    assert ok, msg


@pytest.mark.rule("FM-D26", "FM-16.1")
def test_turret_ammo_unlimited() -> None:
    """`turret_ammo=unlimited`: turrets keep firing (FMG)."""
    units = [{"label": "T", "kind": "T", "player": 0, "at": [5, 2], "shots": 9},
             {"label": "X1", "kind": "CR", "player": 1, "at": [4, 3]}, {"label": "X2", "kind": "CR", "player": 1, "at": [6, 3]},
             {"label": "X3", "kind": "CR", "player": 1, "at": [5, 3]}]
    ships = [{"player": 0, "dome": [5, 5], "orientation": "north"}]
    for ammo, expect in ((2, "illegal"), ("unlimited", "ok")):
        s = sc({"turret_ammo": ammo}, units, ships=ships)
        turret = s.state.units[s.state.ships[0]].turrets[0]
        for target in ([4, 3], [6, 3]):
            assert s.run_step({"action": {"type": "fire", "a": turret, "b": "T", "target": target}})[0]
        ok, _ = s.run_step({"action": {"type": "fire", "a": turret, "b": "T", "target": [5, 3]}, "expect": expect})
        assert ok


@pytest.mark.rule("FM-20.2", "FM-D24")
def test_takeoff_free_and_reserve_per_player() -> None:
    """`takeoff_cost=free`, `reserve=per_player` (FMG)."""
    s = GAME.initial_state(GAME.normalize_config({"players": 3, "reserve": "per_player"}), 1)
    assert s.reserve == {"tank": 12, "crab": 3, "pontoon": 3}
    assert GAME.initial_state(GAME.normalize_config({"players": 3}), 1).reserve == {"tank": 12, "crab": 3, "pontoon": 3}
    assert GAME.initial_state(GAME.normalize_config({"players": 2}), 1).reserve == {"tank": 16, "crab": 4, "pontoon": 4}
    ships = [{"label": "S", "player": 0, "dome": [5, 5], "orientation": "north", "destroyed": [[5, 4]]}]
    s2 = Scenario({**BASE, "config": {"takeoff_cost": "free"}, "ships": ships, "turn": 25, "ap": {"0": 0}})
    assert s2.run_step({"action": {"type": "take_off", "ship": "S"}})[0]


@pytest.mark.rule("FM-11.3")
def test_cargo_size_shell() -> None:
    """`cargo_size=shell`: a loaded crab still takes 2 barge slots (FM-11.3 variant)."""
    units = [{"label": "BG", "kind": "BG", "player": 0, "at": [[2, 2], [3, 2]], "cargo": [{"kind": "T"}, {"kind": "T"}]},
             {"label": "CR", "kind": "CR", "player": 0, "at": [1, 2], "cargo": [{"kind": "T"}, {"kind": "T"}]}]
    board = {"width": 10, "height": 9, "fill": ".", "columns": {"0": "$", "1": "$"}}
    s = Scenario({"board": board, "config": {"cargo_size": "shell"}, "units": units})
    assert s.run_step({"action": {"type": "load", "carrier": "BG", "item": "CR"}})[0]
    s = Scenario({"board": board, "units": units})
    assert s.run_step({"action": {"type": "load", "carrier": "BG", "item": "CR"}, "expect": "illegal", "rule": "FM-11.3"})[0]


@pytest.mark.rule("FM-19.2")
def test_mountain_tanks_penalty_and_no_zone() -> None:
    """FM-19.2: `penalty` lets the turn end (then -5 AP); `no_zone` silences one tank at once."""
    board = {"width": 10, "height": 9, "fill": "$", "cells": {"2,2": "#", "3,2": "#"}}
    units = [{"label": "T1", "kind": "T", "player": 0, "at": [2, 2]}, {"label": "T2", "kind": "T", "player": 0, "at": [3, 2]}]
    ships = [{"player": 0, "dome": [7, 6], "orientation": "north"}]
    s = Scenario({"board": board, "units": units, "ships": ships, "config": {"mountain_tanks": "no_zone"}})
    assert s.state.cov[0][s.state.board.index(6, 2)] == 0
    assert s.run_step({"action": {"type": "end_turn"}, "expect": "illegal", "rule": "FM-19.1"})[0]
    s = Scenario({"board": board, "units": units, "ships": ships, "config": {"mountain_tanks": "penalty"}, "ap": {"0": 0}})
    assert s.state.cov[0][s.state.board.index(5, 2)] == 0
    assert s.run_step({"action": {"type": "end_turn"}, "check": {"pool": {"0": 10}}})[0]


@pytest.mark.rule("FM-13.3", "FM-D41")
def test_forecast_single_and_fmg_turn_21() -> None:
    """`forecast=single` shows one card; `endgame=fmg` refuses aggressive actions on turn 21."""
    units = [{"kind": "WL", "player": 0, "at": [1, 1]}, {"kind": "WL", "player": 0, "at": [1, 6]}]
    ships = [{"player": 0, "dome": [7, 6], "orientation": "north"}]
    s = Scenario({**BASE, "units": units, "ships": ships, "config": {"forecast": "single"}, "turn": 4})
    assert s.run_step({"tide": "normal", "check": {"forecast_count": {"0": 1}}})[0]
    fire_units = [{"label": "A", "kind": "T", "player": 0, "at": [2, 2]}, {"label": "B", "kind": "T", "player": 0, "at": [2, 4]},
                  {"label": "X", "kind": "CR", "player": 1, "at": [3, 3]}]
    s = Scenario({**BASE, "units": fire_units, "config": {"endgame": "fmg"}, "turn": 21})
    with pytest.raises(RuleError):
        GAME.apply(s.state, 0, {"type": "fire", "a": s.uid("A"), "b": s.uid("B"), "target": [3, 3]})


@pytest.mark.rule("FM-D42")
def test_ore_values_multi() -> None:
    """`ore_values=multi`: ore carries a value and rare ore cannot build (FMG)."""
    s = GAME.initial_state(GAME.normalize_config({"ore_values": "multi"}), 2)
    values = {u.value for u in s.units.values() if u.kind == "ore"}
    assert values <= {0, 2, 3, 5} and len(values) > 1


@pytest.mark.rule("FM-D47")
def test_landing_zones(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`landing_rule=zones`: the ship lies inside one free zone; landing clears the zone and its reefs."""
    w, h = 20, 10
    terrain = ["$" * w for _ in range(h)]
    terrain[0] = "*" * w
    zones = ["A" * 10 + "B" * 10 for _ in range(h)]
    ore = ["2" + "." * (w - 1)] + ["." * w for _ in range(h - 1)]
    path = tmp_path / "z.fmp"
    path.write_bytes(write_fmp(FmpMap(w, h, terrain, ore, zones)))
    cfg = GAME.normalize_config({"map": "custom", "map_content": path.read_bytes().decode("cp1252"), "landing_rule": "zones"})
    s = GAME.initial_state(cfg, 1)
    first = GAME.to_act(s)[0]
    with pytest.raises(RuleError):
        GAME.apply(s, first, {"type": "land", "dome": [10, 5], "orientation": "north"})
    s = GAME.apply(s, first, {"type": "land", "dome": [4, 5], "orientation": "north"})
    assert not any(u.kind == "ore" for u in s.units.values())
    second = GAME.to_act(s)[0]
    with pytest.raises(RuleError):
        GAME.apply(s, second, {"type": "land", "dome": [6, 2], "orientation": "north"})
    s = GAME.apply(s, second, {"type": "land", "dome": [14, 5], "orientation": "north"})
    assert s.phase == "deploy"
