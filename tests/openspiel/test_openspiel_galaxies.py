"""Battleship Galaxies through OpenSpiel: types, random games to terminal states, explicit chance nodes
for the set-up shuffles and the attack dice, sealed fleet commits, tensors and OpenSpiel's own checks."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pyspiel
import pytest

import spacetable.openspiel  # noqa: F401 - registers the games
from spacetable.games import get_game
from spacetable.rl.encoders import make_encoder

from .test_openspiel_api import play_random

GT = pyspiel.GameType
M1 = json.dumps({"mission": "m1-first-contact"})  # fixed fleets: play starts after the set-up draws


@pytest.mark.parametrize("name,params", [
    ("spacetable_galaxies", {}),  # Mission 2: sealed fleet choice (simultaneous nodes), then 20 rounds
    ("spacetable_galaxies_turns", {"config": M1}),
    ("spacetable_galaxies", {"config": json.dumps({"players": 4}), "max_actions": 120}),
    ("spacetable_galaxies_turns", {"config": json.dumps({"players": 3}), "max_actions": 120}),
])
def test_random_games_reach_terminal_states(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    state = play_random(game, 0)
    assert state.is_terminal()
    returns = state.returns()
    assert len(returns) == game.num_players() and all(-1.0 <= r <= 1.0 for r in returns)
    if game.get_type().utility == GT.Utility.ZERO_SUM:
        assert sum(returns) == pytest.approx(0.0)
    if not params.get("max_actions"):
        assert get_game("galaxies").outcome(state.engine_state) is not None  # a real end, not a cut


def test_game_types() -> None:
    sim = pyspiel.load_game("spacetable_galaxies").get_type()
    seq = pyspiel.load_game("spacetable_galaxies_turns").get_type()
    assert sim.dynamics == GT.Dynamics.SIMULTANEOUS and seq.dynamics == GT.Dynamics.SEQUENTIAL
    for t in (sim, seq):
        assert t.information == GT.Information.IMPERFECT_INFORMATION
        assert t.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.utility == GT.Utility.ZERO_SUM
    three = pyspiel.load_game("spacetable_galaxies", {"config": json.dumps({"players": 3})})
    assert three.get_type().utility == GT.Utility.GENERAL_SUM and three.num_players() == 3  # 1 vs a 2-seat team
    assert pyspiel.load_game("spacetable_galaxies", {"config": json.dumps({"players": 4})}).get_type().utility == \
        GT.Utility.ZERO_SUM


@pytest.mark.rule("BG-5.1", "BG-5.3", "BG-5.4")
def test_setup_shuffles_and_rolloff_are_chance_nodes() -> None:
    """Fixed fleets: the set-up is the tile shuffle, both 30-card deck shuffles (Fisher-Yates: 30, 29, ...,
    2 outcomes each) and the number-die roll-off (8 outcomes each)."""
    state = pyspiel.load_game("spacetable_galaxies_turns", {"config": M1}).new_initial_state()
    sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        sizes.append(len(outcomes))
        state.apply_action(len(sizes) % len(outcomes))
    runs = [[sizes[0]]]
    for a, b in itertools.pairwise(sizes):
        if b == a - 1:
            runs[-1].append(b)
        else:
            runs.append([b])
    decks = [r for r in runs if r[0] == 30]
    assert len(decks) == 2 and all(r == list(range(30, 1, -1)) for r in decks)
    assert sizes[-2:] == [8, 8]  # the roll-off (ties roll again)
    assert state.current_player() in (0, 1)


@pytest.mark.rule("BG-12.5", "BG-1.5")
def test_an_attack_roll_is_a_letter_and_a_number_chance_node() -> None:
    """An attack rolls the letter die (10 outcomes) and the number die (8) as two chance nodes."""
    game = pyspiel.load_game("spacetable_galaxies_turns", {"config": M1, "seed": 3})
    engine = get_game("galaxies")
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    for _ in range(20000):
        assert not state.is_terminal(), "no attack in a whole random game"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        seat = state.current_player()
        attacks = [a for a in engine.legal_actions(state.engine_state, seat) if a["type"] == "attack"]
        if attacks and not state.prefix(seat):
            for token in state.tokens_for(seat, attacks[0]):
                state.apply_action(token)
            assert state.is_chance_node() and len(state.chance_outcomes()) == 10
            state.apply_action(0)
            assert state.is_chance_node() and len(state.chance_outcomes()) == 8
            return
        legal = state.legal_actions()
        state.apply_action(int(legal[int(rng.integers(len(legal)))]))
    pytest.fail("no attack reached")


@pytest.mark.rule("BG-4.4")
def test_sealed_fleet_is_hidden_from_the_other_seat() -> None:
    """The fleet commit is sealed: seat 1's information state is the same whatever fleet seat 0 chose."""
    game = pyspiel.load_game("spacetable_galaxies_turns", {"setup_chance": "seeded"})
    root = game.new_initial_state()
    assert root.current_player() == 0
    root.apply_action(root.legal_actions()[0])  # the type token submit_fleet
    assert len(root.legal_actions()) >= 3  # the first ship of the roster: not taken or a version
    infos, obs, own = set(), set(), set()
    for first in root.legal_actions()[:3]:
        state = root.child(first)
        while state.current_player() == 0:
            state.apply_action(state.legal_actions()[-1])
        assert state.current_player() == 1
        infos.add(state.information_state_string(1))
        obs.add(tuple(state.observation_tensor(1)))
        own.add(state.information_state_string(0))
    assert len(infos) == 1 and len(obs) == 1
    assert len(own) == 3  # seat 0 knows what it chose


def test_observation_tensor_is_the_encoder_observation() -> None:
    game = pyspiel.load_game("spacetable_galaxies_turns", {"config": M1, "setup_chance": "seeded"})
    state = game.new_initial_state()
    enc = make_encoder("galaxies", {"mission": "m1-first-contact"})
    seat = state.current_player()
    view = get_game("galaxies").view(state.engine_state, seat)
    assert np.array_equal(np.asarray(state.observation_tensor(seat)), enc.observe(view, seat, True, ()))
    assert len(state.information_state_tensor(seat)) == enc.obs_size + enc.n_actions


def test_openspiel_random_sim_test() -> None:
    """OpenSpiel's own consistency checks (clones, serialisation, strings, tensors, returns)."""
    game = pyspiel.load_game("spacetable_galaxies_turns", {"config": M1, "max_actions": 60})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
