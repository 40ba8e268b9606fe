"""The AI players: offered through Game.agents(), reproducible, deciding from the seat's view only,
and better than the baselines in short seeded matches (the 50-game figures are in bench/galaxies_ai.py)."""

from __future__ import annotations

import pytest

from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.ai import GreedyAgent, Policy, TacticianAgent, evaluate

from .helpers import play_random, pos


def play(agents: list, seed: int, config: dict | None = None) -> tuple:
    s = GAME.initial_state(GAME.normalize_config(config or {}), seed)
    log = []
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        a = agents[seat].choose(GAME, s, seat)
        log.append((seat, a))
        s = GAME.apply(s, seat, a)
    return s, log


def test_agents_are_offered_with_levels() -> None:
    specs = {a.name: a for a in GAME.agents()}
    assert {"policy", "tactician", "tactician-hard", "greedy", "random"} <= set(specs)
    # levels follow the ladder's ratings (greedy < tactician < policy); the deeper look-ahead has none
    assert [specs[n].level for n in ("greedy", "tactician", "policy", "tactician-hard")] == ["easy", "medium", "hard", ""]
    assert specs["tactician"].make(seed=3).choose is not None


def test_the_tactician_beats_random_and_greedy_in_seeded_games() -> None:
    for seed, (x, y) in enumerate(
        [("policy", "random"), ("random", "policy"), ("policy", "greedy"), ("greedy", "policy")]
    ):
        makers = {a.name: a.make for a in GAME.agents()}
        s, _ = play([makers[x](seed=seed), makers[y](seed=seed + 1)], seed)
        out = GAME.outcome(s)
        winner = [x, y][out.winners[0]] if out and out.winners else None
        assert winner == "policy", (seed, x, y, out)


def test_games_are_reproducible_from_the_seed() -> None:
    a = play([TacticianAgent(seed=5, samples=1), GreedyAgent(seed=6)], 9)[1]
    b = play([TacticianAgent(seed=5, samples=1), GreedyAgent(seed=6)], 9)[1]
    assert a == b


def test_teams_play_to_the_end() -> None:
    for players in (3, 4):
        agents = [TacticianAgent(seed=i, samples=0) if i % 2 == 0 else GreedyAgent(seed=i) for i in range(players)]
        s, log = play(agents, 2, {"players": players})
        assert GAME.outcome(s) is not None
        assert {seat for seat, _ in log} == set(range(players))
        assert any(a["type"] == "activate" for seat, a in log if seat >= 2)  # the second commanders activate their cards


def test_the_policy_uses_the_regenerator_market_and_cancels_big_hits() -> None:
    s = pos(
        phase="action",
        active="B",
        energy={"A": 10, "B": 20},
        hands={"A": ["isn-evasive"]},
        fleets={
            "A": [{"ship": "barrage", "at": [[[9, 7], [10, 7]]], "shields": 0, "hull": 2}],
            "B": [{"ship": "sobwa", "at": [[[9, 9], [10, 9]]]}],
        },
        activation={"card": "sobwa", "step": "attack"},
    )
    s.rng.forced += [2, 4]
    s = GAME.apply(s, 1, {"type": "attack", "ship": "sobwa", "weapon": "acid-jets", "target": "barrage"})
    choice = Policy(Rng(1)).choose(s, 0, agent_actions(GAME.legal_actions(s, 0)))
    assert choice["type"] == "respond"  # the hit would destroy Barrage


def test_evaluation_prefers_material_and_health() -> None:
    s = play_random(4, steps=300)[-1]
    hurt = s.copy()
    for p in hurt.on_board(0):
        p.shields = 0
    assert evaluate(hurt, 0) < evaluate(s, 0) or not s.on_board(0)


@pytest.mark.boards
def test_the_hard_level_has_a_sane_name_and_its_former_name_still_plays() -> None:
    """The hard level is ``policy`` (it was called ``tactician-easy``, an easy-sounding name for the hardest level);
    stored matches that name it the old way still find it, and the lobby lists the new name only."""
    from spacetable.ai.agents import find_agent

    names = [a.name for a in GAME.agents()]
    assert "tactician-easy" not in names and "policy" in names
    hard = [a.name for a in GAME.agents() if a.level == "hard"]
    assert hard == ["policy"]
    assert find_agent(GAME, "tactician-easy").name == "policy"
    assert find_agent(GAME, "hard").name == "policy"
