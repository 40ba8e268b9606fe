"""The search of our plans for one allocation (WS-10.2, WS-10.3, WS-10.5, WS-10.7).

:class:`PlanSearch` enumerates our per-battle options ``(event, energy)`` depth first in canonical
anchor order (WS-10.6) against a ``fixed`` opponent, :class:`WorstCaseSearch` against the
opponent's best reply to each plan (``worst_case``). Both

* visit one representative of plans that differ by permuting options among identical consecutive
  battles (interchangeable anchors, WS-10.7): the options are non-decreasing there, which is also the
  smallest encoding;
* cap each battle's energy where ``d >= 6`` against the opponent's maximum power (WS-10.7); the
  co-optimal count adds back, per plan, the plans the cap removed (:func:`sat_extra`), so it counts the
  whole plan space;
* prune a branch when an optimistic bound (:class:`.bounds.Bounds`) is strictly below the best
  objective found, so no co-optimal plan is lost (or below a given floor, when the only question is
  whether some plan reaches it).

The worst-case search keeps "killer" replies (replies found so far): the worst-case value of a plan is
at most its value against any one reply, so they bound our plans at inner nodes and at leaves before
the exact reply search (:mod:`.replies`) runs, memoised per vector of our (capped) powers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .battle import group_power
from .bounds import Bounds, Moves
from .events import event_number
from .plans import (
    FIXED,
    FREE,
    WORST_CASE,
    Evaluator,
    Key4,
    LawSpace,
    OptionLaw,
    Reply,
    Situation,
    Slot,
    battle_options,
    max_event_bonus,
    side_power,
    slot_tail,
)
from .replies import SideSearch, additive_reply, descend, search_min, side_laws

PlanOption = tuple[str | None, int]
#: co-optimal plans listed in the advice (WS-10.8)
MAX_LISTED = 20
#: killer replies kept per allocation (most recently useful first)
MAX_KILLERS = 6


@dataclass
class Best:
    """The best plan found so far, shared across allocations in mode ``ours``: its full key (the WS-10.5
    value vector as integers), what the advice needs to describe it, and the co-optimal count and list."""

    key: Any = None
    payload: Any = None
    count: int = 0
    plans: list[tuple[tuple[int, int, int, int], ...]] = field(default_factory=list)


@dataclass
class Killer:
    """A feasible opponent reply (WS-10.3) used to bound our plans: the worst-case value of any plan of ours
    is at most its value against this reply. ``dists[i]`` is the law of our plan's first i battles against
    it along the current search path (law of D, E[L_S]*36, E[L_O]*36)."""

    reply: tuple[tuple[str | None, int], ...]
    laws: list[list[OptionLaw]]
    bounds: Bounds
    dists: list[tuple[Any, int, int]]


class Abort(Exception):
    """Our value for this allocation already reaches the ceiling: the opponent will not pick it (WS-10.2)."""


def sat_extra(runs: list[int], r: int) -> int:
    """Number of ways to hand out up to ``r`` extra energy to saturated battles (WS-10.7 cap undone for the
    co-optimal count): ``runs`` lists, per group of interchangeable saturated battles, its size m; a group's
    extras form a multiset (a partition into at most m parts)."""
    ways = [1] + [0] * r
    for m in runs:
        for part in range(1, m + 1):  # generating function prod_{j<=m} 1/(1 - x^j)
            for s in range(part, r + 1):
                ways[s] += ways[s - part]
    return sum(ways)


def _counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


class PlanSearch:
    """Our plans for one allocation against a ``fixed`` opponent reply (WS-10.3 ``fixed``).

    ``best`` is shared across allocations (mode ``ours``); with a ``ceiling`` (mode ``opponent_worst``)
    the search stops with :class:`Abort` once a plan's objective reaches it (``aborted`` then says so). The
    search visits the same plans in the same order whatever the ceiling, which only cuts it short; ``rises``
    (mode ``opponent_worst``) keeps a copy of ``best`` after every plan that raised its objective, so the
    outcome under any lower ceiling can be read back without searching again.

    With a ``floor`` only plans whose objective reaches it matter: branches (and, against the worst case, plans)
    below it are cut as if a plan reaching it had been found. With a ceiling equal to the floor the search answers
    cheaply whether some plan reaches it (``aborted``) or none does."""

    def __init__(self, sit: Situation, slots: list[Slot], best: Best, ceiling: int | None = None) -> None:
        self.sit, self.slots, self.best, self.ceiling = sit, slots, best, ceiling
        self.aborted = False
        self.rises: list[Best] | None = None
        self.floor: int | None = None
        self.k = k = len(slots)
        self.n_s = [sl.s_pops + sl.s_facs for sl in slots]
        self.n_o = [sl.o_pops + sl.o_facs for sl in slots]
        self.space = LawSpace(self.n_s, self.n_o)
        self.evl = Evaluator(sit.objective, k, sit.offsets, self.space)
        self.s_def = not sit.s_is_attacker
        self.resp = sit.fixed_response or [(None, 0)] * k
        self.o_max, self.o_fixed_power = self._opponent_powers()
        self.s_opts, self.caps = self._our_options()
        self.sym = self._symmetries()
        self.hand = _counts(sit.hand_s)
        self.own = [(sl.s_pops, sl.s_facs) for sl in slots]
        self.fixed_ev = [i in sit.s_events_fixed for i in range(k)]
        #: our states (pool and cards left) and usable options per battle
        self.moves = Moves(self.s_opts, self.fixed_ev, self.hand, sit.energy_s)
        self.choice = [0] * k
        self.leaves = 0
        self.local_best: Any = None

    # ------------------------------------------------------------------ set-up
    def _opponent_powers(self) -> tuple[list[int], list[int]]:
        """The opponent's maximum power per battle (the WS-10.7 cap) and, against a fixed reply, its powers."""
        sit = self.sit
        hand_o = sit.hand_o if sit.opponent == WORST_CASE else []
        o_max: list[int] = []
        o_fixed: list[int] = []
        for i, sl in enumerate(self.slots):
            of = sit.o_events_fixed.get(i, FREE)
            if sit.opponent == WORST_CASE:
                o_max.append(group_power(sl.o_pops, sl.o_facs)
                             + max_event_bonus(sl.o_pops, not self.s_def, sit.on_world, hand_o, of) + sit.energy_o)
                continue
            ev_o, e_o = self.resp[i]
            p = side_power(sl.o_pops, sl.o_facs, ev_o if of is FREE else of, e_o)
            o_fixed.append(p)
            o_max.append(p)
        return o_max, o_fixed

    def _our_options(self) -> tuple[list[list[PlanOption]], list[int]]:
        """Per battle our options and energy cap: WS-10.7, energy beyond the point where even the card-less
        group reaches d >= 6 is pointless."""
        sit = self.sit
        s_opts, caps = [], []
        for i, sl in enumerate(self.slots):
            cap = max(0, min(sit.energy_s, self.o_max[i] + 6 - group_power(sl.s_pops, sl.s_facs)))
            caps.append(cap)
            s_opts.append(battle_options(sl.s_pops, self.s_def, sit.on_world, sit.hand_s,
                                         sit.s_events_fixed.get(i, FREE), cap))
        return s_opts, caps

    def _symmetries(self) -> list[bool]:
        """Battle i is interchangeable with battle i-1 (identical battles ignore the anchor id, WS-10.7)."""
        sit, slots, s_opts, o_max = self.sit, self.slots, self.s_opts, self.o_max
        return [False] + [
            slot_tail(slots[i]) == slot_tail(slots[i - 1]) and s_opts[i] == s_opts[i - 1] and o_max[i] == o_max[i - 1]
            and (sit.opponent == WORST_CASE or (self.resp[i] == self.resp[i - 1]))
            and sit.o_events_fixed.get(i, FREE) is sit.o_events_fixed.get(i - 1, FREE)
            for i in range(1, self.k)
        ]

    # ------------------------------------------------------------------ plans found
    def multiplicity(self, opts: list[PlanOption], pool: int) -> int:
        """Plans of the full space Π_S this capped plan stands for (WS-10.7 must not change the count)."""
        groups: dict[tuple[int, str | None], int] = {}
        run = 0
        for i in range(self.k):
            if not self.sym[i]:
                run += 1
            if opts[i][1] == self.caps[i] and self.caps[i] < self.sit.energy_s:
                groups[(run, opts[i][0])] = groups.get((run, opts[i][0]), 0) + 1
        if not groups or pool == 0:
            return 1
        return sat_extra(list(groups.values()), pool)

    def record(self, key4: Key4, opts: list[PlanOption], pool: int, response: Reply | None) -> None:
        """A plan with its exact key: counted among the co-optimal plans, kept if it ranks first (WS-10.5:
        less energy, fewer cards, then the smallest encoding break ties)."""
        best, slots = self.best, self.slots
        energy = sum(e for _, e in opts)
        cards = sum(1 for i, (ev, _) in enumerate(opts) if ev is not None and i not in self.sit.s_events_fixed)
        enc = tuple((slots[i].s_pops, slots[i].s_facs, opts[i][1], event_number(opts[i][0])) for i in range(self.k))
        full = (key4, -energy, -cards)
        cur = best.key
        mult = self.multiplicity(opts, pool)
        if cur is None or key4[0] > cur[0][0]:
            best.count = mult
            best.plans = [enc]
        elif key4[0] == cur[0][0]:
            best.count += mult
            if len(best.plans) < MAX_LISTED:
                best.plans.append(enc)
        if cur is None or full > cur or (full == cur and enc < best.payload[0]):
            best.key = full
            best.payload = (enc, slots, opts, response, self.evl, energy, cards)
        if self.rises is not None and (cur is None or key4[0] > cur[0][0]):
            self.rises.append(Best(best.key, best.payload, best.count, list(best.plans)))
        if self.local_best is None or full > self.local_best:
            self.local_best = full
        if self.ceiling is not None and key4[0] >= self.ceiling:
            raise Abort

    def children(self, i: int, state: int) -> Iterator[tuple[int, int, int]]:
        """Our usable options at battle i in ``state`` (see :class:`.bounds.Moves`) in search order, the strongest
        first: (position in the state's move list, option index, the state after it)."""
        opts, nxt = self.moves.battles[i].at[state]
        start = self.choice[i - 1] if self.sym[i] else 0
        for pos in range(len(opts) - 1, -1, -1):
            j = opts[pos]
            if j < start:
                break
            yield pos, j, nxt[pos]

    # ------------------------------------------------------------------ search
    def _threshold(self) -> int | None:
        """The objective a plan must reach to matter: the best one found's, or the floor."""
        thr = self.best.key[0][0] if self.best.key is not None else None
        if self.floor is not None and (thr is None or thr < self.floor):
            return self.floor
        return thr

    def run(self) -> tuple[Any, int]:
        """Search the allocation; returns (the best full key found for it, leaves visited)."""
        try:
            self.search()
        except Abort:
            self.aborted = True
        return self.local_best, self.leaves

    def search(self) -> None:
        """Branch and bound against the fixed reply: a branch whose bound is below the best objective (or the floor) goes."""
        k, s_opts, choice, evl, moves = self.k, self.s_opts, self.choice, self.evl, self.moves
        ss = SideSearch(self.n_s, self.n_o, self.o_fixed_power, self.own, s_opts, self.sym, self.sit.energy_s,
                        self.hand, True, [not f for f in self.fixed_ev])
        laws = side_laws(ss, self.space)
        bounds = Bounds(evl, laws, moves)

        def rec(i: int, dist: Any, els: int, elo: int, state: int) -> None:
            if i == k:
                self.leaves += 1
                self.record(evl.key(dist, els, elo), [s_opts[x][choice[x]] for x in range(k)], moves.pool(state), None)
                return
            lbs: list[int] | None = None
            for pos, j, nxt in self.children(i, state):
                thr = self._threshold()
                if thr is not None:
                    if lbs is None:
                        lbs = bounds.child_bounds(i, state, dist, els, elo)
                    if lbs[pos] < thr:
                        continue
                choice[i] = j
                ol = laws[i][j]
                rec(i + 1, dist @ ol.step, els + ol.els, elo + ol.elo, nxt)

        rec(0, self.space.origin(), 0, 0, moves.initial)


class WorstCaseSearch(PlanSearch):
    """Our plans for one allocation, each valued at the opponent's worst reply for us (WS-10.3 ``worst_case``)."""

    def __init__(self, sit: Situation, slots: list[Slot], best: Best, ceiling: int | None = None) -> None:
        super().__init__(sit, slots, best, ceiling)
        self.hand_o = sit.hand_o or []
        self.hand_o_counts = _counts(self.hand_o)
        self.o_base = [group_power(sl.o_pops, sl.o_facs) for sl in slots]
        self.memo: dict[tuple[int, ...], tuple[bool, Key4, Reply]] = {}
        self.o_options: dict[tuple[int, int], list[PlanOption]] = {}  # the opponent's options per (battle, energy cap)
        self.killers: list[Killer] = []
        self.store: dict[Any, Any] = {}  # bound tables shared by killers and reply searches with equal suffixes

    def add_killer(self, reply: Reply) -> None:
        """Keep ``reply`` (at the front) to bound our plans, with our option laws against it."""
        rep = tuple(reply)
        if any(kl.reply == rep for kl in self.killers):
            return
        o_sig = [side_power(sl.o_pops, sl.o_facs, *rep[i]) for i, sl in enumerate(self.slots)]
        laws_k = []
        for i, sl in enumerate(self.slots):
            key = ("killer", i, o_sig[i])
            row = self.space.rows.get(key)
            if row is None:
                row = self.space.rows[key] = [
                    self.space.option(side_power(sl.s_pops, sl.s_facs, ev, e) - o_sig[i], self.n_s[i], self.n_o[i])
                    for ev, e in self.s_opts[i]
                ]
            laws_k.append(row)
        bnd = Bounds(self.evl, laws_k, self.moves, sig=o_sig, store=self.store)
        self.killers.insert(0, Killer(rep, laws_k, bnd, [(self.space.origin(), 0, 0)]))
        del self.killers[MAX_KILLERS:]

    def reply_search(self, s_pow: list[int]) -> SideSearch:
        """The opponent's options against our per-battle powers (its energy capped where d >= 6, WS-10.7)."""
        sit, slots, k = self.sit, self.slots, self.k
        o_opts = []
        for i, sl in enumerate(slots):
            cap_o = max(0, min(sit.energy_o, s_pow[i] + 6 - self.o_base[i]))
            opts = self.o_options.get((i, cap_o))
            if opts is None:
                opts = self.o_options[(i, cap_o)] = battle_options(sl.o_pops, not self.s_def, sit.on_world, self.hand_o,
                                                                   sit.o_events_fixed.get(i, FREE), cap_o)
            o_opts.append(opts)
        o_sym = [False] + [
            slot_tail(slots[i]) == slot_tail(slots[i - 1]) and s_pow[i] == s_pow[i - 1] and o_opts[i] == o_opts[i - 1]
            for i in range(1, k)
        ]
        return SideSearch(self.n_s, self.n_o, s_pow, [(sl.o_pops, sl.o_facs) for sl in slots], o_opts, o_sym,
                          sit.energy_o, dict(self.hand_o_counts), False, [i not in sit.o_events_fixed for i in range(k)])

    def worst_reply(self, s_pow: list[int], thr: int | None, seed: tuple[Key4, Reply] | None) -> tuple[bool, Key4, Reply]:
        """The opponent's worst reply for S against our per-battle powers (WS-10.3), memoised per power vector.
        With a threshold ``thr`` a reply pushing our objective below it is enough (``complete`` False)."""
        key_s = tuple(s_pow)
        hit = self.memo.get(key_s)
        if hit is not None and (hit[0] or (thr is not None and hit[1][0] < thr)):
            return hit
        oss = self.reply_search(s_pow)
        if thr is not None and self.sit.objective in ("losses", "net"):
            key_add, reply_add = additive_reply(oss, self.evl, self.store)
            if key_add[0] < thr:
                self.memo[key_s] = (False, key_add, reply_add)
                return self.memo[key_s]
            if seed is None or key_add < seed[0]:
                seed = (key_add, reply_add)
        if thr is not None and seed is not None:
            better = descend(oss, self.evl, seed, thr)
            if better is not None:
                self.memo[key_s] = (False, *better)
                return self.memo[key_s]
        res = search_min(oss, self.evl, thr, seed, self.store)
        self.memo[key_s] = res
        return res

    def dist_at(self, kl: Killer, i: int) -> tuple[Any, int, int]:
        """The killer's law of our first i battles along the current path, convolved lazily."""
        dists = kl.dists
        while len(dists) <= i:
            d = len(dists) - 1
            ol = kl.laws[d][self.choice[d]]
            dist, els, elo = dists[d]
            dists.append((dist @ ol.step, els + ol.els, elo + ol.elo))
        return dists[i]

    def leaf(self, state: int) -> None:
        """A complete plan: ruled out by a killer, by a reply found by the reply search, or recorded at its
        exact worst-case key."""
        self.leaves += 1
        k, slots = self.k, self.slots
        opts = [self.s_opts[i][self.choice[i]] for i in range(k)]
        thr = self._threshold()
        seed: tuple[Key4, Reply] | None = None
        killers = self.killers
        for n, kl in enumerate(killers):
            key4 = self.evl.key(*self.dist_at(kl, k))
            if seed is None or key4 < seed[0]:
                seed = (key4, list(kl.reply))
                if thr is not None and key4[0] < thr:
                    killers.insert(0, killers.pop(n))  # a reply that cuts: try it first next time
                    return
        s_pow = [min(side_power(slots[i].s_pops, slots[i].s_facs, *opts[i]), self.o_max[i] + 6) for i in range(k)]
        complete, key4, reply = self.worst_reply(s_pow, thr, seed)
        self.add_killer(reply)
        if complete:
            self.record(key4, opts, self.moves.pool(state), reply)

    def killed(self, i: int, pos: int, state: int, node: dict[int, tuple[Killer, list[int]]]) -> bool:
        """The option at ``pos`` of battle i in ``state`` is cut: against some killer its bound is below the best
        objective found. ``node`` keeps, per killer, the bounds of all the node's options (computed on first use)."""
        thr = self._threshold()
        if thr is None:
            return False
        killers = self.killers
        for n, kl in enumerate(killers):
            hit = node.get(id(kl))
            if hit is None or hit[0] is not kl:
                hit = node[id(kl)] = (kl, kl.bounds.child_bounds(i, state, *self.dist_at(kl, i)))
            if hit[1][pos] < thr:
                if n:
                    killers.insert(0, killers.pop(n))  # the reply that cut is tried first next time
                return True
        return False

    def descend_plans(self, i: int, state: int) -> None:
        if i == self.k:
            self.leaf(state)
            return
        node: dict[int, tuple[Killer, list[int]]] = {}
        for pos, j, nxt in self.children(i, state):
            if self.killed(i, pos, state, node):
                continue
            self.choice[i] = j
            for kl in self.killers:
                del kl.dists[i + 1:]  # recomputed on demand by dist_at
            self.descend_plans(i + 1, nxt)

    def search(self) -> None:
        """The first killer is the worst reply to our idle plan; then the depth-first search of our plans."""
        idle = [min(side_power(sl.s_pops, sl.s_facs, *self.s_opts[i][0]), self.o_max[i] + 6)
                for i, sl in enumerate(self.slots)]
        self.add_killer(self.worst_reply(idle, None, None)[2])
        self.descend_plans(0, self.moves.initial)


def plan_search(sit: Situation, slots: list[Slot], best: Best, ceiling: int | None = None) -> PlanSearch:
    """The search for the situation's opponent model (``fixed`` or ``worst_case``, WS-10.3)."""
    if sit.opponent == FIXED:
        return PlanSearch(sit, slots, best, ceiling)
    return WorstCaseSearch(sit, slots, best, ceiling)
