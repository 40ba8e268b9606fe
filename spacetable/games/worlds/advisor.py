"""Allocation advisor (WS-10): best allocation, event placement and energy split, exactly.

Search
------
For one allocation the plan space is the product over battles of per-battle
options ``(event, energy)`` under the shared pool and hand (WS-10.2). The search
is a depth-first enumeration in canonical anchor order (WS-10.6) that

* keeps the law of ``D = L_O - L_S`` as integer counts over ``36^depth`` and
  convolves one battle at a time (memoised per-battle laws), so every value is
  exact and plans of one combat compare as integers;
* visits only one representative of plans that differ by permuting options
  among identical consecutive battles (interchangeable anchors, WS-10.7): the
  options are non-decreasing there, which is also the smallest encoding;
* caps each battle's energy where ``d >= 6`` against the opponent's maximum power
  (WS-10.7); the co-optimal count adds back, per plan, the plans the cap removed
  (extra energy in battles already certain, :func:`_sat_extra`), so it counts
  the whole plan space Π_S;
* prunes a branch when an optimistic bound on the objective is strictly below
  the best objective found (:class:`_Bounds`: a dynamic programme over
  (battle, pool, cards left) that lets each remaining battle's choice depend on
  the outcome of the later ones, a relaxation of open-loop plans; exact for the
  additive objectives ``losses`` and ``net``). Strict bounds never discard a
  co-optimal plan.

``worst_case`` (WS-10.3, the CLI's ``best-response``) is a max-min search:

* killer replies: replies of the opponent found so far bound our plans (the
  worst-case value of a plan is at most its value against any one reply), at
  inner nodes through their own bound tables and at leaves exactly; the reply
  that cuts moves to the front;
* at a leaf that survives them, a short local search from the best known reply
  (:func:`_descend`) looks for a reply that rules the plan out; for ``losses`` /
  ``net`` the opponent's exact minimum comes from a dynamic programme
  (:func:`_additive_reply`);
* otherwise the exact reply search (:func:`_search_min`) runs, started from the
  best known reply, pruned lexicographically (objective, then P(win)), and
  memoised per vector of our (capped) powers; it stops early when a reply
  pushes our objective below the best found so far;
* in mode ``opponent_worst`` an allocation's search stops as soon as our value
  reaches the opponent's best allocation so far (it will not pick this one).

No approximation is made anywhere: larger combats only take longer
(``bench/worlds_advisor.py`` times them).
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .battle import dice_counts, group_power
from .events import card as event_card
from .events import event_number
from .odds import BattleInput, Group, Odds, combat_odds
from .pairing import canonical_splits

OBJECTIVES = ("win", "no_loss", "losses", "net")
FIXED = "fixed"
WORST_CASE = "worst_case"


@dataclass(frozen=True)
class Slot:
    """One battle as the advisor sees it: the anchor and both sides' pieces (S = our side)."""

    anchor_id: str
    anchor_kind: str
    s_pops: int
    s_facs: int
    o_pops: int
    o_facs: int


@dataclass
class Situation:
    """WS-10.1 input. ``anchors`` are (id, kind) in WS-10.6 order; ``allocator`` is "S" or "O".
    ``allocation`` (mode ``given``) lists per anchor the allocator's (pops, facs)."""

    s_is_attacker: bool
    on_world: bool
    s_pieces: tuple[int, int]
    o_pieces: tuple[int, int]
    anchors: list[tuple[str, str]]
    allocator: str
    energy_s: int = 0
    energy_o: int = 0
    hand_s: list[str] = field(default_factory=list)
    hand_o: list[str] | None = None
    mode: str = "ours"
    allocation: list[tuple[int, int]] | None = None
    opponent: str = FIXED
    fixed_response: list[tuple[str | None, int]] | None = None
    objective: str = "win"
    offsets: tuple[int, int] = (0, 0)
    #: battle index -> event already revealed (re-planning between the event and energy steps, WS-10.9)
    s_events_fixed: dict[int, str | None] = field(default_factory=dict)
    o_events_fixed: dict[int, str | None] = field(default_factory=dict)


@dataclass
class Advice:
    """WS-10.8 output."""

    slots: list[Slot]
    events: list[str | None]
    energy: list[int]
    value: dict[str, Fraction]
    odds: Odds
    co_optimal: int
    co_optimal_plans: list[tuple[tuple[int, int, int, int], ...]]
    encoding: tuple[tuple[int, int, int, int], ...]
    response: list[tuple[str | None, int]] | None
    leaves: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "battles": [
                {"anchor": s.anchor_id, "S": {"P": s.s_pops, "F": s.s_facs}, "O": {"P": s.o_pops, "F": s.o_facs},
                 "event": ev, "energy": e}
                for s, ev, e in zip(self.slots, self.events, self.energy, strict=True)
            ],
            "value": {k: str(v) for k, v in self.value.items()},
            "odds": self.odds.to_json(),
            "co_optimal": self.co_optimal,
            "co_optimal_plans": [list(map(list, p)) for p in self.co_optimal_plans],
            "encoding": [list(x) for x in self.encoding],
            "opponent_response": None if self.response is None else [{"event": ev, "energy": e} for ev, e in self.response],
        }


# --------------------------------------------------------------------------- helpers
def _options(pops: int, is_defender: bool, on_world: bool, hand: list[str], fixed: Any, cap: int) -> list[tuple[str | None, int]]:
    """Per-battle options (event, energy), sorted by (energy, event code) = encoding order."""
    if fixed is not _FREE:
        evs: list[str | None] = [fixed]
    else:
        evs = [None, *sorted({c for c in hand if event_card(c).legal(pops, is_defender, on_world)}, key=event_number)]
    return sorted(((ev, e) for ev in evs for e in range(cap + 1)), key=lambda o: (o[1], event_number(o[0])))


_FREE = object()


def _power(pops: int, facs: int, ev: str | None, e: int) -> int:
    bonus = event_card(ev).bonus(pops) if ev else 0
    return group_power(pops, facs) + bonus + e


def _max_event_bonus(pops: int, is_defender: bool, on_world: bool, hand: list[str] | None, fixed: Any) -> int:
    if fixed is not _FREE:
        return event_card(fixed).bonus(pops) if fixed else 0
    best = 0
    for c in set(hand or []):
        ec = event_card(c)
        if ec.legal(pops, is_defender, on_world):
            best = max(best, ec.bonus(pops))
    return best


def _law(d: int, n_s: int, n_o: int) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """Per-battle law of D = L_O - L_S as ((shift, count), ...) plus E[L_S]*36 and E[L_O]*36."""
    w, t, lo = _COUNTS[max(-7, min(7, d))]
    law = tuple(x for x in ((n_o, w), (0, t), (-n_s, lo)) if x[1])
    return law, t + lo * n_s, w * n_o + t


_COUNTS = {d: dice_counts(d) for d in range(-7, 8)}


def _convolve(dist: dict[int, int], law: tuple[tuple[int, int], ...]) -> dict[int, int]:
    out: defaultdict[int, int] = defaultdict(int)
    items = dist.items()
    for s, n in law:
        for k, c in items:
            out[k + s] += c * n
    return out


class _Evaluator:
    """Turns a D-law and expectation numerators into comparable integer value vectors."""

    def __init__(self, objective: str, k: int, offsets: tuple[int, int]) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}")
        self.objective = objective
        self.k = k
        self.den = 36**k
        self.shift = offsets[1] - offsets[0]
        self.offsets = offsets

    def key(self, dist: dict[int, int], els: int, elo: int) -> tuple[int, int, int, int]:
        """(objective, P(win), -E[L_S], E[L_O]) as integers: probabilities over 36^k, expectations over 36."""
        win = sum(c for d, c in dist.items() if d + self.shift > 0)
        els_t = els + 36 * self.offsets[0]
        elo_t = elo + 36 * self.offsets[1]
        if self.objective == "win":
            obj = win
        elif self.objective == "no_loss":
            obj = sum(c for d, c in dist.items() if d + self.shift >= 0)
        elif self.objective == "losses":
            obj = -els_t
        else:
            obj = elo_t - els_t
        return (obj, win, -els_t, elo_t)

    def bound(self, dist: dict[int, int]) -> int:
        """Objective from a law that dominates every completion (used only for win / no_loss)."""
        if self.objective == "win":
            return sum(c for d, c in dist.items() if d + self.shift > 0)
        return sum(c for d, c in dist.items() if d + self.shift >= 0)

    def fraction_value(self, key: tuple[int, int, int, int], energy: int, cards: int) -> dict[str, Fraction]:
        obj = Fraction(key[0], 36 if self.objective in ("losses", "net") else self.den)
        if self.objective == "losses":
            obj = -obj
        return {
            "objective": obj,
            "p_win": Fraction(key[1], self.den),
            "e_ls": Fraction(-key[2], 36),
            "e_lo": Fraction(key[3], 36),
            "energy": Fraction(energy),
            "cards": Fraction(cards),
        }


@dataclass
class _SideSearch:
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


def _side_laws(ss: _SideSearch) -> list[list[tuple[Any, int, int, int]]]:
    """Per battle, per option: (law, els, elo, energy) from S's point of view."""
    out = []
    for i, opts in enumerate(ss.options):
        row = []
        pops, facs = ss.base[i]
        for ev, e in opts:
            p = _power(pops, facs, ev, e)
            d = p - ss.fixed_other[i] if ss.is_s else ss.fixed_other[i] - p
            law, els, elo = _law(d, ss.n_s[i], ss.n_o[i])
            row.append((law, els, elo, e))
        out.append(row)
    return out


Reply = list[tuple[str | None, int]]
Key4 = tuple[int, int, int, int]


def _search_min(ss: _SideSearch, ev: _Evaluator, threshold: int | None,
                seed: tuple[Key4, Reply] | None = None, store: dict[Any, Any] | None = None) -> tuple[bool, Key4, Reply]:
    """The opponent's lexicographically worst reply for S (WS-10.3), as ``(complete, key, reply)``.

    ``seed`` is a known feasible reply (a killer reply) whose key starts the search as its incumbent, so
    branches that cannot beat it are pruned at once. The search stops early (``complete`` False) as soon
    as a reply pushes S's objective strictly below ``threshold``: that plan of ours cannot be optimal and
    the reply found is returned as a new killer."""
    laws = _side_laws(ss)
    k = len(laws)
    best: list[Any] = [None, None]
    if seed is not None:
        best = [seed[0], list(seed[1])]
    hand = dict(ss.hand)
    choice = [0] * k
    slots = [Slot("", "", 0, 0, 0, 0)] * k  # only the size of the battles matters to the bound tables
    bounds = _Bounds(ev.objective, ev, laws, ss.options, slots, k, [not f for f in ss.free], ss.base, sense=-1,
                     sig=list(ss.fixed_other), store=store)
    bounds.base = 2 * (sum(ss.n_s) + sum(ss.n_o)) + abs(ev.shift) + 4
    # move ordering: the seed's option first in every battle, then the rest from the strongest down
    orders = []
    for i, opts in enumerate(ss.options):
        first = [j for j, o in enumerate(opts) if seed is not None and o == seed[1][i]]
        orders.append(first + [j for j in range(len(opts) - 1, -1, -1) if j not in first])

    class _Cut(Exception):
        pass

    def rec(i: int, dist: dict[int, int], els: int, elo: int, pool: int) -> None:
        if i == k:
            key = ev.key(dist, els, elo)
            if best[0] is None or key < best[0]:
                best[0] = key
                best[1] = [ss.options[x][choice[x]] for x in range(k)]
                if threshold is not None and key[0] < threshold:
                    raise _Cut
            return
        start = choice[i - 1] if ss.sym[i] else 0
        opts = ss.options[i]
        items = sorted(hand.items())
        kids = []
        for j in orders[i]:
            evc, e = opts[j]
            if j < start or e > pool:
                continue
            use = evc is not None and ss.free[i]
            if use and hand.get(evc, 0) <= 0:  # type: ignore[arg-type]
                continue
            hkey = tuple((c, n - 1 if use and c == evc else n) for c, n in items)
            law, bls, blo, _ = laws[i][j]
            kids.append((bounds.bound(i + 1, dist, law, els + bls, elo + blo, pool - e, hkey), j, use, hkey))
        # best first: the most promising reply branches first (stable, so the seed's option leads among equals)
        kids.sort(key=lambda kid: kid[0])
        for lb, j, use, hkey in kids:
            evc, e = opts[j]
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
            rec(i + 1, _convolve(dist, law), els + bls, elo + blo, pool - e)
            if use:
                hand[evc] += 1  # type: ignore[index]

    try:
        rec(0, {0: 1}, 0, 0, ss.pool)
    except _Cut:
        return False, best[0], best[1]
    return True, best[0], best[1]


def _descend(ss: _SideSearch, ev: _Evaluator, seed: tuple[Key4, Reply], threshold: int) -> tuple[Key4, Reply] | None:
    """Cheap local search for the opponent from a known reply: move one energy between battles, add one,
    or change / swap event cards, keeping the steepest improvement. Returns a reply pushing S's objective
    strictly below ``threshold`` (a cut, WS-10.3), or None. Used only to cut; never to certify a value."""
    k = len(ss.options)
    laws = _side_laws(ss)
    index = [{o: j for j, o in enumerate(opts)} for opts in ss.options]
    events = [sorted({o[0] for o in opts}, key=event_number) for opts in ss.options]

    def value(reply: Reply) -> Key4 | None:
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
            dist = _convolve(dist, law)
            els += bls
            elo += blo
        if sum(e for _, e in reply) > ss.pool:
            return None
        return ev.key(dist, els, elo)

    cur_key, cur = seed[0], list(seed[1])
    for _ in range(4 * k):
        best: tuple[Key4, Reply] | None = None
        cands: list[Reply] = []
        for a in range(k):
            for b in range(k):
                if a != b and cur[a][1] > 0:
                    r = list(cur)
                    r[a] = (cur[a][0], cur[a][1] - 1)
                    r[b] = (cur[b][0], cur[b][1] + 1)
                    cands.append(r)
                if a < b and cur[a][0] != cur[b][0]:
                    r = list(cur)
                    r[a], r[b] = (cur[b][0], cur[a][1]), (cur[a][0], cur[b][1])
                    cands.append(r)
            r = list(cur)
            r[a] = (cur[a][0], cur[a][1] + 1)
            cands.append(r)
            for evc in events[a]:
                if evc != cur[a][0]:
                    r = list(cur)
                    r[a] = (evc, cur[a][1])
                    cands.append(r)
        for r in cands:
            key = value(r)
            if key is not None and key < cur_key and (best is None or key < best[0]):
                best = (key, r)
        if best is None:
            return None
        cur_key, cur = best
        if cur_key[0] < threshold:
            return cur_key, cur
    return None


def _additive_reply(ss: _SideSearch, ev: _Evaluator, store: dict[Any, Any]) -> tuple[Key4, Reply]:
    """``losses`` / ``net`` add up over battles, so the opponent's reply minimising our objective is an exact
    dynamic programme over (battle, pool, cards left) — the lower-bound tables of :class:`_Bounds` — walked
    back to one minimising reply. Returns that reply's full key (its objective is the exact minimum)."""
    k = len(ss.options)
    laws = _side_laws(ss)
    bounds = _Bounds(ev.objective, ev, laws, ss.options, [], k, [not f for f in ss.free], ss.base, sense=-1,
                     sig=list(ss.fixed_other), store=store)
    bounds.base = 2 * (sum(ss.n_s) + sum(ss.n_o)) + abs(ev.shift) + 4
    hand = tuple(sorted(ss.hand.items()))
    pool = ss.pool
    reply: Reply = []
    dist: dict[int, int] = {0: 1}
    els = elo = 0
    for i in range(k):
        def total(move: tuple[int, int, tuple[tuple[str, int], ...]], i: int = i) -> int:
            _, bls, blo, _ = laws[i][move[0]]
            return (-bls if ev.objective == "losses" else blo - bls) + bounds._additive(i + 1, move[1], move[2])

        j, pool, hand = min(bounds._moves(i, pool, hand), key=total)
        reply.append(ss.options[i][j])
        law, bls, blo, _ = laws[i][j]
        dist = _convolve(dist, law)
        els += bls
        elo += blo
    return ev.key(dist, els, elo), reply


@dataclass
class _Killer:
    """A feasible opponent reply (WS-10.3) used to bound our plans: the worst-case value of any plan of ours
    is at most its value against this reply. ``dists[i]`` is the law of our plan's first i battles against
    it along the current search path (law of D, E[L_S]*36, E[L_O]*36)."""

    reply: tuple[tuple[str | None, int], ...]
    laws: list[list[tuple[Any, int, int, int]]]
    bounds: _Bounds
    dists: list[tuple[dict[int, int], int, int]]


#: killer replies kept per allocation (most recently useful first)
MAX_KILLERS = 6


def _sat_extra(runs: list[int], r: int) -> int:
    """Number of ways to hand out up to ``r`` extra energy to saturated battles (WS-10.7 cap undone for the
    co-optimal count): ``runs`` lists, per group of interchangeable saturated battles, its size m; a group's
    extras form a multiset (a partition into at most m parts)."""
    ways = [1] + [0] * r
    for m in runs:
        for part in range(1, m + 1):  # generating function prod_{j<=m} 1/(1 - x^j)
            for s in range(part, r + 1):
                ways[s] += ways[s - part]
    return sum(ways)


class _Abort(Exception):
    """Our value for this allocation already reaches the ceiling: the opponent will not pick it (WS-10.2)."""


def _plan_for_slots(sit: Situation, slots: list[Slot], best_so_far: list[Any], ceiling: int | None = None) -> tuple[Any, int]:
    """Search our plans for one allocation. ``best_so_far`` = [key, payload, count, plans] shared across
    allocations (mode ours). Returns (best key for this allocation, leaves visited). With a ``ceiling``
    (mode opponent_worst) it raises :class:`_Abort` once a plan's objective reaches it."""
    k = len(slots)
    evl = _Evaluator(sit.objective, k, sit.offsets)
    s_def = not sit.s_is_attacker
    hand_o = sit.hand_o if sit.opponent == WORST_CASE else []
    # opponent maximum power per battle (WS-10.7 cap) and fixed powers
    o_max: list[int] = []
    o_fixed_power: list[int] = []
    resp = sit.fixed_response or [(None, 0)] * k
    for i, sl in enumerate(slots):
        of = sit.o_events_fixed.get(i, _FREE)
        if sit.opponent == WORST_CASE:
            o_max.append(group_power(sl.o_pops, sl.o_facs) + _max_event_bonus(sl.o_pops, not s_def, sit.on_world, hand_o, of)
                         + sit.energy_o)
        else:
            ev_o, e_o = resp[i]
            if of is not _FREE:
                ev_o = of
            p = _power(sl.o_pops, sl.o_facs, ev_o, e_o)
            o_fixed_power.append(p)
            o_max.append(p)
    s_opts: list[list[tuple[str | None, int]]] = []
    caps: list[int] = []
    for i, sl in enumerate(slots):
        fixed = sit.s_events_fixed.get(i, _FREE)
        # WS-10.7: energy beyond the point where even the card-less group reaches d >= 6 is pointless
        cap = max(0, min(sit.energy_s, o_max[i] + 6 - group_power(sl.s_pops, sl.s_facs)))
        caps.append(cap)
        s_opts.append(_options(sl.s_pops, s_def, sit.on_world, sit.hand_s, fixed, cap))
    # identical battles ignore the anchor id
    sym = [False] + [
        _slot_tail(slots[i]) == _slot_tail(slots[i - 1]) and s_opts[i] == s_opts[i - 1] and o_max[i] == o_max[i - 1]
        and (sit.opponent == WORST_CASE or (resp[i] == resp[i - 1]))
        and sit.o_events_fixed.get(i, _FREE) is sit.o_events_fixed.get(i - 1, _FREE)
        for i in range(1, k)
    ]
    n_s = [sl.s_pops + sl.s_facs for sl in slots]
    n_o = [sl.o_pops + sl.o_facs for sl in slots]
    hand: dict[str, int] = {}
    for c in sit.hand_s:
        hand[c] = hand.get(c, 0) + 1
    hand_o_counts: dict[str, int] = {}
    for c in hand_o or []:
        hand_o_counts[c] = hand_o_counts.get(c, 0) + 1
    own = [(sl.s_pops, sl.s_facs) for sl in slots]
    fixed_ev = [i in sit.s_events_fixed for i in range(k)]
    choice = [0] * k
    leaves = [0]
    local_best: list[Any] = [None]

    def multiplicity(opts: list[tuple[str | None, int]], pool: int) -> int:
        """Plans of the full space Π_S this capped plan stands for (WS-10.7 must not change the count)."""
        groups: dict[tuple[int, str | None], int] = {}
        run = 0
        for i in range(k):
            if not sym[i]:
                run += 1
            if opts[i][1] == caps[i] and caps[i] < sit.energy_s:
                groups[(run, opts[i][0])] = groups.get((run, opts[i][0]), 0) + 1
        if not groups or pool == 0:
            return 1
        return _sat_extra(list(groups.values()), pool)

    def record(key4: Key4, opts: list[tuple[str | None, int]], pool: int, response: Reply | None) -> None:
        energy = sum(e for _, e in opts)
        cards = sum(1 for i, (ev, _) in enumerate(opts) if ev is not None and i not in sit.s_events_fixed)
        enc = tuple((slots[i].s_pops, slots[i].s_facs, opts[i][1], event_number(opts[i][0])) for i in range(k))
        full = (key4, -energy, -cards)
        cur = best_so_far[0]
        mult = multiplicity(opts, pool)
        if cur is None or key4[0] > cur[0][0]:
            best_so_far[2] = mult
            best_so_far[3] = [enc]
        elif key4[0] == cur[0][0]:
            best_so_far[2] += mult
            if len(best_so_far[3]) < 20:
                best_so_far[3].append(enc)
        if cur is None or full > cur or (full == cur and enc < best_so_far[1][0]):
            best_so_far[0] = full
            best_so_far[1] = (enc, slots, opts, response, evl, energy, cards)
        if local_best[0] is None or full > local_best[0]:
            local_best[0] = full
        if ceiling is not None and key4[0] >= ceiling:
            raise _Abort

    def children(i: int, pool: int) -> Any:
        """Our options at battle i in search order, with the hand updated while a branch is explored."""
        start = choice[i - 1] if sym[i] else 0
        hkey_node = tuple(sorted(hand.items()))
        for j in range(len(s_opts[i]) - 1, start - 1, -1):
            evc, e = s_opts[i][j]
            if e > pool:
                continue
            free = evc is not None and not fixed_ev[i]
            if free and hand.get(evc, 0) <= 0:  # type: ignore[arg-type]
                continue
            if free:
                hand[evc] -= 1  # type: ignore[index]
                yield j, e, tuple(sorted(hand.items()))
                hand[evc] += 1  # type: ignore[index]
            else:
                yield j, e, hkey_node

    if sit.opponent == FIXED:
        ss = _SideSearch(n_s, n_o, o_fixed_power, own, s_opts, sym, sit.energy_s, hand, True, [not f for f in fixed_ev])
        laws = _side_laws(ss)
        bounds = _Bounds(sit.objective, evl, laws, s_opts, slots, k, fixed_ev, own)

        def rec(i: int, dist: dict[int, int], els: int, elo: int, pool: int) -> None:
            if i == k:
                leaves[0] += 1
                record(evl.key(dist, els, elo), [s_opts[x][choice[x]] for x in range(k)], pool, None)
                return
            for j, e, hkey in children(i, pool):
                law, bls, blo, _ = laws[i][j]
                best_now = best_so_far[0]
                if best_now is None or bounds.bound(i + 1, dist, law, els + bls, elo + blo, pool - e, hkey) >= best_now[0][0]:
                    choice[i] = j
                    rec(i + 1, _convolve(dist, law), els + bls, elo + blo, pool - e)

        with contextlib.suppress(_Abort):
            rec(0, {0: 1}, 0, 0, sit.energy_s)
        return local_best[0], leaves[0]

    # ------------------------------------------------------------------ worst_case (WS-10.3)
    o_base = [group_power(sl.o_pops, sl.o_facs) for sl in slots]
    memo: dict[tuple[int, ...], tuple[bool, Key4, Reply]] = {}
    killers: list[_Killer] = []
    store: dict[Any, Any] = {}  # bound tables shared by killers and reply searches with equal suffixes

    def add_killer(reply: Reply) -> None:
        rep = tuple(reply)
        if any(kl.reply == rep for kl in killers):
            return
        laws_k = []
        for i, sl in enumerate(slots):
            o_pow = _power(sl.o_pops, sl.o_facs, *rep[i])
            laws_k.append([(*_law(_power(sl.s_pops, sl.s_facs, ev, e) - o_pow, n_s[i], n_o[i]), e) for ev, e in s_opts[i]])
        o_sig = [_power(sl.o_pops, sl.o_facs, *rep[i]) for i, sl in enumerate(slots)]
        bnd = _Bounds(sit.objective, evl, laws_k, s_opts, slots, k, fixed_ev, own, sig=o_sig, store=store)
        killers.insert(0, _Killer(rep, laws_k, bnd, [({0: 1}, 0, 0)]))
        del killers[MAX_KILLERS:]

    def worst_reply(s_pow: list[int], thr: int | None, seed: tuple[Key4, Reply] | None) -> tuple[bool, Key4, Reply]:
        """The opponent's worst reply for S against our per-battle powers (WS-10.3), memoised per power vector."""
        key_s = tuple(s_pow)
        hit = memo.get(key_s)
        if hit is not None and (hit[0] or (thr is not None and hit[1][0] < thr)):
            return hit
        o_opts = []
        for i, sl in enumerate(slots):
            of = sit.o_events_fixed.get(i, _FREE)
            cap_o = max(0, min(sit.energy_o, s_pow[i] + 6 - o_base[i]))
            o_opts.append(_options(sl.o_pops, not s_def, sit.on_world, hand_o or [], of, cap_o))
        o_sym = [False] + [
            _slot_tail(slots[i]) == _slot_tail(slots[i - 1]) and s_pow[i] == s_pow[i - 1] and o_opts[i] == o_opts[i - 1]
            for i in range(1, k)
        ]
        oss = _SideSearch(n_s, n_o, s_pow, [(sl.o_pops, sl.o_facs) for sl in slots], o_opts, o_sym, sit.energy_o,
                          dict(hand_o_counts), False, [i not in sit.o_events_fixed for i in range(k)])
        if thr is not None and sit.objective in ("losses", "net"):
            key_add, reply_add = _additive_reply(oss, evl, store)
            if key_add[0] < thr:
                memo[key_s] = (False, key_add, reply_add)
                return memo[key_s]
            if seed is None or key_add < seed[0]:
                seed = (key_add, reply_add)
        if thr is not None and seed is not None:
            better = _descend(oss, evl, seed, thr)
            if better is not None:
                memo[key_s] = (False, *better)
                return memo[key_s]
        res = _search_min(oss, evl, thr, seed, store)
        memo[key_s] = res
        return res

    def dist_at(kl: _Killer, i: int) -> tuple[dict[int, int], int, int]:
        """The killer's law of our first i battles along the current path, convolved lazily."""
        dists = kl.dists
        while len(dists) <= i:
            d = len(dists) - 1
            law, bls, blo, _ = kl.laws[d][choice[d]]
            dist, els, elo = dists[d]
            dists.append((_convolve(dist, law), els + bls, elo + blo))
        return dists[i]

    # the first killer: the worst reply to our idle plan
    idle = [min(_power(sl.s_pops, sl.s_facs, *s_opts[i][0]), o_max[i] + 6) for i, sl in enumerate(slots)]
    add_killer(worst_reply(idle, None, None)[2])

    def leaf_wc(pool: int) -> None:
        leaves[0] += 1
        opts = [s_opts[i][choice[i]] for i in range(k)]
        best_now = best_so_far[0]
        thr = best_now[0][0] if best_now is not None else None
        seed: tuple[Key4, Reply] | None = None
        for n, kl in enumerate(killers):
            key4 = evl.key(*dist_at(kl, k))
            if seed is None or key4 < seed[0]:
                seed = (key4, list(kl.reply))
                if thr is not None and key4[0] < thr:
                    killers.insert(0, killers.pop(n))  # a reply that cuts: try it first next time
                    return
        s_pow = [min(_power(slots[i].s_pops, slots[i].s_facs, *opts[i]), o_max[i] + 6) for i in range(k)]
        complete, key4, reply = worst_reply(s_pow, thr, seed)
        add_killer(reply)
        if not complete:
            return
        record(key4, opts, pool, reply)

    def rec_wc(i: int, pool: int) -> None:
        if i == k:
            leaf_wc(pool)
            return
        for j, e, hkey in children(i, pool):
            best_now = best_so_far[0]
            if best_now is not None:
                thr = best_now[0][0]
                cut = False
                for n, kl in enumerate(killers):
                    dist, els, elo = dist_at(kl, i)
                    law, bls, blo, _ = kl.laws[i][j]
                    if kl.bounds.bound(i + 1, dist, law, els + bls, elo + blo, pool - e, hkey) < thr:
                        cut = True
                        if n:
                            killers.insert(0, killers.pop(n))  # the reply that cut is tried first next time
                        break
                if cut:
                    continue
            choice[i] = j
            for kl in killers:
                del kl.dists[i + 1:]  # recomputed on demand by dist_at
            rec_wc(i + 1, pool - e)

    with contextlib.suppress(_Abort):
        rec_wc(0, sit.energy_s)
    return local_best[0], leaves[0]


_SHIFT_INDEX: dict[tuple[int, int], Any] = {}


def _shift_index(size: int, sh: int) -> Any:
    """Indices x - sh clipped to [0, size): reading a tail table shifted by ``sh`` with exact edge values."""
    hit = _SHIFT_INDEX.get((size, sh))
    if hit is None:
        hit = _SHIFT_INDEX[(size, sh)] = np.clip(np.arange(size) - sh, 0, size - 1)
    return hit


class _Bounds:
    """Optimistic bounds on the searching side's objective over the remaining battles i..k-1, given the
    energy ``pool`` and the cards still in hand (memoised per (battle, pool, cards left)).

    * ``win`` / ``no_loss``: ``tail(i, pool, hand)[t]`` bounds the number (over 36^(k-i)) of suffix
      outcomes with D_suffix > t by a dynamic programme that lets every battle's option depend on the
      outcome of the battles after it (``best_j sum_shift n * tail(i+1, pool - e_j, hand - card_j)[t - shift]``):
      a relaxation of the real, open-loop suffix plans, taken pointwise in t, so no real completion beats it.
    * ``losses`` / ``net``: the objective is additive over battles, so the same programme is exact.

    ``sense`` +1: the searching side is S (upper bounds on S's value); -1: it is the opponent (lower bounds)."""

    def __init__(self, objective: str, evl: _Evaluator, laws: list[list[Any]], s_opts: list[list[tuple[str | None, int]]],
                 slots: list[Slot], k: int, fixed: list[bool], own_pieces: list[tuple[int, int]], sense: int = 1,
                 sig: list[Any] | None = None, store: dict[Any, Any] | None = None) -> None:
        """``sig[i]`` identifies battle i's option laws (e.g. the other side's power in it): searches whose
        suffix signatures agree share tables through ``store``."""
        self.evl = evl
        self.objective = objective
        self.laws = laws
        self.s_opts = s_opts
        self.k = k
        self.fixed = fixed
        self.sense = sense
        if sig is None or store is None:
            sig, store = [object()] * k, {}
        self.suffix = [tuple(sig[i:]) for i in range(k + 1)]
        self.memo: dict[Any, Any] = store.setdefault(("tables", sense), {})
        self.gmemo: dict[Any, list[int]] = store.setdefault(("g", sense), {})
        # every threshold a bound can ask for lies in [-base, base]
        self.base = 2 * sum(sl.s_pops + sl.s_facs + sl.o_pops + sl.o_facs for sl in slots) + abs(evl.shift) + 4
        # exact integer arithmetic: int64 while 36^k fits, Python integers beyond
        self.dtype: Any = np.int64 if 36**k < 2**62 else object

    def _moves(self, i: int, pool: int, hand: tuple[tuple[str, int], ...]) -> list[tuple[int, int, tuple[tuple[str, int], ...]]]:
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

    def _additive(self, i: int, pool: int, hand: tuple[tuple[str, int], ...]) -> int:
        """Best sum over the suffix of -E[L_S]*36 (losses) or (E[L_O]-E[L_S])*36 (net): exact."""
        key = (self.suffix[i], pool, hand)
        hit = self.memo.get(key)
        if hit is not None:
            return int(hit)
        if i == self.k:
            out = 0
        else:
            vals = []
            for j, p2, h2 in self._moves(i, pool, hand):
                _, els, elo, _ = self.laws[i][j]
                vals.append((-els if self.objective == "losses" else elo - els) + self._additive(i + 1, p2, h2))
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
            for j, p2, h2 in self._moves(i, pool, hand):
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
            return -(els + 36 * self.evl.offsets[0]) + self._additive(i, pool, hkey)
        if self.objective == "net":
            return (elo - els) + 36 * (self.evl.offsets[1] - self.evl.offsets[0]) + self._additive(i, pool, hkey)
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


def _opt_power(sl: Slot, ev: str | None, e: int) -> int:
    return _power(sl.s_pops, sl.s_facs, ev, e)


def _slot_tail(sl: Slot) -> tuple[str, int, int, int, int]:
    return (sl.anchor_kind, sl.s_pops, sl.s_facs, sl.o_pops, sl.o_facs)


def allocations(sit: Situation) -> list[list[Slot]]:
    """The battles of every canonical allocation (WS-4.5) from S's point of view."""
    kinds = [k for _, k in sit.anchors]
    alloc_pieces = sit.s_pieces if sit.allocator == "S" else sit.o_pieces
    splits = [list(sit.allocation)] if sit.allocation is not None else list(canonical_splits(*alloc_pieces, kinds))
    out = []
    for split in splits:
        slots = []
        for (aid, kind), (p, f) in zip(sit.anchors, split, strict=True):
            a = (1, 0) if kind == "P" else (0, 1)
            if sit.allocator == "S":
                slots.append(Slot(aid, kind, p, f, *a))
            else:
                slots.append(Slot(aid, kind, *a, p, f))
        out.append(slots)
    return out


def advise(sit: Situation) -> Advice:
    """WS-10: the best plan with its exact value vector, calculator output and co-optimal plans."""
    alloc_list = allocations(sit)
    if sit.mode == "given" and sit.allocation is None:
        raise ValueError("mode 'given' needs an allocation")
    leaves = 0
    if sit.mode == "opponent_worst":
        # O picks the allocation first to minimise our best value (WS-10.2)
        chosen: list[Any] | None = None
        for slots in alloc_list:
            box: list[Any] = [None, None, 0, []]
            _, n = _plan_for_slots(sit, slots, box, None if chosen is None else chosen[0][0][0])
            leaves += n
            if chosen is None or box[0][0] < chosen[0][0]:
                chosen = box
        best = chosen
    else:
        best = [None, None, 0, []]
        for slots in alloc_list:
            _, n = _plan_for_slots(sit, slots, best)
            leaves += n
    assert best is not None and best[1] is not None
    key_full, payload, count, plans = best[0], best[1], best[2], best[3]
    enc, slots, opts, response, evl, energy, cards = payload
    value = evl.fraction_value(key_full[0], energy, cards)
    s_def = not sit.s_is_attacker
    resp = response or sit.fixed_response or [(None, 0)] * len(slots)
    battles = []
    for i, sl in enumerate(slots):
        ev_s, e_s = opts[i]
        ev_o, e_o = resp[i]
        if sit.o_events_fixed.get(i, _FREE) is not _FREE:
            ev_o = sit.o_events_fixed[i]
        battles.append(BattleInput(_group(sl.s_pops, sl.s_facs, ev_s, e_s), _group(sl.o_pops, sl.o_facs, ev_o, e_o)))
    del s_def
    odds = combat_odds(battles, sit.offsets)
    return Advice(
        slots=slots, events=[o[0] for o in opts], energy=[o[1] for o in opts], value=value, odds=odds,
        co_optimal=count, co_optimal_plans=sorted(plans)[:20], encoding=enc,
        response=response, leaves=leaves,
    )


def _group(pops: int, facs: int, ev: str | None, e: int) -> Group:
    if ev is None:
        return Group(pops=pops, facs=facs, energy=e)
    c = event_card(ev)
    return Group(pops=pops, facs=facs, natives=c.natives, pop_bonus=c.pop_bonus, energy=e)
