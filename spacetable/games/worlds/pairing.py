"""Pairing and extra-piece assignment (WS-4).

There are k = min(nA, nD) battles (WS-4.1). The side with fewer pieces puts one piece, an
**anchor**, in each battle; the other side, the **allocator**, spreads all its pieces over the k
battles, each non-empty (WS-4.2). With equal counts the attacker allocates (WS-4.3, WS-D1). The
allocator also lists the battles in resolution order (WS-4.4, WS-D2). Anchors of the same type are
interchangeable, so only canonical splits are enumerated (WS-4.5): within a run of same-type
anchors the contents ``(populations, factories)`` are non-decreasing.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacetable.core.errors import RuleError
from spacetable.core.game import Action
from spacetable.core.moves import Name, Params, bounded_list

from .declare import piece_by_id
from .pieces import FACTORY, POPULATION, Piece, anchor_sort_key
from .scenario import MAX_PIECES_PER_CARD
from .state import Battle, Combat, WorldsState

Split = tuple[tuple[int, int], ...]
#: Most pieces of one side on one card (both kinds), so most battles of a combat and pieces in one battle.
MAX_GROUP = 2 * MAX_PIECES_PER_CARD


def canonical_splits(pops: int, facs: int, anchor_kinds: list[str]) -> Iterator[Split]:
    """WS-4.5: canonical ways to put ``pops`` P and ``facs`` F into battles whose anchors have the
    given kinds (already in anchor order: P first, then F), each battle non-empty.
    3P+2F against anchors [P, F] gives 10 splits, against [P, P] gives 5 (WS-A7)."""
    for combo in _splits(anchor_kinds, 0, pops, facs, None):
        yield tuple(combo)


def _splits(kinds: list[str], i: int, p_left: int, f_left: int,
            prev: tuple[int, int] | None) -> Iterator[list[tuple[int, int]]]:
    """The battles from anchor ``i`` on (:func:`canonical_splits`). A module function, not a closure that calls
    itself: such a closure is a reference cycle, left to the garbage collector at each legal list."""
    k = len(kinds)
    if i == k:
        if p_left == 0 and f_left == 0:
            yield []
        return
    remaining = k - i - 1
    same_as_prev = i > 0 and kinds[i] == kinds[i - 1]
    for p in range(p_left + 1):
        for f in range(f_left + 1):
            if p + f == 0:
                continue
            if p_left - p + f_left - f < remaining:
                continue
            if same_as_prev and prev is not None and (p, f) < prev:
                continue
            for rest in _splits(kinds, i + 1, p_left - p, f_left - f, (p, f)):
                yield [(p, f), *rest]


def count_splits(pops: int, facs: int, anchor_kinds: list[str]) -> int:
    return sum(1 for _ in canonical_splits(pops, facs, anchor_kinds))


def split_to_battles(split: Split, anchors: list[str], pop_ids: list[str], fac_ids: list[str]) -> list[dict[str, object]]:
    """Concrete ``allocate`` battles for a canonical split: pieces handed out in id order (WS-4.4)."""
    pi = fi = 0
    out: list[dict[str, object]] = []
    for anchor, (p, f) in zip(anchors, split, strict=True):
        pieces = pop_ids[pi : pi + p] + fac_ids[fi : fi + f]
        pi += p
        fi += f
        out.append({"anchor": anchor, "pieces": pieces})
    return out


def anchors(s: WorldsState, c: Combat) -> list[Piece]:
    """WS-4.2, WS-4.3: the other side's pieces, one per battle, in WS-10.6 order."""
    return sorted((piece_by_id(s, pid) for pid in c.participants[1 - c.allocator]), key=anchor_sort_key)


def allocation_rule(c: Combat) -> str:
    """WS-4.3 with equal counts (the attacker matches one to one), else WS-4.2."""
    return "WS-4.3" if len(c.participants[0]) == len(c.participants[1]) else "WS-4.2"


class BattleParams(Params):
    """One battle of an allocation: the anchor and the allocator's pieces facing it."""

    anchor: Name
    pieces: bounded_list(Name, MAX_GROUP)  # type: ignore[valid-type]


class AllocateParams(Params):
    """The allocator's battles, in resolution order (WS-4.4)."""

    battles: bounded_list(BattleParams, MAX_GROUP)  # type: ignore[valid-type]


def _checked_battles(c: Combat, anchor_ids: set[str], battles: list[dict[str, object]]) -> list[Battle]:
    """WS-4.2: every anchor once, every battle non-empty, every allocator piece exactly once."""
    rule = allocation_rule(c)
    own = set(c.participants[c.allocator])
    seen_a: set[str] = set()
    seen_p: set[str] = set()
    out = []
    for b in battles:
        a = str(b["anchor"])
        pieces = [str(p) for p in b["pieces"]]  # type: ignore[attr-defined]
        if a not in anchor_ids or a in seen_a:
            raise RuleError(rule, f"each anchor must be used exactly once ({a!r})")
        seen_a.add(a)
        if not pieces:
            raise RuleError(rule, f"the battle against {a} is empty: every battle needs at least one piece")
        for pid in pieces:
            if pid not in own or pid in seen_p:
                raise RuleError(rule, f"piece {pid!r} is not an unused participant of the allocator")
            seen_p.add(pid)
        out.append(Battle(anchor=a, pieces=pieces))
    if seen_a != anchor_ids:
        raise RuleError(rule, f"there must be exactly {len(anchor_ids)} battles, one per anchor")
    if seen_p != own:
        raise RuleError(rule, "the allocator must place all its pieces (WS-4.2)")
    return out


def allocate(s: WorldsState, seat: int, action: Action) -> None:
    """WS-4.2, WS-4.3, WS-4.4: all allocator pieces over the k battles, one anchor each, in resolution
    order; the pairing and the order are public before any battle starts."""
    c = s.combat
    assert c is not None
    c.battles = _checked_battles(c, {p.id for p in anchors(s, c)}, action["battles"])
    desc = "; ".join(f"{i + 1}: {', '.join(b.pieces)} vs {b.anchor}" for i, b in enumerate(c.battles))
    s.log.append(f"{s.sides[seat]} allocates ({desc})")


def legal_allocations(s: WorldsState, seat: int | None = None) -> list[Action]:
    """WS-4.5: one ``allocate`` per canonical split, battles in anchor order; any order is accepted (WS-D15)."""
    c = s.combat
    assert c is not None
    anchor_pieces = anchors(s, c)
    own = [piece_by_id(s, pid) for pid in c.participants[c.allocator]]
    pops = [p.id for p in own if p.kind == POPULATION]
    facs = [p.id for p in own if p.kind == FACTORY]
    kinds = [p.kind for p in anchor_pieces]
    return [
        {"type": "allocate", "battles": split_to_battles(sp, [p.id for p in anchor_pieces], pops, facs)}
        for sp in canonical_splits(len(pops), len(facs), kinds)
    ]
