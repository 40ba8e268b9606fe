"""Endgame solver figures for Cosmic Arena (AR-11): table sizes, solve times, won/lost/undecided counts and
the longest forced win, for the reference solver and the compiled one. Figures are printed, never asserted.

    .venv/bin/python bench/arena_solver.py [--big]

``--big`` adds the (2, 2) tables (one extra ship of any kind for each side: about 25 million positions on
6x4 and 30 million on 5x5; roughly a minute of CPU and 1.5–2 GB of memory each).
"""

from __future__ import annotations

import argparse
import time

from spacetable.games.arena.solver import LOSS, WIN, solve, solve_compiled, two_corvette_claim


def main() -> None:
    ap = argparse.ArgumentParser(description="Cosmic Arena endgame tables (AR-11)")
    ap.add_argument("--big", action="store_true", help="also solve the (2, 2) tables")
    args = ap.parse_args()
    for board in ("6x4", "5x5"):
        t = time.perf_counter()
        ref = solve(board, 1, 1)
        claim = "holds" if not two_corvette_claim(ref) else "FAILS"
        print(f"{board} (1,1) reference: {len(ref):,} positions in {time.perf_counter() - t:.2f}s; "
              f"AR-11 parity claim {claim}; longest win {int(ref.dist[ref.status == WIN].max())}, "
              f"longest loss {int(ref.dist[ref.status == LOSS].max())} plies", flush=True)
        shapes = [(2, 1), (1, 2)] + ([(2, 2)] if args.big else [])
        solve_compiled(board, 1, 1)  # compile / load the numba cache outside the timings
        for red_max, blue_max in shapes:
            t = time.perf_counter()
            tb = solve_compiled(board, red_max, blue_max)
            dt = time.perf_counter() - t
            c = tb.counts()
            print(f"{board} ({red_max},{blue_max}) compiled: {len(tb):,} positions in {dt:.1f}s; side to move wins "
                  f"{c['win']:,}, loses {c['loss']:,}, undecided {c['undecided']:,}; longest forced result "
                  f"{int(tb.dist.max())} plies", flush=True)


if __name__ == "__main__":
    main()
