"""Tremble, Humans! («Трепещите, человеки!»), 2–5 alien captains raiding Earth (rules TH-*).

The game ships the *house card set* (original content, not the published cards)
and loads owner-entered sets from folders (see :mod:`.cards`).

Importing the package declares the game's AI players and commands on the game
(:meth:`~spacetable.core.game.Game.provide`); the ``ai`` and ``cli`` modules import the facade
themselves, which is why the facade cannot declare them.
"""

from typing import Any

from spacetable.core.hooks import AnalysisHooks

from . import ai, balance, cli
from .game import GAME, TrembleGame
from .sampling import sample_action


def _playout(state: Any, seat: int, rng: Any) -> dict[str, Any]:
    # a random legal action drawn directly (TH-4.3), never listing the thousands of sealed plans
    return sample_action(state, GAME.cards(state), seat, rng)


TrembleGame.provide(agents=ai.AGENT_SPECS, commands=cli.COMMANDS, notation_help=cli.NOTATION,
                    analysis=AnalysisHooks(playout=_playout), balance=balance.HOOKS)

__all__ = ["GAME", "TrembleGame"]
