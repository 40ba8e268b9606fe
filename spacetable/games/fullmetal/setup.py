"""Setting up a game: reserve, ore, starting forces, landing lots and the tide deck (FM-2.3, FM-3.1, FM-4, FM-D4).

Every random draw comes from the state's generator and its named sub-streams (``ore``, ``lots``), in a
fixed order, so a configuration and a seed always give the same game (FM-D4).
"""

from __future__ import annotations

from spacetable.core.rng import Rng

from .fmp import FmpMap
from .state import CRAB, ORE, PONTOON, SHIP, STARTING_FORCE, TANK, FMState
from .terrain import SEA, Board
from .tides import setup_deck

#: FM-D42 (``ore_values=multi``): the kind of each lattice ore, drawn from this table (rock 0, ore 2,
#: precious 3, rare 5).
MULTI_ORE_TABLE = (0, 2, 2, 2, 3, 3, 5, 0, 2, 2)


def reserve(state: FMState) -> dict[str, int]:
    """FM-4 reserve: 16 tanks, 4 crabs, 4 pontoons with 2 or 4 players, 12/3/3 with 3 (FM-D24);
    ``per_player``: 4/1/1 per player."""
    n = state.num_players
    if state.config["reserve"] == "per_player":
        return {TANK: 4 * n, CRAB: n, PONTOON: n}
    if n == 3:
        return {TANK: 12, CRAB: 3, PONTOON: 3}
    return {TANK: 16, CRAB: 4, PONTOON: 4}


def lattice_cells(board: Board, a: int, b: int) -> list[int]:
    """FM-3.1: the on-map cells that are not sea with cube ``q ≡ a`` and ``r ≡ b`` (mod 3)."""
    return [c for c in board.cells if board.axial[c][0] % 3 == a and board.axial[c][1] % 3 == b and board.terrain[c] != SEA]


def scatter_cells(board: Board, count: int, rng: Rng) -> list[int]:
    """FM-D46: ``count`` cells that are not sea, never two adjacent, drawn from ``rng`` (sorted)."""
    pool = [c for c in board.cells if board.terrain[c] != SEA]
    rng.shuffle(pool)
    chosen: list[int] = []
    taken: set[int] = set()
    for c in pool:
        if len(chosen) >= count:
            break
        if c in taken or any(n in taken for n in board.neigh[c]):
            continue
        chosen.append(c)
        taken.add(c)
    return sorted(chosen)


def spread_cells(board: Board, rng: Rng, placement: str = "lattice") -> list[int]:
    """The ore of a game without an ore layer: the FM-3.1 lattice at an offset drawn from ``rng``, or (``random``)
    as many ore scattered by FM-D46."""
    a, b = rng.randbelow(3), rng.randbelow(3)
    lattice = lattice_cells(board, a, b)
    if placement == "random":
        return scatter_cells(board, len(lattice), rng)
    return lattice


def place_ore(state: FMState, fmap: FmpMap) -> None:
    """FM-3.1 lattice of spacing 3, "one ore every three cells" read as density 1/9 (FM-D6); or the map's
    REPARTITION layer, or the ``random`` placement of FM-D46."""
    board = state.board
    rng = state.rng.split("ore")
    cells: list[tuple[int, str]] = []
    if fmap.ore is not None:
        cells = [(board.index(x, y), ch) for x, y, ch in fmap.ore_cells()]
    else:
        cells = [(c, "2") for c in spread_cells(board, rng, state.config["ore_placement"])]
    for c, ch in cells:
        value = 2
        if state.config["ore_values"] == "multi":
            value = int(ch) if ch in "0235" and fmap.ore is not None else MULTI_ORE_TABLE[rng.randbelow(10)]
        u = state.new_unit(ORE, -1, cells=[c], value=value)
        state.occ[c] = u.id


def populate(state: FMState, fmap: FmpMap) -> None:
    """Fill a fresh state: seats, reserve, ore, every player's ship with the starting force aboard (FM-4),
    the landing order and the turn-3 first player by lot (FM-D4), the tide deck (FM-2.3); phase ``land``."""
    state.init_seats()
    state.reserve = reserve(state)
    place_ore(state, fmap)
    for p in range(state.num_players):
        ship = state.new_unit(SHIP, p)
        state.ships.append(ship.id)
        for kind, count in STARTING_FORCE:
            for _ in range(count):
                u = state.new_unit(kind, p, carrier=ship.id, shots=2 if kind in ("tank", "gt", "mb") else 0)
                ship.cargo.append(u.id)
    lots = state.rng.split("lots")
    state.land_order = list(range(state.num_players))
    lots.shuffle(state.land_order)
    state.lot = lots.randbelow(state.num_players)
    setup_deck(state)
    state.phase = "land"
