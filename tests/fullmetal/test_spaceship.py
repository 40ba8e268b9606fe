"""Seed chapter "9 Spaceship": every sentence checked beyond the S-26..S-32 scenarios."""

from __future__ import annotations

from typing import Any

import pytest

from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.scenario import Scenario

BOARD = {"width": 20, "height": 12, "fill": "$"}


def captured() -> Scenario:
    """B (seat 1) can capture A's turretless ship; B also owns a ship of its own."""
    return Scenario({
        "board": BOARD, "active": 1, "turn": 25,
        "ships": [
            {"label": "SA", "player": 0, "dome": [5, 5], "orientation": "north", "destroyed": [[5, 4], [6, 6], [4, 6]],
             "cargo": [{"kind": "OR"}]},
            {"label": "SB", "player": 1, "dome": [14, 5], "orientation": "north"},
        ],
        "units": [
            {"label": "BT", "kind": "T", "player": 1, "at": [5, 3]},
            {"label": "BT2", "kind": "T", "player": 1, "at": [7, 5]},
            {"label": "AR", "kind": "T", "player": 0, "at": [1, 10]},
        ],
        "ap": {"1": 20},
    })


@pytest.mark.rule("FM-5.3", "FM-12.2")
def test_seed_9_4_entering_a_ship_changes_colour() -> None:
    """Seed 9.4: any unit penetrating into a spaceship takes the colour of this spaceship."""
    sc = captured()
    assert sc.run_step({"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"}})[0]
    check = {"colour": {"BT2": 0}, "inside": {"BT2": "SA"}}
    ok, msg = sc.run_step({"action": {"type": "enter", "unit": "BT2", "ship": "SA"}, "check": check})
    assert ok, msg


@pytest.mark.rule("FM-5.4", "FM-9.1", "FM-9.4")
def test_seed_9_2_multiple_ships_play_once_and_earn_more() -> None:
    """Seed 9.2: a player controlling several ships plays once per turn, +5 AP per extra ship."""
    sc = captured()
    sc.state.turn = 10
    assert sc.run_step({"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"}})[0]
    s = GAME.apply(sc.state, 1, {"type": "end_turn"})
    assert s.turn == 11 and s.active_player() == 1
    assert s.pool[1] == 20 + 10


@pytest.mark.rule("FM-20.2", "FM-5.2")
def test_seed_9_5_takeoff_deactivates_that_colour_only() -> None:
    """Seed 9.5: units of the departing ship's colour are deactivated even if the player keeps another ship."""
    sc = captured()
    assert sc.run_step({"action": {"type": "capture_ship", "destroyer": "BT", "ship": "SA"}})[0]
    check = {"controller": {"AR": -1, "BT2": 1}, "departed": ["SA"]}
    ok, msg = sc.run_step({"action": {"type": "take_off", "ship": "SA"}, "check": check})
    assert ok, msg
    dep = sc.state.departed[0]
    assert dep["player"] == 1 and dep["score"] == 3


@pytest.mark.rule("FM-18.1")
def test_seed_9_2_turretless_ship_keeps_its_powers() -> None:
    """Seed 9.2 remark: until a destroyer penetrates, a turretless ship keeps all its powers (loads, exits by... none)."""
    sc = captured()
    sc.state.current = 0
    sc.state.pool[0] = 10
    ore = sc.state.new_unit("ore", -1, cells=[sc.state.board.index(4, 7)])
    sc.state.occ[ore.cells[0]] = ore.id
    s = GAME.apply(sc.state, 0, {"type": "load", "carrier": sc.uid("SA"), "item": ore.id})
    assert ore.id in s.units[sc.uid("SA")].cargo


@pytest.mark.rule("FM-16.2", "FM-4.2")
def test_seed_9_dome_is_not_a_target_and_cargo_is_indestructible() -> None:
    """Seed 9: except for its turrets, the spaceship and its load are indestructible."""
    units = [{"label": "A1", "kind": "GT", "player": 0, "at": [2, 5]}, {"label": "A2", "kind": "GT", "player": 0, "at": [3, 7]}]
    ships = [{"label": "SB", "player": 1, "dome": [5, 5], "orientation": "north"}]
    sc = Scenario({"board": BOARD, "ships": ships, "units": units})

    def fire(target: list[int]) -> dict:
        return {"type": "fire", "a": "A1", "b": "A2", "target": target}

    assert sc.run_step({"action": fire([5, 5]), "expect": "illegal", "rule": "FM-16.2"})[0]
    assert sc.run_step({"action": fire([4, 6])})[0]
    assert sc.run_step({"action": fire([4, 6]), "expect": "illegal", "rule": "FM-16.2"})[0]


@pytest.mark.hotpath
@pytest.mark.rule("FM-8.2")
@pytest.mark.parametrize("config", [{}, {"players": 3}, {"players": 4, "map": "generated", "map_seed": 5},
                                    {"map": "generated", "map_seed": 11, "map_size": "small", "deploy_radius": 3}])
def test_the_deployment_list_is_the_same_without_a_copy_for_every_try(config: dict) -> None:
    """Issue 26: ``legal.formation`` tries most placements on its scratch state itself (``validate_deploy`` refuses
    a single entry before placing anything, except a tank on a mountain, tried on a copy); the deployments it offers
    are those of trying every placement on a copy, for every seat of every deployment met in random play."""
    import random

    from spacetable.games.fullmetal.legal import formation

    rng, checked = random.Random(4), 0
    for seed in range(3):
        state = GAME.initial_state(GAME.normalize_config(config), seed)
        for _ in range(30):
            seats = GAME.to_act(state)
            if not seats:
                break
            actions = GAME.legal_actions(state, seats[0])
            if actions and actions[0]["type"] == "deploy":
                for seat in seats:
                    for all_units in (True, False):
                        fast = formation(state, seat, all_units)
                        assert fast == formation(state, seat, all_units, copy_every_trial=True)
                        checked += 1
            state = GAME.apply(state, seats[0], rng.choice(actions))
    assert checked >= 4


@pytest.mark.hotpath
@pytest.mark.rule("FM-7.2")
@pytest.mark.parametrize("rule", ["distance", "zones"])
def test_landing_answers_are_the_same_from_the_maps_table(rule: str) -> None:
    """Issue 26: what the map alone says of a landing (footprint, plain or swamp, the full disc) is kept with the map
    (``spaceship._site``); every landing of every seat, before and after ships are down, is answered as by a map
    without that table, and a made-up orientation is answered but never kept."""
    import random

    from spacetable.games.fullmetal.spaceship import ORIENTATIONS, landing_problem
    from spacetable.games.fullmetal.terrain import Board

    config: dict = {"players": 3}
    if rule == "zones":  # a plain map in three zones, the middle one edged with swamp and reefs
        from spacetable.games.fullmetal.fmp import FmpMap, write_fmp

        w, h = 21, 10
        terrain = ["$" * w for _ in range(h)]
        terrain[0], terrain[9] = "*" * w, "%" * w
        fmap = FmpMap(w, h, terrain, None, ["A" * 7 + "B" * 7 + "C" * 7 for _ in range(h)])
        config = {"players": 2, "map": "custom", "map_content": write_fmp(fmap).decode("cp1252"), "landing_rule": "zones"}
    state = GAME.initial_state(GAME.normalize_config(config), 2)
    rng = random.Random(5)
    for _ in range(3):
        seats = GAME.to_act(state)
        fresh = Board(state.width, state.height, state.terrain)  # the same map, nothing derived from it yet
        for seat in seats:
            for cell in state.board.cells:
                for o in ORIENTATIONS:
                    kept = landing_problem(state, seat, cell, o)
                    state.__dict__["board"], board = fresh, state.board
                    assert landing_problem(state, seat, cell, o) == kept
                    state.__dict__["board"] = board
        assert landing_problem(state, seats[0], state.board.cells[0], "sideways") is not None
        assert all(o in ORIENTATIONS for _, o in state.board.derived["landing_sites"])
        lands = [a for a in GAME.legal_actions(state, seats[0]) if a["type"] == "land"]
        if not lands:
            break
        state = GAME.apply(state, seats[0], rng.choice(lands))



def _blocking_first_landing(seed: int) -> tuple[Any, int, list[dict[str, Any]]] | None:
    """A quick match's state (small generated map) after a first landing that leaves the next player no site
    ``landing_min_distance`` from it, with that player and the sites it would otherwise have."""
    from spacetable.games.fullmetal.legal import _landings

    config = GAME.normalize_config({"preset": "original", "map": "generated", "map_size": "small"})
    start = GAME.initial_state(config, seed)
    first = GAME.to_act(start)[0]
    for landing in GAME.legal_actions(start, first):
        after = GAME.apply(start, first, landing)
        nxt = GAME.to_act(after)[0]
        if not _landings(after, nxt, None):
            return after, nxt, _landings(after, nxt, 0)
    return None


@pytest.mark.rule("FM-7.2", "FM-D51")
def test_a_player_left_no_site_at_the_distance_lands_as_far_as_any_site_allows() -> None:
    """FM-D51: on a small generated map (seed 204) a first landing can leave no site 10 from it; the next player
    then lands where the dome is as far from the landed one as any site allows, not nowhere, and a nearer site is
    refused (FM-7.2) with the reason."""
    from spacetable.core.errors import RuleError
    from spacetable.games.fullmetal.spaceship import _nearest_dome

    found = _blocking_first_landing(204)
    assert found is not None, "seed 204's map no longer has a blocking first landing"
    state, seat, anywhere = found
    legal = GAME.legal_actions(state, seat)
    assert legal and {a["type"] for a in legal} == {"land"}
    far = max(_nearest_dome(state, state.cell_of(a["dome"])) for a in anywhere)
    assert far < state.config["landing_min_distance"]
    assert {_nearest_dome(state, state.cell_of(a["dome"])) for a in legal} == {far}
    assert all(a in anywhere for a in legal)
    landed = GAME.apply(state, seat, legal[0])
    assert landed.units[landed.ships[seat]].cells
    nearer = next(a for a in anywhere if _nearest_dome(state, state.cell_of(a["dome"])) < far)
    with pytest.raises(RuleError) as refused:
        GAME.apply(state, seat, nearer)
    assert refused.value.rule == "FM-7.2" and "FM-D51" in refused.value.message
