"""Researchers' rough edges (issue 24), checked with PettingZoo's and Gymnasium's own tools where they exist:
``aec_to_parallel`` on the cycling AEC order, tied places sharing rewards, replacement counts, the
single-agent Gymnasium env, ``state()``, ``max_cycles``, strict action parsing, the team loss and the
agent factories' keyword signature."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

from spacetable import rl
from spacetable.ai.agents import agent_specs
from spacetable.games import get_game
from spacetable.games.fullmetal.game import GAME as FULLMETAL
from spacetable.games.fullmetal.scenario import Scenario
from spacetable.games.tremble.game import GAME as TREMBLE
from spacetable.rl.pz import ActionError

pytestmark = pytest.mark.hardening

CYCLE_CASES = [
    ("arena", {}, 200),
    ("worlds", {"scenario": "border-worlds"}, 150),
    ("tremble", {"players": 3}, 80),
    ("fullmetal", {"max_steps": 60}, 40),
    ("galaxies", {"players": 4, "max_steps": 60}, 50),
]


def _ids(case: tuple[str, dict[str, object], int]) -> str:
    return case[0] + ("-" + "-".join(f"{k}={v}" for k, v in case[1].items()) if case[1] else "")


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


# ---------------------------------------------------------------- is_parallelizable
@pytest.mark.parametrize("case", CYCLE_CASES, ids=_ids)
def test_aec_to_parallel_of_the_cycle_order_passes_parallel_api_test(case: tuple[str, dict[str, object], int]) -> None:
    game, cfg, cycles = case
    env = rl.env(game, agent_order="cycle", **cfg)
    assert env.metadata["is_parallelizable"] is True
    api_test(env, num_cycles=cycles)
    parallel_api_test(aec_to_parallel(rl.env(game, agent_order="cycle", **cfg)), num_cycles=cycles)


@pytest.mark.parametrize("game,cfg", [("arena", {}), ("tremble", {"players": 3})])
def test_the_turns_order_makes_no_parallel_claim_and_converts_turn_based(game: str, cfg: dict[str, Any]) -> None:
    """The default AEC order lets one agent act at a time: it does not claim ``is_parallelizable``
    (``aec_to_parallel`` refuses it) and PettingZoo's ``turn_based_aec_to_parallel`` converts it."""
    env = rl.env(game, **cfg)
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)
    parallel_api_test(turn_based_aec_to_parallel(rl.env(game, **cfg)), num_cycles=60)


@pytest.mark.parametrize("game,cfg", [("tremble", {"players": 3}), ("arena", {})])
def test_aec_to_parallel_plays_the_same_match_as_the_parallel_env(game: str, cfg: dict[str, Any]) -> None:
    """Same seed, same masked random actions: the converted cycle env and the native Parallel env see the same
    observations and rewards at every step (sealed Tremble buys are chosen together in both)."""
    a = aec_to_parallel(rl.env(game, agent_order="cycle", **cfg))
    b = rl.parallel_env(game, **cfg)
    obs_a, _ = a.reset(seed=11)
    obs_b, _ = b.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(150):
        assert a.agents == b.agents
        if not a.agents:
            break
        for agent in a.agents:
            assert np.array_equal(obs_a[agent]["observation"], obs_b[agent]["observation"])
            assert np.array_equal(obs_a[agent]["action_mask"], obs_b[agent]["action_mask"])
        actions = {agent: int(rng.choice(np.flatnonzero(obs_b[agent]["action_mask"]))) for agent in b.agents}
        obs_a, rew_a, *_ = a.step(actions)
        obs_b, rew_b, *_ = b.step(actions)
        assert {k: rew_a[k] for k in rew_b} == rew_b


# ---------------------------------------------------------------- rewards of tied places
def _fm_over(players: int, departed: list[dict[str, Any]]) -> Any:
    state = Scenario({"players": players, "board": {"width": 10, "height": 9, "fill": "$"}}).state
    state.departed = departed
    state.phase = "over"
    return state


@pytest.mark.rule("FM-20.5", "FM-20.6")
def test_fullmetal_seats_tied_for_first_share_the_reward() -> None:
    """A 2-player tie is 0 for both (not +1 each); tied seats get the mean of the places they take."""
    assert FULLMETAL.returns(_fm_over(2, [])) == [0.0, 0.0]
    won = _fm_over(2, [{"player": 1, "score": 12.0, "ore": 2}])
    assert FULLMETAL.returns(won) == [-1.0, 1.0]
    three = _fm_over(3, [{"player": 0, "score": 9.0, "ore": 1}, {"player": 2, "score": 9.0, "ore": 1}])
    assert FULLMETAL.outcome(three).winners == (0, 2)  # type: ignore[union-attr]
    assert FULLMETAL.returns(three) == [0.5, -1.0, 0.5]
    four = _fm_over(4, [{"player": 3, "score": 20.0, "ore": 4}, {"player": 1, "score": 5.0, "ore": 1},
                        {"player": 2, "score": 5.0, "ore": 1}])
    assert FULLMETAL.returns(four) == pytest.approx([-1.0, 0.0, 0.0, 1.0])
    for state in (three, four):
        assert sum(FULLMETAL.returns(state)) == pytest.approx(0.0)


def _tremble_over(players: int, humans: list[int]) -> Any:
    state = TREMBLE.initial_state(TREMBLE.normalize_config({"players": players}), 1)
    for p, h in zip(state.players, humans, strict=True):
        p.humans = h
        p.trophies = []
        p.credits_taken = 0
    state.phase = "over"
    return state


@pytest.mark.rule("TH-14.6", "TH-D22")
def test_tremble_seats_tied_for_first_share_the_first_places() -> None:
    """A full tie (humans, trophies, credits, TH-D22) shares the first places: two tied seats get +¼ each,
    less than a win (+1), more than a loss (≤ −½); three tied get 0."""
    assert TREMBLE.returns(_tremble_over(2, [300_000, 300_000])) == [0.25, 0.25]
    assert TREMBLE.returns(_tremble_over(2, [300_000, 150_000])) == [1.0, -0.75]
    assert TREMBLE.returns(_tremble_over(3, [200_000, 200_000, 200_000])) == [0.0, 0.0, 0.0]
    tied, beaten = TREMBLE.returns(_tremble_over(3, [200_000, 200_000, 100_000]))[1:]
    assert tied == 0.25 and beaten == -0.75


# ---------------------------------------------------------------- illegal actions
def test_parallel_seed_test_counts_replacements_in_info() -> None:
    """``parallel_seed_test`` samples without masks; with ``illegal_action="random"`` every replaced action is
    counted in ``info`` (``replaced`` this step, ``illegal_replaced`` since reset)."""
    parallel_seed_test(lambda: rl.parallel_env("arena", illegal_action="random"), num_cycles=50)
    env = rl.parallel_env("arena", illegal_action="random")
    obs, infos = env.reset(seed=3)
    assert all(i == {"replaced": False, "illegal_replaced": 0} for i in infos.values())
    mover = next(a for a in env.agents if obs[a]["action_mask"][0] == 0)
    bad = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[5])
    other = next(a for a in env.agents if a != mover)
    _, _, _, _, infos = env.step({mover: bad, other: 0})
    assert infos[mover] == {"replaced": True, "illegal_replaced": 1}
    assert infos[other] == {"replaced": False, "illegal_replaced": 0}
    aec = rl.env("arena", illegal_action="random")
    aec.reset(seed=3)
    agent = aec.agent_selection
    aec.step(int(np.flatnonzero(aec.observe(agent)["action_mask"] == 0)[5]))
    assert aec.infos[agent]["illegal_replaced"] == 1


@pytest.mark.parametrize("action", [2.7, None, "3", True, np.float32(4.0), np.array([1, 2])])
def test_malformed_actions_get_the_envs_clear_error(action: Any) -> None:
    for mode in ("raise", "random", "lose"):
        env = rl.env("arena", illegal_action=mode)
        env.reset(seed=0)
        before = env.unwrapped.session.actions
        with pytest.raises(ActionError, match="is not a token"):
            env.step(action)
        assert env.unwrapped.session.actions == before
    par = rl.parallel_env("arena")
    obs, _ = par.reset(seed=0)
    mover = next(a for a in par.agents if obs[a]["action_mask"][0] == 0)
    with pytest.raises(ActionError, match="is not a token"):
        par.step({mover: action})


def test_numpy_integers_are_tokens() -> None:
    env = rl.env("arena")
    env.reset(seed=0)
    token = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]
    env.step(np.int64(token))
    env.step(np.array(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0], dtype=np.int32))
    assert env.unwrapped.session.actions == 2


@pytest.mark.rule("BG-18.1")
@pytest.mark.parametrize("order", ["turns", "cycle"])
def test_lose_penalty_covers_the_offenders_team(order: str) -> None:
    """Mission 4 (two 2-seat sides): an illegal action loses for the offender's whole side (−1 each), the
    other side gets 0, as the engine's returns treat sides."""
    env = rl.env("galaxies", players=4, illegal_action="lose", agent_order=order)
    env.reset(seed=2)
    session = env.unwrapped.session
    offender = env.agent_selection if order == "turns" else f"player_{session.deciding()[0]}"
    seat = int(offender.split("_")[1])
    while env.agent_selection != offender:
        env.step(0 if session.choices(int(env.agent_selection.split("_")[1])) == [0]
                 else session.choices(int(env.agent_selection.split("_")[1]))[0])
    bad = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[1])
    env.step(bad)
    while env.agents and env.agent_selection != env.agents[0]:
        env.step(0)
    state = session.state
    side = state.side_of(seat)
    expected = {f"player_{s}": (-1.0 if state.side_of(s) == side else 0.0) for s in range(4)}
    assert sum(v == -1.0 for v in expected.values()) == 2
    assert env.unwrapped._cumulative_rewards == expected or env.rewards == expected
    assert all(env.terminations.values())


def test_lose_penalty_in_the_parallel_env_covers_the_team() -> None:
    env = rl.parallel_env("galaxies", players=4, illegal_action="lose")
    obs, _ = env.reset(seed=2)
    mover = next(a for a in env.agents if obs[a]["action_mask"][0] == 0)
    bad = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[1])
    _, rewards, terms, _, _ = env.step({mover: bad})
    state = env.unwrapped.session.state
    side = state.side_of(int(mover.split("_")[1]))
    assert rewards == {f"player_{s}": (-1.0 if state.side_of(s) == side else 0.0) for s in range(4)}
    assert all(terms.values())


# ---------------------------------------------------------------- state(), max_cycles
@pytest.mark.parametrize("game,cfg", [("tremble", {"players": 3}), ("galaxies", {})])
def test_state_is_every_seats_observation(game: str, cfg: dict[str, Any]) -> None:
    for env in (rl.env(game, **cfg), rl.parallel_env(game, **cfg)):
        env.reset(seed=4)
        st = env.state()
        assert env.state_space.contains(st)
        size = env.unwrapped.encoder.obs_size
        for i, agent in enumerate(env.possible_agents):
            obs = env.observe(agent)["observation"] if hasattr(env, "observe") else env.unwrapped._obs(i)["observation"]
            assert np.array_equal(st[i * size: (i + 1) * size], obs)


def test_max_cycles_truncates_after_that_many_cycles() -> None:
    """PettingZoo's meaning: a cycle is a step for each agent (a Parallel step; one AEC step in the turns
    order, where one agent acts per cycle; a whole cycle in the cycle order)."""
    par = rl.parallel_env("tremble", players=3, max_cycles=7)
    obs, _ = par.reset(seed=1)
    steps = 0
    while par.agents:
        obs, _, terms, truncs, _ = par.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents})
        steps += 1
    assert steps == 7 and all(truncs.values()) and not any(terms.values())
    for order, expected in (("turns", 7), ("cycle", 7 * 3)):
        aec = rl.env("tremble", players=3, max_cycles=7, agent_order=order)
        aec.reset(seed=1)
        moves = 0
        for _agent in aec.agent_iter():
            obs_a, _, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            aec.step(int(np.flatnonzero(obs_a["action_mask"])[0]))
            moves += 1
        assert moves == expected and all(aec.truncations.values())
    par = rl.parallel_env("arena")
    par.max_cycles = 5  # set after construction, as parallel_api_test does
    obs, _ = par.reset(seed=0)
    for _ in range(5):
        obs, _, _, truncs, _ = par.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents})
    assert all(truncs.values()) and not par.agents


# ---------------------------------------------------------------- the single-agent Gymnasium env
@pytest.mark.parametrize("game,cfg,opponent", [("arena", {}, "easy"), ("worlds", {"scenario": "sun-orbit"}, "random"),
                                               ("tremble", {"players": 3}, "random")])
def test_single_agent_env_passes_gymnasiums_check_env(game: str, cfg: dict[str, Any], opponent: str) -> None:
    env = rl.single_agent_env(game, opponent=opponent, illegal_action="random", **cfg)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("game,cfg,seat", [("arena", {}, 1), ("tremble", {"players": 3}, 2), ("galaxies", {"max_steps": 400}, 0)])
def test_single_agent_env_plays_whole_games_with_action_masks(game: str, cfg: dict[str, Any], seat: int) -> None:
    """What sb3-contrib's MaskablePPO relies on: ``action_masks()`` is a bool vector of ``n`` entries, every
    True entry is accepted by ``step``, and an episode ends with the seat's returns."""
    env = rl.single_agent_env(game, seat=seat, opponent="random", **cfg)
    assert callable(getattr(env, "action_masks", None))
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    total, steps = 0.0, 0
    while True:
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,) and masks.any()
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        total += reward
        steps += 1
        if terminated or truncated:
            break
    session = env.unwrapped.session
    if terminated:
        assert total == pytest.approx(env.unwrapped.game.returns(session.state)[seat])
    else:
        assert total == 0.0 and session.actions >= 400
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_single_agent_env_refuses_bad_input_clearly() -> None:
    env = rl.single_agent_env("arena", opponent="easy")
    env.reset(seed=0)
    with pytest.raises(ActionError, match="is not a token"):
        env.step(2.7)
    with pytest.raises(ActionError, match="is not a token"):
        env.step(None)
    with pytest.raises(ActionError, match="not allowed"):
        env.step(int(np.flatnonzero(~env.action_masks())[3]))
    with pytest.raises(ValueError, match="unknown AI"):
        rl.single_agent_env("arena", opponent="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        rl.single_agent_env("arena", seat=2)


def test_single_agent_env_is_reproducible_with_a_seed() -> None:
    """The opponents are seeded from the episode's seed: the same seed and actions give the same episode."""
    def episode() -> list[float]:
        env = rl.single_agent_env("worlds", scenario="sun-orbit", opponent="medium")
        obs, _ = env.reset(seed=9)
        out = [float(obs.sum())]
        for _ in range(12):
            obs, reward, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
            out.append(float(obs.sum()) + reward)
            if term or trunc:
                break
        return out

    assert episode() == episode()


# ---------------------------------------------------------------- agent factories
@pytest.mark.parametrize("game_id", ["arena", "worlds", "tremble", "fullmetal", "galaxies"])
def test_agent_factories_take_the_documented_keywords(game_id: str) -> None:
    """``AgentSpec.make(seed=..., **options)``: keywords only, all optional, unused options ignored."""
    for spec in agent_specs(get_game(game_id)):
        for kwargs in ({}, {"seed": 3}, {"seed": 3, "seconds": 0.05}, {"seed": 3, "seconds": 0.05, "unused": 1}):
            agent = spec.make(**kwargs)
            assert callable(getattr(agent, "choose", None)), (spec.name, kwargs)
