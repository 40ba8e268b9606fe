"""Small statistics of simulated games shared by the games' balance figures: a rate's confidence interval and
the counts of a histogram."""

from __future__ import annotations

import math
from typing import Any


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``wins / n`` (a shared win counts as a fraction)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def histogram(values: list[int], bins: int = 20) -> dict[str, Any]:
    """Counts of ``values`` in at most ``bins`` equal integer bins: ``{start, width, counts}``."""
    if not values:
        return {"start": 0, "width": 1, "counts": []}
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts = [0] * ((hi - lo) // width + 1)
    for v in values:
        counts[(v - lo) // width] += 1
    return {"start": lo, "width": width, "counts": counts}
