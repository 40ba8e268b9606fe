"""Crash recovery (SRV-P1/P2): the real server (uvicorn, in a subprocess) is killed with SIGKILL while
several matches are being played, restarted on the same database (a SQLite file; a PostgreSQL database,
where actions are committed in groups), and every match is compared with a replay of its log: every
acknowledged action is there, nothing half-written, play goes on.
"""

from __future__ import annotations

import json
import os
import signal
import socket
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
from spacetable.server.db import make_engine

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, port: int) -> subprocess.Popen[bytes]:
    """``spacetable serve`` as a user runs it; it prints its address first (SRV-CLI)."""
    cmd = [sys.executable, "-m", "spacetable.cli", "serve", "--port", str(port), "--database-url", db_url,
           "--ai-workers", "0", "--log-level", "warning", "--rate-act", "none", "--rate-join", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    assert proc.stdout.readline().decode().startswith(f"spacetable server: http://localhost:{port}/")
    if wait_until_healthy(port, proc, 120):
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
        with httpx.Client(base_url=self.base, timeout=30) as c:
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
def test_sigkill_mid_stream_loses_nothing(db_url: str) -> None:
    """SRV-P2: after SIGKILL and restart each match equals the replay of its stored log and holds every acknowledged
    action (SQLite, and PostgreSQL with its group commit)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db_url, port)
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
        end = time.monotonic() + 120  # a hang guard: wait for some acknowledged play, however slow the machine
        while sum(p.acked for p in players) < len(players) and time.monotonic() < end:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # mid-stream: the players are still sending
        proc.wait(10)
        for p in players:
            p.stop.set()
            p.join(10)
        assert sum(p.acked for p in players) > 0
        proc = start_server(db_url, port)
        engine = make_engine(db_url)
        con = engine.connect()
        for p in players:
            summary = httpx.get(f"{base}/api/matches/{p.match_id}").json()
            game = get_game(summary["game"])
            version = summary["version"]
            assert p.acked <= version <= len(p.sent), (p.match_id, p.acked, version, len(p.sent))
            stored = [(s, json.loads(a)) for s, a in con.exec_driver_sql(
                "SELECT seat, action FROM actions WHERE match_id = %(m)s ORDER BY idx"
                if engine.dialect.name == "postgresql" else
                "SELECT seat, action FROM actions WHERE match_id = :m ORDER BY idx", {"m": p.match_id})]
            assert stored == p.sent[:version]  # the log is exactly what was played, in order
            row = con.exec_driver_sql("SELECT config, seed, version FROM matches WHERE id = %(m)s"
                                      if engine.dialect.name == "postgresql" else
                                      "SELECT config, seed, version FROM matches WHERE id = :m", {"m": p.match_id}).fetchone()
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
        engine.dispose()
    finally:
        for p in players:
            p.stop.set()
        proc.kill()
        proc.wait(10)
