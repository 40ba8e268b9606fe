"""OpenSpiel interface (needs ``spacetable[openspiel]``): ``import spacetable.openspiel`` registers every
game as ``spacetable_<id>`` (its own dynamics) and ``spacetable_<id>_turns`` (sequential), so that
``pyspiel.load_game("spacetable_arena")`` works. See :mod:`.games` and ``docs/research.md``."""

from __future__ import annotations

from .bots import EngineRollout, resampler
from .games import SPECS, SpacetableGame, SpacetableState, register

REGISTERED: list[str] = [name for game_id in SPECS for name in register(game_id)]

__all__ = ["REGISTERED", "SPECS", "EngineRollout", "SpacetableGame", "SpacetableState", "register", "resampler"]
