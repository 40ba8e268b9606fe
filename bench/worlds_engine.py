"""Throughput of the Worlds & Suns engine: random legal play on shipped scenarios through the public protocol
(``legal_actions`` and the pure ``apply``, which copies the state once per action). Prints actions per second of
process CPU time; nothing is asserted.

    .venv/bin/python bench/worlds_engine.py [--games N]
"""

from __future__ import annotations

import argparse
import time

from spacetable.core.rng import Rng
from spacetable.games.worlds import GAME

SCENARIOS = ("border-worlds", "grand-melee", "native-uprising")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=60, help="games per scenario")
    args = ap.parse_args()
    actions = games = 0
    t0 = time.process_time()
    for seed in range(args.games):
        for name in SCENARIOS:
            state = GAME.initial_state(GAME.normalize_config({"scenario": name}), seed)
            rng = Rng.from_seed(seed)
            while GAME.to_act(state):
                seat = GAME.to_act(state)[0]
                state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
                actions += 1
            games += 1
    cpu = time.process_time() - t0
    print(f"{games} random games ({', '.join(SCENARIOS)}), {actions} actions, {cpu:.2f} s CPU, "
          f"{actions / cpu:.0f} actions/s")


if __name__ == "__main__":
    main()
