"""Environment steps per second on one core: the compiled arena batch API with each way of drawing
the actions (its own sampler, uniform or from logits; ``rl.masked_sample`` on the returned mask; plain
numpy), the PettingZoo AEC environment of each game, and OpenSpiel's C++ ``breakthrough`` stepped
from Python, in one run.
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
from spacetable.rl import arena_vector, masked_sample


def measure(step: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Call ``step`` (returns the env steps it made) for ``seconds`` of CPU time: (per CPU s, per wall s)."""
    c0, w0 = time.process_time(), time.perf_counter()
    n = 0
    while time.process_time() - c0 < seconds:
        n += step()
    return n / (time.process_time() - c0), n / (time.perf_counter() - w0)


def batch_api(n: int, seconds: float, sampler: str = "uniform") -> tuple[float, float]:
    """The batch API stepped as docs/research.md shows, with the actions drawn by ``sampler``:
    ``uniform`` ``vec.sample_actions()``; ``logits`` ``vec.sample_actions(logits)`` (a fixed logits
    array stands for the policy's output: the policy's own cost is not counted); ``masked``
    ``rl.masked_sample(mask)`` on the returned mask; ``numpy`` inverse-CDF sampling from the mask in
    plain numpy (what a user wrote before the API had a sampler)."""
    vec = arena_vector(n, seed=1)
    _, mask = vec.reset()
    rng = np.random.default_rng(2)
    logits = rng.standard_normal((n, vec.n_actions)).astype(np.float32)

    def draw(mask: np.ndarray) -> np.ndarray:
        if sampler == "uniform":
            return vec.sample_actions()
        if sampler == "logits":
            return vec.sample_actions(logits)
        if sampler == "masked":
            return masked_sample(mask, rng=rng)
        cdf = mask.cumsum(axis=1, dtype=np.float32)
        return (cdf < rng.random((n, 1)) * cdf[:, -1:]).sum(axis=1)

    box = [vec.step(draw(mask))[1]]  # compile / load the cache

    def step() -> int:
        box[0] = vec.step(draw(box[0]))[1]
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
    for n in sorted({256, args.batch}):
        rows.append((f"arena batch API, {n} games, vec.sample_actions()", *batch_api(n, args.seconds)))
    for sampler, label in (("logits", "vec.sample_actions(logits)"), ("masked", "rl.masked_sample(mask)"),
                           ("numpy", "numpy sampling from the mask")):
        rows.append((f"arena batch API, {args.batch} games, {label}", *batch_api(args.batch, args.seconds, sampler)))
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
    bt = next(cpu for name, cpu, _ in rows if name.startswith("OpenSpiel breakthrough"))
    best = max(cpu for name, cpu, _ in rows if name.endswith("vec.sample_actions()"))
    print(f"batch API with vec.sample_actions() / breakthrough: {best / bt:.1f}x "
          "(target: batch API >= 1,000,000 steps/CPU-s on one core)")


if __name__ == "__main__":
    main()
