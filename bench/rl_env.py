"""Environment steps per second on one core: the compiled arena batch API, the PettingZoo AEC
environment of each game, and OpenSpiel's C++ ``breakthrough`` stepped from Python, in one run.
Figures are printed, never asserted. Rates are given per second of this process's CPU time
(the machine may be shared) and per wall-clock second.

    .venv/bin/python bench/rl_env.py [--seconds 3] [--batch 1024]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from collections.abc import Callable

import numpy as np
import pyspiel

import spacetable.openspiel  # noqa: F401 - registers the spacetable_* OpenSpiel games
from spacetable import rl
from spacetable.rl import arena_vector


def measure(step: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Call ``step`` (returns the env steps it made) for ``seconds`` of CPU time: (per CPU s, per wall s)."""
    c0, w0 = time.process_time(), time.perf_counter()
    n = 0
    while time.process_time() - c0 < seconds:
        n += step()
    return n / (time.process_time() - c0), n / (time.perf_counter() - w0)


def batch_api(n: int, seconds: float) -> tuple[float, float]:
    vec = arena_vector(n, seed=1)
    vec.reset()
    vec.step(vec.sample_actions())  # compile / load the cache

    def step() -> int:
        vec.step(vec.sample_actions())
        return n

    return measure(step, seconds)


def aec(game: str, seconds: float, **config: object) -> tuple[float, float]:
    env = rl.env(game, **config)
    rng = np.random.default_rng(0)
    env.reset(seed=0)

    def step() -> int:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset(seed=int(rng.integers(1 << 30)))
            return 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return 1

    return measure(step, seconds)


def openspiel_steps(name: str, seconds: float, params: dict[str, object] | None = None) -> tuple[float, float]:
    game = pyspiel.load_game(name, params or {})
    rng = np.random.default_rng(1)
    box = [game.new_initial_state()]

    def step() -> int:
        state = box[0]
        if state.is_terminal():
            box[0] = game.new_initial_state()
            return 0
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))])
            return 0
        acts = state.legal_actions()
        state.apply_action(acts[int(rng.integers(len(acts)))])
        return 1

    return measure(step, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    ap.add_argument("--batch", type=int, default=1024, help="games in the batch API")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rows: list[tuple[str, float, float]] = []
    rows.append((f"arena batch API (compiled, {args.batch} games, random legal tokens)", *batch_api(args.batch, args.seconds)))
    rows.append(("OpenSpiel breakthrough (C++) stepped from Python", *openspiel_steps("breakthrough", args.seconds)))
    rows.append(("OpenSpiel spacetable_arena (Python game) stepped from Python",
                 *openspiel_steps("spacetable_arena", args.seconds)))
    rows.append(("OpenSpiel spacetable_galaxies_turns (Python game) stepped from Python",
                 *openspiel_steps("spacetable_galaxies_turns", args.seconds)))
    for game, cfg in (("arena", {}), ("worlds", {"scenario": "border-worlds"}), ("tremble", {"players": 4}),
                      ("fullmetal", {}), ("galaxies", {})):
        rows.append((f"PettingZoo AEC {game} (token steps with observations)", *aec(game, args.seconds, **cfg)))
    width = max(len(r[0]) for r in rows)
    print(f"{'environment':<{width}}  {'steps/CPU-s':>14}  {'steps/wall-s':>14}")
    for name, cpu, wall in rows:
        print(f"{name:<{width}}  {cpu:>14,.0f}  {wall:>14,.0f}")
    bt = rows[1][1]
    print(f"batch API / breakthrough: {rows[0][1] / bt:.1f}x (target: batch API >= 1,000,000 steps/CPU-s)")


if __name__ == "__main__":
    main()
