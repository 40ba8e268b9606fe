"""Fair AI time (SRV-AI5, issue 24): how long a person waits for the AI while computer-only matches think.

Starts ``spacetable serve`` (SQLite, ``--ai-workers 1``) on loopback, creates computer-only arena matches with long
budgets (by default the issue's scenario: three matches of two MCTS seats thinking 60 s a move, from three
client addresses 127.0.0.2..4, with ``--ai-only-seconds 60 --ai-only-matches 3`` so the server accepts them),
then plays a person's arena match against a 0.2 s MCTS seat: for each of the person's moves, the time from
the action's acknowledgement to the AI's reply stored (polled every 10 ms). Prints each reply time, the median
and the largest, next to the goal (twice the AI's budget plus 1 s). Before SRV-AI5 the reply waited for the
computer-only moves (minutes).

    .venv/bin/python bench/server_fair_ai.py
    .venv/bin/python bench/server_fair_ai.py --bots 3 --bot-seconds 60 --ai-seconds 0.2 --moves 8

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spacetable.server.cli import wait_until_healthy  # noqa: E402
from spacetable.server.devservers import free_port  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", type=int, default=3, help="computer-only matches (default 3)")
    ap.add_argument("--bot-seconds", type=float, default=60.0, help="their AI budget per move (default 60)")
    ap.add_argument("--ai-seconds", type=float, default=0.2, help="the person's AI budget per move (default 0.2)")
    ap.add_argument("--moves", type=int, default=8, help="the person's moves measured (default 8)")
    args = ap.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [sys.executable, "-m", "spacetable.cli", "serve", "--port", str(port), "--database-url",
             f"sqlite:///{Path(tmp) / 'fair.sqlite3'}", "--ai-workers", "1", "--log-level", "warning",
             "--ai-only-seconds", str(args.bot_seconds), "--ai-only-matches", str(args.bots), "--no-proxy-headers"],
            cwd=ROOT, stdout=subprocess.DEVNULL)
        try:
            if not wait_until_healthy(port, proc, 120):
                raise SystemExit("the server did not start")
            for k in range(args.bots):
                transport = httpx.HTTPTransport(local_address=f"127.0.0.{2 + k % 250}")
                with httpx.Client(transport=transport, base_url=base, timeout=30) as bot:
                    r = bot.post("/api/matches", json={"game": "arena", "ai_seats": {"0": "mcts", "1": "mcts"},
                                                       "ai_seconds": args.bot_seconds})
                    r.raise_for_status()
            with httpx.Client(base_url=base, timeout=30) as c:
                time.sleep(5.0)  # the computer-only matches start thinking, the workers have started
                lanes = c.get("/health").json().get("ai_lanes")
                print(f"AI lanes with the computer-only matches thinking: {lanes}")
                data = c.post("/api/matches", json={"game": "arena", "join_seat": 0, "ai_seats": {"1": "mcts"},
                                                    "ai_seconds": args.ai_seconds}).json()
                mid, token = data["match"]["id"], data["token"]
                waits = []
                for _ in range(args.moves):
                    summary = c.get(f"/api/matches/{mid}").json()
                    if summary["status"] != "running":
                        break
                    while summary["to_act"] != [0]:
                        time.sleep(0.01)
                        summary = c.get(f"/api/matches/{mid}").json()
                    snap = c.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": token}).json()
                    legal = [a for a in snap["legal"] if a.get("type") not in ("resign", "accept_end")] or snap["legal"]
                    r = c.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": token,
                                                                    "version": snap["version"], "action": legal[0]})
                    r.raise_for_status()
                    acked = time.monotonic()
                    version = r.json()["version"]
                    while True:
                        s = c.get(f"/api/matches/{mid}").json()
                        if s["status"] != "running" or (s["version"] > version and 1 not in s["to_act"]):
                            break
                        time.sleep(0.01)
                    waits.append(time.monotonic() - acked)
                    print(f"  the AI replied in {waits[-1]:.2f} s")
                bots_done = c.get("/health").json()["ai_moves"]
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
    goal = 2 * args.ai_seconds + 1
    if waits:
        print(f"person's AI reply ({args.ai_seconds:g} s budget) while {args.bots} computer-only matches think "
              f"{args.bot_seconds:g} s a move: median {statistics.median(waits):.2f} s, largest {max(waits):.2f} s "
              f"over {len(waits)} moves (goal: within {goal:.1f} s); AI moves computed in all: {bots_done}")


if __name__ == "__main__":
    main()
