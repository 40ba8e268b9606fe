"""Worlds & Suns — combat skirmish (game id ``worlds``).

Only the combat chapter of an unidentified space 4X is known; this package
implements that chapter (WS-1, WS-2, WS-3, WS-4, WS-5, WS-6, WS-7), a house skirmish wrapper (WS-8), exact
odds (WS-9), an allocation advisor (WS-10) and balance runs of scenarios (:mod:`.balance`).

Importing the package declares the game's AI players and commands on the game
(:meth:`~spacetable.core.game.Game.provide`); the ``ai`` and ``cli`` modules import the facade
themselves, which is why the facade cannot declare them.
"""

from spacetable.core.hooks import AnalysisHooks

from . import ai, balance, calculators, cli
from .game import GAME, WorldsGame

# the post-game analysis asks the WS-10 advisor (exact combat odds, best-response plans) for the preferred move
WorldsGame.provide(agents=ai.AGENT_SPECS, commands=cli.COMMANDS, notation_help=cli.NOTATION,
                   calculators=calculators.CALCULATORS, analysis=AnalysisHooks(suggester="advisor"),
                   balance=balance.HOOKS)

__all__ = ["GAME", "WorldsGame"]
