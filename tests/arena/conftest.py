"""Fixtures for the arena tests (docs/rules/arena.md, AR-*)."""

from __future__ import annotations

import pytest

from .arena_helpers import GAME, ArenaState


@pytest.fixture

def default6() -> ArenaState:
    return GAME.initial_state(GAME.normalize_config({"red_seat": 0}), 1)
