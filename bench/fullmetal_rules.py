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


def bench_position(label: str, state) -> None:
    p = state.active_player()
    on_board = sum(1 for u in state.units.values() if u.cells and u.carrier < 0)
    n = 200
    t = time.perf_counter()
    for _ in range(n):
        legal = GAME.legal_actions(state, p)
    per_legal = (time.perf_counter() - t) / n
    t = time.perf_counter()
    applied = 0
    for a in legal:
        GAME.apply(state, p, a)
        applied += 1
    per_apply = (time.perf_counter() - t) / max(1, applied)
    t = time.perf_counter()
    for _ in range(n):
        sync_cover(state)
    per_sync = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for _ in range(20):
        full_cover(state)
    per_full = (time.perf_counter() - t) / 20
    print(f"{label}: turn {state.turn}, {on_board} pieces on the board, {len(legal)} legal actions")
    print(f"  legal_actions        {per_legal * 1000:8.3f} ms")
    print(f"  apply (+undo)        {per_apply * 1000:8.3f} ms  ({1 / per_apply:,.0f} actions/s)")
    print(f"  fire cover: incremental check {per_sync * 1000:.3f} ms vs full recomputation {per_full * 1000:.3f} ms")


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
