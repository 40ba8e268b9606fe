"""Compiled fast path (numba) for playouts, perft and search.

The reference rules are the rule modules behind :mod:`.game`; this module re-implements them on compact
arrays and bitboards (the ship index of docs/rules/arena.md, one bit per cell) and is kept equivalent by tests (identical
legal-action lists, perft numbers and seeded random playouts).

State array ``st`` (int64[24]): ``st[0:8]`` Red slots, ``st[8:16]`` Blue slots (cell or
N = banished), ``st[16]`` side to move, ``st[17]`` quiet, ``st[18]`` last capturer (−1/0/1),
``st[19]`` winner colour (−1 while running), ``st[20]`` end kind (0 running, 1 corvette,
2 no_action, 3 quiet_limit), ``st[21]`` plies, ``st[22]`` winner's points × 2.

Action codes: a move is ``(ship * 32 + dest) * 9 + bonus`` (bonus 0 = none, 1 + t for
teleport t in the canonical order P111, P112, P121, P122, RF+, RF−, RD+, RD−); a
plain teleport is ``MOVE_CODES + t``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import njit

from .board import BLUE, RED, get_face
from .teleports import TELEPORTS, teleport_action, teleport_name
from .turns import move_action

MOVE_CODES = 8 * 32 * 9
MAX_ACTIONS = 256
KIND_NAMES = ("", "corvette", "no_action", "quiet_limit")
QUIET_LIMIT = 40

WIN = 100000
MATE_BOUND = 40000


@cache
def tables(board: str) -> tuple[np.ndarray, np.ndarray]:
    """``geo`` = [W, H, N, target row mask of Red, of Blue] and ``nb`` neighbour bitmasks."""
    face = get_face(board)
    nb = np.zeros(face.size, dtype=np.int64)
    for c in range(face.size):
        for m in face.neighbours(c):
            nb[c] |= 1 << m
    rows = [sum(1 << c for c in face.target_row(col)) for col in (RED, BLUE)]
    geo = np.array([face.width, face.height, face.size, rows[0], rows[1]], dtype=np.int64)
    return geo, nb


def to_array(state: Any) -> np.ndarray:
    """Fast array of a reference :class:`~.game.ArenaState` (in play or over)."""
    st = np.zeros(24, dtype=np.int64)
    st[0:8] = state.loc[0]
    st[8:16] = state.loc[1]
    st[16] = state.to_move
    st[17] = state.quiet
    st[18] = state.last_capturer
    st[19] = state.winner if state.phase == "over" else -1
    st[20] = {"": 0, "corvette": 1, "no_action": 2, "quiet_limit": 3}.get(state.kind, 4) if state.phase == "over" else 0
    st[21] = state.plies
    st[22] = round(state.points * 2) if state.phase == "over" else 0
    return st


# ----------------------------------------------------------------- kernels
@njit(cache=True, inline="always")
def _popcount3(x: int) -> int:
    return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1)


@njit(cache=True)
def _tele_legal(st: np.ndarray, base: int, t: int, n: int) -> bool:
    if t < 4:
        a = t
        b = t ^ 7
        if st[base + a] == n and st[base + b] == n:
            return False
        # AR-9.1: P111 with the cruiser banished would banish the own corvette
        return not (t == 0 and st[base + 7] == n)
    cnt = 0
    cls = 1 if t < 6 else 2
    for s in range(1, 7):
        if _popcount3(s) == cls and st[base + s] != n:
            cnt += 1
    return cnt >= 2  # AR-7.4


@njit(cache=True)
def _tele_apply(st: np.ndarray, base: int, t: int) -> None:
    if t < 4:
        a = t
        b = t ^ 7
        tmp = st[base + a]
        st[base + a] = st[base + b]
        st[base + b] = tmp
        return
    cls = 1 if t < 6 else 2
    plus = (t & 1) == 0
    old = np.empty(8, dtype=np.int64)
    for s in range(8):
        old[s] = st[base + s]
    for s in range(1, 7):
        if _popcount3(s) == cls:
            if plus:
                src = ((s << 1) & 7) | (s >> 2)
            else:
                src = (s >> 1) | ((s & 1) << 2)
            st[base + s] = old[src]


#: De Bruijn bit scan: the index of a single set bit ``b`` is ``_BITPOS[(b * _DEBRUIJN) >> 58]`` (64-bit).
_DEBRUIJN = 0x022FDD63CC95386D
_BITPOS = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BITPOS[((1 << _i) * _DEBRUIJN & (2**64 - 1)) >> 58] = _i


@njit(cache=True, inline="always")
def _bit_index(low: int) -> int:
    """The index of the single set bit of ``low``."""
    return _BITPOS[(np.uint64(low) * np.uint64(_DEBRUIJN)) >> np.uint64(58)]


@njit(cache=True, inline="always")
def _member(t: int, ship: int) -> bool:
    if t < 4:
        return ship == t or ship == (t ^ 7)
    if t < 6:
        return _popcount3(ship) == 1
    return _popcount3(ship) == 2


@njit(cache=True)
def gen(st: np.ndarray, geo: np.ndarray, nb: np.ndarray, out: np.ndarray) -> int:
    """Fill ``out`` with the canonical turn actions (docs/rules/arena.md) of the side to move; return the count."""
    n = geo[2]
    side = st[16]
    base = side * 8
    ebase = (1 - side) * 8
    own = np.int64(0)
    enemy = np.int64(0)
    weak = np.int64(0)  # enemy shield-1 ships
    for s in range(8):
        c = st[base + s]
        if c != n:
            own |= np.int64(1) << c
        e = st[ebase + s]
        if e != n:
            enemy |= np.int64(1) << e
            if (s & 1) == 0:
                weak |= np.int64(1) << e
    occ = own | enemy
    row = geo[3 + side]
    k = 0
    for s in range(8):
        o = st[base + s]
        if o == n:
            continue
        reach = nb[o]
        if s & 4:
            m = nb[o] & ~occ
            while m:
                low = m & -m
                reach |= nb[_bit_index(low)]
                m ^= low
            reach &= ~(np.int64(1) << o)
        if s & 2:
            reach &= ~own
        else:
            reach &= ~(own | (enemy & ~weak))
        while reach:  # destinations in ascending cell order
            low = reach & -reach
            reach ^= low
            d = _bit_index(low)
            out[k] = (s * 32 + d) * 9
            k += 1
            if ((row >> d) & 1) and ((nb[o] >> d) & 1):
                corv_hit = st[ebase] == d
                if not corv_hit:  # a move onto the target row: the bonus teleports it allows (rare)
                    tmp = st.copy()
                    tmp[base + s] = d
                    if (enemy >> d) & 1:
                        for e in range(8):
                            if tmp[ebase + e] == d:
                                tmp[ebase + e] = n
                    for t in range(8):
                        if _member(t, s) and _tele_legal(tmp, base, t, n):
                            out[k] = (s * 32 + d) * 9 + 1 + t
                            k += 1
    for t in range(8):
        if _tele_legal(st, base, t, n):
            out[k] = 2304 + t
            k += 1
    return k


@njit(cache=True)
def has_action(st: np.ndarray, geo: np.ndarray, nb: np.ndarray) -> bool:
    """AR-9.2 check for the side to move."""
    n = geo[2]
    base = st[16] * 8
    for t in range(8):
        if _tele_legal(st, base, t, n):
            return True
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    return gen(st, geo, nb, buf) > 0


@njit(cache=True)
def play(st: np.ndarray, code: int, geo: np.ndarray, nb: np.ndarray) -> int:
    """Apply a legal action code in place with the AR-10.6 end checks; returns the captured ship or −1."""
    n = geo[2]
    side = st[16]
    base = side * 8
    ebase = (1 - side) * 8
    captured = -1
    st[21] += 1
    if code >= 2304:
        _tele_apply(st, base, code - 2304)
    else:
        bonus = code % 9
        d = (code // 9) % 32
        s = code // 288
        for e in range(8):
            if st[ebase + e] == d:
                st[ebase + e] = n
                captured = e
        st[base + s] = d
        if bonus:
            _tele_apply(st, base, bonus - 1)
    if captured == 0:
        st[19] = side
        st[20] = 1
        st[22] = 2
        return captured
    if captured > 0:
        st[17] = 0
        st[18] = side
    else:
        st[17] += 1
    if st[17] >= QUIET_LIMIT:
        st[19] = st[18] if st[18] >= 0 else 1
        st[20] = 3
        st[22] = 1
        return captured
    st[16] = 1 - side
    if not has_action(st, geo, nb):
        st[19] = side
        st[20] = 2
        st[22] = 2
    return captured


@njit(cache=True, inline="always")
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _randbelow(rs: np.ndarray, n: int) -> int:
    """Same draws as :meth:`spacetable.core.rng.Rng.randbelow` (SplitMix64, rejection)."""
    un = np.uint64(n)
    r = (np.uint64(0) - un) % un
    while True:
        s, x = _splitmix(rs[0])
        rs[0] = s
        if r == np.uint64(0) or x < np.uint64(0) - r:
            return np.int64(x % un)


@njit(cache=True)
def random_playout(st: np.ndarray, rs: np.ndarray, geo: np.ndarray, nb: np.ndarray, log: np.ndarray) -> int:
    """Random play to the end (uniform over the canonical list); returns the number of plies played."""
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    k = 0
    while st[19] < 0:
        cnt = gen(st, geo, nb, buf)
        a = buf[_randbelow(rs, cnt)]
        if k < log.shape[0]:
            log[k] = a
        play(st, a, geo, nb)
        k += 1
    return k


@njit(cache=True)
def many_playouts(st0: np.ndarray, seed: np.uint64, games: int, geo: np.ndarray, nb: np.ndarray, stats: np.ndarray) -> int:
    """``games`` random playouts from ``st0``; ``stats[kind]`` counts endings, returns total plies
    (the AR-A26 bound check of ``bench/arena_playouts.py``: every game ends within 600 plies, AR-10.7)."""
    rs = np.empty(1, dtype=np.uint64)
    rs[0] = seed
    log = np.empty(0, dtype=np.int64)
    st = np.empty(24, dtype=np.int64)
    total = 0
    for _ in range(games):
        for i in range(24):
            st[i] = st0[i]
        total += random_playout(st, rs, geo, nb, log)
        stats[st[20]] += 1
    return total


@njit(cache=True)
def perft(st: np.ndarray, depth: int, geo: np.ndarray, nb: np.ndarray) -> int:
    """Leaves of the turn tree at ``depth`` (terminal positions have no actions, so a game that ends
    before ``depth`` contributes nothing; one that ends exactly at ``depth`` is a leaf)."""
    if depth == 0:
        return 1
    if st[19] >= 0:
        return 0
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    cnt = gen(st, geo, nb, buf)
    if depth == 1:
        return cnt
    total = 0
    child = np.empty(24, dtype=np.int64)
    for i in range(cnt):
        for j in range(24):
            child[j] = st[j]
        play(child, buf[i], geo, nb)
        total += perft(child, depth - 1, geo, nb)
    return total


def legal_codes(st: np.ndarray, board: str) -> list[int]:
    geo, nb = tables(board)
    if st[19] >= 0:
        return []
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    k = gen(st, geo, nb, buf)
    return [int(x) for x in buf[:k]]


def run_perft(st: np.ndarray, board: str, depth: int) -> int:
    geo, nb = tables(board)
    return int(perft(st.copy(), depth, geo, nb))


def action_to_code(state: Any, action: dict[str, Any]) -> int:
    """Code of a reference turn action in ``state`` (for agents and tests)."""
    face = state.face
    if action.get("type") in ("permute", "rotate"):
        return MOVE_CODES + TELEPORTS.index(teleport_name(action))
    origin, dest = face.parse_cell(action["from"]), face.parse_cell(action["to"])
    ship = state.loc[state.to_move].index(origin)
    bonus = action.get("bonus")
    b = 0
    if bonus:
        b = 1 + TELEPORTS.index(teleport_name(bonus))
    return (ship * 32 + dest) * 9 + b


def code_to_action(state: Any, code: int) -> dict[str, Any]:
    """Reference action object for a code in ``state``."""
    face = state.face
    if code >= MOVE_CODES:
        return teleport_action(TELEPORTS[code - MOVE_CODES])
    bonus = code % 9
    dest = (code // 9) % 32
    ship = code // 288
    origin = state.loc[state.to_move][ship]
    return move_action(face, origin, dest, TELEPORTS[bonus - 1] if bonus else None)
