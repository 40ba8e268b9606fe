"""PettingZoo's own checks (api_test, seed_test, parallel_api_test, parallel_seed_test) on every game."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from spacetable import rl

CASES = [
    ("arena", {}, 400),
    ("arena", {"setup": "free"}, 300),
    ("arena", {"board": "5x5", "home": "wide", "setup": "free", "placement": "simultaneous"}, 300),
    ("worlds", {}, 300),
    ("worlds", {"scenario": "border-worlds"}, 300),
    ("tremble", {"players": 2}, 150),
    ("tremble", {"players": 4}, 100),
    ("fullmetal", {"max_steps": 120}, 60),
    ("galaxies", {"max_steps": 200}, 150),
    ("galaxies", {"players": 4, "max_steps": 120}, 80),
]


def _ids(case: tuple[str, dict[str, object], int]) -> str:
    return case[0] + ("-" + "-".join(f"{k}={v}" for k, v in case[1].items()) if case[1] else "")


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_api(case: tuple[str, dict[str, object], int]) -> None:
    game, cfg, cycles = case
    api_test(rl.env(game, **cfg), num_cycles=cycles)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_seed(case: tuple[str, dict[str, object], int]) -> None:
    game, cfg, cycles = case
    seed_test(lambda: rl.env(game, **cfg), num_cycles=cycles)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_parallel_api(case: tuple[str, dict[str, object], int]) -> None:
    game, cfg, cycles = case
    parallel_api_test(rl.parallel_env(game, **cfg), num_cycles=cycles)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_parallel_seed(case: tuple[str, dict[str, object], int]) -> None:
    """The parallel seed test samples actions without masks: ``illegal_action="random"`` replaces an
    illegal token by a random allowed one, drawn from the match's seeded generator."""
    game, cfg, cycles = case
    parallel_seed_test(lambda: rl.parallel_env(game, illegal_action="random", **cfg), num_cycles=cycles)


def _play_aec(env: object, rng: np.random.Generator, limit: int = 100_000) -> dict[str, float]:
    totals: dict[str, float] = {}
    for n, agent in enumerate(env.agent_iter()):  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if term or trunc:
            env.step(None)  # type: ignore[attr-defined]
            continue
        allowed = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(allowed)))  # type: ignore[attr-defined]
        assert n < limit
    return totals


@pytest.mark.parametrize("game,cfg", [("arena", {}), ("worlds", {"scenario": "sun-orbit"}), ("tremble", {"players": 3}),
                                      ("galaxies", {"mission": "m1-first-contact"})])
def test_aec_games_end_with_the_engine_returns(game: str, cfg: dict[str, object]) -> None:
    """Whole random games: rewards arrive at the end and sum to the engine's returns."""
    env = rl.env(game, **cfg)
    env.reset(seed=3)
    totals = _play_aec(env, np.random.default_rng(3))
    final = env.unwrapped.game.returns(env.unwrapped.session.state)
    assert env.unwrapped.session.over()
    assert [totals[f"player_{i}"] for i in range(len(final))] == pytest.approx(final)


def test_fullmetal_max_turns_truncates() -> None:
    """Full Metal games are long: ``max_turns`` ends the episode by truncation after that game turn."""
    env = rl.env("fullmetal", max_turns=3)
    env.reset(seed=1)
    _play_aec(env, np.random.default_rng(0))
    state = env.unwrapped.session.state
    assert state.turn == 4 or env.unwrapped.session.over()


def test_parallel_sealed_decisions_are_taken_together() -> None:
    """Tremble buys are sealed: in the parallel env every seat chooses in the same steps."""
    env = rl.parallel_env("tremble", players=3)
    obs, _ = env.reset(seed=5)
    deciding = [a for a in env.agents if obs[a]["action_mask"][0] == 0]
    assert deciding == env.agents  # the first phase is the sealed buy: nobody waits


def test_illegal_action_modes() -> None:
    env = rl.env("arena")
    env.reset(seed=0)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[1])
    with pytest.raises(ValueError, match="not allowed"):
        env.step(bad)
    env = rl.env("arena", illegal_action="lose")
    env.reset(seed=0)
    loser = env.agent_selection
    env.step(bad)
    assert all(env.terminations.values())
    assert env.rewards[loser] == -1.0


def test_render_is_the_text_view() -> None:
    env = rl.env("arena", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text == env.unwrapped.game.render_text(env.unwrapped.session.state, None)


@pytest.mark.rule("BG-4.4")
def test_galaxies_fleets_are_chosen_together_in_the_parallel_env() -> None:
    """Mission 2's fleet choice is sealed (BG-4.4): in the parallel env both seats choose in the same steps."""
    env = rl.parallel_env("galaxies")
    obs, _ = env.reset(seed=2)
    assert all(obs[a]["action_mask"][0] == 0 for a in env.agents)  # nobody waits
    for _ in range(7):  # the type token, then one token per roster ship
        obs, *_ = env.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents})
    assert env.unwrapped.session.state.phase != "fleet"


def test_galaxies_three_seats_api() -> None:
    """Mission 5: one seat against a 2-seat team (BG-18) passes PettingZoo's api_test."""
    api_test(rl.env("galaxies", players=3, max_steps=100), num_cycles=60)


def test_galaxies_max_turns_truncates_after_that_round() -> None:
    env = rl.env("galaxies", mission="m1-first-contact", max_turns=2)
    env.reset(seed=1)
    _play_aec(env, np.random.default_rng(0))
    assert env.unwrapped.session.state.round == 3 or env.unwrapped.session.over()
    assert all(env.truncations.values()) or env.unwrapped.session.over()
