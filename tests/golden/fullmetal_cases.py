"""Golden playthroughs of Full Metal Planète: seeded games of the commander AI and the greedy and random
baselines, 2 to 4 players (record with ``python -m tests.golden.recorder fullmetal``).

Every agent is seeded and budget-free (the commander plans by rules of thumb, never by the clock), so a
recording is reproducible; ``max_steps`` keeps each file small (a full game is 600-1,500 actions).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.game import Action, Game
from spacetable.core.rng import Rng
from spacetable.games.fullmetal.ai import AGENTS

from .recorder import Case, Chooser


def seats(*names: str, seed: int) -> Any:
    """A ``make`` for :class:`Case`: one fresh seeded agent per seat, in seat order."""

    def make() -> Chooser:
        agents = [AGENTS[name](seed * 10 + i, 1.0) for i, name in enumerate(names)]

        def choose(game: Game[Any], state: Any, seat: int) -> Action:
            return agents[seat].choose(game, state, seat)  # type: ignore[no-any-return]

        return choose

    return make


#: Weights of the ``weighted`` chooser: the rare, rule-heavy actions first.
WEIGHTS = {"fire": 30, "assault": 30, "capture": 30, "capture_ship": 50, "build": 20, "load": 8, "unload": 6, "exit": 6,
           "move": 3, "enter": 2, "retreat": 10, "transfer": 4, "end_turn": 2, "take_off": 50, "resign": 0, "repair": 30}


def weighted(seed: int) -> Any:
    """A ``make`` for :class:`Case`: every seat picks a legal action at random, rare actions weighted up."""

    def make() -> Chooser:
        rng = Rng.from_seed(seed)

        def choose(game: Game[Any], state: Any, seat: int) -> Action:
            legal = game.legal_actions(state, seat)
            weights = [WEIGHTS.get(a["type"], 1) for a in legal]
            r = rng.randbelow(sum(weights))
            for a, w in zip(legal, weights, strict=True):
                if r < w:
                    return a
                r -= w
            raise AssertionError("unreachable")

        return choose

    return make


CASES = [
    Case("p2_commander_greedy", {"players": 2}, 7, seats("commander", "greedy", seed=7), max_steps=450,
         note="two players from landing to mid-game"),
    Case("p2_commander_commander_late", {"players": 2}, 11, seats("commander", "commander", seed=11), max_steps=700,
         note="two commanders into the second half"),
    Case("p3_commander_greedy_random", {"players": 3}, 26, seats("commander", "greedy", "random", seed=26),
         max_steps=450, note="three players, every agent kind"),
    Case("p4_mixed", {"players": 4}, 5, seats("greedy", "commander", "random", "commander", seed=5), max_steps=450,
         note="four players"),
    Case("p2_random_random", {"players": 2}, 19, seats("random", "random", seed=19), max_steps=500,
         note="random play reaches the rare actions (transfers, unloads, retreats, captures)"),
    Case("p3_weighted", {"players": 3}, 2, weighted(2), max_steps=500,
         note="weighted random play: fights, captures, retreats and transfers"),
    Case("p2_fmg_preset", {"players": 2, "preset": "fmg"}, 3, seats("commander", "greedy", seed=3), max_steps=400,
         note="the fmg preset: multi ore, random-walk tides, per-player reserve"),
]
