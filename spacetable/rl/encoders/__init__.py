"""Per-game encoders: observation arrays and token vocabularies (see :mod:`.base`)."""

from __future__ import annotations

import importlib
from typing import Any

from spacetable.games import get_game

from .base import Block, Encoder, Segment

#: game id -> "module:class" of its encoder.
ENCODERS: dict[str, str] = {
    "arena": "spacetable.rl.encoders.arena:ArenaEncoder",
    "worlds": "spacetable.rl.encoders.worlds:WorldsEncoder",
    "tremble": "spacetable.rl.encoders.tremble:TrembleEncoder",
    "fullmetal": "spacetable.rl.encoders.fullmetal:FullMetalEncoder",
    "galaxies": "spacetable.rl.encoders.galaxies:GalaxiesEncoder",
}


def encoder_class(game_id: str) -> type[Encoder]:
    if game_id not in ENCODERS:
        raise KeyError(f"no encoder for game {game_id!r}; encoded games: {', '.join(ENCODERS)}")
    module, _, name = ENCODERS[game_id].partition(":")
    cls: type[Encoder] = getattr(importlib.import_module(module), name)
    return cls


def make_encoder(game_id: str, config: dict[str, Any] | None = None) -> Encoder:
    """The encoder of ``game_id`` for a configuration (normalised here)."""
    game = get_game(game_id)
    return encoder_class(game_id)(game, game.normalize_config(config or {}))


__all__ = ["ENCODERS", "Block", "Encoder", "Segment", "encoder_class", "make_encoder"]
