"""Cosmic Arena (working title; game id ``arena``): spec ``shared/specs/arena.md`` (AR-*)."""

from .game import GAME, ArenaGame, ArenaState

__all__ = ["GAME", "ArenaGame", "ArenaState"]
