"""Complete Tremble, Humans! games per second on one core (house card set).

Prints games per CPU second of the process (the one-core figure, robust on a shared machine)
and per wall second, for 2 and 5 players (and 4, the target case) with random and heuristic
captains, in two modes: ``pure`` (the protocol's ``apply``, one fast clone per action)
and ``in-place`` (``apply_in_place``, what simulations owning their state may use).
Run: ``.venv/bin/python bench/tremble_games.py [--seconds S]``. Figures only, never asserted.
"""

from __future__ import annotations

import argparse
import time

from spacetable.games.tremble import GAME
from spacetable.games.tremble.ai import HeuristicAgent, RandomCaptain


def games_per_second(players: int, captain: str, seconds: float, in_place: bool) -> tuple[float, float, int]:
    """(games per CPU second of this process, games per wall second, games)."""
    done = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    seed = 0
    while time.process_time() - c0 < seconds:
        agents = [RandomCaptain(seed * 10 + i) if captain == "random" else HeuristicAgent(seed * 10 + i) for i in range(players)]
        s = GAME.initial_state({"players": players, "log_events": False}, seed)
        while True:
            seats = GAME.to_act(s)
            if not seats:
                break
            seat = seats[0]
            action = agents[seat].choose(GAME, s, seat)
            if in_place:
                GAME.apply_in_place(s, seat, action)
            else:
                s = GAME.apply(s, seat, action)
        done += 1
        seed += 1
    return done / (time.process_time() - c0), done / (time.perf_counter() - t0), done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    print(f"{'players':>7} {'captain':>10} {'mode':>9} {'games/cpu-s':>12} {'games/wall-s':>13} {'games':>6}")
    for players in (2, 4, 5):
        for captain in ("random", "heuristic"):
            for in_place in (False, True):
                cpu, wall, n = games_per_second(players, captain, args.seconds, in_place)
                mode = "in-place" if in_place else "pure"
                print(f"{players:>7} {captain:>10} {mode:>9} {cpu:>12.1f} {wall:>13.1f} {n:>6}", flush=True)


if __name__ == "__main__":
    main()
