"""Random playouts of complete Cosmic Arena games on one core (plies per second), compared in the
same run with OpenSpiel's C++ ``breakthrough`` driven from Python; also checks AR-A26 on 10,000
seeded playouts per face. Figures are printed, never asserted.

    .venv/bin/python bench/arena_playouts.py [--games 10000] [--seconds 3]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from spacetable.core.rng import Rng
from spacetable.games.arena import GAME, fast


def arena_fast(board: str, games: int) -> tuple[float, dict[str, int], int, int]:
    """Compiled playouts; returns (plies/s, endings by kind, longest game, bad no_action endings)."""
    state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 0)
    st0 = fast.to_array(state)
    geo, nb = fast.tables(board)
    fast.many_playouts(st0, np.uint64(1), 10, geo, nb, np.zeros(5, dtype=np.int64))  # compile / load cache
    stats = np.zeros(5, dtype=np.int64)
    t = time.perf_counter()
    plies = fast.many_playouts(st0, np.uint64(2024), games, geo, nb, stats)
    rate = plies / (time.perf_counter() - t)
    # AR-A26 check game by game
    rs = np.array([99], dtype=np.uint64)
    empty = np.zeros(0, dtype=np.int64)
    longest, bad = 0, 0
    n = state.face.size
    for _ in range(games):
        st = st0.copy()
        longest = max(longest, fast.random_playout(st, rs, geo, nb, empty))
        if st[20] == 2:
            loser = 1 - st[19]
            own = st[loser * 8: loser * 8 + 8]
            enemy = {int(st[(1 - loser) * 8 + s]): s for s in range(8)}
            ok = all(own[s] == n for s in range(1, 8)) and all(
                c in enemy and enemy[c] & 1 for c in state.face.neighbours(int(own[0])))
            bad += not ok
    kinds = {name: int(stats[i]) for i, name in enumerate(fast.KIND_NAMES) if name}
    return rate, kinds, longest, bad


def arena_reference(board: str, seconds: float) -> float:
    """The readable reference engine, for context."""
    rng = Rng(7)
    plies = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 0)
        while GAME.outcome(state) is None:
            seat = state.seat_of(state.to_move)
            acts = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, acts[rng.randbelow(len(acts))])
            plies += 1
    return plies / (time.perf_counter() - t)


def arena_python_driven(board: str, seconds: float) -> float:
    """Like-for-like with the OpenSpiel figure: one Python call per ply into the compiled kernels
    (generate the actions, pick one in Python, apply it)."""
    state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 0)
    st0 = fast.to_array(state)
    geo, nb = fast.tables(board)
    buf = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    rng = np.random.default_rng(1)
    plies = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        st = st0.copy()
        while st[19] < 0:
            cnt = fast.gen(st, geo, nb, buf)
            fast.play(st, int(buf[int(rng.integers(cnt))]), geo, nb)
            plies += 1
    return plies / (time.perf_counter() - t)


def breakthrough(seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game("breakthrough")
    rng = np.random.default_rng(1)
    plies = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
            plies += 1
    return plies / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000, help="compiled playouts per face (AR-A26 uses 10,000)")
    ap.add_argument("--seconds", type=float, default=3.0, help="time for each Python-driven measurement")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    results = {}
    for board in ("6x4", "5x5"):
        rate, kinds, longest, bad = arena_fast(board, args.games)
        results[board] = rate
        print(f"arena {board} compiled playouts: {rate:,.0f} plies/s over {args.games} games; endings {kinds}; "
              f"longest {longest} plies (AR-A26 bound 600); bad no_action endings {bad}")
    ref = arena_reference("6x4", min(args.seconds, 2.0))
    print(f"arena 6x4 reference engine (Python): {ref:,.0f} plies/s")
    driven = arena_python_driven("6x4", args.seconds)
    print(f"arena 6x4 compiled kernels driven from Python, one call per ply: {driven:,.0f} plies/s")
    bt = breakthrough(args.seconds)
    print(f"OpenSpiel breakthrough (C++, random playouts driven from Python): {bt:,.0f} plies/s")
    print(f"ratio arena 6x4 Python-driven / breakthrough (like for like): {driven / bt:.2f}")
    for board, rate in results.items():
        print(f"ratio arena {board} / breakthrough: {rate / bt:.2f} (target >= 1.0)")


if __name__ == "__main__":
    main()
