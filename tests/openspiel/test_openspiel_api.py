"""The games through OpenSpiel's own API: types, random play to terminal states, chance nodes,
hidden sealed choices, tensors, OpenSpiel's random simulation test."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pyspiel
import pytest

import spacetable.openspiel  # noqa: F401 - registers the games
from spacetable.games import get_game
from spacetable.rl.encoders import make_encoder

GT = pyspiel.GameType
NAMES = [
    ("spacetable_arena", {}),
    ("spacetable_arena_turns", {"config": json.dumps({"setup": "free", "placement": "simultaneous"})}),
    ("spacetable_worlds", {"config": json.dumps({"scenario": "border-worlds"})}),
    ("spacetable_worlds_turns", {}),
    ("spacetable_tremble", {"config": json.dumps({"players": 2})}),
    ("spacetable_tremble_turns", {"config": json.dumps({"players": 3})}),
    ("spacetable_fullmetal", {"max_actions": 600}),
    ("spacetable_fullmetal_turns", {"max_actions": 400}),
]


def play_random(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name,params", NAMES, ids=[n for n, _ in NAMES])
def test_random_games_reach_terminal_states(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    for seed in range(2):
        state = play_random(game, seed)
        returns = state.returns()
        assert len(returns) == game.num_players() and all(-1.0 <= r <= 1.0 for r in returns)
        if game.get_type().utility == GT.Utility.ZERO_SUM:
            assert sum(returns) == pytest.approx(0.0)


def test_game_types() -> None:
    t = pyspiel.load_game("spacetable_arena").get_type()
    assert (t.dynamics, t.information) == (GT.Dynamics.SEQUENTIAL, GT.Information.PERFECT_INFORMATION)
    assert t.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC  # AR-2.2 colour draw at the start
    fixed = pyspiel.load_game("spacetable_arena", {"config": json.dumps({"red_seat": 0})}).get_type()
    assert fixed.chance_mode == GT.ChanceMode.DETERMINISTIC
    for gid in ("worlds", "tremble", "fullmetal"):
        sim = pyspiel.load_game(f"spacetable_{gid}").get_type()
        seq = pyspiel.load_game(f"spacetable_{gid}_turns").get_type()
        assert sim.dynamics == GT.Dynamics.SIMULTANEOUS and seq.dynamics == GT.Dynamics.SEQUENTIAL
        assert sim.information == GT.Information.IMPERFECT_INFORMATION
        assert sim.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert pyspiel.load_game("spacetable_worlds").get_type().utility == GT.Utility.ZERO_SUM
    assert pyspiel.load_game("spacetable_tremble").get_type().utility == GT.Utility.GENERAL_SUM


@pytest.mark.rule("TH-2.2", "TH-2.4", "TH-2.6", "TH-2.7")
def test_setup_shuffles_are_chance_nodes() -> None:
    """A Fisher-Yates shuffle of n cards is n - 1 chance nodes with n, n - 1, ..., 2 equally likely outcomes."""
    state = pyspiel.load_game("spacetable_tremble", {"config": json.dumps({"players": 2})}).new_initial_state()
    sizes = []
    while state.is_chance_node():
        sizes.append(len(state.chance_outcomes()))
        state.apply_action(0)
    assert len(sizes) > 50
    runs = [sizes[0]]
    for a, b in itertools.pairwise(sizes):
        if b != a - 1:
            runs.append(b)
    assert all(n >= 2 for n in sizes) and len(runs) >= 4  # several decks, each a decreasing run


@pytest.mark.rule("WS-5.3", "WS-5.4")
def test_worlds_dice_and_sealed_energy() -> None:
    """WS-5.4: each battle rolls two dice (chance nodes of 6 outcomes); WS-5.3: the energy commit is
    sealed: the defender's information state is the same whatever the attacker committed."""
    scen = {"format": "worlds-skirmish/1", "id": "duel", "label": "duel", "sides": ["white", "grey"], "first_player": "white",
            "systems": [{"id": "S", "starting_system_of": None,
                         "sun": {"id": "S.sun", "pieces": {"white": {"P": 1}, "grey": {"P": 1}}},
                         "worlds": [{"id": "S.w1", "pieces": {}}]}],
            "energy": {"white": 2, "grey": 2}, "energy_income": {"white": 0, "grey": 0}, "hands": {"white": [], "grey": []},
            "max_rounds": 1, "seed": 1, "dice_script": None}
    game = pyspiel.load_game("spacetable_worlds_turns", {
        "config": json.dumps({"scenario_json": scen}), "setup_chance": "seeded",
        "opening": json.dumps([[0, {"type": "declare_combat", "card": "S.sun"}]])})
    root = game.new_initial_state()
    root.apply_action(root.legal_actions()[0])  # the only allocation
    assert root.current_player() == 0
    infos = set()
    for energy in root.legal_actions():
        child = root.child(energy)
        assert child.current_player() == 1
        infos.add(child.information_state_string(1))
        after = child.child(child.legal_actions()[-1])
        assert after.is_chance_node() and len(after.chance_outcomes()) == 6
        assert len(after.child(0).chance_outcomes()) == 6
    assert len(infos) == 1


def test_observation_tensor_is_the_encoder_observation() -> None:
    game = pyspiel.load_game("spacetable_tremble_turns", {"config": json.dumps({"players": 2}), "setup_chance": "seeded"})
    state = game.new_initial_state()
    enc = make_encoder("tremble", {"players": 2})
    seat = state.current_player()
    view = get_game("tremble").view(state.engine_state, seat)
    assert np.array_equal(np.asarray(state.observation_tensor(seat)), enc.observe(view, seat, True, ()))
    assert len(state.information_state_tensor(seat)) == enc.obs_size + enc.n_actions


@pytest.mark.parametrize("name,params", [("spacetable_arena", {}), ("spacetable_worlds", {}),
                                         ("spacetable_tremble_turns", {"config": json.dumps({"players": 2})})])
def test_openspiel_random_sim_test(name: str, params: dict[str, object]) -> None:
    """OpenSpiel's own consistency checks (clones, serialisation, strings, tensors, returns)."""
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=2, serialize=True, verbose=False)
