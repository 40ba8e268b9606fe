"""What Full Metal Planète lends the post-game analysis (:class:`~spacetable.core.hooks.AnalysisHooks`).

Random playouts of a few hundred actions cover a few turns of a 25-turn game and end nowhere near its end, so
they would call every position even. The chances come from the planner's own judgement of a position instead
(:func:`.planner.potential`: what each player can expect to score, FM-20.4), turned into chances by a softmax over
the players' potentials (:data:`SCALE` points of lead are worth about three to one). The preferred move is the
``commander``'s (the heuristic planner: ore, threats, take-off), which answers in milliseconds where the searching
``planner`` takes most of a second, at every one of a game's thousand actions."""

from __future__ import annotations

import math
from typing import Any

from spacetable.core.hooks import AnalysisHooks

from .planner import _ore_fields, potential

#: points of expected score between two players that make the leader's chances e : 1 (about 73 %)
SCALE = 8.0


def chances(state: Any) -> list[float]:
    """Each player's chances from the planner's potentials (a softmax; eliminated players 0)."""
    ore = _ore_fields(state)
    pots = [potential(state, p, ore) for p in range(state.num_players)]
    top = max(pots)
    weights = [0.0 if state.eliminated[p] >= 0 else math.exp((v - top) / SCALE) for p, v in enumerate(pots)]
    total = sum(weights)
    if total <= 0.0:
        return [1.0 / state.num_players] * state.num_players
    return [w / total for w in weights]


HOOKS = AnalysisHooks(suggester="commander", evaluate=chances)
