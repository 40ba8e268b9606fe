"""Worlds & Suns — combat skirmish (game id ``worlds``).

Only the combat chapter of an unidentified space 4X is known; this package
implements that chapter (WS-1..WS-7), a house skirmish wrapper (WS-8), exact
odds (WS-9) and an allocation advisor (WS-10).
"""

from .game import WorldsGame

GAME = WorldsGame()

__all__ = ["GAME", "WorldsGame"]
