"""Cosmic Arena (game id ``arena``; the name is our working title, AR-0.2): rules in ``docs/rules/arena.md``.

The engine (AR-0.1) holds the state, setup, legal actions, turns, endings, scoring, notation and
position keys, plus an exact solver for small endgames; AIs, the server and the tools act only
through the declared actions of :data:`~.game.MOVES`, and every refused action names its rule.

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


def _analysis() -> Any:
    # the endgame tables' exact values for the post-game analysis (imported on first use, like the players)
    from . import analysis

    return analysis.HOOKS


ArenaGame.provide(agents=_agents, commands=cli.COMMANDS, notation_help=cli.NOTATION, analysis=_analysis)

__all__ = ["GAME", "ArenaGame", "ArenaState"]
