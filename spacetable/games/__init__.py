"""Game registry: ``get_game(id)`` returns the game object of a package.

Each game lives in ``spacetable/games/<id>/`` and exposes ``GAME``, an instance
of its :class:`~spacetable.core.game.Game` subclass. Packages are imported
lazily, so one game's heavy imports never slow another down.
"""

from __future__ import annotations

import importlib
from typing import Any

from spacetable.core.errors import SpacetableError
from spacetable.core.game import Game

#: game id -> module that defines ``GAME``. Order is the lobby's order.
REGISTRY: dict[str, str] = {
    "arena": "spacetable.games.arena",
    "worlds": "spacetable.games.worlds",
    "tremble": "spacetable.games.tremble",
    "fullmetal": "spacetable.games.fullmetal",
    "galaxies": "spacetable.games.galaxies",
}

_cache: dict[str, Game[Any]] = {}


class UnknownGame(SpacetableError):
    pass


def get_game(game_id: str) -> Game[Any]:
    if game_id in _cache:
        return _cache[game_id]
    if game_id not in REGISTRY:
        raise UnknownGame(f"unknown game {game_id!r}; known: {', '.join(REGISTRY)}")
    try:
        module = importlib.import_module(REGISTRY[game_id])
    except ModuleNotFoundError as exc:
        if exc.name and REGISTRY[game_id].startswith(exc.name):
            raise UnknownGame(f"game {game_id!r} is not available in this build") from exc
        raise
    game: Game[Any] | None = getattr(module, "GAME", None)
    if game is None:
        raise UnknownGame(f"game {game_id!r} is not available in this build (its package defines no GAME)")
    _cache[game_id] = game
    return game


def register_game(game: Game[Any]) -> None:
    """Register a game object at run time (plug-ins, tests). Built-in games are
    listed in :data:`REGISTRY` instead and imported on first use."""
    _cache[game.id] = game


def unregister_game(game_id: str) -> None:
    """Forget a game registered with :func:`register_game`."""
    _cache.pop(game_id, None)


def available() -> list[str]:
    """Ids of the games this installation can play."""
    out = []
    for game_id in [*REGISTRY, *(g for g in _cache if g not in REGISTRY)]:
        try:
            get_game(game_id)
        except UnknownGame:
            continue
        out.append(game_id)
    return out
