"""Cosmic Arena's hard level in the endgame: does it keep the solved value (issue 13)?

Samples positions with two ships a side (each corvette and one other ship of any kind, on random cells,
either side to move, quiet counter 0), asks the hard level (``EndgameAgent``: alpha-beta plus the
retrograde tables of AR-11) for a move and checks with the (2, 2) table that the move keeps the
position's solved value: a win stays a win, an undecided position does not become a loss (a lost
position keeps its value whatever is played). For comparison the plain alpha-beta (same node budget,
no tables) is checked on the same positions. Builds the (2, 2) table into the cache folder first if
needed (about a minute of CPU and 1.5 GB of memory). Figures are printed, never asserted.

    .venv/bin/python bench/arena_endgame.py [--positions 1000] [--board 6x4] [--nodes 200000]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from spacetable.core.rng import Rng
from spacetable.games.arena import GAME, fast, tables
from spacetable.games.arena.ai import AlphaBetaAgent, EndgameAgent
from spacetable.games.arena.solver import LOSS, WIN


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--board", default="6x4", choices=["6x4", "5x5"])
    ap.add_argument("--nodes", type=int, default=200_000, help="alpha-beta node limit per iteration")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    t = time.perf_counter()
    path = tables.ensure(args.board, 2, 2)
    print(f"(2, 2) table: {path} ({path.stat().st_size / 1e6:.1f} MB, ready in {time.perf_counter() - t:.0f} s)")
    states = tables.sample_positions(GAME, args.board, args.positions, Rng.from_seed(args.seed), red=2, blue=2)
    tb = tables.load(args.board, 2, 2)
    assert tb is not None
    values = Counter(("undecided", "win", "loss")[tables.probe(tb, fast.to_array(s))[0]] for s in states)
    print(f"{len(states)} positions on {args.board}, side to move: " + ", ".join(f"{k} {v}" for k, v in sorted(values.items())))
    for label, agent in (("hard (tables)", EndgameAgent(1, seconds=1e9, node_limit=args.nodes)),
                         ("alpha-beta alone", AlphaBetaAgent(1, seconds=1e9, node_limit=args.nodes))):
        t = time.perf_counter()
        kept = lost = 0
        by_value: Counter[str] = Counter()
        for s in states:
            ok = tables.kept(GAME, s, agent.choose(GAME, s, s.seat_of(s.to_move)))
            kept += ok
            if not ok:
                status = tables.probe(tb, fast.to_array(s))[0]
                by_value["win" if status == WIN else "loss" if status == LOSS else "undecided"] += 1
                lost += 1
        dt = time.perf_counter() - t
        print(f"{label:17s} kept the solved value in {kept}/{len(states)} = {100 * kept / len(states):.1f}% "
              f"({', '.join(f'{v} {k}' for k, v in by_value.items()) or 'none lost'}); {dt / len(states):.3f} s/move")


if __name__ == "__main__":
    main()
