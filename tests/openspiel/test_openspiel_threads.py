"""Chance nodes are per thread: OpenSpiel states of different games stepped from two threads at once
give exactly the games they give alone (the chance script is the core's context-variable seam, not a
process-wide patch of ``Rng``)."""

from __future__ import annotations

import hashlib
import json
import sys
import threading

import numpy as np
import pyspiel

import spacetable.openspiel  # noqa: F401 - registers the games

CASES = [
    ("spacetable_tremble_turns", {"config": json.dumps({"players": 2}), "max_actions": 150}),
    ("spacetable_worlds_turns", {"config": json.dumps({"scenario": "border-worlds"})}),
]


def trajectory(name: str, params: dict[str, object], seed: int) -> tuple[int, str, list[float]]:
    """Random play through the API: (number of nodes, digest of every chance node's outcome count and
    choice, returns)."""
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    digest = hashlib.blake2b(digest_size=12)
    nodes = 0
    while not state.is_terminal():
        nodes += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            k = int(rng.integers(len(outcomes)))
            digest.update(f"c{len(outcomes)}:{k};".encode())
            state.apply_action(outcomes[k][0])
        else:
            legal = state.legal_actions()
            a = int(legal[int(rng.integers(len(legal)))])
            digest.update(f"p{state.current_player()}:{a};".encode())
            state.apply_action(a)
    return nodes, digest.hexdigest(), list(state.returns())


def test_two_threads_step_different_games_independently() -> None:
    alone = {(name, seed): trajectory(name, params, seed) for name, params in CASES for seed in (0, 1)}
    assert all(nodes > 50 for nodes, _, _ in alone.values())
    together: dict[tuple[str, int], tuple[int, str, list[float]]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(len(CASES))

    def worker(name: str, params: dict[str, object]) -> None:
        try:
            start.wait(30)
            for rounds in range(3):
                for seed in (0, 1):
                    result = trajectory(name, params, seed)
                    if rounds == 0:
                        together[name, seed] = result
                    assert result == together[name, seed]
        except BaseException as exc:  # reported below, with the thread's game
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, so that engine calls of both games interleave
    try:
        threads = [threading.Thread(target=worker, args=case) for case in CASES]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors
    assert together == alone
