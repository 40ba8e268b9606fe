"""Golden playthroughs of Battleship Galaxies (see recorder.py): deterministic agents only."""

from __future__ import annotations

from typing import Any

from spacetable.games.galaxies.ai import GreedyAgent, TacticianAgent

from .recorder import Case, Chooser


def duel(first: Any, second: Any) -> Chooser:
    agents = [first, second]

    def choose(game: Any, state: Any, seat: int) -> Any:
        return agents[seat % 2].choose(game, state, seat)

    return choose


def everyone(make: Any, seats: int) -> Chooser:
    agents = [make(i) for i in range(seats)]

    def choose(game: Any, state: Any, seat: int) -> Any:
        return agents[seat].choose(game, state, seat)

    return choose


CASES = [
    Case("skirmish-tactician-vs-greedy", {}, 7,
         lambda: duel(TacticianAgent(seed=1, samples=1, candidates=3), GreedyAgent(seed=2)), max_steps=200,
         note="2 seats, Open Skirmish: sealed fleets, roll-off, launches with cargo, movement, ECM, attacks"),
    Case("pan-base-teams", {"players": 3}, 3, lambda: everyone(lambda i: GreedyAgent(seed=i), 3), max_steps=150,
         note="3 seats: ISN against a 2-seat Wretch team (helm passing, commanders, pre-placed ships)"),
    Case("double-front", {"players": 4}, 5, lambda: everyone(lambda i: TacticianAgent(seed=i, samples=0), 4), max_steps=110,
         note="4 seats on the double board, 2 against 2"),
]
