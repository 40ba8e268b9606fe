"""OpenSpiel observer of a spacetable game: the encoder's observation of the seat's view, plus its
token history for the information state (``perfect_recall``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .games import SpacetableGame, SpacetableState


class Observer:
    """OpenSpiel observer: the encoder's observation of the seat's view (plus its token history
    with ``perfect_recall``); strings are the view (observation) or :meth:`SpacetableState.info_string`."""

    def __init__(self, game: SpacetableGame, recall: bool) -> None:
        self.game = game
        self.recall = recall
        enc = game.encoder
        size = enc.obs_size + (enc.n_actions if recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: enc.obs_size]}
        if recall:
            self.dict["own_tokens"] = self.tensor[enc.obs_size:]

    def set_from(self, state: SpacetableState, player: int) -> None:
        self.tensor.fill(0.0)
        st = state.engine_state
        if st is None:
            return
        enc = self.game.encoder
        deciding = player in state.deciding_seats()
        view = self.game.engine.view(st, player)
        self.tensor[: enc.obs_size] = np.clip(enc.observe(view, player, deciding, state.prefix(player) if deciding else ()), 0, 1)
        if self.recall:
            counts = self.tensor[enc.obs_size:]
            for token in state.own_tokens(player):
                counts[token] = min(1.0, counts[token] + 0.01)

    def string_from(self, state: SpacetableState, player: int) -> str:
        if self.recall:
            return state.info_string(player)
        st = state.engine_state
        if st is None:
            return "set-up"
        view = self.game.engine.view(st, player)
        return json.dumps(view, sort_keys=True, default=str) + f" prefix={list(state.prefix(player))}"
