"""The opponent's replies to a plan of ours (WS-10.3, ``worst_case``; the CLI's ``best-response``).

For a fixed plan of ours the opponent picks, from its hand and pool and knowing our plan, the reply
that is lexicographically worst for us (WS-10.5 order). :func:`search_min` finds it exactly by branch
and bound (lower bounds from :class:`.bounds.Bounds` with ``sense`` -1); :func:`additive_reply` gets it
straight from the bound tables for the additive objectives ``losses`` and ``net``; :func:`descend`
is a cheap local search that only looks for a reply ruling a plan out, never to certify a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .bounds import Bounds
from .events import event_number
from .plans import Evaluator, Key4, Reply, battle_law, convolve, side_power

Hand = tuple[tuple[str, int], ...]


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


def side_laws(ss: SideSearch) -> list[list[tuple[Any, int, int, int]]]:
    """Per battle, per option: (law, els, elo, energy) from S's point of view."""
    out = []
    for i, opts in enumerate(ss.options):
        row = []
        pops, facs = ss.base[i]
        for ev, e in opts:
            p = side_power(pops, facs, ev, e)
            d = p - ss.fixed_other[i] if ss.is_s else ss.fixed_other[i] - p
            law, els, elo = battle_law(d, ss.n_s[i], ss.n_o[i])
            row.append((law, els, elo, e))
        out.append(row)
    return out


def reply_bounds(ss: SideSearch, ev: Evaluator, laws: list[list[Any]], store: dict[Any, Any] | None) -> Bounds:
    """Lower bounds on our value over the opponent's remaining choices (tables shared through ``store``)."""
    return Bounds(ev, laws, ss.options, [not f for f in ss.free], sum(ss.n_s) + sum(ss.n_o), sense=-1,
                  sig=list(ss.fixed_other), store=store)


class _Cut(Exception):
    """A reply pushed our objective below the threshold: the reply search stops there."""


def _seed_first(ss: SideSearch, seed: tuple[Key4, Reply] | None) -> list[list[int]]:
    """Move ordering: the seed's option first in every battle, then the rest from the strongest down."""
    orders = []
    for i, opts in enumerate(ss.options):
        first = [j for j, o in enumerate(opts) if seed is not None and o == seed[1][i]]
        orders.append(first + [j for j in range(len(opts) - 1, -1, -1) if j not in first])
    return orders


def search_min(ss: SideSearch, ev: Evaluator, threshold: int | None,
               seed: tuple[Key4, Reply] | None = None, store: dict[Any, Any] | None = None) -> tuple[bool, Key4, Reply]:
    """The opponent's lexicographically worst reply for S (WS-10.3), as ``(complete, key, reply)``.

    ``seed`` is a known feasible reply (a killer reply) whose key starts the search as its incumbent, so
    branches that cannot beat it are pruned at once. The search stops early (``complete`` False) as soon
    as a reply pushes S's objective strictly below ``threshold``: that plan of ours cannot be optimal and
    the reply found is returned as a new killer."""
    laws = side_laws(ss)
    k = len(laws)
    best: list[Any] = [None, None] if seed is None else [seed[0], list(seed[1])]
    hand = dict(ss.hand)
    choice = [0] * k
    bounds = reply_bounds(ss, ev, laws, store)
    orders = _seed_first(ss, seed)

    def kids(i: int, dist: dict[int, int], els: int, elo: int, pool: int) -> list[tuple[int, int, bool, Hand]]:
        """The usable options of battle i with their bounds, most promising for the opponent first (stable, so
        the seed's option leads among equals)."""
        start = choice[i - 1] if ss.sym[i] else 0
        opts = ss.options[i]
        items = sorted(hand.items())
        out = []
        for j in orders[i]:
            evc, e = opts[j]
            if j < start or e > pool:
                continue
            use = evc is not None and ss.free[i]
            if use and hand.get(evc, 0) <= 0:  # type: ignore[arg-type]
                continue
            hkey = tuple((c, n - 1 if use and c == evc else n) for c, n in items)
            law, bls, blo, _ = laws[i][j]
            out.append((bounds.bound(i + 1, dist, law, els + bls, elo + blo, pool - e, hkey), j, use, hkey))
        out.sort(key=lambda kid: kid[0])
        return out

    def leaf(dist: dict[int, int], els: int, elo: int) -> None:
        key = ev.key(dist, els, elo)
        if best[0] is None or key < best[0]:
            best[0] = key
            best[1] = [ss.options[x][choice[x]] for x in range(k)]
            if threshold is not None and key[0] < threshold:
                raise _Cut

    def rec(i: int, dist: dict[int, int], els: int, elo: int, pool: int) -> None:
        if i == k:
            leaf(dist, els, elo)
            return
        for lb, j, use, hkey in kids(i, dist, els, elo, pool):
            evc, e = ss.options[i][j]
            law, bls, blo, _ = laws[i][j]
            # prune a reply branch whose best case for the opponent still leaves S lexicographically above the
            # best reply: its objective bound is higher, or equal with a higher bound on P(win) (WS-10.5 order)
            if best[0] is not None:
                if lb > best[0][0]:
                    break
                if lb == best[0][0] and ev.objective != "win" and bounds.win_bound(i + 1, dist, law, pool - e, hkey) > best[0][1]:
                    continue
            if use:
                hand[evc] -= 1  # type: ignore[index]
            choice[i] = j
            rec(i + 1, convolve(dist, law), els + bls, elo + blo, pool - e)
            if use:
                hand[evc] += 1  # type: ignore[index]

    try:
        rec(0, {0: 1}, 0, 0, ss.pool)
    except _Cut:
        return False, best[0], best[1]
    return True, best[0], best[1]


def _reply_key(ss: SideSearch, ev: Evaluator, laws: list[list[Any]], index: list[dict[Any, int]], reply: Reply) -> Key4 | None:
    """Our key against ``reply``, or None when the opponent cannot play it (an option out of range, a card
    it does not hold, more energy than its pool)."""
    used: dict[str, int] = {}
    dist: dict[int, int] = {0: 1}
    els = elo = 0
    for i, o in enumerate(reply):
        j = index[i].get(o)
        if j is None:
            return None
        if o[0] is not None and ss.free[i]:
            used[o[0]] = used.get(o[0], 0) + 1
            if used[o[0]] > ss.hand.get(o[0], 0):
                return None
        law, bls, blo, _ = laws[i][j]
        dist = convolve(dist, law)
        els += bls
        elo += blo
    if sum(e for _, e in reply) > ss.pool:
        return None
    return ev.key(dist, els, elo)


def _neighbours(cur: Reply, events: list[list[str | None]]) -> list[Reply]:
    """Replies one step from ``cur``: one energy moved between battles, two battles' cards swapped, one more
    energy in a battle, another card in a battle."""
    k = len(cur)
    out: list[Reply] = []
    for a in range(k):
        for b in range(k):
            if a != b and cur[a][1] > 0:
                r = list(cur)
                r[a] = (cur[a][0], cur[a][1] - 1)
                r[b] = (cur[b][0], cur[b][1] + 1)
                out.append(r)
            if a < b and cur[a][0] != cur[b][0]:
                r = list(cur)
                r[a], r[b] = (cur[b][0], cur[a][1]), (cur[a][0], cur[b][1])
                out.append(r)
        r = list(cur)
        r[a] = (cur[a][0], cur[a][1] + 1)
        out.append(r)
        for evc in events[a]:
            if evc != cur[a][0]:
                r = list(cur)
                r[a] = (evc, cur[a][1])
                out.append(r)
    return out


def descend(ss: SideSearch, ev: Evaluator, seed: tuple[Key4, Reply], threshold: int) -> tuple[Key4, Reply] | None:
    """Cheap local search for the opponent from a known reply: move one energy between battles, add one,
    or change / swap event cards, keeping the steepest improvement. Returns a reply pushing S's objective
    strictly below ``threshold`` (a cut, WS-10.3), or None. Used only to cut; never to certify a value."""
    laws = side_laws(ss)
    index = [{o: j for j, o in enumerate(opts)} for opts in ss.options]
    events = [sorted({o[0] for o in opts}, key=event_number) for opts in ss.options]
    cur_key, cur = seed[0], list(seed[1])
    for _ in range(4 * len(ss.options)):
        best: tuple[Key4, Reply] | None = None
        for r in _neighbours(cur, events):
            key = _reply_key(ss, ev, laws, index, r)
            if key is not None and key < cur_key and (best is None or key < best[0]):
                best = (key, r)
        if best is None:
            return None
        cur_key, cur = best
        if cur_key[0] < threshold:
            return cur_key, cur
    return None


def additive_reply(ss: SideSearch, ev: Evaluator, store: dict[Any, Any]) -> tuple[Key4, Reply]:
    """``losses`` / ``net`` add up over battles, so the opponent's reply minimising our objective is an exact
    dynamic programme over (battle, pool, cards left) — the lower-bound tables of :class:`.bounds.Bounds` —
    walked back to one minimising reply. Returns that reply's full key (its objective is the exact minimum)."""
    laws = side_laws(ss)
    bounds = reply_bounds(ss, ev, laws, store)
    hand = tuple(sorted(ss.hand.items()))
    pool = ss.pool
    reply: Reply = []
    dist: dict[int, int] = {0: 1}
    els = elo = 0
    for i in range(len(ss.options)):
        def total(move: tuple[int, int, Hand], i: int = i) -> int:
            _, bls, blo, _ = laws[i][move[0]]
            return (-bls if ev.objective == "losses" else blo - bls) + bounds.additive(i + 1, move[1], move[2])

        j, pool, hand = min(bounds.moves(i, pool, hand), key=total)
        reply.append(ss.options[i][j])
        law, bls, blo, _ = laws[i][j]
        dist = convolve(dist, law)
        els += bls
        elo += blo
    return ev.key(dist, els, elo), reply
