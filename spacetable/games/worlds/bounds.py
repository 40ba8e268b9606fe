"""Optimistic bounds on what the rest of a plan can still achieve (WS-10.7, allowed pruning).

The advisor's branch and bound cuts a branch only when its bound is strictly below the best value
found, so a bound must never underestimate a real completion. :class:`Bounds` gets that from a
dynamic programme over (battle, pool, cards left) that lets each remaining battle's choice depend on
the outcome of the later battles: a relaxation of the open-loop plans for ``win`` / ``no_loss``, and
exact for the additive objectives ``losses`` / ``net``. The same tables, with ``sense`` -1, bound the
opponent's replies (WS-10.3).

The programme works on whole tables with numpy: :class:`Moves` lists once, per battle, the usable
options of every state (cards left, pool left) of one side, and the table of battles i.. over all
states comes from the table of battles i+1.. in a few array operations. A search node gets the bounds
of all its options at once (:meth:`Bounds.child_bounds`: one matrix-vector product with the law of
the battles already decided).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from .plans import Evaluator, OptionLaw


@dataclass(frozen=True)
class BattleMoves:
    """The usable options of one battle in every state of a side (see :class:`Moves`).

    State s's options are ``opt[start[s]:start[s + 1]]`` (increasing option index, never empty: the option
    without card and energy is always usable) and ``child`` holds the state each one leaves; ``at[s]`` has
    the same two lists as Python lists for the searches, ``span[s]`` the slice of state s."""

    opt: Any
    child: Any
    start: Any
    at: list[tuple[list[int], list[int]]]
    span: list[slice]


class Moves:
    """One side's states and usable options, battle by battle (WS-10.2: one pool and one hand for all battles).

    A state is the number ``hand * (pool + 1) + energy left``, where ``hand`` numbers the sub-hands of the side's
    full hand in mixed radix: one digit per card (by name), holding how many copies are left. An option with an
    event card uses one copy unless the battle's card is already revealed (``fixed[i]``: it is not in the hand).
    The per-battle lists depend only on the battle's options: they are shared through ``cache``."""

    def __init__(self, options: list[list[tuple[str | None, int]]], fixed: list[bool], hand: dict[str, int],
                 pool: int, cache: dict[Any, Any] | None = None) -> None:
        self.cards = tuple(sorted(c for c, n in hand.items() if n > 0))
        self.copies = {c: hand[c] for c in self.cards}
        self.stride: dict[str, int] = {}
        size = 1
        for c in self.cards:
            self.stride[c] = size
            size *= self.copies[c] + 1
        self.hands = size
        self.width = pool + 1
        self.states = size * self.width
        #: the state with the full hand and pool
        self.initial = (size - 1) * self.width + pool
        #: what the states mean: tables of two Moves with equal layouts are interchangeable
        self.layout = (tuple(self.copies.items()), pool)
        cache = {} if cache is None else cache
        self.battles: list[BattleMoves] = []
        for opts, fx in zip(options, fixed, strict=True):
            key = ("moves", self.layout, tuple(opts), fx)
            hit = cache.get(key)
            if hit is None:
                hit = cache[key] = self._battle(opts, fx)
            self.battles.append(hit)

    def pool(self, state: int) -> int:
        """The energy left in ``state``."""
        return state % self.width

    def _battle(self, opts: list[tuple[str | None, int]], fixed: bool) -> BattleMoves:
        opt: list[int] = []
        child: list[int] = []
        start = [0]
        at: list[tuple[list[int], list[int]]] = []
        for h in range(self.hands):
            for p in range(self.width):
                first = len(opt)
                for j, (ev, e) in enumerate(opts):
                    if e > p:
                        continue
                    h2 = h
                    if ev is not None and not fixed:
                        st = self.stride.get(ev)
                        if st is None or (h // st) % (self.copies[ev] + 1) == 0:
                            continue
                        h2 = h - st
                    opt.append(j)
                    child.append(h2 * self.width + p - e)
                start.append(len(opt))
                at.append((opt[first:], child[first:]))
        return BattleMoves(np.array(opt, dtype=np.intp), np.array(child, dtype=np.intp), np.array(start, dtype=np.intp),
                           at, [slice(a, b) for a, b in pairwise(start)])


class Bounds:
    """Optimistic bounds on the searching side's objective over the remaining battles i..k-1, given its state
    (pool and cards left, see :class:`Moves`), as tables over all states memoised per suffix of battles.

    * ``win`` / ``no_loss``: the tail table of battles i.. bounds, per state and threshold t, the number (over
      36^(k-i)) of suffix outcomes with D_suffix > t by a dynamic programme that lets every battle's option
      depend on the outcome of the battles after it (``best_j sum_shift n * tail(i+1, state_j)[t - shift]``): a
      relaxation of the real, open-loop suffix plans, taken pointwise in t, so no real completion beats it. A
      table only keeps the thresholds where it may vary (t from one below the lowest value D_suffix can take to
      its highest): below, every suffix outcome counts; above, none.
    * ``losses`` / ``net``: the objective is additive over battles, so the same programme is exact.

    ``sense`` +1: the searching side is S (upper bounds on S's value); -1: it is the opponent (lower bounds)."""

    def __init__(self, evl: Evaluator, laws: list[list[OptionLaw]], moves: Moves, sense: int = 1,
                 sig: list[Any] | None = None, store: dict[Any, Any] | None = None) -> None:
        """``laws[i][j]`` is option j of battle i; ``moves`` the searching side's states and usable options.
        ``sig[i]`` identifies battle i's option laws (e.g. the other side's power in it): searches whose suffix
        signatures agree share tables through ``store``."""
        k = len(laws)
        self.evl = evl
        self.objective = evl.objective
        self.laws = laws
        self.moves = moves
        self.k = k
        self.sense = sense
        self.reduce: Any = np.maximum if sense > 0 else np.minimum
        if sig is None or store is None:
            sig, store = [object()] * k, {}
        self.sig = sig
        self.suffix = [tuple(sig[i:]) for i in range(k + 1)]
        self.memo: dict[Any, Any] = store.setdefault(("bounds", sense, moves.layout), {})
        self.dtype = evl.space.dtype

    # ------------------------------------------------------------------ one battle's option laws
    def _battle(self, i: int) -> tuple[list[int], Any, Any]:
        """Battle i's shifts of D, their counts (one row per option, one column per shift) and per option its
        additive value (-E[L_S]*36 for ``losses``, (E[L_O]-E[L_S])*36 for ``net``)."""
        key = ("battle", i, self.sig[i])
        hit = self.memo.get(key)
        if hit is None:
            laws = self.laws[i]
            shifts = sorted({sh for ol in laws for sh, _ in ol.law})
            counts = np.array([[dict(ol.law).get(sh, 0) for sh in shifts] for ol in laws], dtype=np.int64)
            vals = np.array([-ol.els if self.objective == "losses" else ol.elo - ol.els for ol in laws], dtype=np.int64)
            hit = self.memo[key] = (shifts, counts, vals)
        return hit

    # ------------------------------------------------------------------ additive objectives
    def _additive(self, i: int) -> tuple[Any, Any]:
        """Best sum over battles i.. of the options' additive values, per state (exact), and per usable option of
        battle i (:class:`BattleMoves` order) its value plus the best sum over battles i+1.. after it."""
        key = ("add", self.suffix[i])
        hit = self.memo.get(key)
        if hit is None:
            if i == self.k:
                hit = (np.zeros(self.moves.states, dtype=np.int64), None)
            else:
                bm = self.moves.battles[i]
                cand = self._battle(i)[2][bm.opt] + self._additive(i + 1)[0][bm.child]
                hit = (self.reduce.reduceat(cand, bm.start[:-1]), cand)
            self.memo[key] = hit
        return hit

    def additive(self, i: int, state: int) -> int:
        """Best sum over battles i.. of -E[L_S]*36 (losses) or (E[L_O]-E[L_S])*36 (net) from ``state``: exact."""
        return int(self._additive(i)[0][state])

    # ------------------------------------------------------------------ win / no_loss
    def _tail(self, i: int) -> tuple[Any, int]:
        """The tail table of battles i.. (states x thresholds) and ``a``: column x is the threshold t = x - a - 1."""
        key = ("tail", self.suffix[i])
        hit = self.memo.get(key)
        if hit is None:
            if i == self.k:
                table = np.zeros((self.moves.states, 2), dtype=self.dtype)
                table[:, 0] = 1  # no battle left: D_suffix = 0 > t for t = -1, not for t = 0
                hit = (table, 0)
            else:
                shifts = self._battle(i)[0]
                nxt, a1 = self._tail(i + 1)
                a = a1 + max(0, -shifts[0])
                width = nxt.shape[1] + max(0, -shifts[0]) + max(0, shifts[-1])
                bm = self.moves.battles[i]
                cand = self._combine(i, self._shifted(i, np.arange(width) - a - 1), bm.opt, bm.child)
                hit = (self.reduce.reduceat(cand, bm.start[:-1], axis=0), a)
            self.memo[key] = hit
        return hit

    def _shifted(self, i: int, thresholds: Any) -> Any:
        """States x shifts of battle i x ``thresholds``: the tail table of battles i+1.. read at t - shift (exact at
        the edges: the table is constant beyond its columns)."""
        shifts = self._battle(i)[0]
        nxt, a1 = self._tail(i + 1)
        return nxt[:, np.clip(thresholds[None, :] - np.array(shifts)[:, None] + a1 + 1, 0, nxt.shape[1] - 1)]

    def _combine(self, i: int, shifted: Any, opt: Any, child: Any) -> Any:
        """For options ``opt`` of battle i leading to states ``child``: sum over the option's law of count times the
        ``shifted`` tail of its child state, i.e. the number of outcomes of battles i.. with D_suffix > t for each
        threshold t of ``shifted`` when battles i+1.. follow their tail table (options x thresholds)."""
        # per option: (1 x shifts) counts times (shifts x thresholds) tails
        return np.matmul(self._battle(i)[1][opt][:, None, :], shifted[child])[:, 0]

    def _win_matrix(self, i: int, state: int, adj: int) -> Any:
        """Rows: usable options of battle i in ``state``; columns: entries of the law of D before battle i. Row times
        law: the bound on P(D + shift > -adj) * 36^k after the option."""
        key = ("win-node", self.suffix[i], state, adj)
        hit = self.memo.get(key)
        if hit is None:
            skey = ("win-shifted", self.suffix[i], adj)
            shifted = self.memo.get(skey)
            if shifted is None:
                space = self.evl.space
                # battles i.. must bring D_suffix > t = -d - shift - adj for the prefix value d = x - low
                thresholds = -(np.arange(space.size) - space.low) - self.evl.shift - adj
                shifted = self.memo[skey] = self._shifted(i, thresholds)
            bm = self.moves.battles[i]
            sel = bm.span[state]
            hit = self.memo[key] = self._combine(i, shifted, bm.opt[sel], bm.child[sel])
        return hit

    # ------------------------------------------------------------------ what the searches ask
    def child_bounds(self, i: int, state: int, dist: Any, els: int, elo: int) -> list[int]:
        """Bounds on the objective after each usable option of battle i in ``state`` (in :class:`Moves` order), given
        the law ``dist`` of D and the expectations ``els`` / ``elo`` (times 36) of battles 0..i-1."""
        if self.objective == "losses":
            base = -(els + 36 * self.evl.offsets[0])
        elif self.objective == "net":
            base = (elo - els) + 36 * (self.evl.offsets[1] - self.evl.offsets[0])
        else:
            return self.child_win_bounds(i, state, dist, 0 if self.objective == "win" else 1)
        return (self._additive(i)[1][self.moves.battles[i].span[state]] + base).tolist()

    def child_win_bounds(self, i: int, state: int, dist: Any, adj: int = 0) -> list[int]:
        """Bounds on P(L_S < L_O) * 36^k (``adj`` 0) or P(L_S <= L_O) * 36^k (``adj`` 1) after each usable option of
        battle i in ``state``, given the law ``dist`` of D over battles 0..i-1."""
        return (self._win_matrix(i, state, adj) @ dist).tolist()
