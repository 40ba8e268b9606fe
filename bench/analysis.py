"""CPU time of a complete post-game analysis (every seat, from its own knowledge) of one finished match per
target: Cosmic Arena (under 10 s), a Worlds & Suns skirmish (under 30 s), a 4-player Tremble game and a 2-player
Full Metal Planète game (under 3 minutes each), on one core. Prints the figures; asserts nothing.

The clock starts once the game's players and analysis hooks are imported (Cosmic Arena's compiled kernels come
from numba's cache; a worker process of the server pays that import once, not per analysis). The budget is the
play server's (``analysis_jobs.SERVER_BUDGET``).

    python bench/analysis.py [arena worlds tremble fullmetal]
"""

from __future__ import annotations

import sys
import time
from typing import Any

from spacetable.ai.agents import agent_specs, choose_for_seat, make_agent
from spacetable.ai.analysis import analyse_match
from spacetable.core.match import Match
from spacetable.core.rng import mix_seed
from spacetable.example_matches import example_path
from spacetable.games import get_game
from spacetable.server.analysis_jobs import SERVER_BUDGET

#: game id -> (config, seed, AI players by seat) of a match played to its end for the bench
RECIPES: dict[str, tuple[dict[str, Any], int, list[str]]] = {
    "tremble": ({"players": 4}, 11, ["heuristic"] * 4),
    "fullmetal": ({"players": 2}, 3, ["greedy", "greedy"]),
}


#: The play server's budget: 4 playouts of at most 150 actions per position, 0.05 s per suggestion.
BUDGET = SERVER_BUDGET


def finished_match(game_id: str) -> Match:
    game = get_game(game_id)
    if game_id not in RECIPES:
        return Match.load(example_path(game_id), get_game)
    config, seed, names = RECIPES[game_id]
    match = Match.new(game, config, seed)
    players = [make_agent(game, n, seed=i, seconds=0.0) for i, n in enumerate(names)]
    state = match.initial_state()
    while game.to_act(state) and len(match.log) < 20000:
        seat = game.to_act(state)[0]
        action = choose_for_seat(game, state, seat, players[seat], mix_seed(seed, len(match.log)))
        state = match.play(state, seat, action)
    return match


def main(games: list[str]) -> None:
    for gid in games:
        match = finished_match(gid)
        game = get_game(gid)
        agent_specs(game)  # imports the players (and their compiled kernels) before the clock starts
        game.analysis_hooks()
        start = time.process_time()
        result = analyse_match(match, BUDGET)
        spent = time.process_time() - start
        sys.stdout.flush()
        views = result.get("seats") or [result["shared"]]
        flagged = sum(len(v["flagged"]) for v in views)
        print(f"{gid:10} {len(match.log):5d} moves, {len(views)} view(s), {flagged:3d} flagged: {spent:7.1f} s CPU", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["arena", "worlds", "tremble", "fullmetal"])
