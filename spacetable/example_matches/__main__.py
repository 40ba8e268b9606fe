"""Record the example matches again: ``python -m spacetable.example_matches [GAME ...]``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from spacetable.ai.agents import choose_for_seat, make_agent
from spacetable.ai.base import RandomAgent
from spacetable.ai.mcts import MCTSAgent
from spacetable.core.game import Action, Game
from spacetable.core.match import LogEntry, Match
from spacetable.core.moves import agent_actions
from spacetable.core.rng import mix_seed
from spacetable.games import get_game

FOLDER = Path(__file__).resolve().parent


class Playful(RandomAgent):
    """A random player that never resigns, so the example shows some play."""

    name = "random"

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        legal = [a for a in agent_actions(game.legal_actions(state, player)) if a.get("type") != "resign"]
        return self.rng.choice(legal or game.legal_actions(state, player))

#: game id -> (config, seed, players by seat, most actions recorded)
RECIPES: dict[str, tuple[dict[str, Any], int, list[Any], int]] = {
    "arena": ({"board": "6x4"}, 7, [MCTSAgent(iterations=300, seed=1), Playful(2)], 400),
    "worlds": ({"scenario": "native-uprising"}, 4, [MCTSAgent(iterations=100, seed=1), Playful(2)], 400),
    "tremble": ({"players": 3}, 5, [Playful(1), Playful(2), Playful(3)], 2000),
    "fullmetal": ({"players": 2}, 3, [Playful(1), Playful(2)], 120),
    "galaxies": ({"players": 2}, 5, [make_agent(get_game("galaxies"), "policy", 1),
                                     make_agent(get_game("galaxies"), "greedy", 2)], 300),
}


def record(game_id: str) -> Match:
    config, seed, players, limit = RECIPES[game_id]
    game = get_game(game_id)
    match = Match(game=game_id, config=game.normalize_config(config), seed=seed,
                  meta={"seats": [getattr(p, "name", "ai") for p in players], "note": "example match"})
    state = game.initial_state(match.config, seed)
    while game.to_act(state) and len(match.log) < limit:
        seat = game.to_act(state)[0]
        action = choose_for_seat(game, state, seat, players[seat], mix_seed(seed, "example", len(match.log)))
        state = game.apply(state, seat, action)
        match.log.append(LogEntry(seat, action))
    return match


def main(argv: list[str]) -> int:
    for game_id in argv or list(RECIPES):
        match = record(game_id)
        match.save(FOLDER / f"{game_id}.json")
        print(f"{game_id}: {len(match.log)} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
