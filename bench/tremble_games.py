"""Complete Tremble, Humans! games per second on one core (house card set).

Prints games per CPU second of the process (the one-core figure, robust on a shared machine)
and per wall second, for 2 and 5 players (and 4, the target case) with random and heuristic
captains, in three modes:

* ``pure`` — the protocol's ``apply`` (turn check, the strict schema check of every action,
  one fast clone per action);
* ``in-place`` — ``apply_in_place`` (no clone, no schema check; every rule still checked);
* ``checked`` — ``apply_in_place(..., checked=True)``, random captains only: their actions come from
  the engine's own legal lists and samplers, so the sealed buy and plan commits are not validated a
  second time and are stored without a copy (``fast.TRUSTED``; every other action is still checked
  while it is applied).

Every game is a complete 10-turn game from ``initial_state`` to ``over``. The ``random`` captain
(:class:`~spacetable.games.tremble.ai.RandomCaptain`) picks a uniformly random member of
``legal_actions`` at every decision except the sealed buy and plan commits, which it draws directly
with a documented sampler (``sampling.py``: legal by construction, not uniform over the thousands of
legal commits).
Run: ``.venv/bin/python bench/tremble_games.py [--seconds S] [--players 2,4,5]``. Figures only, never asserted.
"""

from __future__ import annotations

import argparse
import time

from spacetable.games.tremble import GAME
from spacetable.games.tremble.ai import HeuristicAgent, RandomCaptain


def games_per_second(players: int, captain: str, seconds: float, mode: str) -> tuple[float, float, int]:
    """(games per CPU second of this process, games per wall second, games)."""
    done = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    seed = 0
    to_act, apply, apply_in_place = GAME.to_act, GAME.apply, GAME.apply_in_place
    checked = mode == "checked"
    in_place = mode != "pure"
    while time.process_time() - c0 < seconds:
        agents = [RandomCaptain(seed * 10 + i) if captain == "random" else HeuristicAgent(seed * 10 + i) for i in range(players)]
        s = GAME.initial_state({"players": players, "log_events": False}, seed)
        while True:
            seats = to_act(s)
            if not seats:
                break
            seat = seats[0]
            action = agents[seat].choose(GAME, s, seat)
            if in_place:
                apply_in_place(s, seat, action, checked)
            else:
                s = apply(s, seat, action)
        done += 1
        seed += 1
    return done / (time.process_time() - c0), done / (time.perf_counter() - t0), done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--players", default="2,4,5", help="comma-separated player counts")
    ap.add_argument("--captains", default="random,heuristic")
    ap.add_argument("--modes", default="pure,in-place,checked")
    args = ap.parse_args()
    print(f"{'players':>7} {'captain':>10} {'mode':>9} {'games/cpu-s':>12} {'games/wall-s':>13} {'games':>6}")
    for players in (int(x) for x in args.players.split(",")):
        for captain in args.captains.split(","):
            for mode in args.modes.split(","):
                if mode == "checked" and captain != "random":
                    continue  # only the engine's own sampler is legal by construction
                cpu, wall, n = games_per_second(players, captain, args.seconds, mode)
                print(f"{players:>7} {captain:>10} {mode:>9} {cpu:>12.1f} {wall:>13.1f} {n:>6}", flush=True)


if __name__ == "__main__":
    main()
