"""Missions and the end of the game (TH-14, TH-D5, TH-D6, TH-D7, TH-D22)."""

from __future__ import annotations

from .cards import CardSet, Mission
from .credits import settle
from .state import TState


def mission_count(cards: CardSet, mission: Mission, trophies: list[str]) -> int:
    """TH-14.1: matching trophies; one trophy may count for several missions."""
    attr = "region" if mission.kind == "region" else "city_type"
    return sum(1 for t in trophies if getattr(cards.cities[t], attr) == mission.target)


def split_prizes(counts: list[int], prizes: tuple[int, int] = (200000, 100000), unit: int = 10000) -> list[int]:
    """Prizes for one mission from each seat's count (TH-14.2, TH-14.3, TH-14.4, TH-14.5).

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


def final_scoring(s: TState, cards: CardSet) -> None:
    """TH-14.1, TH-14.6: after the last turn, the mission prizes, then the unpaid credits (TH-13.4,
    TH-D5); the score is the humans."""
    prizes = (int(cards.rules["mission_prizes"][0]), int(cards.rules["mission_prizes"][1]))
    totals = [0] * s.num_players
    for mid in s.missions:
        counts = [mission_count(cards, cards.missions[mid], p.trophies) for p in s.players]
        won = split_prizes(counts, prizes, s.split_unit)
        s.final[mid] = won
        for i, w in enumerate(won):
            totals[i] += w
        s.log_events and s.note(f"mission {cards.card_name(mid)}: counts {counts} → prizes {won}")
    s.final["missions"] = totals
    s.final["credits"] = [settle(p, cards.rules) for p in s.players]
    for i, p in enumerate(s.players):
        p.humans += totals[i] + s.final["credits"][i]


def ranking_key(s: TState, seat: int) -> tuple[int, int, int]:
    """TH-14.6, TH-D22: more humans, then more trophies, then fewer credits taken in the whole game."""
    p = s.players[seat]
    return (p.humans, len(p.trophies), -p.credits_taken)
