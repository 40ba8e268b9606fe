"""Example matches shipped with the package: one recorded game per game, in the
``spacetable-match/1`` format that ``spacetable play ... --save FILE`` writes.

``spacetable replay --example GAME`` shows one. ``python -m spacetable.example_matches``
records them again (seeded AI players with fixed iteration budgets, so the files are the same
on every machine; Full Metal Planète's is cut after its first turns to stay small).
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from spacetable.core.errors import ConfigError


def example_path(game_id: str) -> Traversable:
    """The shipped example match of ``game_id``."""
    path = resources.files(__package__).joinpath(f"{game_id}.json")
    if not path.is_file():
        raise ConfigError(f"no example match for {game_id!r}")
    return path
