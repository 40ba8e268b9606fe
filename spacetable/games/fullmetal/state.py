"""Units, the game state and the basic queries every rule module uses (FM-4, FM-5, FM-21)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Any

from pydantic import Field

from spacetable.core.errors import RuleError
from spacetable.core.moves import Coord
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .terrain import MOUNTAIN, REEF, SEA, SWAMP, Board, get_board

SHIP, TURRET, TANK, GT, MB, BARGE, CRAB, WL, PONTOON, ORE = (
    "ship", "turret", "tank", "gt", "mb", "barge", "crab", "wl", "pontoon", "ore",
)
DESTROYERS = frozenset({TANK, GT, MB, TURRET})
LAND_UNITS = frozenset({TANK, GT, CRAB, WL})
SEA_UNITS = frozenset({MB, BARGE})
MOBILE = frozenset({TANK, GT, MB, BARGE, CRAB, WL})
#: FM-4 carriers and what each may carry (the ship carries everything but ships).
CARRIES: dict[str, frozenset[str]] = {
    BARGE: frozenset({ORE, TANK, GT, PONTOON, CRAB, WL}),
    CRAB: frozenset({ORE, TANK, GT, PONTOON}),
    WL: frozenset({ORE}),
    SHIP: frozenset({ORE, TANK, GT, MB, BARGE, CRAB, WL, PONTOON}),
}
CAPACITY = {BARGE: 4, CRAB: 2, WL: 1, SHIP: 10**6}
STARTING_FORCE = ((BARGE, 1), (CRAB, 1), (WL, 1), (MB, 2), (TANK, 4), (GT, 1), (PONTOON, 1))
#: A cell as written in actions: ``[x, y]`` (FM-1.1).
Cell = Annotated[list[Coord], Field(min_length=2, max_length=2)]
#: A barge position: two adjacent cells ``[[x, y], [x, y]]`` (FM-10.4).
Pair = Annotated[list[Cell], Field(min_length=2, max_length=2)]
CODES = {SHIP: "S", TURRET: "U", TANK: "T", GT: "G", MB: "M", BARGE: "B", CRAB: "C", WL: "W", PONTOON: "P", ORE: "O"}


@dataclass
class Unit:
    """One piece. ``cells`` is empty while carried (``carrier`` set) or off the board;
    a barge has 2 cells, a ship 4 (dome, then the three pods)."""

    id: int
    kind: str
    colour: int = -1
    cells: list[int] = field(default_factory=list)
    carrier: int = -1
    cargo: list[int] = field(default_factory=list)
    shots: int = 0
    neut: list[int] = field(default_factory=list)
    locked: bool = False
    builds: list[str] = field(default_factory=list)
    ship: int = -1
    turrets: list[int] = field(default_factory=list)
    captor: int = -1
    value: int = 2

    def copy(self) -> Unit:
        return Unit(self.id, self.kind, self.colour, list(self.cells), self.carrier, list(self.cargo), self.shots,
                    list(self.neut), self.locked, list(self.builds), self.ship, list(self.turrets), self.captor, self.value)


@dataclass
class FMState:
    """Everything about a game of Full Metal Planète (JSON-able)."""

    num_players: int
    config: dict[str, Any]
    width: int
    height: int
    terrain: str
    rng: Rng
    phase: str = "land"  # land | deploy | play | depart | over
    turn: int = 1
    tide: str = "normal"
    pile: list[str] = field(default_factory=list)
    aside: list[str] = field(default_factory=list)
    walk_level: int = 0
    units: dict[int, Unit] = field(default_factory=dict)
    next_id: int = 1
    occ: dict[int, int] = field(default_factory=dict)
    pontoon_at: dict[int, int] = field(default_factory=dict)
    controller: list[int] = field(default_factory=list)
    ships: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    current: int = 0
    land_order: list[int] = field(default_factory=list)
    pool: list[int] = field(default_factory=list)
    saved: list[int] = field(default_factory=list)
    retreat_window: bool = False
    eliminated: list[int] = field(default_factory=list)
    resigned: list[bool] = field(default_factory=list)
    reserve: dict[str, int] = field(default_factory=dict)
    forecasts: list[dict[int, str]] = field(default_factory=list)
    sealed: SealedCommits = field(default_factory=SealedCommits)
    departed: list[dict[str, int]] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)
    cov: list[list[int]] = field(default_factory=list)
    proj: dict[int, list[int]] = field(default_factory=dict)
    disq: list[int] = field(default_factory=list)
    penalty: list[int] = field(default_factory=list)
    lot: int = 0
    map_name: str = "original"
    elim_seq: int = 0
    zones: str = ""
    #: FM-15.6 / FM-18.2: who may use an open retreat window. ``None``: every neutralized unit of the
    #: player (the ordinary window of a turn start); a list: only these units (the window a mid-turn
    #: ship capture opens for the acquired units), possibly empty.
    retreat_only: list[int] | None = None

    # ------------------------------------------------------------------ basics
    def init_seats(self) -> None:
        """Fresh per-seat bookkeeping for ``num_players`` seats: each controls its own colour, bound to its ship
        (FM-5.1), no AP, nobody eliminated or resigned, no forecasts, no fire cover yet."""
        n = self.num_players
        self.controller = list(range(n))
        self.pool = [0] * n
        self.saved = [0] * n
        self.eliminated = [-1] * n
        self.resigned = [False] * n
        self.penalty = [0] * n
        self.forecasts = [{} for _ in range(n)]
        self.cov = [[0] * (self.width * self.height) for _ in range(n)]

    @cached_property
    def board(self) -> Board:
        """The static geometry of this state's map (cached per state object, not serialised)."""
        return get_board(self.width, self.height, self.terrain)

    def copy(self) -> FMState:
        s = FMState(
            self.num_players, self.config, self.width, self.height, self.terrain, self.rng.copy(), self.phase, self.turn,
            self.tide, list(self.pile), list(self.aside), self.walk_level, {k: u.copy() for k, u in self.units.items()},
            self.next_id, dict(self.occ), dict(self.pontoon_at), list(self.controller), list(self.ships), list(self.order),
            self.current, list(self.land_order), list(self.pool), list(self.saved), self.retreat_window,
            list(self.eliminated), list(self.resigned), dict(self.reserve), [dict(f) for f in self.forecasts],
            SealedCommits(list(self.sealed.required), dict(self.sealed.commits)), [dict(d) for d in self.departed],
            list(self.graveyard), [list(c) for c in self.cov], {k: list(v) for k, v in self.proj.items()}, list(self.disq),
            list(self.penalty), self.lot, self.map_name, self.elim_seq, self.zones,
            None if self.retreat_only is None else list(self.retreat_only),
        )
        s.__dict__["board"] = self.board
        return s

    def lot_counter_next(self) -> int:
        """Sequence number of the next elimination (later eliminations rank higher, FM-20.6, FM-D39)."""
        self.elim_seq += 1
        return self.elim_seq

    def active_player(self) -> int:
        return self.order[self.current] if self.order else -1

    def new_unit(self, kind: str, colour: int = -1, **kw: Any) -> Unit:
        u = Unit(self.next_id, kind, colour, **kw)
        self.units[u.id] = u
        self.next_id += 1
        return u

    # ----------------------------------------------------------------- control
    def ctl(self, u: Unit) -> int:
        """FM-5.2: controller of a unit, by its colour (-1 colourless or deactivated, FM-D28). One player may control
        several colours (FM-5.4), and a unit of an acquired colour riding in another player's carrier belongs to
        the capturer (FM-18.3)."""
        if u.colour < 0:
            return -1
        return self.controller[u.colour]

    def on_board(self, u: Unit) -> bool:
        """On the map and not carried: a carried unit is inert (FM-4.2)."""
        return bool(u.cells) and u.carrier < 0

    def stranded(self, u: Unit) -> bool:
        """FM-2.2: a land unit off effective land and off a pontoon, or a sea unit off effective sea. Read under the
        present tide, so a unit is operational again as soon as the tide suits it (FM-2.5)."""
        if u.kind in LAND_UNITS:
            c = u.cells[0]
            if c in self.pontoon_at:
                return False
            return not self.board.land(c, self.tide) or (self.board.terrain[c] == MOUNTAIN and self.gt_inside(u))
        if u.kind in SEA_UNITS:
            return any(self.board.land(c, self.tide) or c in self.pontoon_at for c in u.cells)
        return False

    def gt_inside(self, u: Unit) -> bool:
        """A GT itself, or a crab carrying one (FM-2.2 mountain ban)."""
        return u.kind == GT or (u.kind == CRAB and any(self.units[c].kind == GT for c in u.cargo))

    def operational(self, u: Unit, player: int) -> bool:
        """FM-21: on the board, controlled by ``player``, neither stranded nor neutralized."""
        return self.on_board(u) and self.ctl(u) == player and not u.neut and not self.stranded(u)

    def projects(self, u: Unit) -> bool:
        """FM-15.1."""
        if u.kind not in DESTROYERS or not self.on_board(u) or self.ctl(u) < 0:
            return False
        if u.kind == TURRET:
            return True
        if u.neut or self.stranded(u):
            return False
        mode = self.config["mountain_tanks"]
        if u.kind == TANK and self.board.terrain[u.cells[0]] == MOUNTAIN:
            if mode == "end_of_turn":
                return u.id not in self.disq
            partners = [p for p in self.mountain_partners(u)]
            if partners:
                if mode == "penalty":
                    return False
                return not any(p < u.id for p in partners)
        return True

    def mountain_partners(self, u: Unit) -> list[int]:
        """FM-19 / FM-D18: ids of tanks of the same controller on adjacent mountain cells."""
        if u.kind != TANK or not self.on_board(u) or self.board.terrain[u.cells[0]] != MOUNTAIN:
            return []
        out = []
        owner = self.ctl(u)
        for n in self.board.neigh[u.cells[0]]:
            oid = self.occ.get(n)
            if oid is None or self.board.terrain[n] != MOUNTAIN:
                continue
            o = self.units[oid]
            if o.kind == TANK and self.ctl(o) == owner and owner >= 0:
                out.append(o.id)
        return out

    def fire_range(self, u: Unit) -> int:
        """FM-4: tank 2 (3 on a mountain), GT 3, MB and turret 2."""
        if u.kind == GT:
            return 3
        if u.kind == TANK and self.board.terrain[u.cells[0]] == MOUNTAIN:
            return 3
        return 2

    def under_fire(self, cell: int, player: int) -> bool:
        """FM-15.2: some single opponent X has cov_X(cell) >= 2."""
        for x, row in enumerate(self.cov):  # noqa: SIM110 - a plain loop is faster here (hot path)
            if row[cell] >= 2 and x != player:
                return True
        return False

    def unit_under_fire(self, u: Unit, player: int) -> bool:
        return any(self.under_fire(c, player) for c in u.cells)

    def ships_of(self, player: int) -> list[Unit]:
        """Landed ships controlled by ``player``."""
        out = []
        for sid in self.ships:
            s = self.units.get(sid)
            if s is not None and s.cells and self.controller[s.colour] == player:
                out.append(s)
        return out

    def may_retreat(self, u: Unit) -> bool:
        """FM-15.6 / FM-18.2: is the retreat window open for unit ``u`` (neutralization not checked)?"""
        return self.retreat_window and (self.retreat_only is None or u.id in self.retreat_only)

    def is_active(self, player: int) -> bool:
        return self.eliminated[player] < 0 and bool(self.ships_of(player))

    def is_ship_cell(self, cell: int) -> bool:
        oid = self.occ.get(cell)
        return oid is not None and self.units[oid].kind == SHIP

    def all_cargo(self, u: Unit) -> list[Unit]:
        """Every item inside ``u`` at any depth."""
        out = []
        todo = list(u.cargo)
        while todo:
            c = self.units[todo.pop()]
            out.append(c)
            todo.extend(c.cargo)
        return out

    def slots(self, u: Unit) -> int:
        """FM-11.3 slots taken by an item inside a barge (``nested``, counting nested cargo as FM-D12 says, or
        ``shell``)."""
        if u.kind in (CRAB, WL):
            if self.config["cargo_size"] == "shell":
                return 2
            return 2 + sum(self.slots(self.units[c]) for c in u.cargo)
        if u.kind == ORE and u.value == 5 and self.config["ore_values"] == "multi":
            return 2
        return 1

    def load_of(self, carrier: Unit) -> int:
        return sum(self.slots(self.units[c]) for c in carrier.cargo)

    def spend(self, player: int, ap: int, rule: str = "FM-9.2") -> None:
        """FM-9.2: pay ``ap`` or refuse; ``apply`` works on a copy, so a refused action costs nothing (FM-D10)."""
        if ap > self.pool[player]:
            raise RuleError(rule, f"needs {ap} AP, only {self.pool[player]} left")
        self.pool[player] -= ap

    def xy(self, cell: int) -> list[int]:
        x, y = self.board.xy(cell)
        return [x, y]

    def cell_of(self, value: Any, rule: str = "CORE-ACTION") -> int:
        """Parse ``[x, y]`` into an on-map cell index."""
        if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)):
            raise RuleError(rule, f"expected a cell [x, y], got {value!r}")
        i = self.board.index(value[0], value[1])
        if i < 0:
            raise RuleError("FM-1.1", f"cell {list(value)} is off the map")
        return i

    def unit(self, uid: Any) -> Unit:
        if not isinstance(uid, int) or uid not in self.units:
            raise RuleError("CORE-ACTION", f"no unit {uid!r}")
        return self.units[uid]

    def open_sea(self, cell: int) -> bool:
        """Sea terrain with no pontoon (FM-10.3: land units never enter it)."""
        return self.board.terrain[cell] == SEA and cell not in self.pontoon_at

    def suits(self, u: Unit, cell: int, allow_strand: bool) -> bool:
        """FM-2.2 / FM-10.3: can ``u`` stand on ``cell`` (a stranding arrival allowed if ``allow_strand``)? Ore
        follows the land units' domain (FM-D33)."""
        t = self.board.terrain[cell]
        if u.kind in LAND_UNITS or u.kind == ORE:
            if cell in self.pontoon_at:
                return not (t == MOUNTAIN and self.gt_inside(u))
            if t == MOUNTAIN and self.gt_inside(u):
                return False
            if self.board.land(cell, self.tide):
                return True
            return allow_strand and t in (REEF, SWAMP)
        if u.kind in SEA_UNITS:
            if cell in self.pontoon_at:
                return False
            if t == SEA or (t in (REEF, SWAMP) and not self.board.land(cell, self.tide)):
                return True
            return allow_strand and t in (REEF, SWAMP)
        return True
