"""Helpers for OpenSpiel's search bots on spacetable games: an engine rollout evaluator for MCTS /
IS-MCTS and the determinizing resampler IS-MCTS needs (``ISMCTSBot.set_resampler``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng, mix_seed

from .games import SpacetableState


class EngineRollout(mcts.Evaluator):  # type: ignore[misc]
    """An MCTS / IS-MCTS evaluator that plays random *engine* actions from the node's engine state to
    the end (much faster than stepping tokens through OpenSpiel). Each action is the game's own quick
    draw when it declares one (``AnalysisHooks.playout``: Tremble draws a random plan or purchase
    without listing the thousands of legal ones), else uniform among its legal actions. A series in
    progress is dropped (its seat plays a whole random action instead). Priors are uniform."""

    def __init__(self, seed: int = 0, max_actions: int = 100_000) -> None:
        self.rng = Rng(mix_seed(seed, "openspiel-rollout"))
        self.max_actions = max_actions

    def evaluate(self, state: SpacetableState) -> np.ndarray:
        engine = state.game_obj.engine
        st = state.engine_state
        sample = engine.analysis_hooks().playout
        for _ in range(self.max_actions):
            if engine.outcome(st) is not None:
                break
            seat = engine.to_act(st)[0]
            if sample is not None:
                action = sample(st, seat, self.rng)
            else:
                legal = [a for a in agent_actions(engine.legal_actions(st, seat)) if a.get("type") != "resign"]
                action = legal[self.rng.randbelow(len(legal))]
            st = engine.apply(st, seat, action)
        return np.array(engine.returns(st) if engine.outcome(st) is not None else [0.0] * engine.seats(st))

    def prior(self, state: SpacetableState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def resampler(seed: int = 0) -> Any:
    """A callback for ``ISMCTSBot.set_resampler``: ``(state, player) -> state`` by ``determinize``."""
    rng = Rng(mix_seed(seed, "openspiel-resample"))

    def cb(state: SpacetableState, player: int) -> SpacetableState:
        return state.resample(player, Rng(rng.next_u64()))

    return cb
