"""Battleship Galaxies (spec ``galaxies``): engine, house set, teams, sealed holds, AI, terminal.

House content (ships, tactic cards, boards, missions in ``data/house``) is labelled as such
everywhere: it is not official Battleship Galaxies card data.
"""

from .game import GAME, GalaxiesGame

__all__ = ["GAME", "GalaxiesGame"]
