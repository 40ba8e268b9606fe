"""Full Metal Planète: the searching commander (``planner``) against today's commander.

2 players: N seeded games in pairs (each seed played twice, the seats swapped), so both sides get the
same map, ore and tides from either seat. 3 and 4 players: one planner against commanders, the
planner's seat rotated over the seats of each seed. Prints the planner's wins (a shared first place
counts as half), its share of first places against the fair share, average scores, and the CPU seconds
per player turn of each side (turns 3 to 25; CPU time of the worker, robust on a shared machine).
Every agent moves through ``choose_for_seat`` (a state determinised for its seat).

    .venv/bin/python bench/fullmetal_planner.py --games 100 --players 2 --jobs 2
    .venv/bin/python bench/fullmetal_planner.py --games 24 --players 4 --jobs 2

Issue 13 target: the planner wins at least 65% of 100 two-player games at no more than 5 s per turn.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from spacetable.ai.agents import choose_for_seat
from spacetable.ai.runner import run_tasks
from spacetable.core.rng import mix_seed
from spacetable.games.fullmetal.ai import AGENTS
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.planner import PlannerAgent


def play(task: tuple[int, int, int, str, str, dict[str, int]]) -> dict[str, Any]:
    """One game: ``hero`` at seat ``seat``, ``villain`` everywhere else."""
    seed, players, seat, hero, villain, budget = task
    cfg = GAME.normalize_config({"players": players})
    state = GAME.initial_state(cfg, seed)
    names = [hero if i == seat else villain for i in range(players)]
    agents = []
    for i, n in enumerate(names):
        if n == "planner":
            agents.append(PlannerAgent(mix_seed(seed, i), **budget))
        else:
            agents.append(AGENTS[n](mix_seed(seed, i), 1.0))
    cpu = [0.0] * players
    worst = [0.0] * players
    turns = [0] * players
    step = 0
    turn_cpu = [0.0] * players
    while GAME.to_act(state):
        p = GAME.to_act(state)[0]
        c0 = time.process_time()
        action = choose_for_seat(GAME, state, p, agents[p], mix_seed(seed, "view", step))
        dt = time.process_time() - c0
        cpu[p] += dt
        new = GAME.apply(state, p, action)
        if state.phase == "play":
            turn_cpu[p] += dt
            if new.phase != "play" or new.turn != state.turn or GAME.to_act(new) != (p,):  # the turn passed on
                turns[p] += 1
                worst[p] = max(worst[p], turn_cpu[p])
                turn_cpu[p] = 0.0
        state = new
        step += 1
    out = GAME.outcome(state)
    assert out is not None
    return {"seed": seed, "seat": seat, "names": names, "scores": list(out.scores), "winners": list(out.winners),
            "cpu": cpu, "turns": turns, "worst": worst}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--hero", default="planner")
    ap.add_argument("--villain", default="commander")
    ap.add_argument("--plans", type=int, default=24, help="candidate plans per turn")
    ap.add_argument("--finalists", type=int, default=8, help="plans judged after sampled futures")
    ap.add_argument("--samples", type=int, default=1, help="sampled futures per finalist")
    ap.add_argument("--horizon", type=int, default=2, help="rounds played out after a plan")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    p = args.players
    budget = {"plans": args.plans, "finalists": args.finalists, "samples": args.samples, "horizon": args.horizon}
    tasks = [(args.seed + g // p, p, g % p, args.hero, args.villain, budget) for g in range(args.games)]
    t0 = time.perf_counter()
    done = 0

    def show(r: dict[str, Any]) -> None:
        nonlocal done
        done += 1
        me = r["seat"]
        mark = "win" if r["winners"] == [me] else "shared" if me in r["winners"] else "loss"
        print(f"{done:3d}/{len(tasks)} seed {r['seed']} seat {me}: scores {r['scores']} -> {mark}", flush=True)

    results = run_tasks(play, tasks, jobs=args.jobs, on_result=show)
    wins = sum(1.0 / len(r["winners"]) for r in results if r["seat"] in r["winners"])
    n = len(results)
    hero_cpu = sum(r["cpu"][r["seat"]] for r in results)
    hero_turns = sum(r["turns"][r["seat"]] for r in results)
    vil_cpu = sum(sum(c for i, c in enumerate(r["cpu"]) if i != r["seat"]) for r in results)
    vil_turns = sum(sum(t for i, t in enumerate(r["turns"]) if i != r["seat"]) for r in results)
    worst = max(r["worst"][r["seat"]] for r in results)
    hero_score = sum(r["scores"][r["seat"]] for r in results) / n
    vil_score = sum(sum(s for i, s in enumerate(r["scores"]) if i != r["seat"]) / (p - 1) for r in results) / n
    print(f"\n{args.hero} ({budget}) against {p - 1} x {args.villain}, {n} games, {p} players")
    print(f"{args.hero} first: {wins:.1f}/{n} = {100 * wins / n:.1f}% (fair share {100 / p:.0f}%)")
    print(f"average score: {args.hero} {hero_score:.1f}, {args.villain} {vil_score:.1f}")
    print(f"CPU seconds per turn: {args.hero} {hero_cpu / max(1, hero_turns):.3f} (slowest turn {worst:.2f}), "
          f"{args.villain} {vil_cpu / max(1, vil_turns):.3f}")
    print(f"wall time {time.perf_counter() - t0:.0f} s with {args.jobs} jobs")


if __name__ == "__main__":
    main()
