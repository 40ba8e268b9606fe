"""Optimistic bounds on what the rest of a plan can still achieve (WS-10.7, allowed pruning).

The advisor's branch and bound cuts a branch only when its bound is strictly below the best value
found, so a bound must never underestimate a real completion. :class:`Bounds` gets that from a
dynamic programme over (battle, pool, cards left) that lets each remaining battle's choice depend on
the outcome of the later battles: a relaxation of the open-loop plans for ``win`` / ``no_loss``, and
exact for the additive objectives ``losses`` / ``net``. The same tables, with ``sense`` -1, bound the
opponent's replies (WS-10.3).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .plans import Evaluator

_SHIFT_INDEX: dict[tuple[int, int], Any] = {}


def _shift_index(size: int, sh: int) -> Any:
    """Indices x - sh clipped to [0, size): reading a tail table shifted by ``sh`` with exact edge values."""
    hit = _SHIFT_INDEX.get((size, sh))
    if hit is None:
        hit = _SHIFT_INDEX[(size, sh)] = np.clip(np.arange(size) - sh, 0, size - 1)
    return hit


class Bounds:
    """Optimistic bounds on the searching side's objective over the remaining battles i..k-1, given the
    energy ``pool`` and the cards still in hand (memoised per (battle, pool, cards left)).

    * ``win`` / ``no_loss``: ``tail(i, pool, hand)[t]`` bounds the number (over 36^(k-i)) of suffix
      outcomes with D_suffix > t by a dynamic programme that lets every battle's option depend on the
      outcome of the battles after it (``best_j sum_shift n * tail(i+1, pool - e_j, hand - card_j)[t - shift]``):
      a relaxation of the real, open-loop suffix plans, taken pointwise in t, so no real completion beats it.
    * ``losses`` / ``net``: the objective is additive over battles, so the same programme is exact.

    ``sense`` +1: the searching side is S (upper bounds on S's value); -1: it is the opponent (lower bounds)."""

    def __init__(self, evl: Evaluator, laws: list[list[Any]], options: list[list[tuple[str | None, int]]],
                 fixed: list[bool], pieces: int, sense: int = 1, sig: list[Any] | None = None,
                 store: dict[Any, Any] | None = None) -> None:
        """``laws[i][j]`` is option j of battle i (``options[i][j]``) as (law, els, elo, energy); ``fixed[i]``: the
        battle's card is already revealed (it uses no card of the hand); ``pieces``: both sides' pieces in all
        the battles. ``sig[i]`` identifies battle i's option laws (e.g. the other side's power in it): searches
        whose suffix signatures agree share tables through ``store``."""
        k = len(laws)
        self.evl = evl
        self.objective = evl.objective
        self.laws = laws
        self.s_opts = options
        self.k = k
        self.fixed = fixed
        self.sense = sense
        if sig is None or store is None:
            sig, store = [object()] * k, {}
        self.suffix = [tuple(sig[i:]) for i in range(k + 1)]
        self.memo: dict[Any, Any] = store.setdefault(("tables", sense), {})
        self.gmemo: dict[Any, list[int]] = store.setdefault(("g", sense), {})
        # every threshold a bound can ask for lies in [-base, base]
        self.base = 2 * pieces + abs(evl.shift) + 4
        # exact integer arithmetic: int64 while 36^k fits, Python integers beyond
        self.dtype: Any = np.int64 if 36**k < 2**62 else object

    def moves(self, i: int, pool: int, hand: tuple[tuple[str, int], ...]) -> list[tuple[int, int, tuple[tuple[str, int], ...]]]:
        """Usable options at battle i: (option index, pool left, hand left)."""
        out = []
        for j, (ev, e) in enumerate(self.s_opts[i]):
            if e > pool:
                continue
            if ev is None or self.fixed[i]:
                out.append((j, pool - e, hand))
                continue
            if dict(hand).get(ev, 0) <= 0:
                continue
            out.append((j, pool - e, tuple((c, n - 1 if c == ev else n) for c, n in hand)))
        return out

    def additive(self, i: int, pool: int, hand: tuple[tuple[str, int], ...]) -> int:
        """Best sum over the suffix of -E[L_S]*36 (losses) or (E[L_O]-E[L_S])*36 (net): exact."""
        key = (self.suffix[i], pool, hand)
        hit = self.memo.get(key)
        if hit is not None:
            return int(hit)
        if i == self.k:
            out = 0
        else:
            vals = []
            for j, p2, h2 in self.moves(i, pool, hand):
                _, els, elo, _ = self.laws[i][j]
                vals.append((-els if self.objective == "losses" else elo - els) + self.additive(i + 1, p2, h2))
            out = max(vals) if self.sense > 0 else min(vals)
        self.memo[key] = out
        return out

    def _tail(self, i: int, pool: int, hand: tuple[tuple[str, int], ...]) -> Any:
        """counts[t + base] bounds the number of suffix outcomes with D_suffix > t (see the class docstring)."""
        key = (self.suffix[i], pool, hand, "tail")
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        size = 2 * self.base + 1
        if i == self.k:
            out = np.array([1 if t < 0 else 0 for t in range(-self.base, self.base + 1)], dtype=self.dtype)
        else:
            out = None
            for j, p2, h2 in self.moves(i, pool, hand):
                nxt = self._tail(i + 1, p2, h2)
                acc = np.zeros(size, dtype=self.dtype)
                for sh, n in self.laws[i][j][0]:
                    # edge values are exact: below the range every suffix outcome counts, above it none
                    acc = acc + n * nxt[_shift_index(size, sh)]
                if out is None:
                    out = acc
                else:
                    out = np.maximum(out, acc) if self.sense > 0 else np.minimum(out, acc)
        self.memo[key] = out
        return out

    def bound(self, i: int, dist: dict[int, int], law: tuple[tuple[int, int], ...], els: int, elo: int, pool: int,
              hkey: tuple[tuple[str, int], ...]) -> int:
        """Bound for the child reached by convolving ``law`` into ``dist`` (fused: the child law is not built)."""
        if self.objective == "losses":
            return -(els + 36 * self.evl.offsets[0]) + self.additive(i, pool, hkey)
        if self.objective == "net":
            return (elo - els) + 36 * (self.evl.offsets[1] - self.evl.offsets[0]) + self.additive(i, pool, hkey)
        return self.win_bound(i, dist, law, pool, hkey, 0 if self.objective == "win" else 1)

    def win_bound(self, i: int, dist: dict[int, int], law: tuple[tuple[int, int], ...], pool: int,
                  hkey: tuple[tuple[str, int], ...], adj: int = 0) -> int:
        """Bound on P(L_S < L_O) * 36^k (``adj`` 0) or P(L_S <= L_O) * 36^k (``adj`` 1) for the child."""
        # g[x] = sum over the child's law outcomes (sh, n) of n * tail[x - sh]; memoised per (tail, law)
        gkey = (self.suffix[i], pool, hkey, law)
        g = self.gmemo.get(gkey)
        if g is None:
            counts = self._tail(i, pool, hkey)
            size = len(counts)
            acc = np.zeros(size, dtype=self.dtype)
            for sh, n in law:
                acc = acc + n * counts[_shift_index(size, sh)]
            g = [int(x) for x in acc]
            self.gmemo[gkey] = g
        # the suffix value v must exceed t = -(d + sh) - shift - adj; tails are indexed by t + base
        off = self.base - self.evl.shift - adj
        return sum(c * g[off - d] for d, c in dist.items())
