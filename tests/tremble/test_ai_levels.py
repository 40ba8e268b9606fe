"""The hard captain's fixed budget (issue 13): the level named ``mcts`` runs :data:`HARD_ITERATIONS` search
iterations per decision (IM-6: each on a world sampled for its own seat), never a clock, so it plays the
same on any machine; a time budget is used only when one is asked for."""

from __future__ import annotations

import pytest

from spacetable.games.tremble import GAME
from spacetable.games.tremble.ai import AGENT_SPECS, HARD_ITERATIONS, MCTSCaptain, make_agent
from spacetable.games.tremble.state import TState


def buy_state() -> TState:
    s = GAME.initial_state({"players": 2}, 21)
    while s.phase != "buy":
        s = GAME.apply(s, GAME.to_act(s)[0], {"type": "keep"})
    return s


@pytest.mark.rule("IM-6")
def test_hard_level_runs_its_iteration_budget() -> None:
    """The lobby's hard captain and ``make_agent('mcts')`` search exactly HARD_ITERATIONS times."""
    hard = next(spec for spec in AGENT_SPECS if spec.level == "hard")
    assert hard.name == "mcts"
    s = buy_state()
    for agent in (hard.make(5, 0.0), make_agent("mcts", 5)):
        assert isinstance(agent, MCTSCaptain)
        assert agent.agent.iterations == HARD_ITERATIONS and agent.agent.seconds is None
        a = agent.choose(GAME, s, 0)
        assert GAME.is_legal(s, 0, a)
        assert agent.agent.last_stats["iterations"] == HARD_ITERATIONS


@pytest.mark.rule("IM-6")
def test_hard_level_is_deterministic_on_its_budget() -> None:
    """Two hard captains with one seed choose the same commit; an explicit budget overrides the default."""
    s = buy_state()
    first = make_agent("mcts", 9).choose(GAME, s, 1)
    again = make_agent("mcts", 9).choose(GAME, s.clone(), 1)
    assert first == again
    small = make_agent("mcts", 9, iterations=7)
    small.choose(GAME, s, 1)
    assert small.agent.last_stats["iterations"] == 7
    timed = make_agent("mcts", 9, seconds=0.05)
    assert timed.agent.iterations is None and timed.agent.seconds == 0.05
