"""Full Metal Planète AI benchmark: the commander against the greedy baseline.

Plays N seeded 2-player games (seats alternate) and prints the commander's win
rate, the average scores and the seconds per player turn. Target (issue 5): the
commander wins at least 80 % of 50 games.

    .venv/bin/python bench/fullmetal_ai.py [--games 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from spacetable.games.fullmetal.ai import AGENTS
from spacetable.games.fullmetal.game import GAME


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--a", default="commander")
    ap.add_argument("--b", default="greedy")
    args = ap.parse_args()
    wins = draws = 0
    scores = {args.a: 0.0, args.b: 0.0}
    think = {args.a: 0.0, args.b: 0.0}
    turns = {args.a: 0, args.b: 0}
    t0 = time.perf_counter()
    cfg = GAME.normalize_config({"players": 2})
    for g in range(args.games):
        seed = args.seed + g
        names = [args.a, args.b] if g % 2 == 0 else [args.b, args.a]
        agents = [AGENTS[n](seed * 7 + i, 1.0) for i, n in enumerate(names)]
        state = GAME.initial_state(cfg, seed)
        while GAME.to_act(state):
            p = GAME.to_act(state)[0]
            t = time.perf_counter()
            action = agents[p].choose(GAME, state, p)
            think[names[p]] += time.perf_counter() - t
            if action["type"] == "end_turn":
                turns[names[p]] += 1
            state = GAME.apply(state, p, action)
        out = GAME.outcome(state)
        assert out is not None
        me = names.index(args.a)
        for i, n in enumerate(names):
            scores[n] += out.scores[i]
        if out.winners == (me,):
            wins += 1
        elif me in out.winners:
            draws += 1
        print(f"game {g + 1:2d} seed {seed}: {names[0]} {out.scores[0]:.0f} - {out.scores[1]:.0f} {names[1]}"
              f"  winner {','.join(names[w] for w in out.winners)}", flush=True)
    n = args.games
    print(f"\nresult: {args.a} won {wins}/{n} ({100 * wins / n:.0f} %), shared {draws}, lost {n - wins - draws}")
    for name in (args.a, args.b):
        per_turn = think[name] / max(1, turns[name])
        print(f"{name:10s} average score {scores[name] / n:5.1f}   seconds per turn {per_turn:.3f}")
    print(f"total time {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
