"""Crash recovery (SRV-P1/P2): the real server (uvicorn, in a subprocess) is killed with SIGKILL while
several matches are being played, restarted on the same SQLite file, and every match is compared
with a replay of its log: every acknowledged action is there, nothing half-written, play goes on.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from spacetable.core.rng import Rng
from spacetable.games import available, get_game
from spacetable.server.cli import wait_until_healthy

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    """``spacetable serve`` as a user runs it; it prints its address first (SRV-CLI)."""
    cmd = [sys.executable, "-m", "spacetable.cli", "serve", "--port", str(port), "--database-url", f"sqlite:///{db}",
           "--ai-workers", "0", "--log-level", "warning", "--rate-act", "none", "--rate-join", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    assert proc.stdout.readline().decode().startswith(f"spacetable server: http://localhost:{port}/")
    if wait_until_healthy(port, proc):
        return proc
    raise AssertionError("server did not start")


class Player(threading.Thread):
    """Plays random legal actions for every seat of one match until stopped; records what was sent."""

    def __init__(self, base: str, match_id: str, tokens: list[str], seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.match_id, self.tokens = base, match_id, tokens
        self.rng = Rng.from_seed(seed)
        self.sent: list[tuple[int, dict[str, Any]]] = []
        self.acked = 0
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=5) as c:
            while not self.stop.is_set():
                try:
                    summary = c.get(f"/api/matches/{self.match_id}").json()
                    if not summary["to_act"]:
                        return
                    seat = summary["to_act"][self.rng.randbelow(len(summary["to_act"]))]
                    snap = c.get(f"/api/matches/{self.match_id}/state", params={"seat": seat},
                                 headers={"X-Seat-Token": self.tokens[seat]}).json()
                    calm = [a for a in snap["legal"] if a.get("type") not in ("resign", "accept_end")] or snap["legal"]
                    action = calm[self.rng.randbelow(len(calm))]
                    self.sent.append((seat, action))
                    r = c.post(f"/api/matches/{self.match_id}/actions",
                               json={"seat": seat, "token": self.tokens[seat], "version": snap["version"], "action": action})
                    if r.status_code != 200:
                        raise AssertionError(r.text)
                    self.acked = r.json()["version"]
                except (httpx.HTTPError, ValueError):
                    return  # the server was killed


@pytest.mark.timeout(180)
def test_sigkill_mid_stream_loses_nothing(tmp_path: Path) -> None:
    """SRV-P2: after SIGKILL and restart each match equals the replay of its stored log and holds every acknowledged action."""
    db = tmp_path / "crash.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port)
    players: list[Player] = []
    try:
        specs = [(g, {}) for g in available()] + [("arena", {"board": "5x5"})]
        if "tremble" in available():
            specs.append(("tremble", {"players": 3}))
        for i, (game_id, config) in enumerate(specs):
            r = httpx.post(f"{base}/api/matches", json={"game": game_id, "config": config, "seed": 1000 + i, "open_seed": True,
                                                          "join_seat": 0})
            assert r.status_code == 201, r.text
            data = r.json()
            n = len(data["match"]["seats"])
            mid = data["match"]["id"]
            tokens = [data["token"]]
            tokens += [httpx.post(f"{base}/api/matches/{mid}/seats/{s}/join", json={}).json()["token"] for s in range(1, n)]
            players.append(Player(base, data["match"]["id"], tokens, i))
        for p in players:
            p.start()
        time.sleep(2.0)
        os.kill(proc.pid, signal.SIGKILL)  # mid-stream: the players are still sending
        proc.wait(10)
        for p in players:
            p.stop.set()
            p.join(10)
        assert sum(p.acked for p in players) > 0
        proc = start_server(db, port)
        con = sqlite3.connect(db)
        for p in players:
            summary = httpx.get(f"{base}/api/matches/{p.match_id}").json()
            game = get_game(summary["game"])
            version = summary["version"]
            assert p.acked <= version <= len(p.sent), (p.match_id, p.acked, version, len(p.sent))
            stored = [(s, json.loads(a)) for s, a in con.execute(
                "SELECT seat, action FROM actions WHERE match_id = ? ORDER BY idx", (p.match_id,))]
            assert stored == p.sent[:version]  # the log is exactly what was played, in order
            row = con.execute("SELECT config, seed, version FROM matches WHERE id = ?", (p.match_id,)).fetchone()
            assert row[2] == version
            state = game.initial_state(json.loads(row[0]), row[1])
            for seat, action in stored:
                state = game.apply(state, seat, action)
            for seat, token in enumerate(p.tokens):
                snap = httpx.get(f"{base}/api/matches/{p.match_id}/state", params={"seat": seat},
                                 headers={"X-Seat-Token": token}).json()
                assert snap["view"] == json.loads(json.dumps(game.view(state, seat)))
                assert snap["version"] == version
            # play goes on from where it was
            if summary["to_act"]:
                seat = summary["to_act"][0]
                snap = httpx.get(f"{base}/api/matches/{p.match_id}/state", params={"seat": seat},
                                 headers={"X-Seat-Token": p.tokens[seat]}).json()
                r = httpx.post(f"{base}/api/matches/{p.match_id}/actions",
                               json={"seat": seat, "token": p.tokens[seat], "version": version, "action": snap["legal"][0]})
                assert r.status_code == 200 and r.json()["version"] == version + 1
        con.close()
    finally:
        for p in players:
            p.stop.set()
        proc.kill()
        proc.wait(10)
