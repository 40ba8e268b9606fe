"""Exact retrograde solver for small endgames (AR-11.1, AR-11.2, AR-11.3, AR-A22).

A table covers every position in which Red has at most ``red_max`` ships on the board
and Blue at most ``blue_max`` (corvettes included; any ship identities, since
teleports may recall banished ships), with either side to move. The set is closed under
play (captures only remove ships; teleports keep the count), so values are exact:
``win``/``loss`` for the side to move with the optimal length in plies (the winner
hurries, the loser delays; a position without legal action is a loss in 0 plies, AR-9.2).
The quiet limit (AR-10.2) is *not* modelled: positions that neither side can force are
reported as ``undecided`` and in a real game are settled by AR-10.2; a reported length
is exact as long as it is below the plies left before the quiet limit.

Children come from the compiled generator (:mod:`.fast`), which tests keep equal to
the reference rules; the retrograde passes are vectorised with numpy. :func:`solve_compiled` is the same
analysis with a perfect position index, compiled with numba, for tables of tens of millions of positions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from . import fast
from .board import BLUE, RED, get_face

UNKNOWN, WIN, LOSS = 0, 1, 2


@dataclass
class Tablebase:
    """Solved endgame table: ``status`` (0 undecided, 1 win, 2 loss for the side to move) and ``dist`` in plies."""

    board: str
    red_max: int
    blue_max: int
    index: dict[tuple[int, ...], int] = field(default_factory=dict)
    status: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    dist: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))

    def key(self, loc: Any, to_move: int) -> tuple[int, ...]:
        return (*(int(x) for x in loc[0]), *(int(x) for x in loc[1]), int(to_move))

    def probe_loc(self, loc: Any, to_move: int) -> tuple[str, int]:
        """``("win"|"loss"|"undecided", plies)`` for the side to move; ``KeyError`` if not covered."""
        i = self.index[self.key(loc, to_move)]
        return ("undecided", "win", "loss")[int(self.status[i])], int(self.dist[i])

    def probe(self, state: Any) -> tuple[str, int]:
        return self.probe_loc(state.loc, state.to_move)

    def __len__(self) -> int:
        return len(self.index)


def _placements(board: str, red_max: int, blue_max: int) -> list[tuple[int, ...]]:
    face = get_face(board)
    n = face.size
    out: list[tuple[int, ...]] = []
    sets = []
    for mx in (red_max, blue_max):
        sets.append([(0, *others) for k in range(mx) for others in itertools.combinations(range(1, 8), k)])
    for rs in sets[0]:
        for bs in sets[1]:
            total = len(rs) + len(bs)
            for cells in itertools.permutations(range(n), total):
                red = [n] * 8
                blue = [n] * 8
                for s, c in zip(rs, cells[: len(rs)], strict=True):
                    red[s] = c
                for s, c in zip(bs, cells[len(rs):], strict=True):
                    blue[s] = c
                for side in (RED, BLUE):
                    out.append((*red, *blue, side))
    return out


def solve(board: str, red_max: int = 1, blue_max: int = 1) -> Tablebase:
    """Build and solve the table (AR-11.3). ``red_max``/``blue_max`` count ships on the board."""
    if red_max < 1 or blue_max < 1:
        raise ValueError("each side keeps its corvette on the board")
    geo, nb = fast.tables(board)
    positions = _placements(board, red_max, blue_max)
    index = {p: i for i, p in enumerate(positions)}
    npos = len(positions)
    lost = npos  # sentinel: "the side to move has lost (its corvette was just captured)"
    starts = np.zeros(npos + 1, dtype=np.int64)
    children: list[int] = []
    buf = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    st = np.zeros(24, dtype=np.int64)
    child = np.zeros(24, dtype=np.int64)
    for i, p in enumerate(positions):
        st[:] = 0
        st[0:16] = p[:16]
        st[16] = p[16]
        st[18] = -1
        st[19] = -1
        cnt = fast.gen(st, geo, nb, buf)
        for j in range(cnt):
            child[:] = st
            fast.play(child, int(buf[j]), geo, nb)
            if child[20] == 1:
                children.append(lost)
                continue
            key = (*(int(x) for x in child[0:16]), int(1 - p[16]))
            children.append(index[key])
        starts[i + 1] = len(children)
    ch = np.array(children, dtype=np.int64)
    status = np.zeros(npos + 1, dtype=np.int8)
    dist = np.zeros(npos + 1, dtype=np.int32)
    status[lost] = LOSS
    counts = np.diff(starts)
    status[:npos][counts == 0] = LOSS  # AR-9.2: no legal action, loss in 0
    owner = np.repeat(np.arange(npos), counts)
    big = np.iinfo(np.int32).max
    while True:
        cs, cd = status[ch], dist[ch]
        win_len = np.full(npos, big, dtype=np.int64)
        np.minimum.at(win_len, owner, np.where(cs == LOSS, cd.astype(np.int64) + 1, big))
        all_win = np.ones(npos, dtype=bool)
        np.logical_and.at(all_win, owner, cs == WIN)
        loss_len = np.zeros(npos, dtype=np.int64)
        np.maximum.at(loss_len, owner, cd.astype(np.int64) + 1)
        undecided = status[:npos] == UNKNOWN
        new_win = undecided & (win_len < big)
        new_loss = undecided & ~new_win & all_win & (counts > 0)
        if not new_win.any() and not new_loss.any():
            break
        # only accept the shortest newly provable lengths this pass, so lengths stay optimal
        cand = np.where(new_win, win_len, np.where(new_loss, loss_len, big))
        level = cand.min()
        new_win &= win_len == level
        new_loss &= loss_len == level
        status[:npos][new_win] = WIN
        dist[:npos][new_win] = level
        status[:npos][new_loss] = LOSS
        dist[:npos][new_loss] = level
    return Tablebase(board, red_max, blue_max, index, status[:npos].copy(), dist[:npos].copy())


def two_corvette_claim(tb: Tablebase) -> list[str]:
    """Check AR-11.1 and AR-11.3 on a (1, 1) table; returns the list of violations (empty = proved).
    Why it holds (AR-11.2): only corvette steps are legal and each flips the distance parity."""
    face = get_face(tb.board)
    bad = []
    for key, i in tb.index.items():
        red, blue, side = key[0], key[8], key[16]
        d = face.distance(red, blue)
        status, length = int(tb.status[i]), int(tb.dist[i])
        want = WIN if d % 2 == 1 else LOSS
        limit = 13 if want == WIN else 14
        if status != want or length > limit:
            bad.append(f"{face.cell_name(red)} {face.cell_name(blue)} side={side}: status={status} length={length}")
    return bad


# --------------------------------------------------------------------------------------------------
# Compiled solver: the same retrograde analysis with a perfect index (no dictionaries, no Python loop
# per position), so tables with one extra ship for *each* side (2, 2) or two extra ships for one side fit.
# Index of a position: block of its material (which ships each side has on the board), then the rank of
# the injective sequence of their cells (Red's ships by index, then Blue's), then the side to move.
# --------------------------------------------------------------------------------------------------
def _materials(most: int) -> list[int]:
    """Bit masks of ship sets on the board with the corvette and at most ``most`` ships (AR-9.1)."""
    return sorted((m for m in range(1, 256) if m & 1 and bin(m).count("1") <= most), key=lambda m: (bin(m).count("1"), m))


@njit(cache=True)
def _perm_count(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@njit(cache=True)
def _rank(cells: np.ndarray, k: int, n: int) -> int:
    """Rank of an injective sequence of ``k`` cells among the n·(n−1)·… sequences (mixed radix)."""
    r = 0
    for i in range(k):
        smaller = 0
        for j in range(i):
            if cells[j] < cells[i]:
                smaller += 1
        r = r * (n - i) + (cells[i] - smaller)
    return r


@njit(cache=True)
def _unrank(r: int, k: int, n: int, cells: np.ndarray, used: np.ndarray) -> None:
    digits = np.empty(k, dtype=np.int64)
    for i in range(k - 1, -1, -1):
        digits[i] = r % (n - i)
        r //= n - i
    used[:] = 0
    for i in range(k):
        d = digits[i]
        for c in range(n):
            if used[c] == 0:
                if d == 0:
                    cells[i] = c
                    used[c] = 1
                    break
                d -= 1


@njit(cache=True)
def _index_of(st: np.ndarray, n: int, side: int, mat_index: np.ndarray, offset: np.ndarray, cells: np.ndarray) -> int:
    """Table index of the position in ``st`` (side ``side`` to move); −1 if its material is not covered."""
    masks = np.zeros(2, dtype=np.int64)
    k = 0
    for colour in range(2):
        for s in range(8):
            c = st[colour * 8 + s]
            if c != n:
                masks[colour] |= 1 << s
                cells[k] = c
                k += 1
    ir = mat_index[0, masks[0]]
    ib = mat_index[1, masks[1]]
    if ir < 0 or ib < 0:
        return -1
    return offset[ir, ib] + 2 * _rank(cells, k, n) + side


@njit(cache=True)
def _apply_raw(st: np.ndarray, code: int, n: int) -> bool:
    """Apply an action code (fast.py encoding) without end checks; True if it captured the enemy corvette."""
    side = st[16]
    base = side * 8
    ebase = (1 - side) * 8
    if code >= fast.MOVE_CODES:
        fast._tele_apply(st, base, code - fast.MOVE_CODES)
        st[16] = 1 - side
        return False
    bonus = code % 9
    d = (code // 9) % 32
    s = code // 288
    hit = False
    for e in range(8):
        if st[ebase + e] == d:
            st[ebase + e] = n
            hit = e == 0
    st[base + s] = d
    if bonus:
        fast._tele_apply(st, base, bonus - 1)
    st[16] = 1 - side
    return hit


@njit(cache=True)
def _decode(i: int, n: int, offset: np.ndarray, kinds: np.ndarray, mats: np.ndarray,
            st: np.ndarray, cells: np.ndarray, used: np.ndarray) -> None:
    """Fill ``st`` with the position of table index ``i``."""
    nr, nb_ = offset.shape
    ir, ib = 0, 0
    for a in range(nr):
        for b in range(nb_):
            if offset[a, b] <= i:
                ir, ib = a, b
    local = i - offset[ir, ib]
    side = local % 2
    mr, mb = mats[0, ir], mats[1, ib]
    k = kinds[ir, ib]
    _unrank(local // 2, k, n, cells, used)
    for j in range(24):
        st[j] = 0
    for j in range(16):
        st[j] = n
    j = 0
    for s in range(8):
        if (mr >> s) & 1:
            st[s] = cells[j]
            j += 1
    for s in range(8):
        if (mb >> s) & 1:
            st[8 + s] = cells[j]
            j += 1
    st[16] = side
    st[18] = -1
    st[19] = -1


@njit(cache=True)
def _build(npos: int, n: int, offset: np.ndarray, kinds: np.ndarray, mats: np.ndarray, mat_index: np.ndarray,
           geo: np.ndarray, nb: np.ndarray, starts: np.ndarray, children: np.ndarray) -> int:
    """Write the children (table indices) of every position; −2 marks a child in which the mover has just
    captured the enemy corvette (AR-10.1). Returns the number of children."""
    st = np.zeros(24, dtype=np.int64)
    child = np.zeros(24, dtype=np.int64)
    cells = np.zeros(16, dtype=np.int64)
    used = np.zeros(n, dtype=np.int64)
    buf = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    total = 0
    for i in range(npos):
        _decode(i, n, offset, kinds, mats, st, cells, used)
        cnt = fast.gen(st, geo, nb, buf)
        p = starts[i]
        for j in range(cnt):
            for x in range(24):
                child[x] = st[x]
            if _apply_raw(child, buf[j], n):
                children[p + j] = -2
            else:
                children[p + j] = _index_of(child, n, child[16], mat_index, offset, cells)
        total += cnt
    return total


@njit(cache=True)
def _retrograde(npos: int, starts: np.ndarray, children: np.ndarray, status: np.ndarray, dist: np.ndarray) -> None:
    """Level-by-level retrograde passes: a position is won in L if a child is lost in L−1, lost in L if every
    child is won and the longest of them takes L−1 plies (the winner hurries, the loser delays)."""
    for i in range(npos):
        if starts[i + 1] == starts[i]:
            status[i] = LOSS  # AR-9.2
    level = 1
    while True:
        changed = 0
        for i in range(npos):
            if status[i] != UNKNOWN:
                continue
            win = False
            all_won = True
            longest = 0
            for p in range(starts[i], starts[i + 1]):
                c = children[p]
                if c == -2:
                    win = level == 1
                    all_won = False
                    if win:
                        break
                    continue
                sc = status[c]
                if sc == LOSS and dist[c] == level - 1:
                    win = True
                    break
                if sc != WIN:
                    all_won = False
                elif dist[c] > longest:
                    longest = dist[c]
            if win:
                status[i] = WIN
                dist[i] = level
                changed += 1
            elif all_won and longest == level - 1:
                status[i] = LOSS
                dist[i] = level
                changed += 1
        if changed == 0 and level > 1:
            break
        level += 1


@dataclass
class CompiledTable:
    """Result of :func:`solve_compiled`; ``probe_loc`` answers like :meth:`Tablebase.probe_loc`."""

    board: str
    red_max: int
    blue_max: int
    mats: np.ndarray
    mat_index: np.ndarray
    offset: np.ndarray
    status: np.ndarray
    dist: np.ndarray

    def __len__(self) -> int:
        return int(self.status.shape[0])

    def probe_loc(self, loc: Any, to_move: int) -> tuple[str, int]:
        n = get_face(self.board).size
        st = np.zeros(24, dtype=np.int64)
        st[0:8] = loc[0]
        st[8:16] = loc[1]
        i = _index_of(st, n, int(to_move), self.mat_index, self.offset, np.zeros(16, dtype=np.int64))
        if i < 0:
            raise KeyError("position not covered by this table")
        return ("undecided", "win", "loss")[int(self.status[i])], int(self.dist[i])

    def probe(self, state: Any) -> tuple[str, int]:
        return self.probe_loc(state.loc, state.to_move)

    def counts(self) -> dict[str, int]:
        return {name: int((self.status == k).sum()) for k, name in ((WIN, "win"), (LOSS, "loss"), (UNKNOWN, "undecided"))}


def solve_compiled(board: str, red_max: int = 1, blue_max: int = 1) -> CompiledTable:
    """The retrograde analysis of :func:`solve`, compiled (numba) with a perfect index; same values, and
    tables such as (2, 2) (about 25–30 million positions) in minutes. The quiet limit is not modelled."""
    if red_max < 1 or blue_max < 1:
        raise ValueError("each side keeps its corvette on the board")
    face = get_face(board)
    n = face.size
    geo, nb = fast.tables(board)
    lists = [_materials(red_max), _materials(blue_max)]
    width = max(len(x) for x in lists)
    mats = np.zeros((2, width), dtype=np.int64)
    mat_index = np.full((2, 256), -1, dtype=np.int64)
    for colour, masks in enumerate(lists):
        for j, m in enumerate(masks):
            mats[colour, j] = m
            mat_index[colour, m] = j
    offset = np.zeros((len(lists[0]), len(lists[1])), dtype=np.int64)
    kinds = np.zeros_like(offset)
    npos = 0
    for a, mr in enumerate(lists[0]):
        for b, mb in enumerate(lists[1]):
            k = bin(mr).count("1") + bin(mb).count("1")
            offset[a, b], kinds[a, b] = npos, k
            npos += 2 * _perm_count(n, k)
    starts = np.zeros(npos + 1, dtype=np.int64)
    # pass 1: child counts (kept in `starts` through a cumulative sum of per-position counts)
    counts = np.zeros(npos, dtype=np.int64)
    _count_children(npos, n, offset, kinds, mats, geo, nb, counts)
    np.cumsum(counts, out=starts[1:])
    children = np.empty(int(starts[-1]) or 1, dtype=np.int64 if npos >= 2**31 else np.int32)
    del counts
    _build(npos, n, offset, kinds, mats, mat_index, geo, nb, starts, children)
    status = np.zeros(npos, dtype=np.int8)
    dist = np.zeros(npos, dtype=np.int16)
    _retrograde(npos, starts, children, status, dist)
    return CompiledTable(board, red_max, blue_max, mats, mat_index, offset, status, dist)


@njit(cache=True)
def _count_children(npos: int, n: int, offset: np.ndarray, kinds: np.ndarray, mats: np.ndarray,
                    geo: np.ndarray, nb: np.ndarray, counts: np.ndarray) -> None:
    st = np.zeros(24, dtype=np.int64)
    cells = np.zeros(16, dtype=np.int64)
    used = np.zeros(n, dtype=np.int64)
    buf = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    for i in range(npos):
        _decode(i, n, offset, kinds, mats, st, cells, used)
        counts[i] = fast.gen(st, geo, nb, buf)
