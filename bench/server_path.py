"""The server's own path of an action, in-process: what ``bench/server_load.py`` measures less the web framework.

For each game, N tables play at once in this process, on the event loop, through the play server's service
(``MatchService``: a match created with its first seat taken, the other seats joined, one subscriber per seat as a
socket's would be, actions through ``MatchService.act`` as a socket's message goes, their events read from the
subscribers' queues), on SQLite in a temporary folder. There is no HTTP, no WebSocket and no uvicorn: the figures
are the service's own work (checks, the game's rules, storing, the per-seat events and their JSON) and the set-ups
of matches (creating, joining, the first snapshots), which ``bench/server_load.py`` adds the framework to. The
clients choose like the load bench's (``calm_actions``: matches that last), and their own work (reading each event)
is counted apart.

    .venv/bin/python bench/server_path.py                        # Cosmic Arena, 50 tables, 6,000 actions
    .venv/bin/python bench/server_path.py --game all --actions 3000
    .venv/bin/python bench/server_path.py --game arena --profile /tmp/path.prof   # cProfile of the measured part

It prints, per game: the CPU per action of the whole run, of the set-ups (per match and per action), of the moves,
and the split by the server's meter (apply, legal, views, texts, storage, wherever they ran: the set-ups' first
snapshots list legal actions and write views too; "rest" is everything outside those steps, the service's glue),
measured for every action here (``meter.EVERY`` is 1: its clock readings, a few microseconds an action, are in the
figures).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import floor_game
from server_load import calm_actions

from spacetable.games import available
from spacetable.server import meter
from spacetable.server.limits import Limits
from spacetable.server.service import MatchService
from spacetable.server.storage import open_storage

STEPS = ("apply", "legal", "views", "texts", "storage")


class Run:
    """What one game's run counted."""

    def __init__(self) -> None:
        self.actions = 0
        self.matches = 0
        self.setup_cpu = 0.0
        self.client_cpu = 0.0


async def play_game(game: str, config: dict[str, Any], tables: int, actions: int, texts: bool, seed: int,
                    profile: cProfile.Profile | None) -> tuple[Run, float, dict[str, float]]:
    folder = tempfile.mkdtemp(prefix="spacetable-path-")
    storage = open_storage(f"sqlite:///{folder}/bench.db")
    storage.migrate()
    service = MatchService(storage, ai_workers=0, limits=Limits())
    await service.start()
    rng = random.Random(seed)
    run = Run()
    clock = time.thread_time

    async def table() -> None:
        while run.actions < actions:
            t = clock()
            m, first = await service.lobby.create(game, config, None, "", None, 1.0, None, False, 0, "bench")
            tokens = [first or ""] + [await service.join(m.id, s, "bench") for s in range(1, len(m.seats))]
            m = await service.get(m.id)
            subs = [service.subscribe(m, s, tokens[s], texts=texts) for s in range(len(m.seats))]
            run.setup_cpu += clock() - t
            run.matches += 1
            t = clock()
            last = [orjson.loads(sub.queue.get_nowait()) for sub in subs]
            run.client_cpu += clock() - t
            while m.status == "running" and run.actions < actions:
                # a seat to act whose message of the current version lists its actions (a seat of a sealed decision
                # that already chose has none; a slow game's event comes once its lists are written)
                seat = next((s for s in m.to_act() if last[s].get("version") == m.version and last[s].get("legal")),
                            None)
                if seat is None:
                    await asyncio.sleep(0.001)
                    t = clock()
                    for s, sub in enumerate(subs):
                        while not sub.queue.empty():
                            last[s] = orjson.loads(sub.queue.get_nowait())
                    run.client_cpu += clock() - t
                    continue
                msg = last[seat]
                t = clock()
                action = rng.choice(calm_actions(msg["view"], msg["legal"]))
                run.client_cpu += clock() - t
                await service.act(m.id, seat, tokens[seat], m.version, action, sub=subs[seat])
                run.actions += 1
                t = clock()
                for s, sub in enumerate(subs):
                    while not sub.queue.empty():
                        last[s] = orjson.loads(sub.queue.get_nowait())
                run.client_cpu += clock() - t
                await asyncio.sleep(0)
            t = clock()
            for sub in subs:
                service.unsubscribe(m, sub)
            run.setup_cpu += clock() - t

    every = meter.EVERY
    meter.EVERY = 1  # every action's window measured: this process runs nothing but the service and its clients
    meter.enable()
    meter.METER.reset()
    start = time.process_time()
    if profile is not None:
        profile.enable()
    try:
        await asyncio.gather(*(table() for _ in range(tables)))
    finally:
        if profile is not None:
            profile.disable()
        meter.enable(False)
        meter.EVERY = every
    total = time.process_time() - start
    counted = meter.METER.snapshot()
    windows = counted["windows"] or 1
    stored = counted["actions"] or 1
    split = {step: counted["cpu_seconds"][step] / windows + counted["worker_cpu_seconds"][step] / stored
             for step in STEPS}
    await service.stop()
    return run, total, split


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="arena", help="a game, several (comma-separated) or 'all'; 'floor': the load "
                   "bench's game without rules (bench/floor_game.py)")
    p.add_argument("--config", default="{}", help="match config as JSON (e.g. '{\"steps\": 170}' for the floor)")
    p.add_argument("--tables", type=int, default=50, help="matches played at once")
    p.add_argument("--actions", type=int, default=6000, help="actions measured per game")
    p.add_argument("--texts", action="store_true", help="every subscriber reads texts (English), as the web page does")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", type=Path, help="write a cProfile of the measured part here (one game)")
    args = p.parse_args(argv)
    games = available() if args.game == "all" else args.game.split(",")
    if floor_game.ID in games:
        floor_game.register()
    config = json.loads(args.config)
    try:
        import uvloop
        uvloop.install()
    except ImportError:  # pragma: no cover - uvloop is a dependency of the server
        pass
    rows = []
    for game in games:
        print(f"{game}: {args.tables} tables, {args.actions} actions ...", flush=True)
        profile = cProfile.Profile() if args.profile else None
        run, total, split = asyncio.run(play_game(game, config, args.tables, args.actions, args.texts, args.seed,
                                                  profile))
        if profile is not None:
            profile.dump_stats(args.profile)
            print(f"  profile written to {args.profile}")
        n = max(1, run.actions)
        server = total - run.client_cpu
        moves = server - run.setup_cpu
        rest = server / n - sum(split.values())  # set-ups' and moves' work outside the meter's steps
        rows.append([game, f"{run.actions:,}", f"{run.matches:,}", f"{server / n * 1000:.3f}",
                     f"{run.setup_cpu / max(1, run.matches) * 1000:.2f}", f"{run.setup_cpu / n * 1000:.3f}",
                     f"{moves / n * 1000:.3f}", *(f"{split[s] * 1000:.3f}" for s in STEPS), f"{rest * 1000:.3f}",
                     f"{run.client_cpu / n * 1000:.3f}"])
    head = ["game", "actions", "matches", "server ms/action", "set-up ms/match", "set-ups ms/action",
            "moves ms/action", *(f"{s} ms" for s in STEPS), "rest ms", "clients ms/action"]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    print()
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(r, widths, strict=True))) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
