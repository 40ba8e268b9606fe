"""Full Metal Planète (game id ``fullmetal``): rules engine, maps, AI and views."""

from .game import GAME, FullMetalGame

__all__ = ["GAME", "FullMetalGame"]
