"""The computer plays Full Metal Planète with purpose: over 20 seeded games (short: the first turns of the game, the
searching planner at a small budget against the rule-of-thumb commander and the greedy player), no unit returns to a
cell it left in the same turn unless it fired, loaded, unloaded, captured (or took part in any other action than a
move) in between. Before the fix the planner's and the commander's units went back and forth along their fields."""

from __future__ import annotations

from typing import Any

import pytest

from spacetable.games.fullmetal import GAME
from spacetable.games.fullmetal.commander import CommanderAgent, GreedyAgent, move_cells
from spacetable.games.fullmetal.planner import PlannerAgent

pytestmark = [pytest.mark.boards, pytest.mark.timeout(900)]

TURNS = 7  # the first turns: landing, deployment and the first convoys, where the wandering was seen


def back_and_forth(seed: int, agents: list[Any]) -> list[str]:
    """Every move of the game that puts a unit back on a cell it left earlier in the same turn of its player,
    with no other action of that unit in between."""
    state = GAME.initial_state(GAME.normalize_config({}), seed)
    left: dict[int, set[int]] = {}
    key: tuple[int, int] = (-1, -1)
    found: list[str] = []
    moves = 0
    while not GAME.is_terminal(state) and state.turn <= TURNS:
        seat = GAME.to_act(state)[0]
        a = agents[seat].choose(GAME, state, seat)
        if state.phase == "play":
            if (state.turn, seat) != key:
                key, left = (state.turn, seat), {}
            if a["type"] == "move":
                u = state.units[a["unit"]]
                to = move_cells(state, a)
                if left.get(u.id) and set(to) & left[u.id]:
                    found.append(f"seed {seed} turn {state.turn} seat {seat}: {u.kind} #{u.id} back to {a['path']}")
                left.setdefault(u.id, set()).update(set(u.cells) - set(to))
                moves += 1
            else:
                for k, v in a.items():
                    if k != "type" and isinstance(v, int) and not isinstance(v, bool):
                        left.pop(v, None)
        state = GAME.apply(state, seat, a)
    assert moves > 20, f"seed {seed}: only {moves} moves were played, the test would prove nothing"
    return found


@pytest.mark.parametrize("seed", range(20))
def test_no_unit_goes_back_and_forth(seed: int) -> None:
    cheap = PlannerAgent(seed, plans=4, finalists=2, samples=1, horizon=1)
    other = [CommanderAgent(seed + 100), GreedyAgent(seed + 200)][seed % 2]
    agents = [cheap, other] if seed % 4 < 2 else [other, cheap]
    assert back_and_forth(seed, agents) == []
