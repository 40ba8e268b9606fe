"""Golden playthroughs of Cosmic Arena (``arena``): both faces, default and free setups (both
placement modes), alpha-beta against MCTS and random, and scripted offers, acceptances and a
resignation (AR-2.5, AR-2.7, AR-10.4, AR-10.5).

Every agent runs on a deterministic budget: alpha-beta with a node limit per iteration and no
effective time limit (``seconds`` is huge, so only the node limit stops a search), MCTS with an
iteration count. Games are cut with ``max_steps`` to keep the files small.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.ai.base import RandomAgent
from spacetable.core.game import Action, Game
from spacetable.games.arena.ai import AlphaBetaAgent, ArenaMCTS

from .recorder import Case, Chooser

NO_CLOCK = 1e9  # seconds: the node limit alone ends each alpha-beta iteration


def alphabeta(seed: int, nodes: int = 1500) -> AlphaBetaAgent:
    return AlphaBetaAgent(seed, seconds=NO_CLOCK, node_limit=nodes)


def mcts(seed: int, iterations: int = 60) -> ArenaMCTS:
    return ArenaMCTS(iterations=iterations, seconds=None, seed=seed)


def seats(*makers: Callable[[], Any]) -> Callable[[], Chooser]:
    """A chooser that asks the agent of the acting seat (agents made fresh per recording)."""

    def make() -> Chooser:
        agents = [m() for m in makers]

        def choose(game: Game[Any], state: Any, seat: int) -> Action:
            return agents[seat].choose(game, state, seat)  # type: ignore[no-any-return]

        return choose

    return make


def offering(inner: Callable[[], Chooser], offer_every: int, accept_after: int = 10 ** 6,
             resign_at: int | None = None) -> Callable[[], Chooser]:
    """Wrap a chooser: every ``offer_every``-th turn action carries ``offer_end`` (AR-10.4), a
    listed ``accept_end`` is taken after step ``accept_after`` when the step count is a multiple
    of 3 (earlier offers lapse), and the seat to act resigns at step ``resign_at`` (AR-10.5)."""

    def make() -> Chooser:
        choose = inner()
        step = [0]

        def wrapped(game: Game[Any], state: Any, seat: int) -> Action:
            step[0] += 1
            if resign_at is not None and step[0] == resign_at:
                return {"type": "resign"}
            legal = game.legal_actions(state, seat)
            if legal and legal[-1]["type"] == "accept_end" and step[0] > accept_after and step[0] % 3 == 0:
                return legal[-1]
            action = dict(choose(game, state, seat))
            if state.phase == "play" and action["type"] != "accept_end" and step[0] % offer_every == 0:
                action["offer_end"] = True
            return action

        return wrapped

    return make


CASES = [
    Case("default-6x4-alphabeta-vs-alphabeta", {"board": "6x4", "red_seat": 0}, 11,
         seats(lambda: alphabeta(1), lambda: alphabeta(2, 3000)), max_steps=100,
         note="default house layout, 6x4; alpha-beta against a deeper alpha-beta"),
    Case("default-6x4-alphabeta-vs-mcts", {"board": "6x4", "red_seat": 0}, 11,
         seats(lambda: alphabeta(1), lambda: mcts(2, 300)), max_steps=100,
         note="default house layout, 6x4; alpha-beta (Red) against MCTS"),
    Case("default-5x5-mcts-vs-alphabeta", {"board": "5x5"}, 12,
         seats(lambda: mcts(3, 300), lambda: alphabeta(4)), max_steps=100,
         note="default house layout, 5x5, colours drawn from the seed"),
    Case("default-6x4-random-vs-alphabeta", {"board": "6x4"}, 13,
         seats(lambda: RandomAgent(5), lambda: alphabeta(6, 800)), max_steps=90,
         note="random against alpha-beta, colours drawn from the seed"),
    Case("free-alternate-6x4-alphabeta-vs-random", {"board": "6x4", "setup": "free", "red_seat": 1}, 14,
         seats(lambda: alphabeta(7), lambda: RandomAgent(8)), max_steps=60,
         note="free alternate placement (16 place actions), then play"),
    Case("free-simultaneous-5x5-wide-mcts-vs-random",
         {"board": "5x5", "setup": "free", "placement": "simultaneous", "home": "wide"}, 15,
         seats(lambda: mcts(9, 40), lambda: RandomAgent(10)), max_steps=60,
         note="sealed simultaneous layouts on the wide 5x5 home ranks, then play"),
    Case("free-simultaneous-6x4-mcts-offers", {"board": "6x4", "setup": "free", "placement": "simultaneous"}, 16,
         offering(seats(lambda: mcts(11, 30), lambda: mcts(12, 30)), offer_every=5, accept_after=30), max_steps=200,
         note="offers to end attached now and then, lapsing, then one accepted (AR-10.4)"),
    Case("default-5x5-mcts-resigns", {"board": "5x5", "red_seat": 0}, 17,
         offering(seats(lambda: mcts(13, 30), lambda: mcts(14, 30)), offer_every=7, resign_at=25),
         max_steps=60, note="offers that lapse, then a resignation out of the flow (AR-10.5)"),
    Case("position-6x4-quiet-limit", {"position": "6x4 111a1,222d1,212b2 111d6,222a6,121c5 r 30 b"}, 18,
         seats(lambda: alphabeta(1), lambda: alphabeta(2)), max_steps=100,
         note="from a position in notation, ending by the quiet limit (AR-10.2)"),
    Case("position-5x5-blue-to-move", {"position": "5x5 111a1,122e1,211c2 111e5,221a5,112c4 b 25 r -"}, 19,
         seats(lambda: alphabeta(1), lambda: mcts(2, 100)), max_steps=100,
         note="from a position with Blue to move"),
]
