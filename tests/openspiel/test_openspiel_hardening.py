"""OpenSpiel's usual parameters (``players=3`` in a dict or a game string, every game option) and the stock
``ISMCTSBot`` without a resampler (``resample_from_infostate``), checked with OpenSpiel's own tools."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

import spacetable.openspiel  # noqa: F401 - registers the games
from spacetable.openspiel import EngineRollout
from spacetable.openspiel.games import option_params

pytestmark = pytest.mark.hardening


@pytest.mark.parametrize("name", ["spacetable_tremble", "spacetable_tremble_turns"])
def test_players_as_a_parameter_and_in_a_game_string(name: str) -> None:
    by_dict = pyspiel.load_game(name, {"players": 3})
    by_string = pyspiel.load_game(f"{name}(players=3)")
    by_config = pyspiel.load_game(name, {"config": json.dumps({"players": 3})})
    for game in (by_dict, by_string, by_config):
        assert game.num_players() == 3
        assert game.config == by_config.config  # type: ignore[attr-defined]
    assert pyspiel.load_game(str(by_dict)).config == by_dict.config  # the game string round-trips


def test_every_option_is_a_parameter() -> None:
    arena = pyspiel.load_game("spacetable_arena(board=5x5,home=wide,red_seat=1)")
    assert arena.config["board"] == "5x5" and arena.config["home"] == "wide" and arena.config["red_seat"] == 1  # type: ignore[attr-defined]
    assert arena.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC  # no colour draw left
    assert pyspiel.load_game("spacetable_arena", {"red_seat": -1}).config["red_seat"] == "random"  # type: ignore[attr-defined]
    fm = pyspiel.load_game("spacetable_fullmetal", {"players": 3, "base_income": 20, "turret_ammo": -1,
                                                    "deploy_secret": False, "max_actions": 50})
    assert fm.num_players() == 3
    assert (fm.config["base_income"], fm.config["turret_ammo"], fm.config["deploy_secret"]) == (20, "unlimited", False)  # type: ignore[attr-defined]
    worlds = pyspiel.load_game("spacetable_worlds_turns(scenario=sun-orbit)")
    assert worlds.config["scenario"] == "sun-orbit"  # type: ignore[attr-defined]
    galaxies = pyspiel.load_game("spacetable_galaxies", {"players": 4})
    assert galaxies.num_players() == 4 and galaxies.config["mission"] == "m4-double-front"  # type: ignore[attr-defined]
    for game_id in ("arena", "worlds", "tremble", "fullmetal", "galaxies"):
        spec = pyspiel.load_game(f"spacetable_{game_id}").get_type().parameter_specification
        assert set(option_params(game_id)) <= set(spec) and "config" in spec


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="as a parameter but"):
        pyspiel.load_game("spacetable_tremble", {"players": 3, "config": json.dumps({"players": 4})})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("spacetable_arena(colour=red)")
    with pytest.raises(Exception, match="players must be"):
        pyspiel.load_game("spacetable_tremble", {"players": 9})
    with pytest.raises(Exception, match="board"):
        pyspiel.load_game("spacetable_arena", {"board": "9x9"})


@pytest.mark.parametrize("name", ["spacetable_tremble_turns(players=3,max_actions=80)", "spacetable_arena(board=5x5,red_seat=0)"])
def test_openspiel_random_sim_test_on_parameter_games(name: str) -> None:
    """OpenSpiel's own consistency checks (serialisation reloads the game from its string)."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=True, verbose=False)


def _decision(game: pyspiel.Game, player: int, rng: np.random.Generator) -> pyspiel.State:
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != player:
        assert not state.is_terminal()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.rule("WS-5.3", "TH-4.3")
def test_resample_from_infostate_keeps_the_players_information() -> None:
    game = pyspiel.load_game("spacetable_tremble_turns(players=2)")
    state = _decision(game, 1, np.random.default_rng(2))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hidden = set()
    for _ in range(6):
        sample = state.resample_from_infostate(1, sampler)
        assert sample.current_player() == 1
        assert sample.information_state_string(1) == state.information_state_string(1)
        assert sample.legal_actions() == state.legal_actions()
        hidden.add(repr(sample.engine_state))
    assert len(hidden) > 1  # what seat 1 cannot see (the other hand, the decks) is redrawn


@pytest.mark.parametrize("name", ["spacetable_tremble_turns(players=2)", "spacetable_worlds_turns(scenario=grand-melee)"])
def test_stock_ismcts_bot_without_a_resampler(name: str) -> None:
    """OpenSpiel's ISMCTSBot as shipped (no ``set_resampler``) calls ``resample_from_infostate``."""
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(4)
    # short rollouts: what is checked is the resampling, not the strength of the moves
    bot = ismcts.ISMCTSBot(game, EngineRollout(2, max_actions=5), uct_c=2.0, max_simulations=5,
                           random_state=np.random.RandomState(5))
    state = _decision(game, 0, rng)
    moves = 0
    while moves < 3 and not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moves == 3 or (moves >= 1 and state.is_terminal())
