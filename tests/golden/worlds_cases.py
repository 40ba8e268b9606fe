"""Golden playthroughs of the Worlds & Suns combat skirmish (``worlds``): every shipped scenario with
the advisor AI against the random player and against itself, the MCTS player on an iteration budget
(it determinizes hidden hands and sealed choices), a player that writes its own allocations and
retreats (battle orders and retreat subsets the legal list does not show), a player that always lets
its clock run out (the timeout defaults, WS-D22), and a scenario given as JSON with a dice script
and starting systems.

Every agent is deterministic: the advisor has no clock and no randomness, the random players draw from
their own seeded generators, MCTS runs a fixed number of iterations (never a time budget).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.ai.base import RandomAgent
from spacetable.ai.mcts import MCTSAgent
from spacetable.core.game import Action, Game
from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng
from spacetable.games.worlds.ai import AdvisorAgent

from .recorder import Case, Chooser


def seats(*makers: Callable[[], Any]) -> Callable[[], Chooser]:
    """A chooser that asks the agent of the acting seat (agents made fresh per recording)."""

    def make() -> Chooser:
        agents = [m() for m in makers]

        def choose(game: Game[Any], state: Any, seat: int) -> Action:
            return agents[seat].choose(game, state, seat)  # type: ignore[no-any-return]

        return choose

    return make


def advisor() -> AdvisorAgent:
    return AdvisorAgent()


def rnd(seed: int) -> Callable[[], RandomAgent]:
    return lambda: RandomAgent(seed)


def mcts(seed: int, iterations: int = 40) -> Callable[[], MCTSAgent]:
    return lambda: MCTSAgent(iterations=iterations, seconds=None, seed=seed)


class Freestyle:
    """A random player that fights whenever it can and writes actions the legal list does not show:
    allocations with the battles in a shuffled resolution order (WS-4.4) and retreats of a random subset
    (WS-6.3)."""

    name = "freestyle"

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, game: Game[Any], state: Any, seat: int) -> Action:
        legal = agent_actions(game.legal_actions(state, seat))
        declares = [a for a in legal if a["type"] == "declare_combat"]
        action = dict(self.rng.choice(declares or legal))
        if action["type"] == "allocate":
            battles = list(action["battles"])
            self.rng.shuffle(battles)
            action["battles"] = [{"anchor": b["anchor"], "pieces": list(reversed(b["pieces"]))} for b in battles]
        elif action["type"] == "retreat":
            widest = max(legal, key=lambda a: len(a["pieces"]))["pieces"]
            action["pieces"] = [p for p in widest if self.rng.randbelow(2)]
        return action


class Sleeper:
    """Never answers: the server would play the game's timeout default for it (WS-D22)."""

    name = "sleeper"

    def choose(self, game: Game[Any], state: Any, seat: int) -> Action:
        action = game.timeout_action(state, seat)
        assert action is not None
        return action


DICE_SCENARIO: dict[str, Any] = {
    "format": "worlds-skirmish/1", "id": "golden-dice", "label": "golden: a dice script, home systems, a Sun fight",
    "sides": ["A", "D"], "first_player": "D",
    "systems": [
        {"id": "H", "starting_system_of": "A", "sun": {"id": "H.sun", "pieces": {"A": {"P": 1}}},
         "worlds": [{"id": "H.w1", "pieces": {"A": {"P": 1, "F": 1}, "D": {"P": 1}}}]},
        {"id": "X", "starting_system_of": None, "sun": {"id": "X.sun", "pieces": {"A": {"P": 2}, "D": {"P": 1}}},
         "worlds": [{"id": "X.w1", "pieces": {"A": {"P": 2, "F": 1}, "D": {"P": 3, "F": 1}}},
                    {"id": "X.w2", "pieces": {"A": {"F": 2}, "D": {"P": 1}}}]},
    ],
    "energy": {"A": 1, "D": 2}, "energy_income": {"A": 1, "D": 0},
    "hands": {"A": ["MG", "CET"], "D": ["RI"]},
    "max_rounds": 4, "seed": 9, "dice_script": [[4, 4], [6, 1], [2, 5], [3, 3], [1, 6]],
}


CASES = [
    Case("s1-example-advisor-vs-random", {"scenario": "s1-example"}, 1, seats(advisor, rnd(1)),
         note="the seed's worked example: the advisor (white) against a random grey"),
    Case("s1-example-advisor-vs-advisor", {"scenario": "s1-example"}, 2, seats(advisor, advisor),
         note="the seed's worked example, the advisor on both sides"),
    Case("border-worlds-advisor-vs-advisor", {"scenario": "border-worlds"}, 3, seats(advisor, advisor),
         note="home systems, a contested border, random hands and income; advisor against advisor"),
    Case("border-worlds-random-vs-advisor", {"scenario": "border-worlds"}, 4, seats(rnd(2), advisor),
         note="a random red against the advisor (blue)"),
    Case("sun-orbit-advisor-vs-random", {"scenario": "sun-orbit"}, 5, seats(advisor, rnd(3)),
         note="combat in orbit: no retreat, no conversion"),
    Case("native-uprising-advisor-vs-advisor", {"scenario": "native-uprising"}, 6, seats(advisor, advisor),
         note="the house cards CET and RI, advisor against advisor"),
    Case("native-uprising-mcts-vs-random", {"scenario": "native-uprising"}, 7, seats(mcts(4), rnd(5)),
         max_steps=80, note="MCTS (40 iterations, determinized hands and sealed choices) against random"),
    Case("grand-melee-advisor-vs-advisor", {"scenario": "grand-melee"}, 8, seats(advisor, advisor),
         max_steps=60, note="8 against 8 with full hands and pools, advisor against advisor"),
    Case("grand-melee-freestyle-vs-random", {"scenario": "grand-melee"}, 9, seats(lambda: Freestyle(6), rnd(7)),
         note="shuffled battle orders, retreat subsets and tie choices written by the player"),
    Case("border-worlds-sleeper-vs-freestyle", {"scenario": "border-worlds"}, 10, seats(Sleeper, lambda: Freestyle(8)),
         note="one side always takes the timeout default (spec §5)"),
    Case("json-dice-advisor-vs-random", {"scenario_json": DICE_SCENARIO}, 11, seats(advisor, rnd(9)),
         note="a scenario given as JSON: dice script, a starting system with a contested World, a Sun fight"),
    Case("json-dice-random-vs-sleeper", {"scenario_json": DICE_SCENARIO}, 12, seats(rnd(10), Sleeper),
         note="the same scenario, random against the timeout defaults"),
]
