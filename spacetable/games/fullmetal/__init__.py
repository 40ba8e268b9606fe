"""Full Metal Planète (game id ``fullmetal``): rules engine, maps, AI and views.

Importing the package declares the game's AI players and commands on the game
(:meth:`~spacetable.core.game.Game.provide`); the ``ai`` and ``cli`` modules import the facade
themselves, which is why the facade cannot declare them.
"""

from . import ai, analysis, cli, mapeditor
from .game import GAME, FullMetalGame

FullMetalGame.provide(agents=ai.AGENT_SPECS, commands=cli.COMMANDS, notation_help=cli.NOTATION,
                      prompt_commands=cli.PROMPT_COMMANDS, analysis=analysis.HOOKS,
                      maps=mapeditor.HOOKS)

__all__ = ["GAME", "FullMetalGame"]
