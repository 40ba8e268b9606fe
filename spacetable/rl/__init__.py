"""Reinforcement-learning interfaces: PettingZoo environments for every game and a compiled
batch API for Cosmic Arena. See ``docs/research.md``.

``env`` and ``parallel_env`` need the optional ``rl`` extra (``pip install spacetable[rl]``:
PettingZoo and Gymnasium); they import it on first use so that ``import spacetable.rl`` and the
batch API work without it.
"""

from __future__ import annotations

from typing import Any

from .arena_vector import ArenaVector, arena_vector
from .encoders import ENCODERS, make_encoder
from .sampling import masked_sample


def env(game_id: str, **kwargs: Any) -> Any:
    """PettingZoo AEC environment of a game. Keyword arguments: ``render_mode`` (``"ansi"`` or
    ``"human"``), ``max_steps``, ``max_turns``, ``max_cycles``, ``illegal_action`` (``"raise"``,
    ``"lose"`` or ``"random"``), ``agent_order`` (``"turns"``, or ``"cycle"`` for PettingZoo's
    ``aec_to_parallel``); every other keyword is a game option (``players=3``, ``board="5x5"``...)."""
    from .pz import SpacetableAEC  # optional dependency (PettingZoo), imported on first use

    return SpacetableAEC(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> Any:
    """PettingZoo Parallel environment of a game (the keywords of :func:`env` but ``agent_order``)."""
    from .pz import SpacetableParallel  # optional dependency (PettingZoo), imported on first use

    return SpacetableParallel(game_id, **kwargs)


def single_agent_env(game_id: str, **kwargs: Any) -> Any:
    """Gymnasium environment of one seat against the game's AI (``seat``, ``opponent``, ``opponent_seconds``,
    and the keywords of :func:`env` but ``max_cycles`` and ``agent_order``); ``action_masks()`` for
    sb3-contrib's ``MaskablePPO``."""
    from .single import SingleAgentEnv  # optional dependency (Gymnasium), imported on first use

    return SingleAgentEnv(game_id, **kwargs)


__all__ = ["ENCODERS", "ArenaVector", "arena_vector", "env", "make_encoder", "masked_sample", "parallel_env",
           "single_agent_env"]
