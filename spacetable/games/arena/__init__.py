"""Cosmic Arena (working title; game id ``arena``): rules AR-* in docs/rules/arena.md.

Importing the package declares the game's AI players and commands on the game
(:meth:`~spacetable.core.game.Game.provide`); the ``ai`` and ``cli`` modules import the facade
themselves, which is why the facade cannot declare them.
"""

from . import ai, cli
from .game import GAME, ArenaGame, ArenaState

ArenaGame.provide(agents=ai.AGENT_SPECS, commands=cli.COMMANDS, notation_help=cli.NOTATION)

__all__ = ["GAME", "ArenaGame", "ArenaState"]
