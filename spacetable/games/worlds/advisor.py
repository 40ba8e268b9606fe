"""Allocation advisor (WS-10): best allocation, event placement and energy split, exactly.

Public interface (kept stable for the skirmish AI, the ``advise`` command, the RL tools and the
benchmark): :func:`advise` takes a :class:`Situation` (WS-10.1) and returns an :class:`Advice`
(WS-10.8); :func:`allocations` lists the battles of every allocation the situation allows; the
constants :data:`OBJECTIVES`, :data:`FIXED` and :data:`WORST_CASE` name the objectives and the
opponent models. The parts:

* :mod:`.plans` — the plan space, the situation and advice types, exact laws and values (WS-10.2,
  WS-10.4, WS-10.5, WS-10.6);
* :mod:`.bounds` — optimistic bounds for branch and bound (WS-10.7);
* :mod:`.replies` — the opponent's best reply to a plan (WS-10.3 ``worst_case``);
* :mod:`.search` — the search of our plans for one allocation, with killer replies in ``worst_case``.

Search
------
For one allocation the plan space is the product over battles of per-battle options
``(event, energy)`` under the shared pool and hand (WS-10.2). The search is a depth-first enumeration
in canonical anchor order (WS-10.6) that

* keeps the law of ``D = L_O - L_S`` as integer counts over ``36^depth`` and convolves one battle at a
  time, so every value is exact and plans of one combat compare as integers;
* visits only one representative of plans that differ by permuting options among identical
  consecutive battles (interchangeable anchors, WS-10.7);
* caps each battle's energy where ``d >= 6`` against the opponent's maximum power (WS-10.7); the
  co-optimal count adds back the plans the cap removed, so it counts the whole plan space Π_S;
* prunes a branch when an optimistic bound on the objective is strictly below the best objective
  found. Strict bounds never discard a co-optimal plan.

``worst_case`` (WS-10.3, the CLI's ``best-response``) is a max-min search: replies of the opponent
found so far ("killers") bound our plans; at a leaf that survives them a short local search looks for
a reply that rules the plan out; otherwise the exact reply search runs, memoised per vector of our
powers. In mode ``opponent_worst`` the answer is the allocation where our best value is lowest (the
first in canonical order among equal values). An allocation's search stops as soon as our objective
reaches the lowest found so far (above it, the opponent will not pick it); one whose best only ties it
is then searched to the end and compared on its complete value. The allocations likeliest to be the
opponent's pick (our value against a passive opponent) are searched first, so that ceiling is low
early, and an allocation that cannot be the answer is only shown to be above it (a search with a floor).

No approximation is made anywhere: larger combats only take longer (``bench/worlds_advisor.py``).
"""

from __future__ import annotations

from dataclasses import replace

from .odds import BattleInput, combat_odds
from .pairing import canonical_splits
from .plans import FIXED, FREE, OBJECTIVES, WORST_CASE, Advice, Situation, Slot, group
from .search import MAX_LISTED, Best, PlanSearch, plan_search

__all__ = ["FIXED", "OBJECTIVES", "WORST_CASE", "Advice", "Situation", "Slot", "advise", "allocations"]


def allocations(sit: Situation) -> list[list[Slot]]:
    """The battles of every canonical allocation (WS-4.5) from S's point of view; the given one in mode
    ``given``."""
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


def _passive_order(sit: Situation, alloc_list: list[list[Slot]]) -> list[int]:
    """The allocations, the likely worst for us first: by our best value against the passive opponent (no card, no
    energy; a cheap upper bound on the worst-case value), ties in canonical order."""
    if sit.opponent == FIXED:
        return list(range(len(alloc_list)))  # the searches are as cheap as the estimate
    passive = replace(sit, opponent=FIXED, fixed_response=None)
    est = [PlanSearch(passive, slots, Best()).run()[0][0][0] for slots in alloc_list]
    return sorted(range(len(alloc_list)), key=est.__getitem__)


def _reaches(sit: Situation, slots: list[Slot], target: int) -> tuple[bool, int]:
    """Whether some plan of ours for the allocation reaches the objective ``target`` (a search with that floor and
    ceiling: cut at once below it, stopped at the first plan reaching it), and the leaves visited."""
    search = plan_search(sit, slots, Best(), target)
    search.floor = target
    leaves = search.run()[1]
    return search.aborted, leaves


def _opponent_worst(sit: Situation, alloc_list: list[list[Slot]]) -> tuple[Best, int]:
    """WS-10.2 mode ``opponent_worst``: O picks the allocation first, to minimise our best value.

    The answer is the allocation where our best plan's value (WS-10.5 order: the objective, then P(win), our
    expected losses, theirs) is lowest, the first in canonical order among equal values, with its complete
    co-optimal count (WS-10.8). Let m be the lowest objective and ``first`` the first allocation (canonical order)
    reaching it. An allocation before ``first`` is above m and does not matter; one after it matters only if it
    reaches m too, and is then compared on its complete value. The allocations are searched in another order
    (:func:`_passive_order`) so that m is found early, with ``low`` the lowest objective of an allocation searched
    to the end so far and ``first`` the first allocation known to reach it:

    * an allocation before ``first`` only has to be shown above ``low`` (:func:`_reaches` ``low + 1``, fast); if it
      is not, it is searched to the end (it could be the first one reaching m);
    * a later one is searched with the ceiling ``low`` (it stops at its first plan reaching it) and keeps its
      ``rises``, from which the end shows whether it reaches the final m; one that does is searched to the end
      (searched now if it was never searched)."""
    n_alloc = len(alloc_list)
    runs: dict[int, PlanSearch] = {}
    low: int | None = None  # lowest objective of an allocation searched to the end
    first = -1  # the first allocation (canonical order) known to reach it
    leaves = 0

    def search(i: int, ceiling: int | None) -> PlanSearch:
        nonlocal leaves
        run = runs[i] = plan_search(sit, alloc_list[i], Best(), ceiling)
        run.rises = []
        leaves += run.run()[1]
        return run

    for i in _passive_order(sit, alloc_list):
        if low is not None and i < first:
            above, n = _reaches(sit, alloc_list[i], low + 1)
            leaves += n
            if above:
                continue
        run = search(i, None if low is None else low + 1 if i < first else low)
        if not run.aborted:
            obj = run.best.key[0][0]
            if low is None or obj < low or (obj == low and i < first):
                low, first = obj, i
    assert low is not None
    chosen = runs[first].best
    for i in range(first + 1, n_alloc):
        run = runs.get(i) or search(i, low)
        assert run.rises is not None
        box = next(b for b in run.rises if b.key[0][0] >= low)  # where a search with ceiling ``low`` stops
        if box.key[0][0] > low:
            continue  # our best there is above the lowest objective: not the opponent's pick
        if run.aborted:
            run = search(i, None)  # a tie on the objective: the opponent compares our complete values (WS-10.5)
        if run.best.key[0] < chosen.key[0]:
            chosen = run.best
    return chosen, leaves


def _ours(sit: Situation, alloc_list: list[list[Slot]]) -> tuple[Best, int]:
    """Modes ``ours`` and ``given``: the best plan over every allocation we may choose."""
    best = Best()
    leaves = 0
    for slots in alloc_list:
        _, n = plan_search(sit, slots, best).run()
        leaves += n
    return best, leaves


def advise(sit: Situation) -> Advice:
    """WS-10: the best plan with its exact value vector, calculator output and co-optimal plans (WS-10.8)."""
    alloc_list = allocations(sit)
    if sit.mode == "given" and sit.allocation is None:
        raise ValueError("mode 'given' needs an allocation")
    best, leaves = _opponent_worst(sit, alloc_list) if sit.mode == "opponent_worst" else _ours(sit, alloc_list)
    assert best.payload is not None
    enc, slots, opts, response, evl, energy, cards = best.payload
    resp = response or sit.fixed_response or [(None, 0)] * len(slots)
    battles = []
    for i, sl in enumerate(slots):
        ev_s, e_s = opts[i]
        ev_o, e_o = resp[i]
        if sit.o_events_fixed.get(i, FREE) is not FREE:
            ev_o = sit.o_events_fixed[i]
        battles.append(BattleInput(group(sl.s_pops, sl.s_facs, ev_s, e_s), group(sl.o_pops, sl.o_facs, ev_o, e_o)))
    return Advice(
        slots=slots, events=[o[0] for o in opts], energy=[o[1] for o in opts],
        value=evl.fraction_value(best.key[0], energy, cards), odds=combat_odds(battles, sit.offsets),
        co_optimal=best.count, co_optimal_plans=sorted(best.plans)[:MAX_LISTED], encoding=enc,
        response=response, leaves=leaves,
    )
