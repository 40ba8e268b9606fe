"""Missions (TH-14.1–14.5, TH-D6, TH-D7): prize splitting among players with matching trophies."""

from __future__ import annotations

from .cards import CardSet, Mission


def mission_count(cards: CardSet, mission: Mission, trophies: list[str]) -> int:
    """TH-14.1: matching trophies; one trophy may count for several missions."""
    attr = "region" if mission.kind == "region" else "city_type"
    return sum(1 for t in trophies if getattr(cards.cities[t], attr) == mission.target)


def split_prizes(counts: list[int], prizes: tuple[int, int] = (200000, 100000), unit: int = 10000) -> list[int]:
    """Prizes for one mission from each seat's count (TH-14.2–14.5).

    Only counts >= 1 rank (TH-D6). A unique first gets the first prize; the best among
    the others gets (or splits) the second. Two or more tied first split both prizes and
    there is no second prize. Shares round down to ``unit`` (TH-D7).
    """
    out = [0] * len(counts)
    ranked = [c for c in counts if c > 0]
    if not ranked:
        return out
    best = max(ranked)
    first = [i for i, c in enumerate(counts) if c == best]
    if len(first) > 1:
        share = (prizes[0] + prizes[1]) // len(first) // unit * unit
        for i in first:
            out[i] = share
        return out
    out[first[0]] = prizes[0]
    rest = [c for i, c in enumerate(counts) if c > 0 and i != first[0]]
    if rest:
        second = max(rest)
        seconds = [i for i, c in enumerate(counts) if c == second and i != first[0]]
        share = prizes[1] // len(seconds) // unit * unit
        for i in seconds:
            out[i] = share
    return out
