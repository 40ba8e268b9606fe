"""Cosmic Arena geometry and ship data (AR-1).

Ships are numbered by the ship index of docs/rules/arena.md: ``4·(s−1) + 2·(c−1) + (h−1)`` so that
``111=0, 112=1, 121=2, 122=3, 211=4, 212=5, 221=6, 222=7``. With that numbering the
complement (AR-1.6) is ``i ^ 7``, the class (AR-1.5) is the popcount and the rotation
successor (AR-7.2) is a 3-bit rotate left. Colours: ``RED = 0`` (edge rank 1, moves
first, AR-2.2) and ``BLUE = 1`` (top rank).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

RED = 0
BLUE = 1
COLOUR_NAMES = ("red", "blue")
CODES: tuple[str, ...] = ("111", "112", "121", "122", "211", "212", "221", "222")
CORVETTE = 0
CRUISER = 7
FRIGATES: tuple[int, ...] = (1, 2, 4)  # 112 -> 121 -> 211 (AR-7.2)
DESTROYERS: tuple[int, ...] = (3, 6, 5)  # 122 -> 221 -> 212 (AR-7.2)
CLASS_NAMES = ("corvette", "frigate", "destroyer", "cruiser")
FACES = ("6x4", "5x5")


def ship_index(code: str) -> int:
    """Index of a ship code such as ``"212"`` (AR-1.4); ``ValueError`` if malformed."""
    if code not in CODES:
        raise ValueError(f"not a ship code: {code!r}")
    return CODES.index(code)


def sails(ship: int) -> int:
    """Movement capacity, 1 or 2 (AR-4.1, AR-4.2)."""
    return 2 if ship & 4 else 1


def cannons(ship: int) -> int:
    """Attack capacity, 1 or 2 (AR-5.2)."""
    return 2 if ship & 2 else 1


def shields(ship: int) -> int:
    """Defence capacity, 1 or 2 (AR-5.2)."""
    return 2 if ship & 1 else 1


def complement(ship: int) -> int:
    """The complementary ship, digits summing to 333 (AR-1.6)."""
    return ship ^ 7


def ship_class(ship: int) -> int:
    """0 corvette, 1 frigate, 2 destroyer, 3 cruiser (AR-1.5)."""
    return bin(ship).count("1")


def successor(ship: int) -> int:
    """Rotation successor: digits shifted left (AR-7.2)."""
    return ((ship << 1) & 7) | (ship >> 2)


def predecessor(ship: int) -> int:
    """Inverse of :func:`successor`."""
    return (ship >> 1) | ((ship & 1) << 2)


def can_capture(mover: int, target: int) -> bool:
    """AR-5.2: a move may arrive on an enemy ship iff its shields ≤ the mover's cannons (48 pairs, AR-A1)."""
    return shields(target) <= cannons(mover)


#: ``CAPTURES[mover][target]``: :func:`can_capture` of each pair, for the legal lists
CAPTURES: tuple[tuple[bool, ...], ...] = tuple(tuple(can_capture(m, t) for t in range(8)) for m in range(8))


@dataclass(frozen=True)
class Face:
    """One face of the board (AR-1.2, AR-1.3): ``width`` files, ``height`` ranks.

    Cell index = (rank−1)·W + file index. ``banished`` (= N) is the location code of a
    ship in the parallel universe (AR-1.7)."""

    name: str
    width: int
    height: int

    @cached_property
    def size(self) -> int:
        return self.width * self.height

    @cached_property
    def banished(self) -> int:
        return self.size

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The name of each cell of the face, by index (views, legal moves and texts name cells thousands of times
        a second)."""
        return tuple(f"{chr(ord('a') + c % self.width)}{c // self.width + 1}" for c in range(self.size))

    @cached_property
    def _index(self) -> dict[str, int]:
        return {name: c for c, name in enumerate(self.names)}

    def cell_name(self, cell: int) -> str:
        names = self.names
        if 0 <= cell < len(names):
            return names[cell]
        return f"{chr(ord('a') + cell % self.width)}{cell // self.width + 1}"

    def parse_cell(self, text: str) -> int:
        """Index of a cell name, ``-1`` if it is not on this face."""
        found = self._index.get(text)  # a name as the face writes it: every move of a legal list, every text
        if found is not None:
            return found
        text = text.strip().lower()
        if len(text) < 2 or not ("a" <= text[0] <= "z") or not text[1:].isdigit():
            return -1
        f, r = ord(text[0]) - ord("a"), int(text[1:]) - 1
        if 0 <= f < self.width and 0 <= r < self.height:
            return r * self.width + f
        return -1

    def file_of(self, cell: int) -> int:
        return cell % self.width

    def rank_of(self, cell: int) -> int:
        """0-based rank (0 = rank 1)."""
        return cell // self.width

    @cached_property
    def _adjacent(self) -> tuple[tuple[int, ...], ...]:
        return _neighbours(self.width, self.height)

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return self._adjacent[cell]

    @cached_property
    def _reach(self) -> tuple[tuple[tuple[tuple[int, tuple[int, ...]], ...], ...], ...]:
        one = tuple(tuple((dest, ()) for dest in self.neighbours(origin)) for origin in range(self.size))
        two = []
        for origin in range(self.size):
            near = self.neighbours(origin)
            far: dict[int, list[int]] = {}
            for mid in near:
                for dest in self.neighbours(mid):
                    if dest != origin and dest not in near:
                        far.setdefault(dest, []).append(mid)
            two.append(tuple(sorted(one[origin] + tuple((d, tuple(ms)) for d, ms in far.items()))))
        return one, tuple(two)

    def reach(self, cell: int, sails: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The cells a ship with ``sails`` (1 or 2) may reach from ``cell`` (AR-4.1, AR-4.2), by index, each with the
        cells a two-step move there passes through, one of which must be empty (AR-4.5); none for a neighbour.
        Written once per face: every legal list reads it."""
        return self._reach[sails - 1][cell]

    def distance(self, a: int, b: int) -> int:
        """Manhattan distance (AR-1.3)."""
        return abs(a % self.width - b % self.width) + abs(a // self.width - b // self.width)

    def mirror_file(self, cell: int) -> int:
        """Reflection a↔d / a↔e (it keeps every rule, see the position keys)."""
        return self.rank_of(cell) * self.width + (self.width - 1 - self.file_of(cell))

    def mirror_rank(self, cell: int) -> int:
        """Reflection across the middle rank (AR-2.5)."""
        return (self.height - 1 - self.rank_of(cell)) * self.width + self.file_of(cell)

    @cached_property
    def _back_rows(self) -> tuple[frozenset[int], frozenset[int]]:
        w, h = self.width, self.height
        return frozenset(range(w)), frozenset(range((h - 1) * w, h * w))

    def back_row(self, colour: int) -> frozenset[int]:
        """A colour's own edge rank (AR-1.2)."""
        return self._back_rows[0 if colour == RED else 1]

    def target_row(self, colour: int) -> frozenset[int]:
        """The opponent's back row, where one-step arrivals trigger a bonus (AR-8.1)."""
        return self.back_row(1 - colour)

    def home(self, colour: int, wide: bool = False) -> tuple[int, ...]:
        """Home area of a colour (AR-2.4), sorted by cell index."""
        w, h = self.width, self.height
        if self.name == "6x4":
            ranks = (0, 1) if colour == RED else (h - 2, h - 1)
            return tuple(r * w + f for r in ranks for f in range(w))
        edge, inner = (0, 1) if colour == RED else (h - 1, h - 2)
        files_inner = range(w) if wide else range(1, w - 1)
        cells = [edge * w + f for f in range(w)] + [inner * w + f for f in files_inner]
        return tuple(sorted(cells))


@cache
def _neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for cell in range(width * height):
        f, r = cell % width, cell // width
        ns = []
        for df, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            ff, rr = f + df, r + dr
            if 0 <= ff < width and 0 <= rr < height:
                ns.append(rr * width + ff)
        out.append(tuple(sorted(ns)))
    return tuple(out)


@cache
def get_face(name: str) -> Face:
    """The face ``"6x4"`` (4 files × 6 ranks) or ``"5x5"`` (AR-1.1, AR-1.2)."""
    if name == "6x4":
        return Face("6x4", 4, 6)
    if name == "5x5":
        return Face("5x5", 5, 5)
    raise ValueError(f"unknown board face {name!r}; choose 6x4 or 5x5")
