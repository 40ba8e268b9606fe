"""The board and ship footprints (BG-2, BG-3, BG-15.6 obstacles; D-1, D-2, D-10).

Pointy-top axial coordinates ``(q, r)`` (BG-2.2). Directions, in the rules doc's order: 0 E (+1,0),
1 NE (+1,−1), 2 NW (0,−1), 3 W (−1,0), 4 SW (−1,+1), 5 SE (0,+1). Boards stored as offset
rectangles use odd-r: ``q = col − (row − (row & 1)) / 2``, ``r = row``.

A board (BG-2.1; D-2 and BG-2.3 set the house boards, which are data) has **full hexes**
(playable), **half hexes** (the rim: drawn, never playable, BG-2.5), one starting zone per side,
obstacles (BG-15.6: **asteroid** hexes are never occupied, entered,
passed through or placed on; **debris** hexes cost 2 to newly cover) and tile slots.

Footprints (BG-3.1): small = 1 hex, medium = 2 adjacent hexes, large = a 7-hex rosette (centre
first, then its 6 neighbours in direction order; D-1, BG-3.3: the only shape for which every
one-hex shift newly covers exactly 3 hexes). Two ships are **adjacent** when a hex of one
shares an edge with a hex of the other [S]; **in contact** (ECM, BG-11.1) when adjacent or
overlapping.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .packs import BoardData

Hex = tuple[int, int]
DIRS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIR_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
LETTERS = "ABCDEFGHIJ"


def step(h: Hex, d: int) -> Hex:
    dq, dr = DIRS[d]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRS]


def distance(a: Hex, b: Hex) -> int:
    """BG-2.2 hex distance."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rosette(center: Hex) -> list[Hex]:
    """D-1 a large ship's footprint: the centre and its 6 neighbours."""
    return [center, *neighbours(center)]


def offset_to_axial(col: int, row: int) -> Hex:
    """odd-r offset (column, row) to axial (BG-2.2)."""
    return (col - (row - (row & 1)) // 2, row)


def axial_to_offset(h: Hex) -> tuple[int, int]:
    q, r = h
    return (q + (r - (r & 1)) // 2, r)


def fp_distance(a: Sequence[Hex], b: Sequence[Hex]) -> int:
    """D-6 the least hex distance between any hex of ``a`` and any hex of ``b``. A 7-hex footprint
    is a rosette stored centre first, so its distance is the centre's minus 1 (never below 0)."""
    if len(a) == 7:
        return max(0, fp_distance(a[:1], b) - 1)
    if len(b) == 7:
        return max(0, fp_distance(a, b[:1]) - 1)
    best = 1 << 30
    for x in a:
        for y in b:
            dq, dr = x[0] - y[0], x[1] - y[1]
            d = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
            if d < best:
                best = d
    return best


def rect_hexes(cols: tuple[int, int], rows: tuple[int, int]) -> list[Hex]:
    return [offset_to_axial(c, r) for r in range(rows[0], rows[1] + 1) for c in range(cols[0], cols[1] + 1)]


@dataclass(frozen=True)
class StepIndex:
    """Numbered hexes and, per hex number, the open steps ``(direction, neighbour number, cost)``
    of a small or medium ship (``small``) and of a rosette centre (``large``), in direction order;
    ``rosettes[c]`` lists the hex numbers of the rosette centred on ``c`` (empty if not open)."""

    hexes: list[Hex]
    number: dict[Hex, int]
    small: list[tuple[tuple[int, int, int], ...]]
    large: list[tuple[tuple[int, int, int], ...]]
    rosettes: list[tuple[int, ...]]


@dataclass
class Board:
    """A board ready for play: hex sets (full, half, zones, asteroids, debris) and tile slots."""

    id: str
    full: frozenset[Hex]
    half: frozenset[Hex]
    zones: tuple[frozenset[Hex], frozenset[Hex]]
    asteroids: frozenset[Hex] = frozenset()
    debris: frozenset[Hex] = frozenset()
    slots: list[tuple[Hex, str, str]] = field(default_factory=list)
    order: list[Hex] = field(default_factory=list)

    def steps(self) -> dict[Hex, tuple[tuple[Hex, int] | None, ...]]:
        """For every open hex, per direction: (neighbour, step cost) or ``None`` when the neighbour
        is not open (rim, off-board or asteroid); cost 2 onto debris (BG-15.6). Cached."""
        table = self.__dict__.get("_steps")
        if table is None:
            table = {}
            for h in self.full:
                if h in self.asteroids:
                    continue
                row = []
                for dq, dr in DIRS:
                    n = (h[0] + dq, h[1] + dr)
                    row.append((n, 2 if n in self.debris else 1) if n in self.full and n not in self.asteroids else None)
                table[h] = tuple(row)
            self.__dict__["_steps"] = table
        return table

    def large_steps(self) -> dict[Hex, tuple[tuple[Hex, int] | None, ...]]:
        """For every rosette centre whose rosette is open, per direction: (new centre, cost) when
        the 3 newly covered hexes are open, else ``None`` (BG-10.4). Cached."""
        table = self.__dict__.get("_large")
        if table is None:
            table = {}
            for c in self.full:
                if not self.fp_open(rosette(c)):
                    continue
                row = []
                for d, (dq, dr) in enumerate(DIRS):
                    nc = (c[0] + dq, c[1] + dr)
                    new = [(nc[0] + dq, nc[1] + dr), step(nc, (d + 1) % 6), step(nc, (d + 5) % 6)]
                    if all(self.open(h) for h in new):
                        row.append((nc, 2 if any(h in self.debris for h in new) else 1))
                    else:
                        row.append(None)
                table[c] = tuple(row)
            self.__dict__["_large"] = table
        return table

    def step_index(self) -> StepIndex:
        """The step tables of :meth:`steps` and :meth:`large_steps` over hex numbers, for the
        reachability search of the legal-action list (BG-10.2, BG-10.3, BG-10.4, BG-10.5,
        BG-15.6). Hexes are numbered in sorted ``(q, r)`` order, so comparing numbers compares
        hexes. Cached on the board, which is itself cached per pack, mission and board name."""
        table: StepIndex | None = self.__dict__.get("_index")
        if table is None:
            hexes = sorted(self.full)
            num = {h: i for i, h in enumerate(hexes)}

            def rows(src: dict[Hex, tuple[tuple[Hex, int] | None, ...]]) -> list[tuple[tuple[int, int, int], ...]]:
                out: list[tuple[tuple[int, int, int], ...]] = [() for _ in hexes]
                for h, row in src.items():
                    out[num[h]] = tuple((d, num[opt[0]], opt[1]) for d, opt in enumerate(row) if opt is not None)
                return out

            large = self.large_steps()
            ros = [tuple(num[x] for x in rosette(h)) if h in large else () for h in hexes]
            table = StepIndex(hexes, num, rows(self.steps()), rows(large), ros)
            self.__dict__["_index"] = table
        return table

    def open(self, h: Hex) -> bool:
        """BG-10.5 a hex a ship may cover: a full hex that is not an asteroid."""
        return h in self.full and h not in self.asteroids

    def fp_open(self, fp: Iterable[Hex]) -> bool:
        return all(h in self.full and h not in self.asteroids for h in fp)

    def to_json(self) -> dict[str, Any]:
        """The board for views: hex sets as runs ``[r, q_first, q_last]`` of consecutive axial hexes
        per row (compact for any shape), obstacles as hex lists. Its hex sets never change, so the runs are
        worked out once per board (every view of every seat writes them) and each call gets its own lists."""
        made = self.__dict__.get("_json")
        if made is None:
            made = self.__dict__["_json"] = (
                runs(self.full), runs(self.half), runs(self.zones[0]), runs(self.zones[1]),
                sorted(map(list, self.asteroids)), sorted(map(list, self.debris)))
        full, half, zone_a, zone_b, asteroid, debris = made
        return {
            "id": self.id,
            "layout": "axial pointy-top; runs are [r, q_first, q_last]",
            "full": [list(x) for x in full],
            "half": [list(x) for x in half],
            "zones": {"A": [list(x) for x in zone_a], "B": [list(x) for x in zone_b]},
            "obstacles": {"asteroid": [list(x) for x in asteroid], "debris": [list(x) for x in debris]},
        }


def runs(hexes: Iterable[Hex]) -> list[list[int]]:
    """Hexes as ``[r, q_first, q_last]`` runs of consecutive q per row."""
    out: list[list[int]] = []
    for q, r in sorted(hexes, key=lambda h: (h[1], h[0])):
        if out and out[-1][0] == r and out[-1][2] == q - 1:
            out[-1][2] = q
        else:
            out.append([r, q, q])
    return out


def _hexes(spec: Any) -> list[Hex]:
    if isinstance(spec, list):
        out: list[Hex] = []
        for item in spec:
            if hasattr(item, "cols"):
                out += rect_hexes(tuple(item.cols), tuple(item.rows))
            else:
                out.append((int(item[0]), int(item[1])))
        return out
    return rect_hexes(tuple(spec.cols), tuple(spec.rows))


def make_board(data: BoardData, obstacles: Any = None, tiles: Any = None) -> Board:
    """Build a :class:`Board` from board data, with a mission's obstacle and tile overrides."""
    order = _hexes(data.full)
    order.sort(key=lambda h: (h[1], h[0]))
    full = frozenset(order)
    if data.half == "rim":
        half = frozenset(n for h in full for n in neighbours(h) if n not in full)
    else:
        half = frozenset(_hexes(data.half)) - full
    zones = (frozenset(_hexes(data.zones["A"])), frozenset(_hexes(data.zones["B"])))
    obs = data.obstacles if obstacles is None else obstacles
    ast = frozenset(tuple(h) for o in obs if o.kind == "asteroid" for h in o.hexes)
    deb = frozenset(tuple(h) for o in obs if o.kind == "debris" for h in o.hexes)
    slots = [(tuple(t.hex), t.tile, t.face) for t in (data.tile_slots if tiles is None else tiles)]
    return Board(data.id, full, half, zones, ast, deb, slots, order)  # type: ignore[arg-type]


def board_problems(data: BoardData) -> tuple[str, str] | None:
    """§6.4 validation: zones, obstacles and tiles lie on full hexes, and each zone can take a
    rosette launch. Returns ``(field, message)`` or ``None``."""
    b = make_board(data)
    if not b.full:
        return ("full", "no full hexes")
    for side, z in zip("AB", b.zones, strict=True):
        if not z or not z <= b.full:
            return (f"zones.{side}", "zone hexes must be full hexes")
        if not any(b.fp_open(rosette(c)) and any(h in z for h in rosette(c)) for c in b.full):
            return (f"zones.{side}", "the zone cannot take a rosette launch")
    for h in b.asteroids | b.debris:
        if h not in b.full:
            return ("obstacles", f"obstacle hex {list(h)} is not a full hex")
    for h, _, _ in b.slots:
        if h not in b.full:
            return ("tile_slots", f"tile hex {list(h)} is not a full hex")
    return None
