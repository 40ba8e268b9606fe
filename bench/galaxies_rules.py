"""Battleship Galaxies rules throughput.

Prints: the median time (and the CPU time) to list the legal actions of mid-game positions (target: under 2 ms) — between
activations and with an activation open in its movement step — the time of ``apply`` and of a
state copy, random games per second, and the length of a full AI-vs-AI game at the default level
(target: under 60 s).

    .venv/bin/python bench/galaxies_rules.py [--repeat 200] [--ai-games 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from spacetable.core.rng import Rng
from spacetable.games.galaxies import GAME

WEIGHTS = {"attack": 40, "launch": 25, "launch_from_hold": 30, "activate": 20, "charge": 8, "move": 4}


def weighted(rng: Rng, legal: list[dict[str, Any]]) -> dict[str, Any]:
    ws = [WEIGHTS.get(a["type"], 1.0) for a in legal]
    x = rng.random() * sum(ws)
    for k, w in enumerate(ws):
        x -= w
        if x <= 0:
            return legal[k]
    return legal[-1]


def mid_game(seed: int) -> tuple[Any, Any]:
    """A round-5+ position between activations, and the same side with an activation open."""
    makers = {a.name: a.make for a in GAME.agents()}
    agents = [makers["policy"](seed=seed), makers["policy"](seed=seed + 1)]
    s = GAME.initial_state(GAME.normalize_config({}), seed)
    between = opened = None
    while GAME.to_act(s) and opened is None:
        p = GAME.to_act(s)[0]
        if s.round >= 5 and s.phase == "action" and s.activation is None and s.window is None and len(s.on_board()) >= 6:
            acts = [a for a in GAME.legal_actions(s, p) if a["type"] == "activate"]
            if acts and between is None:
                between = s
            if acts:
                t = GAME.apply(s, p, acts[0])
                while t.window is not None:
                    t = GAME.apply(t, t.window.seat, {"type": "pass"})
                if t.activation is not None and t.activation.step == "start" and len(t.on_board()) >= 6:
                    opened = t
                    break
        s = GAME.apply(s, p, agents[p].choose(GAME, s, p))
    return between, opened


def per_call(fn: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of one call over ``repeat`` calls, each timed alone (the median shrugs off
    the pauses other work on a shared machine causes; the CPU time column does too)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def cpu_per_call(fn: Callable[[], object], repeat: int) -> float:
    """Mean CPU milliseconds of this process per call (not counting time other processes hold the CPU)."""
    t0 = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - t0) / repeat * 1000


def measure(seed: int, between: Any, opened: Any, repeat: int) -> None:
    p = GAME.to_act(between)[0]
    q = GAME.to_act(opened)[0]
    n_b = len(GAME.legal_actions(between, p))
    n_o = len(GAME.legal_actions(opened, q))
    ships = len(opened.cards[opened.activation.card].pieces)
    print(f"seed {seed}: round {between.round}, {len(between.on_board())} ships on the board")
    t_b = per_call(lambda: GAME.legal_actions(between, p), repeat)
    c_b = cpu_per_call(lambda: GAME.legal_actions(between, p), repeat)
    print(f"  legal actions between activations: {t_b:.3f} ms median, {c_b:.3f} ms CPU ({n_b} actions)")
    t_o = per_call(lambda: GAME.legal_actions(opened, q), repeat)
    c_o = cpu_per_call(lambda: GAME.legal_actions(opened, q), repeat)
    print(f"  legal actions, activation open (moves of {ships} ship(s)): {t_o:.3f} ms median, {c_o:.3f} ms CPU "
          f"({n_o} actions; target under 2 ms)")
    first = GAME.legal_actions(opened, q)[0]
    print(f"  apply ({first['type']}): {per_call(lambda: GAME.apply(opened, q, first), repeat):.3f} ms; "
          f"state copy {per_call(lambda: opened.copy(), repeat):.3f} ms; "
          f"view {per_call(lambda: GAME.view(opened, q), max(1, repeat // 10)):.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--ai-games", type=int, default=2)
    ap.add_argument("--random-games", type=int, default=5)
    args = ap.parse_args()
    for seed in (1, 2, 3):
        between, opened = mid_game(seed)
        if between is not None and opened is not None:
            measure(seed, between, opened, args.repeat)
    t0 = time.perf_counter()
    actions = 0
    for g in range(args.random_games):
        s = GAME.initial_state(GAME.normalize_config({}), 100 + g)
        rng = Rng.from_seed(g)
        while GAME.to_act(s):
            p = GAME.to_act(s)[0]
            s = GAME.apply(s, p, weighted(rng, GAME.legal_actions(s, p)))
            actions += 1
    dt = time.perf_counter() - t0
    print(f"random games: {args.random_games / dt:.2f} games/s, {actions / dt:.0f} actions/s")
    makers = {a.name: a.make for a in GAME.agents()}
    for g in range(args.ai_games):
        agents = [makers["tactician"](seed=10 + g), makers["tactician"](seed=20 + g)]
        s = GAME.initial_state(GAME.normalize_config({}), 200 + g)
        t0 = time.perf_counter()
        c0 = time.process_time()
        steps = 0
        while GAME.to_act(s):
            p = GAME.to_act(s)[0]
            s = GAME.apply(s, p, agents[p].choose(GAME, s, p))
            steps += 1
        out = GAME.outcome(s)
        print(f"AI-vs-AI game {g + 1} (tactician vs tactician): {time.perf_counter() - t0:.1f} s "
              f"({time.process_time() - c0:.1f} s CPU; target under 60 s), {steps} actions, "
              f"{s.round} rounds, {out.kind if out else '?'}")


if __name__ == "__main__":
    main()
