"""What a game declares for the tools around it: its AI players and its extra commands.

The server, the CLI and the tournament runner find a game's agents and commands through
:meth:`Game.agents` and :meth:`Game.commands`, never by importing ``<package>.ai`` or
``<package>.cli`` by naming convention.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AgentSpec:
    """One AI player a game offers.

    ``make(seed=..., **options)`` returns an object with ``choose(game, state, seat) -> action``.
    ``level`` is the name shown to players (``easy``, ``medium``, ``hard``) or ``""`` for agents
    that are tools rather than opponents (baselines); ``rating`` and ``seconds_per_move`` are
    the measured figures published in the lobby (``None`` until measured).
    """

    name: str
    make: Callable[..., Any]
    level: str = ""
    description: str = ""
    rating: float | None = None
    seconds_per_move: float | None = None


@dataclass(frozen=True)
class Command:
    """A sub-command a game adds to ``spacetable`` (``spacetable odds worlds ...``)."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
