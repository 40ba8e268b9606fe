"""Tournament throughput on this machine: a process pool (``--jobs 2``) against Ray with 2 local workers,
in the same run, on the same games (issue 13: Ray's overhead at most 15%).

Plays the first ``--games`` games of one tournament twice per round, once through each back end
(:func:`spacetable.ai.runner.run_tasks`), alternating over ``--rounds`` rounds so that both see the same
load on a shared machine, and checks that both produced the same game records. Prints games per second
of each back end (Ray's start-up, a once-per-session cost, shown apart and left out of its rate; the
pool's start-up is inside its rate) and Ray's overhead = 1 - Ray's rate / the pool's rate, per round and
for the best round of each. Figures are printed, never asserted.

    .venv/bin/python bench/tournament_scale.py [--game tremble] [--players 4] [--agents heuristic,random]
                                               [--games 40] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import time

from spacetable.ai.runner import run_tasks, start_ray, stop_ray
from spacetable.ai.tournament import deterministic, make_tournament, play_task


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="tremble")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agents", default="heuristic,random")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    cfg = {"players": args.players} if args.players else {}
    tour = make_tournament(args.game, args.agents.split(","), config=cfg, seed=1)
    tasks = tour.tasks(args.games)
    print(f"{args.game}, {args.players} players, {args.agents}: {len(tasks)} games per run, {args.workers} workers, "
          f"machine with {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    t = time.perf_counter()
    start_ray("local", cpus=args.workers)
    ray_start = time.perf_counter() - t
    print(f"Ray start-up: {ray_start:.1f} s (once per session; not counted below)")
    best_pool = best_ray = 0.0
    reference = None
    try:
        for r in range(args.rounds):
            t = time.perf_counter()
            pool = run_tasks(play_task, tasks, jobs=args.workers)
            pool_rate = len(tasks) / (time.perf_counter() - t)
            t = time.perf_counter()
            on_ray = run_tasks(play_task, tasks, jobs=args.workers, ray="local")
            ray_rate = len(tasks) / (time.perf_counter() - t)
            same = sorted(map(deterministic, pool), key=lambda x: x["index"]) == \
                sorted(map(deterministic, on_ray), key=lambda x: x["index"])
            reference = reference if reference is not None else same
            best_pool, best_ray = max(best_pool, pool_rate), max(best_ray, ray_rate)
            print(f"round {r + 1}: --jobs {args.workers} {pool_rate:.2f} games/s, Ray {ray_rate:.2f} games/s, "
                  f"overhead {100 * (1 - ray_rate / pool_rate):+.1f}%, same records: {same}", flush=True)
    finally:
        stop_ray()
    print(f"best rounds: --jobs {args.workers} {best_pool:.2f} games/s, Ray {best_ray:.2f} games/s, "
          f"Ray overhead {100 * (1 - best_ray / best_pool):+.1f}%")


if __name__ == "__main__":
    main()
