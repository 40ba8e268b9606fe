"""Exact retrograde solver for small endgames (AR-11, AR-A22).

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
the reference rules; the retrograde passes are vectorised with numpy.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
    """Check AR-11.1/AR-11.3 on a (1, 1) table; returns the list of violations (empty = proved)."""
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
