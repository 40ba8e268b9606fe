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
  (WS-10.7);
* prunes a branch when an optimistic bound on the objective (every remaining
  battle given the whole remaining pool and its best card, a relaxation that
  stochastically dominates any real completion) is strictly below the best
  objective found. Strict bounds never discard a co-optimal plan, so the
  co-optimal count stays exact over the capped plan space.

``worst_case`` (WS-10.3) runs the same search for the opponent, minimising, at
every leaf of ours, and abandons that inner search as soon as a reply pushes our
objective strictly below the best found so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

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
    out: dict[int, int] = {}
    for k, c in dist.items():
        for s, n in law:
            key = k + s
            out[key] = out.get(key, 0) + c * n
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


def _search_min(ss: _SideSearch, ev: _Evaluator, threshold: int | None) -> tuple[tuple[int, int, int, int], list[int]] | None:
    """The opponent's lexicographically worst reply for S (WS-10.3). Returns None as soon as a reply
    pushes S's objective strictly below ``threshold`` (that plan of ours cannot be optimal)."""
    laws = _side_laws(ss)
    k = len(laws)
    best: list[Any] = [None, None]
    hand = dict(ss.hand)
    choice = [0] * k
    slots = [Slot("", "", 0, 0, 0, 0)] * k  # only the size of the battles matters to the bound tables
    bounds = _Bounds(ev.objective, ev, laws, ss.options, slots, k, [not f for f in ss.free], ss.base, sense=-1)
    bounds.base = 2 * (sum(ss.n_s) + sum(ss.n_o)) + abs(ev.shift) + 4

    class _Cut(Exception):
        pass

    def rec(i: int, dist: dict[int, int], els: int, elo: int, pool: int) -> None:
        if i == k:
            key = ev.key(dist, els, elo)
            if best[0] is None or key < best[0]:
                best[0] = key
                best[1] = list(choice)
                if threshold is not None and key[0] < threshold:
                    raise _Cut
            return
        start = choice[i - 1] if ss.sym[i] else 0
        opts = ss.options[i]
        hkey_node = tuple(sorted(hand.items()))
        for j in range(len(opts) - 1, start - 1, -1):
            evc, e = opts[j]
            if e > pool:
                continue
            use = evc is not None and ss.free[i]
            if use and hand.get(evc, 0) <= 0:  # type: ignore[arg-type]
                continue
            law, bls, blo, _ = laws[i][j]
            hkey = hkey_node
            if use:
                hand[evc] -= 1  # type: ignore[index]
                hkey = tuple(sorted(hand.items()))
            # prune a reply branch whose best case for the opponent still leaves S strictly above the best reply
            if best[0] is None or bounds.bound(i + 1, dist, law, els + bls, elo + blo, pool - e, hkey) <= best[0][0]:
                choice[i] = j
                rec(i + 1, _convolve(dist, law), els + bls, elo + blo, pool - e)
            if use:
                hand[evc] += 1  # type: ignore[index]

    try:
        rec(0, {0: 1}, 0, 0, ss.pool)
    except _Cut:
        return None
    return best[0], best[1]


def _plan_for_slots(sit: Situation, slots: list[Slot], best_so_far: list[Any]) -> tuple[Any, int]:
    """Search our plans for one allocation. ``best_so_far`` = [key, payload, count, plans] shared across
    allocations (mode ours). Returns (best key for this allocation, leaves visited)."""
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
    for i, sl in enumerate(slots):
        fixed = sit.s_events_fixed.get(i, _FREE)
        base_max = group_power(sl.s_pops, sl.s_facs) + _max_event_bonus(sl.s_pops, s_def, sit.on_world, sit.hand_s, fixed)
        cap = max(0, min(sit.energy_s, o_max[i] + 6 - group_power(sl.s_pops, sl.s_facs)))
        # energy beyond the point where even the weakest own option reaches d >= 6 is pointless
        cap = min(cap, max(0, o_max[i] + 6 - (base_max - _max_event_bonus(sl.s_pops, s_def, sit.on_world, sit.hand_s, fixed))))
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

    def worst_reply(s_pow: list[int], thr: int | None) -> tuple[tuple[int, int, int, int], list[tuple[str | None, int]]] | None:
        """The opponent's worst reply for S against our per-battle powers (WS-10.3), or None when cut."""
        o_opts = []
        for i, sl in enumerate(slots):
            of = sit.o_events_fixed.get(i, _FREE)
            cap_o = max(0, min(sit.energy_o, s_pow[i] + 6 - group_power(sl.o_pops, sl.o_facs)))
            o_opts.append(_options(sl.o_pops, not s_def, sit.on_world, hand_o or [], of, cap_o))
        o_sym = [False] + [
            _slot_tail(slots[i]) == _slot_tail(slots[i - 1]) and s_pow[i] == s_pow[i - 1] and o_opts[i] == o_opts[i - 1]
            for i in range(1, k)
        ]
        oss = _SideSearch(n_s, n_o, s_pow, [(sl.o_pops, sl.o_facs) for sl in slots], o_opts, o_sym, sit.energy_o,
                          dict(hand_o_counts), False, [i not in sit.o_events_fixed for i in range(k)])
        res = _search_min(oss, evl, thr)
        if res is None:
            return None
        return res[0], [o_opts[i][res[1][i]] for i in range(k)]

    # fixed-mode laws per option; worst-case relaxation laws for the bound
    if sit.opponent == FIXED:
        ss = _SideSearch(n_s, n_o, o_fixed_power, [(sl.s_pops, sl.s_facs) for sl in slots], s_opts, sym, sit.energy_s, hand, True,
                         [i not in sit.s_events_fixed for i in range(k)])
        laws = _side_laws(ss)
    else:
        # bound laws: our options against one fixed feasible reply rho0 (the worst reply to our idle plan);
        # the true worst-case value of any plan is at most its value against rho0
        idle = [_power(sl.s_pops, sl.s_facs, *s_opts[i][0]) for i, sl in enumerate(slots)]
        res0 = worst_reply(idle, None)
        assert res0 is not None
        rho0 = res0[1]
        laws = []
        for i, sl in enumerate(slots):
            o_pow = _power(sl.o_pops, sl.o_facs, *rho0[i])
            laws.append([(*_law(_power(sl.s_pops, sl.s_facs, ev, e) - o_pow, n_s[i], n_o[i]), e) for ev, e in s_opts[i]])
    bounds = _Bounds(sit.objective, evl, laws, s_opts, slots, k, [i in sit.s_events_fixed for i in range(k)],
                     [(sl.s_pops, sl.s_facs) for sl in slots])
    choice = [0] * k
    leaves = [0]
    local_best: list[Any] = [None]

    def leaf(dist: dict[int, int], els: int, elo: int, pool: int) -> None:
        leaves[0] += 1
        opts = [s_opts[i][choice[i]] for i in range(k)]
        energy = sum(e for _, e in opts)
        cards = sum(1 for i, (ev, _) in enumerate(opts) if ev is not None and i not in sit.s_events_fixed)
        response = None
        if sit.opponent == WORST_CASE:
            s_pow = [_power(slots[i].s_pops, slots[i].s_facs, *opts[i]) for i in range(k)]
            thr = best_so_far[0][0][0] if best_so_far[0] is not None else None
            res = worst_reply(s_pow, thr)
            if res is None:
                return
            key4, response = res
        else:
            key4 = evl.key(dist, els, elo)
        enc = tuple(
            (slots[i].s_pops, slots[i].s_facs, opts[i][1], event_number(opts[i][0])) for i in range(k)
        )
        full = (key4, -energy, -cards)
        cur = best_so_far[0]
        if cur is None or key4[0] > cur[0][0]:
            best_so_far[2] = 1
            best_so_far[3] = [enc]
        elif key4[0] == cur[0][0]:
            best_so_far[2] += 1
            if len(best_so_far[3]) < 20:
                best_so_far[3].append(enc)
        if cur is None or full > cur or (full == cur and enc < best_so_far[1][0]):
            best_so_far[0] = full
            best_so_far[1] = (enc, slots, opts, response, evl, energy, cards)
        if local_best[0] is None or full > local_best[0]:
            local_best[0] = full

    def rec(i: int, dist: dict[int, int], els: int, elo: int, pool: int) -> None:
        if i == k:
            leaf(dist, els, elo, pool)
            return
        start = choice[i - 1] if sym[i] else 0
        hkey_node = tuple(sorted(hand.items()))
        for j in range(len(s_opts[i]) - 1, start - 1, -1):
            evc, e = s_opts[i][j]
            if e > pool:
                continue
            free = evc is not None and i not in sit.s_events_fixed
            if free and hand.get(evc, 0) <= 0:  # type: ignore[arg-type]
                continue
            law, bls, blo, _ = laws[i][j]
            hkey = hkey_node
            if free:
                hand[evc] -= 1  # type: ignore[index]
                hkey = tuple(sorted(hand.items()))
            best_now = best_so_far[0]
            if best_now is None or bounds.bound(i + 1, dist, law, els + bls, elo + blo, pool - e, hkey) >= best_now[0][0]:
                choice[i] = j
                rec(i + 1, _convolve(dist, law), els + bls, elo + blo, pool - e)
            if free:
                hand[evc] += 1  # type: ignore[index]

    rec(0, {0: 1}, 0, 0, sit.energy_s)
    return local_best[0], leaves[0]


class _Bounds:
    """Optimistic bounds on our objective for the remaining battles i..k-1 with ``pool`` energy and the cards
    still in hand: each remaining battle may use the whole remaining pool and any remaining card (a relaxation;
    a stronger group has a stochastically better law), so no real completion beats it. Memoised per
    (battle, pool, cards left)."""

    def __init__(self, objective: str, evl: _Evaluator, laws: list[list[Any]], s_opts: list[list[tuple[str | None, int]]],
                 slots: list[Slot], k: int, fixed: list[bool], own_pieces: list[tuple[int, int]], sense: int = 1) -> None:
        """``sense`` +1: the searching side is S (upper bounds); -1: it is the opponent (lower bounds on S's value)."""
        self.evl = evl
        self.objective = objective
        self.laws = laws
        self.s_opts = s_opts
        self.slots = slots
        self.k = k
        self.fixed = fixed
        self.own = own_pieces
        self.sense = sense
        self.memo: dict[tuple[int, int, tuple[tuple[str, int], ...]], Any] = {}
        self.gmemo: dict[tuple[int, int, tuple[tuple[str, int], ...]], dict[int, list[int]]] = {}
        # every threshold a bound can ask for lies in [-base, base]
        self.base = 2 * sum(sl.s_pops + sl.s_facs + sl.o_pops + sl.o_facs for sl in slots) + abs(evl.shift) + 4

    def _usable(self, i: int, pool: int, cards: set[str]) -> list[int]:
        return [j for j, (ev, e) in enumerate(self.s_opts[i]) if e <= pool and (ev is None or self.fixed[i] or ev in cards)]

    def _table(self, i: int, pool: int, hand: tuple[tuple[str, int], ...]) -> Any:
        key = (i, pool, hand)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        cards = {c for c, n in hand if n > 0}
        if i == self.k:
            out: Any = ({0: 1}, 0)
        else:
            dist, add = self._table(i + 1, pool, hand)
            usable = self._usable(i, pool, cards)
            pops, facs = self.own[i]
            j = max(usable, key=lambda j: _power(pops, facs, *self.s_opts[i][j]))
            dist = _convolve(dist, self.laws[i][j][0])
            pick = max if self.sense > 0 else min
            if self.objective == "losses":
                add += pick(-self.laws[i][j][1] for j in usable)
            elif self.objective == "net":
                add += pick(self.laws[i][j][2] - self.laws[i][j][1] for j in usable)
            out = (dist, add)
        self.memo[key] = out
        return out

    def _tail(self, i: int, pool: int, hand: tuple[tuple[str, int], ...]) -> list[int]:
        """counts[t + self.base] = number of relaxed-suffix outcomes with value > t, for every reachable t."""
        key = (-1 - i, pool, hand)
        hit = self.memo.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        dist, _ = self._table(i, pool, hand)
        out = [sum(c for v, c in dist.items() if v > t) for t in range(-self.base, self.base + 1)]
        self.memo[key] = out
        return out

    def bound(self, i: int, dist: dict[int, int], law: tuple[tuple[int, int], ...], els: int, elo: int, pool: int,
              hkey: tuple[tuple[str, int], ...]) -> int:
        """Bound for the child reached by convolving ``law`` into ``dist`` (fused: the child law is not built)."""
        if self.objective == "losses":
            return -(els + 36 * self.evl.offsets[0]) + self._table(i, pool, hkey)[1]
        if self.objective == "net":
            return (elo - els) + 36 * (self.evl.offsets[1] - self.evl.offsets[0]) + self._table(i, pool, hkey)[1]
        # g[x] = sum over the child's law outcomes (sh, n) of n * tail[x - sh]; memoised per (tail, law)
        tkey = (i, pool, hkey)
        per_tail = self.gmemo.get(tkey)
        if per_tail is None:
            per_tail = self.gmemo[tkey] = {}
        g = per_tail.get(id(law))
        if g is None:
            counts = self._tail(i, pool, hkey)
            size = len(counts)
            g = [0] * size
            for sh, n in law:
                for x in range(max(0, sh), min(size, size + sh)):
                    g[x] += n * counts[x - sh]
            per_tail[id(law)] = g
        # the suffix value v must exceed t = -(d + sh) - shift - adj; tails are indexed by t + base
        off = self.base - self.evl.shift - (0 if self.objective == "win" else 1)
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
            _, n = _plan_for_slots(sit, slots, box)
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
