"""Golden playthroughs of Tremble, Humans! (``tremble``): 2-, 3-, 4- and 5-player games with the
random, heuristic and MCTS captains, seats mixed, the house card set.

Every captain is deterministic: the random and heuristic captains draw from their own seeded
generators, the MCTS captain runs a fixed number of iterations (never a time budget). The 2-player
random game is a complete 10-turn game (final scoring, missions and credits included); the others
are cut with ``max_steps`` to keep the recording quick and the files small.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.core.game import Action, Game
from spacetable.games.tremble.ai import HeuristicAgent, MCTSCaptain, RandomCaptain

from .recorder import Case, Chooser


def seats(*makers: Callable[[], Any]) -> Callable[[], Chooser]:
    """A chooser that asks the captain of the acting seat (captains made fresh per recording)."""

    def make() -> Chooser:
        agents = [m() for m in makers]

        def choose(game: Game[Any], state: Any, seat: int) -> Action:
            return agents[seat].choose(game, state, seat)  # type: ignore[no-any-return]

        return choose

    return make


def rnd(seed: int) -> Callable[[], Any]:
    return lambda: RandomCaptain(seed)


def heu(seed: int) -> Callable[[], Any]:
    return lambda: HeuristicAgent(seed)


def mcts(seed: int, iterations: int = 6) -> Callable[[], Any]:
    return lambda: MCTSCaptain(seed=seed, iterations=iterations)


CASES = [
    Case("random-2p", {"players": 2}, 11, seats(rnd(1), rnd(2)), note="two random captains, a whole game"),
    Case("random-3p", {"players": 3, "log_events": False}, 12, seats(rnd(3), rnd(4), rnd(5)),
         max_steps=90, note="three random captains, no event log"),
    Case("random-heuristic-4p", {"players": 4}, 13, seats(rnd(6), heu(7), rnd(8), heu(9)),
         max_steps=130, note="random and heuristic captains alternate, into turn 6"),
    Case("heuristic-5p", {"players": 5, "fuel": "late_step", "split_unit": 1}, 14,
         seats(heu(10), heu(11), heu(12), heu(13), heu(14)), max_steps=100,
         note="five heuristic captains, another fuel table and exact splits"),
    Case("mcts-heuristic-2p", {"players": 2}, 15, seats(mcts(15), heu(16)), max_steps=70,
         note="the MCTS captain (6 iterations) against the heuristic"),
    Case("mixed-3p", {"players": 3}, 16, seats(heu(17), mcts(18, 4), rnd(19)), max_steps=60,
         note="heuristic, MCTS (4 iterations) and random"),
    Case("mixed-5p", {"players": 5, "log_events": False}, 17,
         seats(rnd(20), mcts(21, 3), heu(22), rnd(23), mcts(24, 3)), max_steps=60,
         note="five seats, two MCTS captains searching sealed decisions of later seats"),
]
