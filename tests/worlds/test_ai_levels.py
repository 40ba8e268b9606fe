"""The skirmish's AI levels (WS-10.9, issue 13): the hard level is the player the ladder rates highest, the
levels are ordered by their measured ratings, and the hard player is deterministic on its fixed budget."""

from __future__ import annotations

import pytest

from spacetable.ai import ladder
from spacetable.ai.agents import find_agent, level_agent
from spacetable.ai.base import RandomAgent
from spacetable.ai.tournament import deterministic, make_tournament, play_task
from spacetable.core.game import Action
from spacetable.core.serial import action_key
from spacetable.games.worlds import GAME
from spacetable.games.worlds.ai import (
    AGENTS,
    CANDIDATE_OBJECTIVES,
    DEFAULT_AGENT,
    HARD_ITERATIONS,
    MEDIUM_ITERATIONS,
    AdvisedSearch,
    AdvisorAgent,
    _Search,
)
from spacetable.games.worlds.scenario import load
from spacetable.games.worlds.state import ALLOCATE, ENERGY, EVENT, WorldsState


@pytest.mark.rule("WS-10.9")
def test_levels_map_to_the_ladder_order() -> None:
    """easy < medium < hard by the published ratings, and hard is the best rated player on the ladder."""
    data = ladder.ladder(GAME)
    assert data, "worlds has a ladder file"
    rating = {name: row["rating"] for name, row in data["agents"].items()}
    levels = {lv: level_agent(GAME, lv) for lv in ("easy", "medium", "hard")}
    assert all(spec is not None and spec.name in rating for spec in levels.values())
    easy, medium, hard = (rating[levels[lv].name] for lv in ("easy", "medium", "hard"))  # type: ignore[union-attr]
    assert easy < medium < hard
    assert levels["hard"].name == max(rating, key=rating.__getitem__)  # type: ignore[union-attr]


@pytest.mark.rule("WS-10.9")
def test_hard_is_the_default_and_searches_longer_than_medium() -> None:
    """The default opponent (``--vs ai``, the lobby's first) is the hard level; its search has the medium search's
    budget times five."""
    assert find_agent(GAME, "ai").name == DEFAULT_AGENT == find_agent(GAME, "hard").name == "advised"
    assert HARD_ITERATIONS > MEDIUM_ITERATIONS


@pytest.mark.rule("WS-10.9")
def test_the_hard_agent_is_deterministic_on_its_budget() -> None:
    """Two hard players made with the same seed pick the same decisions (iterations, never the clock)."""
    st = GAME.from_scenario(load("border-worlds"))
    seat = GAME.to_act(st)[0]
    first = AGENTS["advised"](5, 0.01).choose(GAME, st, seat)
    second = AGENTS["advised"](5, 0.01).choose(GAME, st, seat)
    assert first == second and first in GAME.legal_actions(st, seat)


@pytest.mark.rule("WS-10.9")
def test_a_game_of_the_hard_level_replays_identically() -> None:
    task = make_tournament("worlds", ["advised", "playouts"], config={}, seed=3, max_steps=12).task(1)
    assert deterministic(play_task(task)) == deterministic(play_task(task))


@pytest.mark.rule("WS-10.9")
def test_the_hard_level_plays_combats_with_the_best_response_advisor() -> None:
    """Issue 13: inside a combat (allocation, events, energy) the hard level plays one of the WS-10 advisor's
    best-response plans for the combat objectives, or holds back (no card, no energy), its search weighing only
    those; outside a combat it plays its search's choice."""
    st = GAME.from_scenario(load("border-worlds"))
    seat = GAME.to_act(st)[0]
    hard = AGENTS["advised"](7, 0.01)
    assert isinstance(hard, AdvisedSearch)
    assert hard.choose(GAME, st, seat) == _Search(iterations=HARD_ITERATIONS, seconds=None, seed=7).choose(GAME, st, seat)
    steps: set[str] = set()
    weighed = 0
    for _ in range(400):
        seats = GAME.to_act(st)
        if not seats:
            break
        seat = seats[0]
        if st.combat is not None and st.combat.step in (ALLOCATE, EVENT, ENERGY):
            steps.add(st.combat.step)
            proposals = {action_key(AdvisorAgent(3, objective=o).choose(GAME, st, seat)) for o in CANDIDATE_OBJECTIVES}
            hard = AdvisedSearch(3, 40)
            choice = hard.choose(GAME, st, seat)
            hold = {"type": "play_event", "card": None} if st.combat.step == EVENT else {"type": "commit_energy", "amount": 0}
            assert action_key(choice) in proposals | {action_key(hold)}
            if hard.search.last_stats:  # a search ran: over the proposals only
                weighed += 1
                assert hard.search.last_stats["children"] <= len(proposals) + 1
        st = GAME.apply(st, seat, RandomAgent(len(steps)).choose(GAME, st, seat) if st.combat else _declare(st, seat))
    assert steps >= {ALLOCATE, ENERGY} and weighed


def _declare(st: WorldsState, seat: int) -> Action:
    """Declare the first combat open to the seat, else end the turn (so the test reaches combats quickly)."""
    legal = GAME.legal_actions(st, seat)
    return next((a for a in legal if a["type"] == "declare_combat"), legal[0])
