"""Tremble, Humans! («Трепещите, человеки!»), 2–5 alien captains raiding Earth (spec TH-*).

The game ships the *house card set* (original content, not the published cards)
and loads owner-entered sets from folders (see :mod:`.cards`).
"""

from .game import TrembleGame

GAME = TrembleGame()

__all__ = ["GAME", "TrembleGame"]
