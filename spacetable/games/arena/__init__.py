"""Cosmic Arena (working title; game id ``arena``): rules AR-* in docs/rules/arena.md.

Importing the package declares the game's AI players and commands on the game
(:meth:`~spacetable.core.game.Game.provide`); the ``ai`` and ``cli`` modules import the facade
themselves, which is why the facade cannot declare them.
"""

from typing import Any

from . import cli
from .game import GAME, ArenaGame, ArenaState


def _agents() -> Any:
    # imported on first use: ai.py loads the compiled search kernels (numba, about half a second),
    # which playing, checking or serving the rules alone never needs
    from . import ai

    return ai.AGENT_SPECS


ArenaGame.provide(agents=_agents, commands=cli.COMMANDS, notation_help=cli.NOTATION)

__all__ = ["GAME", "ArenaGame", "ArenaState"]
