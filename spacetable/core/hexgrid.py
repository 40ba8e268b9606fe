"""Hexagonal grid geometry shared by the hex games.

Axial coordinates ``(q, r)`` are the working form (cube ``s = -q - r``). Boards
stored in rows and columns use offset coordinates ``(x, y)`` = (column, row);
:class:`OffsetLayout` names the four offset conventions and converts both ways.
:class:`HexMap` is a finite board of offset cells (holes allowed) with
precomputed neighbour tables and distances, for engines that need speed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

Axial = tuple[int, int]

#: Axial directions, clockwise from "north-east" for flat-top / "east" for pointy-top.
AXIAL_DIRECTIONS: tuple[Axial, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
#: Flat-topped hexes: the six directions named as compass points, in the order N, NE, SE, S, SW, NW.
FLAT_DIRECTIONS: tuple[Axial, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def add(a: Axial, b: Axial) -> Axial:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Axial, b: Axial) -> Axial:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Axial, k: int) -> Axial:
    return (a[0] * k, a[1] * k)


def to_cube(a: Axial) -> tuple[int, int, int]:
    return (a[0], a[1], -a[0] - a[1])


def distance(a: Axial, b: Axial) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def neighbours(a: Axial) -> list[Axial]:
    return [(a[0] + dq, a[1] + dr) for dq, dr in AXIAL_DIRECTIONS]


def ring(center: Axial, radius: int) -> list[Axial]:
    """Cells at exactly ``radius`` from ``center`` (``[center]`` for radius 0)."""
    if radius == 0:
        return [center]
    cell = add(center, scale(AXIAL_DIRECTIONS[4], radius))
    out = []
    for side in range(6):
        for _ in range(radius):
            out.append(cell)
            cell = add(cell, AXIAL_DIRECTIONS[side])
    return out


def spiral(center: Axial, radius: int) -> list[Axial]:
    """All cells within ``radius`` of ``center``, ring by ring."""
    return [c for k in range(radius + 1) for c in ring(center, k)]


def within(center: Axial, radius: int) -> Iterator[Axial]:
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield (center[0] + dq, center[1] + dr)


def cube_round(q: float, r: float) -> Axial:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def line(a: Axial, b: Axial) -> list[Axial]:
    """Cells on the straight line from ``a`` to ``b`` (both included). A tiny
    nudge breaks ties consistently when the line runs along cell edges."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a[0] + eps, a[1] + eps
    bq, br = b[0] + eps, b[1] + eps
    return [cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def rotate(a: Axial, center: Axial = (0, 0), steps: int = 1) -> Axial:
    """Rotate ``a`` around ``center`` by ``steps`` × 60° clockwise."""
    x, z, y = to_cube(sub(a, center))
    for _ in range(steps % 6):
        x, y, z = -z, -x, -y
    return add((x, z), center)


def to_pixel(a: Axial, size: float = 1.0, flat: bool = True) -> tuple[float, float]:
    q, r = a
    if flat:
        return (size * 1.5 * q, size * math.sqrt(3) * (r + q / 2))
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


class OffsetLayout(Enum):
    """Offset conventions: ``odd-q``/``even-q`` shove odd/even *columns* down
    (flat-topped hexes); ``odd-r``/``even-r`` shove odd/even *rows* right (pointy)."""

    ODD_Q = "odd-q"
    EVEN_Q = "even-q"
    ODD_R = "odd-r"
    EVEN_R = "even-r"

    @property
    def flat(self) -> bool:
        return self in (OffsetLayout.ODD_Q, OffsetLayout.EVEN_Q)

    def to_axial(self, x: int, y: int) -> Axial:
        if self is OffsetLayout.ODD_Q:
            return (x, y - (x - (x & 1)) // 2)
        if self is OffsetLayout.EVEN_Q:
            return (x, y - (x + (x & 1)) // 2)
        if self is OffsetLayout.ODD_R:
            return (x - (y - (y & 1)) // 2, y)
        return (x - (y + (y & 1)) // 2, y)

    def from_axial(self, a: Axial) -> tuple[int, int]:
        q, r = a
        if self is OffsetLayout.ODD_Q:
            return (q, r + (q - (q & 1)) // 2)
        if self is OffsetLayout.EVEN_Q:
            return (q, r + (q + (q & 1)) // 2)
        if self is OffsetLayout.ODD_R:
            return (q + (r - (r & 1)) // 2, r)
        return (q + (r + (r & 1)) // 2, r)

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        return distance(self.to_axial(*a), self.to_axial(*b))

    def neighbours(self, x: int, y: int) -> list[tuple[int, int]]:
        """Offset neighbours; for flat layouts in the order N, NE, SE, S, SW, NW."""
        dirs = FLAT_DIRECTIONS if self.flat else AXIAL_DIRECTIONS
        a = self.to_axial(x, y)
        return [self.from_axial(add(a, d)) for d in dirs]

    def to_pixel(self, x: int, y: int, size: float = 1.0) -> tuple[float, float]:
        return to_pixel(self.to_axial(x, y), size, self.flat)


@dataclass
class HexMap:
    """A finite offset-coordinate hex board, cells indexed ``y * width + x``.

    ``exists`` marks real cells (``None``: all). Neighbour lists are precomputed
    per index (``-1`` where there is no cell), so engines work with ints."""

    width: int
    height: int
    layout: OffsetLayout = OffsetLayout.ODD_Q
    exists: list[bool] | None = None

    def __post_init__(self) -> None:
        n = self.width * self.height
        if self.exists is None:
            self.exists = [True] * n
        self._neigh: list[tuple[int, ...]] = []
        for i in range(n):
            x, y = i % self.width, i // self.width
            row = []
            for nx, ny in self.layout.neighbours(x, y):
                j = self.index(nx, ny)
                row.append(j if j >= 0 and self.exists[i] and self.exists[j] else -1)
            self._neigh.append(tuple(row))

    @property
    def size(self) -> int:
        return self.width * self.height

    def index(self, x: int, y: int) -> int:
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        return -1

    def xy(self, i: int) -> tuple[int, int]:
        return (i % self.width, i // self.width)

    def contains(self, x: int, y: int) -> bool:
        i = self.index(x, y)
        return i >= 0 and bool(self.exists and self.exists[i])

    def cells(self) -> Iterator[int]:
        assert self.exists is not None
        return (i for i in range(self.size) if self.exists[i])

    def neighbours(self, i: int) -> tuple[int, ...]:
        """Neighbour indices in direction order, ``-1`` where none."""
        return self._neigh[i]

    def adjacent(self, i: int) -> list[int]:
        return [j for j in self._neigh[i] if j >= 0]

    def distance(self, i: int, j: int) -> int:
        return self.layout.distance(self.xy(i), self.xy(j))

    def within(self, i: int, radius: int) -> list[int]:
        a = self.layout.to_axial(*self.xy(i))
        out = []
        for c in within(a, radius):
            x, y = self.layout.from_axial(c)
            if self.contains(x, y):
                out.append(self.index(x, y))
        return out

    def ring(self, i: int, radius: int) -> list[int]:
        a = self.layout.to_axial(*self.xy(i))
        out = []
        for c in ring(a, radius):
            x, y = self.layout.from_axial(c)
            if self.contains(x, y):
                out.append(self.index(x, y))
        return out


def connected(cells: Iterable[Axial]) -> bool:
    """True when the axial cells form one edge-connected group."""
    pool = set(cells)
    if not pool:
        return True
    start = next(iter(pool))
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for n in neighbours(c):
            if n in pool and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(pool)
