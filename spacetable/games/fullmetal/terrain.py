"""Terrain, tides and the board geometry (FM-1, FM-2).

Cells are integer indices ``y * width + x``; actions use ``[x, y]``. The board uses
the odd-q offset layout of FM-1.2 through :class:`spacetable.core.hexgrid.HexMap`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from spacetable.core.hexgrid import HexMap, OffsetLayout

SEA, REEF, SWAMP, PLAIN, MOUNTAIN, OFF = 0, 1, 2, 3, 4, -1
CHAR_TO_TERRAIN = {".": SEA, "*": REEF, "%": SWAMP, "$": PLAIN, "#": MOUNTAIN, "?": OFF}
TERRAIN_TO_CHAR = {v: k for k, v in CHAR_TO_TERRAIN.items()}


def land_at(terrain: int, tide: str) -> bool:
    """FM-2.1: is a cell of this terrain effective land under ``tide``?"""
    if terrain in (PLAIN, MOUNTAIN):
        return True
    if terrain == REEF:
        return tide == "low"
    if terrain == SWAMP:
        return tide != "high"
    return False


class Board:
    """Static geometry of one map: terrain, neighbours (FM-1.3), distances (FM-1.4), discs, pixel centres (FM-1.5);
    the odd-q layout of FM-1.2 and FM-D2."""

    def __init__(self, width: int, height: int, terrain: str) -> None:
        self.width = width
        self.height = height
        self.terrain = [CHAR_TO_TERRAIN[ch] for ch in terrain]
        self.hexmap = HexMap(width, height, OffsetLayout.ODD_Q, [t != OFF for t in self.terrain])
        n = width * height
        self.size = n
        self.neigh: list[tuple[int, ...]] = [tuple(j for j in self.hexmap.neighbours(i) if j >= 0) for i in range(n)]
        self.axial = [OffsetLayout.ODD_Q.to_axial(i % width, i // width) for i in range(n)]
        self.cells = [i for i in range(n) if self.terrain[i] != OFF]
        self._discs: dict[int, list[tuple[int, ...]]] = {}
        #: tables that rule modules derive from this map alone, kept with it (e.g. ``spaceship``'s landing sites)
        self.derived: dict[str, Any] = {}

    def xy(self, i: int) -> tuple[int, int]:
        return (i % self.width, i // self.width)

    def index(self, x: int, y: int) -> int:
        """Index of an on-map cell or -1 (FM-1.1: ``?`` cells do not exist)."""
        if 0 <= x < self.width and 0 <= y < self.height:
            i = y * self.width + x
            if self.terrain[i] != OFF:
                return i
        return -1

    def dist(self, i: int, j: int) -> int:
        """FM-1.4 cube distance."""
        (q1, r1), (q2, r2) = self.axial[i], self.axial[j]
        dq, dr = q1 - q2, r1 - r2
        return max(abs(dq), abs(dr), abs(dq + dr))

    def disc(self, i: int, radius: int) -> tuple[int, ...]:
        """On-map cells within ``radius`` of ``i`` (cached per radius)."""
        table = self._discs.get(radius)
        if table is None:
            table = [tuple(self.hexmap.within(k, radius)) if self.terrain[k] != OFF else () for k in range(self.size)]
            self._discs[radius] = table
        return table[i]

    def land(self, i: int, tide: str) -> bool:
        return land_at(self.terrain[i], tide)

    def pixel(self, i: int) -> tuple[float, float]:
        """FM-1.5 pixel centre for hex size 1."""
        x, y = self.xy(i)
        return (1.5 * x, 3**0.5 * (y + 0.5 * (x % 2)))


@lru_cache(maxsize=32)
def get_board(width: int, height: int, terrain: str) -> Board:
    return Board(width, height, terrain)
