"""The opponent's replies to a plan of ours (WS-10.3, ``worst_case``; the CLI's ``best-response``).

For a fixed plan of ours the opponent picks, from its hand and pool and knowing our plan, the reply
that is lexicographically worst for us (WS-10.5 order). :func:`search_min` finds it exactly by branch
and bound (lower bounds from :class:`.bounds.Bounds` with ``sense`` -1); :func:`additive_reply` gets it
straight from the bound tables for the additive objectives ``losses`` and ``net``; :func:`descend`
is a cheap local search that only looks for a reply ruling a plan out, never to certify a value (it
values all the neighbours of a reply at once, one batched product per battle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .bounds import Bounds, Moves
from .events import event_number
from .plans import Evaluator, Key4, LawSpace, OptionLaw, Reply, side_power


@dataclass
class SideSearch:
    """Enumerate one side's per-battle options with the other side's powers fixed."""

    n_s: list[int]  # S's own pieces per battle
    n_o: list[int]
    fixed_other: list[int]  # the other side's power per battle
    base: list[tuple[int, int]]  # the searching side's (pops, facs) per battle
    options: list[list[tuple[str | None, int]]]
    sym: list[bool]  # battle i identical to battle i-1 (options non-decreasing)
    pool: int
    hand: dict[str, int]
    is_s: bool  # searching side is S (maximise) or O (minimise S's value)
    free: list[bool]  # the battle's event is still to choose (not already revealed)


def side_key(ss: SideSearch, i: int) -> tuple[Any, ...]:
    """What battle i's option laws depend on: the key of their row in :attr:`.LawSpace.rows`."""
    pops, facs = ss.base[i]
    return ("side", ss.is_s, pops, facs, ss.fixed_other[i], ss.n_s[i], ss.n_o[i], tuple(ss.options[i]))


def side_laws(ss: SideSearch, space: LawSpace) -> list[list[OptionLaw]]:
    """Per battle, per option: its law from S's point of view (rows memoised in ``space``)."""
    out = []
    for i, opts in enumerate(ss.options):
        pops, facs = ss.base[i]
        key = side_key(ss, i)
        row = space.rows.get(key)
        if row is None:
            row = []
            for ev, e in opts:
                p = side_power(pops, facs, ev, e)
                d = p - ss.fixed_other[i] if ss.is_s else ss.fixed_other[i] - p
                row.append(space.option(d, ss.n_s[i], ss.n_o[i]))
            space.rows[key] = row
        out.append(row)
    return out


def side_moves(ss: SideSearch, store: dict[Any, Any] | None) -> Moves:
    """The searching side's states and usable options (per-battle lists shared through ``store``)."""
    return Moves(ss.options, [not f for f in ss.free], ss.hand, ss.pool, store)


def reply_bounds(ss: SideSearch, ev: Evaluator, laws: list[list[OptionLaw]], moves: Moves,
                 store: dict[Any, Any] | None) -> Bounds:
    """Lower bounds on our value over the opponent's remaining choices (tables shared through ``store``)."""
    return Bounds(ev, laws, moves, sense=-1, sig=list(ss.fixed_other), store=store)


class _Cut(Exception):
    """A reply pushed our objective below the threshold: the reply search stops there."""


def _seed_first(ss: SideSearch, seed: tuple[Key4, Reply] | None) -> list[dict[int, int]]:
    """Move ordering, as each option's rank per battle: the seed's option first, then the rest from the strongest
    down."""
    ranks = []
    for i, opts in enumerate(ss.options):
        first = [j for j, o in enumerate(opts) if seed is not None and o == seed[1][i]]
        order = first + [j for j in range(len(opts) - 1, -1, -1) if j not in first]
        ranks.append({j: r for r, j in enumerate(order)})
    return ranks


def search_min(ss: SideSearch, ev: Evaluator, threshold: int | None,
               seed: tuple[Key4, Reply] | None = None, store: dict[Any, Any] | None = None) -> tuple[bool, Key4, Reply]:
    """The opponent's lexicographically worst reply for S (WS-10.3), as ``(complete, key, reply)``.

    ``seed`` is a known feasible reply (a killer reply) whose key starts the search as its incumbent, so
    branches that cannot beat it are pruned at once. The search stops early (``complete`` False) as soon
    as a reply pushes S's objective strictly below ``threshold``: that plan of ours cannot be optimal and
    the reply found is returned as a new killer."""
    laws = side_laws(ss, ev.space)
    k = len(laws)
    best: list[Any] = [None, None] if seed is None else [seed[0], list(seed[1])]
    choice = [0] * k
    moves = side_moves(ss, store)
    bounds = reply_bounds(ss, ev, laws, moves, store)
    ranks = _seed_first(ss, seed)
    tie_break = ev.objective != "win"

    def kids(i: int, dist: Any, els: int, elo: int, state: int) -> list[tuple[int, int, int]]:
        """The usable options of battle i as (bound, rank, position in the state's move list), most promising for
        the opponent first (the seed's option leads among equals)."""
        start = choice[i - 1] if ss.sym[i] else 0
        opts = moves.battles[i].at[state][0]
        rank = ranks[i]
        lbs = bounds.child_bounds(i, state, dist, els, elo)
        out = [(lb, rank[j], pos) for pos, (j, lb) in enumerate(zip(opts, lbs, strict=True)) if j >= start]
        out.sort()
        return out

    def leaf(dist: Any, els: int, elo: int) -> None:
        key = ev.key(dist, els, elo)
        if best[0] is None or key < best[0]:
            best[0] = key
            best[1] = [ss.options[x][choice[x]] for x in range(k)]
            if threshold is not None and key[0] < threshold:
                raise _Cut

    def rec(i: int, dist: Any, els: int, elo: int, state: int) -> None:
        if i == k:
            leaf(dist, els, elo)
            return
        opts, children = moves.battles[i].at[state]
        wins: list[int] | None = None
        for lb, _, pos in kids(i, dist, els, elo, state):
            j = opts[pos]
            # prune a reply branch whose best case for the opponent still leaves S lexicographically above the
            # best reply: its objective bound is higher, or equal with a higher bound on P(win) (WS-10.5 order)
            if best[0] is not None:
                if lb > best[0][0]:
                    break
                if lb == best[0][0] and tie_break:
                    if wins is None:
                        wins = bounds.child_win_bounds(i, state, dist)
                    if wins[pos] > best[0][1]:
                        continue
            choice[i] = j
            ol = laws[i][j]
            rec(i + 1, dist @ ol.step, els + ol.els, elo + ol.elo, children[pos])

    try:
        rec(0, ev.space.origin(), 0, 0, moves.initial)
    except _Cut:
        return False, best[0], best[1]
    return True, best[0], best[1]


Change = tuple[tuple[int, tuple[str | None, int]], ...]


def _neighbours(cur: Reply, events: list[list[str | None]]) -> list[Change]:
    """Replies one step from ``cur``, as the battles they change and their new options: one energy moved between
    battles, two battles' cards swapped, one more energy in a battle, another card in a battle."""
    k = len(cur)
    out: list[Change] = []
    for a in range(k):
        ev_a, e_a = cur[a]
        for b in range(k):
            if a != b and e_a > 0:
                out.append(((a, (ev_a, e_a - 1)), (b, (cur[b][0], cur[b][1] + 1))))
            if a < b and ev_a != cur[b][0]:
                out.append(((a, (cur[b][0], e_a)), (b, (ev_a, cur[b][1]))))
        out.append(((a, (ev_a, e_a + 1)),))
        for evc in events[a]:
            if evc != ev_a:
                out.append(((a, (evc, e_a)),))
    return out


class _Replies:
    """Our keys against many replies of the opponent at once, each a few battles away from a reply ``cur``."""

    def __init__(self, ss: SideSearch, ev: Evaluator) -> None:
        self.ss, self.ev = ss, ev
        side_laws(ss, ev.space)
        self.k = len(ss.options)
        self.index = [{o: j for j, o in enumerate(opts)} for opts in ss.options]
        self.stacks = [ev.space.stacked(side_key(ss, i)) for i in range(self.k)]
        self.origin = ev.space.origin()

    def start(self, cur: Reply) -> None:
        """Make ``cur`` the reply the others are changes of."""
        ss = self.ss
        self.cur = cur
        self.cur_j = [self.index[i].get(o, -1) for i, o in enumerate(cur)]
        self.missing = {i for i, j in enumerate(self.cur_j) if j < 0}  # options the opponent does not have
        self.energy = sum(e for _, e in cur)
        used: dict[str, int] = {}
        for i, (evc, _) in enumerate(cur):
            if evc is not None and ss.free[i]:
                used[evc] = used.get(evc, 0) + 1
        self.used = used
        self.over = [c for c, n in used.items() if n > ss.hand.get(c, 0)]  # cards played more often than held

    def playable(self, change: Change) -> list[int] | None:
        """The option numbers of the changed battles, or None when the opponent cannot play the changed reply (an
        option out of range, a card it does not hold, more energy than its pool)."""
        ss, cur = self.ss, self.cur
        js = []
        delta: dict[str, int] = {}
        energy = self.energy
        for i, o in change:
            j = self.index[i].get(o)
            if j is None:
                return None
            js.append(j)
            old = cur[i]
            energy += o[1] - old[1]
            if ss.free[i] and o[0] != old[0]:
                if old[0] is not None:
                    delta[old[0]] = delta.get(old[0], 0) - 1
                if o[0] is not None:
                    delta[o[0]] = delta.get(o[0], 0) + 1
        if energy > ss.pool:
            return None
        if self.missing and not self.missing <= {i for i, _ in change}:
            return None
        for c in self.over:
            if self.used[c] + delta.get(c, 0) > ss.hand.get(c, 0):
                return None
        for c, n in delta.items():
            if n > 0 and self.used.get(c, 0) + n > ss.hand.get(c, 0):
                return None
        return js

    def keys(self, changes: list[Change], js: list[list[int]]) -> list[Key4]:
        """Our keys against the changed replies (all playable): the laws of all of them, battle by battle."""
        rows, cols, vals = [], [], []
        for r, (change, jr) in enumerate(zip(changes, js, strict=True)):
            for (i, _), j in zip(change, jr, strict=True):
                rows.append(r)
                cols.append(i)
                vals.append(j)
        opt = np.tile(np.array(self.cur_j, dtype=np.intp), (len(changes), 1))
        opt[rows, cols] = vals
        dist = np.tile(self.origin, (len(changes), 1))
        els = elo = 0
        for i, (steps, els_i, elo_i) in enumerate(self.stacks):
            col = opt[:, i]
            dist = np.matmul(dist[:, None, :], steps[col])[:, 0]
            els = els + els_i[col]
            elo = elo + elo_i[col]
        return self.ev.keys(dist, els, elo)


def descend(ss: SideSearch, ev: Evaluator, seed: tuple[Key4, Reply], threshold: int) -> tuple[Key4, Reply] | None:
    """Cheap local search for the opponent from a known reply: move one energy between battles, add one,
    or change / swap event cards, keeping the steepest improvement (the first of the best, in the order of
    :func:`_neighbours`; all neighbours valued at once). Returns a reply pushing S's objective strictly below
    ``threshold`` (a cut, WS-10.3), or None. Used only to cut; never to certify a value."""
    table = _Replies(ss, ev)
    events = [sorted({o[0] for o in opts}, key=event_number) for opts in ss.options]
    cur_key, cur = seed[0], list(seed[1])
    for _ in range(4 * len(ss.options)):
        table.start(cur)
        changes: list[Change] = []
        js: list[list[int]] = []
        for change in _neighbours(cur, events):
            jr = table.playable(change)
            if jr is not None:
                changes.append(change)
                js.append(jr)
        if not changes:
            return None
        best: tuple[Key4, Change] | None = None
        for key, change in zip(table.keys(changes, js), changes, strict=True):
            if key < cur_key and (best is None or key < best[0]):
                best = (key, change)
        if best is None:
            return None
        cur_key, cur = best[0], list(cur)
        for i, o in best[1]:
            cur[i] = o
        if cur_key[0] < threshold:
            return cur_key, cur
    return None


def additive_reply(ss: SideSearch, ev: Evaluator, store: dict[Any, Any]) -> tuple[Key4, Reply]:
    """``losses`` / ``net`` add up over battles, so the opponent's reply minimising our objective is an exact
    dynamic programme over (battle, pool, cards left) — the lower-bound tables of :class:`.bounds.Bounds` —
    walked back to one minimising reply (the first minimising option of each battle). Returns that reply's full
    key (its objective is the exact minimum)."""
    laws = side_laws(ss, ev.space)
    moves = side_moves(ss, store)
    bounds = reply_bounds(ss, ev, laws, moves, store)
    state = moves.initial
    reply: Reply = []
    dist = ev.space.origin()
    els = elo = 0
    for i in range(len(ss.options)):
        opts, children = moves.battles[i].at[state]
        totals = bounds.child_bounds(i, state, dist, els, elo)  # exact: the best completion after each option
        pos = totals.index(min(totals))
        j, state = opts[pos], children[pos]
        reply.append(ss.options[i][j])
        ol = laws[i][j]
        dist = dist @ ol.step
        els += ol.els
        elo += ol.elo
    return ev.key(dist, els, elo), reply
