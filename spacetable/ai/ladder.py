"""The rated ladder: each game's measured AI ratings and seconds per move, as the lobby shows them.

``bench/ai_ladder.py`` plays a tournament between a game's AI players and writes the result next to the
game's code as ``ladder.json`` (format ``spacetable-ladder/1``)::

    {"format": "spacetable-ladder/1", "game": "arena", "config": {...}, "games": 240, "seed": 1,
     "anchor": {"name": "random", "rating": 1000.0},
     "agents": {"alphabeta": {"rating": 1843.2, "interval": [1790.0, 1901.5], "seconds_per_move": 0.41,
                              "level": "hard", "budget": "..."}, ...}}

:func:`rated` fills an :class:`~spacetable.core.hooks.AgentSpec`'s ``rating`` and ``seconds_per_move`` from
it (a spec that already carries figures keeps them); :func:`spacetable.ai.agents.agent_specs` applies it to
every listed player, so the server's lobby, ``spacetable games -v`` and the terminal show the figures
without any game importing this module.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from spacetable.core.game import Game
from spacetable.core.hooks import AgentSpec

FORMAT = "spacetable-ladder/1"
FILE = "ladder.json"


def package_of(game: Game[Any]) -> str:
    """The package that holds a game's code and data (``spacetable.games.arena``)."""
    return type(game).__module__.rsplit(".", 1)[0]


@cache
def _load(package: str) -> dict[str, Any]:
    try:
        text = resources.files(package).joinpath(FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT else {}


def ladder(game: Game[Any]) -> dict[str, Any]:
    """The game's ladder data ({} when it has none)."""
    return _load(package_of(game))


def rated(game: Game[Any], specs: list[AgentSpec]) -> list[AgentSpec]:
    """``specs`` with the ladder's rating and seconds per move filled in where a spec has none."""
    agents = ladder(game).get("agents", {})
    out = []
    for spec in specs:
        row = agents.get(spec.name)
        if isinstance(row, dict) and spec.rating is None:
            spec = dataclasses.replace(spec, rating=row.get("rating"),
                                       seconds_per_move=spec.seconds_per_move or row.get("seconds_per_move"))
        out.append(spec)
    return out


def ladder_path(game: Game[Any]) -> Path:
    """Where :func:`write` puts a game's ladder (beside its code, in a source checkout)."""
    return Path(str(resources.files(package_of(game)).joinpath(FILE)))


def write(game: Game[Any], data: dict[str, Any]) -> Path:
    """Write a game's ladder file and forget the cached copy."""
    path = ladder_path(game)
    path.write_text(json.dumps({"format": FORMAT, **data}, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    _load.cache_clear()
    return path


def describe(spec: AgentSpec) -> str:
    """``hard, rating 1843, 0.41 CPU s/move`` (whatever of it is known)."""
    parts = [spec.level] if spec.level else []
    if spec.rating is not None:
        parts.append(f"rating {spec.rating:.0f}")
    if spec.seconds_per_move is not None:
        parts.append(f"{spec.seconds_per_move:.2g} CPU s/move")
    return ", ".join(parts)
