"""Battleship Galaxies AI benchmark: the tactician against the random and greedy baselines.

Plays N seeded 2-seat games per opponent (seeds 1..N, the seats alternating from game to game)
and prints each game, the win rates and the seconds the tactician thinks per turn (one turn =
everything a side decides from its energy phase to its end_turn; wall clock, and the CPU time of
the playing process, which other work on a shared machine does not inflate). Targets (issue 12): it beats
random in at least 95 % and greedy in at least 75 % of 50 games each, at most 2 s per turn at the
default level.

    .venv/bin/python bench/galaxies_ai.py [--games 50] [--agent tactician] [--vs random,greedy] [--players 2] [--jobs 2]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from spacetable.games.galaxies import GAME

Result = tuple[list[str], object, dict[str, float], dict[str, int], int, dict[str, float]]


def play_job(job: tuple[list[str], int, int]) -> Result:
    return play(*job)


def play(names: list[str], seed: int, players: int) -> Result:
    makers = {a.name: a.make for a in GAME.agents()}
    cfg = GAME.normalize_config({"players": players})
    agents = [makers[names[i % len(names)]](seed=seed * 7 + i) for i in range(players)]
    state = GAME.initial_state(cfg, seed)
    think: dict[str, float] = {}
    cpu: dict[str, float] = {}
    turns: dict[str, int] = {}
    steps = 0
    while GAME.to_act(state):
        p = GAME.to_act(state)[0]
        name = names[p % len(names)]
        t = time.perf_counter()
        c = time.process_time()
        action = agents[p].choose(GAME, state, p)
        think[name] = think.get(name, 0.0) + time.perf_counter() - t
        cpu[name] = cpu.get(name, 0.0) + time.process_time() - c
        if action["type"] == "end_turn":
            turns[name] = turns.get(name, 0) + 1
        state = GAME.apply(state, p, action)
        steps += 1
    return names, GAME.outcome(state), think, turns, state.round, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agent", default="tactician")
    ap.add_argument("--vs", default="random,greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    args = ap.parse_args()
    for other in args.vs.split(","):
        wins = draws = 0
        think = {args.agent: 0.0, other: 0.0}
        cpu = {args.agent: 0.0, other: 0.0}
        turns = {args.agent: 0, other: 0}
        rounds = 0
        t0 = time.perf_counter()
        jobs = [([args.agent, other] if g % 2 == 0 else [other, args.agent], args.seed + g, args.players)
                for g in range(args.games)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as ex:
                results = list(ex.map(play_job, jobs))
        else:
            results = [play_job(j) for j in jobs]
        for g, (names, out, th, tu, rnd, cp) in enumerate(results):
            seed = args.seed + g
            rounds += rnd
            for k in th:
                think[k] += th[k]
                cpu[k] += cp[k]
                turns[k] += tu.get(k, 0)
            winners = {names[w % 2] for w in out.winners}  # type: ignore[attr-defined]
            if winners == {args.agent}:
                wins += 1
            elif not winners:
                draws += 1
            print(f"game {g + 1:2d} seed {seed}: {' vs '.join(names)} -> {'/'.join(sorted(winners)) or 'draw'} "
                  f"({out.kind}, round {rnd})", flush=True)  # type: ignore[attr-defined]
        n = args.games
        print(f"\n{args.agent} vs {other}: won {wins}/{n} ({100 * wins / n:.0f} %), drawn {draws}, lost {n - wins - draws}; "
              f"average length {rounds / n:.1f} rounds; {time.perf_counter() - t0:.0f} s in all")
        for name in (args.agent, other):
            print(f"  {name:16s} seconds per turn {think[name] / max(1, turns[name]):.3f} "
                  f"(CPU {cpu[name] / max(1, turns[name]):.3f})")
        print()


if __name__ == "__main__":
    main()
