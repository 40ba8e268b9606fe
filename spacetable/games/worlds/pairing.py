"""Pairing and extra-piece assignment (WS-4).

The allocator spreads all its pieces over the k battles, each non-empty, one
battle per anchor. Anchors of the same type are interchangeable, so only
canonical splits are enumerated (WS-4.5): within a run of same-type anchors the
contents ``(populations, factories)`` are non-decreasing.
"""

from __future__ import annotations

from collections.abc import Iterator

Split = tuple[tuple[int, int], ...]


def canonical_splits(pops: int, facs: int, anchor_kinds: list[str]) -> Iterator[Split]:
    """WS-4.5: canonical ways to put ``pops`` P and ``facs`` F into battles whose anchors have the
    given kinds (already in anchor order: P first, then F), each battle non-empty.
    3P+2F against anchors [P, F] gives 10 splits, against [P, P] gives 5 (WS-A7)."""
    k = len(anchor_kinds)

    def rec(i: int, p_left: int, f_left: int, prev: tuple[int, int] | None) -> Iterator[list[tuple[int, int]]]:
        if i == k:
            if p_left == 0 and f_left == 0:
                yield []
            return
        remaining = k - i - 1
        same_as_prev = i > 0 and anchor_kinds[i] == anchor_kinds[i - 1]
        for p in range(p_left + 1):
            for f in range(f_left + 1):
                if p + f == 0:
                    continue
                if p_left - p + f_left - f < remaining:
                    continue
                if same_as_prev and prev is not None and (p, f) < prev:
                    continue
                for rest in rec(i + 1, p_left - p, f_left - f, (p, f)):
                    yield [(p, f), *rest]

    for combo in rec(0, pops, facs, None):
        yield tuple(combo)


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
