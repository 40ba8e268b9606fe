"""Battleship Galaxies (game id ``galaxies``): engine, house set, teams, sealed holds, AI, terminal.

House content (ships, tactic cards, boards, missions in ``data/house``) is labelled as such
everywhere: it is not official Battleship Galaxies card data.

Importing the package declares the game's AI players, commands and notation help on the game
(:meth:`~spacetable.core.game.Game.provide`), and its packs' balance runs (:mod:`.balance`); the ``ai`` and
``cli`` modules import the facade
themselves, which is why the facade cannot declare them.
"""

from . import ai, balance, cli
from .game import GAME, GalaxiesGame

GalaxiesGame.provide(agents=ai.AGENT_SPECS, commands=cli.COMMANDS, notation_help=cli.NOTATION, balance=balance.HOOKS)

__all__ = ["GAME", "GalaxiesGame"]
