"""Full Metal Planète rules-engine benchmark.

Builds mid-game positions (2 and 4 players, commander AIs playing up to turn 10),
then measures legal-action enumeration, apply throughput (apply is pure, so
"undo" is dropping the new state) and the time of a full AI-vs-AI 2-player game.
Targets (issue 5): legal actions of a mid-game position < 1 ms; a full game < 60 s.

    .venv/bin/python bench/fullmetal_rules.py
"""

from __future__ import annotations

import time

from spacetable.games.fullmetal.ai import AGENTS
from spacetable.games.fullmetal.firezones import full_cover, sync_cover
from spacetable.games.fullmetal.game import GAME


def midgame(players: int, seed: int, turn: int = 10):
    cfg = GAME.normalize_config({"players": players})
    state = GAME.initial_state(cfg, seed)
    agents = [AGENTS["commander"](seed + i, 1.0) for i in range(players)]
    while GAME.to_act(state) and not (state.phase == "play" and state.turn >= turn and state.pool[state.active_player()] >= 10):
        p = GAME.to_act(state)[0]
        state = GAME.apply(state, p, agents[p].choose(GAME, state, p))
    return state


def best_ms(fn, batches: int = 15, per: int = 20) -> tuple[float, float]:
    """(best, mean) milliseconds per call over ``batches`` batches of ``per`` calls: the best batch is
    the robust figure on a shared machine, the mean shows the noise."""
    times = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(per):
            fn()
        times.append((time.perf_counter() - t) / per * 1000)
    return min(times), sum(times) / len(times)


def bench_position(label: str, state) -> None:
    p = state.active_player()
    on_board = sum(1 for u in state.units.values() if u.cells and u.carrier < 0)
    legal = GAME.legal_actions(state, p)
    legal_best, legal_mean = best_ms(lambda: GAME.legal_actions(state, p))

    def apply_all() -> None:
        for a in legal:
            GAME.apply(state, p, a)

    apply_best, apply_mean = best_ms(apply_all, batches=5, per=1)
    apply_best /= max(1, len(legal))
    apply_mean /= max(1, len(legal))
    sync_best, _ = best_ms(lambda: sync_cover(state))
    full_best, _ = best_ms(lambda: full_cover(state))
    print(f"{label}: turn {state.turn}, {on_board} pieces on the board, {len(legal)} legal actions (best batch / mean)")
    print(f"  legal_actions        {legal_best:8.3f} ms / {legal_mean:.3f} ms   (target < 1 ms)")
    print(f"  apply (+undo)        {apply_best:8.3f} ms / {apply_mean:.3f} ms  ({1000 / apply_best:,.0f} actions/s)")
    print(f"  fire cover: incremental up-to-date check {sync_best:.3f} ms; full recomputation {full_best:.3f} ms")


def main() -> None:
    bench_position("2 players", midgame(2, 11))
    bench_position("4 players", midgame(4, 12))
    cfg = GAME.normalize_config({"players": 2})
    for seed in (1, 2, 3):
        state = GAME.initial_state(cfg, seed)
        agents = [AGENTS["commander"](seed, 1.0), AGENTS["commander"](seed + 1, 1.0)]
        t = time.perf_counter()
        n = 0
        while GAME.to_act(state):
            p = GAME.to_act(state)[0]
            state = GAME.apply(state, p, agents[p].choose(GAME, state, p))
            n += 1
        out = GAME.outcome(state)
        scores = out.scores if out else None
        print(f"full commander-vs-commander game (seed {seed}): {time.perf_counter() - t:.1f} s, {n} actions, scores {scores}")


if __name__ == "__main__":
    main()
