"""AI players: generic search usable by every game, plus per-game policies
(which live beside each game as ``spacetable/games/<id>/ai.py`` or here)."""

from .base import Agent, RandomAgent, play_game
from .mcts import MCTSAgent

__all__ = ["Agent", "MCTSAgent", "RandomAgent", "play_game"]
