"""A Tremble balance run from the workbench's API (issue 25): the local worker pool against Ray local.

Starts the server app twice in this process (each on its own SQLite file, so that neither reuses the other's
cached bundled-set run): once playing balance runs on its own pool of ``--workers`` processes, once on a local
Ray instance of ``--workers`` CPUs (``serve --workbench-ray local``). On each, a warm-up run of a few games
starts the processes (and Ray), then one measured run of ``--games`` games of an edited house set (one ship's
price changed) is posted to ``POST /api/workbench/runs`` and followed until done; the run plays the edited set's
games and the bundled set's games with the same seeds. Prints the wall time of each, the Ray overhead, and
checks that every game's record (seed, seats, scores, winners, purchases, battles) is identical on both.

Run: ``.venv/bin/python bench/workbench.py [--games 2000] [--workers 2] [--ai heuristic] [--players 4]``.
Figures only, never asserted (the identity check exits with status 1 when records differ).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from spacetable.games.tremble.cards import HOUSE_DIR, set_document
from spacetable.server.app import create_app


def edited_set() -> dict[str, Any]:
    doc = set_document(HOUSE_DIR)
    ship = next(s for s in doc["ships"] if s["id"] == "watch_saucer")
    ship["price"] = 10000
    return doc


def run_once(c: TestClient, games: int, ai: str, players: int, seed: int) -> tuple[float, dict[str, Any]]:
    body = {"game": "tremble", "kind": "card_sets", "content": edited_set(), "games": games, "seed": seed, "ai": ai,
            "players": players}
    t0 = time.perf_counter()
    r = c.post("/api/workbench/runs", json=body)
    r.raise_for_status()
    run_id = r.json()["id"]
    last = -1
    while True:
        run = c.get(f"/api/workbench/runs/{run_id}").json()
        if run["state"] == "done" and "bundled" in run:
            break
        if run["state"] in ("failed", "cancelled"):
            raise SystemExit(f"the run ended {run['state']}: {run.get('error')}")
        if run["done"] * 10 // max(1, run["total"]) != last:
            last = run["done"] * 10 // max(1, run["total"])
            print(f"    {run['done']}/{run['total']}", flush=True)
        time.sleep(0.2)
    dt = time.perf_counter() - t0
    records: dict[str, Any] = c.get(f"/api/workbench/runs/{run_id}/games").json()
    return dt, records


def measure(backend: str, games: int, ai: str, players: int, workers: int, folder: Path) -> tuple[float, dict[str, Any]]:
    settings: dict[str, Any] = {"workers": workers, "max_games": max(games, 2000), "per_user": 4}
    if backend == "ray":
        settings["ray"] = "local"
    app = create_app(f"sqlite:///{folder / (backend + '.sqlite3')}", ai_workers=1, workbench=settings)
    with TestClient(app) as c:
        t_warm = time.perf_counter()
        run_once(c, 2 * workers, ai, players, seed=999)  # starts the workers (and Ray): not measured
        print(f"  {backend}: warm-up {time.perf_counter() - t_warm:.1f} s", flush=True)
        dt, records = run_once(c, games, ai, players, seed=1)
    return dt, records


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games of the edited set (the bundled set plays as many)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes, or Ray CPUs")
    ap.add_argument("--ai", default="heuristic", choices=("random", "heuristic"))
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print(f"Tremble balance run through the API: {args.games} games of an edited set + {args.games} of the bundled "
          f"set, {args.players} players, AI {args.ai}, {args.workers} workers")
    with tempfile.TemporaryDirectory() as tmp:
        t_pool, pool = measure("pool", args.games, args.ai, args.players, args.workers, Path(tmp))
        print(f"  local pool: {t_pool:.1f} s ({2 * args.games / t_pool:.1f} games/s)", flush=True)
        t_ray, ray = measure("ray", args.games, args.ai, args.players, args.workers, Path(tmp))
        print(f"  Ray local:  {t_ray:.1f} s ({2 * args.games / t_ray:.1f} games/s)", flush=True)
    same = pool == ray
    n = len(pool["games"]) + len(pool["bundled"] or [])
    print(f"  per-game results identical: {'yes' if same else 'NO'} ({n} records compared)")
    print(f"  Ray overhead: {100 * (t_ray - t_pool) / t_pool:+.1f}% (target under 15%)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
