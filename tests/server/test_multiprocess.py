"""Several server processes, one service (SRV-X1..X4): two real ``spacetable serve`` processes on one PostgreSQL
database and one Redis server, both started for the tests on loopback.

* clients of one match connected to different processes see every event once and in order, also when both
  processes store actions of the same match at the same moment (simultaneous placement: compare-and-set on the
  revision, SRV-X1, then SRV-A1b on the newer state);
* an AI seat moves once and a clock fires once, however many processes hold the match (SRV-X3);
* ``kill -9`` of one process mid-game loses no acknowledged action, and the other process carries on, the AI
  seats of the dead process's matches included (its lease runs out, SRV-X3);
* ``spacetable serve --workers 2`` serves from two processes on one port.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from spacetable.core.rng import Rng
from spacetable.server.cli import wait_until_healthy
from spacetable.server.collector import THRESHOLDS
from spacetable.server.devservers import free_port

pytestmark = [pytest.mark.multiprocess, pytest.mark.slow, pytest.mark.timeout(300)]
ROOT = Path(__file__).resolve().parents[2]
LEASE = 2.0


class Server:
    """One ``spacetable serve`` process of the service."""

    def __init__(self, db_url: str, redis_url: str, log: Path, workers: int = 1) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "spacetable.cli", "serve", "--port", str(self.port), "--database-url", db_url,
               "--redis-url", redis_url, "--lease-seconds", str(LEASE), "--ai-workers", "0", "--log-level", "info",
               "--rate-create", "none", "--rate-join", "none", "--rate-act", "none", "--workers", str(workers)]
        self.log_path = log
        self.log = log.open("ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self.log)
        if not wait_until_healthy(self.port, self.proc, 180):
            raise AssertionError(f"server did not start; see {log}")

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def health(self) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(self.base + "/health", timeout=10).json()
        return data

    def get(self, path: str, **kw: Any) -> Any:
        r = httpx.get(self.base + path, timeout=10, **kw)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, path: str, body: dict[str, Any]) -> Any:
        r = httpx.post(self.base + path, json=body, timeout=10)
        assert r.status_code in (200, 201), r.text
        return r.json()

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


@pytest.fixture
def cluster(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    a = Server(pg_url, redis_url, tmp_path / "a.log")
    try:
        b = Server(pg_url, redis_url, tmp_path / "b.log")
    except BaseException:
        a.stop()
        raise
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


class Client(threading.Thread):
    """A WebSocket client of a match that records every message it receives."""

    def __init__(self, url: str, token: str | None = None) -> None:
        super().__init__(daemon=True)
        self.opened = contextlib.ExitStack()  # websockets wants its connection used as a context manager
        self.conn: ClientConnection = self.opened.enter_context(ws_connect(url, max_size=None))
        if token is not None:
            self.conn.send(json.dumps({"type": "auth", "token": token}))
        self.messages: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.start()

    def run(self) -> None:
        try:
            for raw in self.conn:
                with self.lock:
                    self.messages.append(json.loads(raw))
        except ConnectionClosed:
            return

    def latest(self) -> dict[str, Any]:
        with self.lock:
            return next(m for m in reversed(self.messages) if m["type"] in ("snapshot", "event"))

    def send(self, message: dict[str, Any]) -> None:
        self.conn.send(json.dumps(message))

    def close(self) -> None:
        self.opened.close()
        self.join(5)


def wait_for(pred: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
    """Wait for a condition; ``timeout`` is a hang guard, far above what a loaded machine needs."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or pred}")


def events_once_in_order(client: Client, final: int) -> list[dict[str, Any]]:
    """The client's messages up to version ``final``: a snapshot, then each version's event once, in order. A later
    snapshot (a seat change announced by the other process) may come, but never goes back nor skips a version."""
    wait_for(lambda: client.latest()["version"] >= final, 60, f"version {final} at a client")
    with client.lock:
        messages = [m for m in client.messages if m["type"] in ("snapshot", "event")]
    assert messages[0]["type"] == "snapshot"
    current = messages[0]["version"]
    events = []
    for m in messages[1:]:
        if m["type"] == "snapshot":
            assert m["version"] == current, (m["version"], current)  # no reload in the middle of play
        else:
            assert m["version"] == current + 1, (m["version"], current)
            current = m["version"]
            events.append(m)
    assert current == final
    return events


def calm(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [a for a in legal if a.get("type") not in ("resign", "accept_end") and not a.get("offer_end")] or legal


def test_clients_on_two_processes_see_every_event_once_and_in_order(cluster: tuple[Server, Server]) -> None:
    """SRV-X1, SRV-X2, SRV-V3: seat 0 and a spectator on process A, seat 1 and a spectator on process B; in the
    simultaneous placement both seats send at once (two processes store the same match at once), then play on."""
    a, b = cluster
    data = a.post("/api/matches", {"game": "arena", "config": {"setup": "free", "placement": "simultaneous"},
                                   "join_seat": 0, "seed": 5, "open_seed": True})
    mid, t0 = data["match"]["id"], data["token"]
    t1 = b.post(f"/api/matches/{mid}/seats/1/join", {})["token"]
    seats = {0: Client(f"{a.ws}/ws/matches/{mid}?seat=0", t0), 1: Client(f"{b.ws}/ws/matches/{mid}?seat=1", t1)}
    watchers = [Client(f"{a.ws}/ws/matches/{mid}"), Client(f"{b.ws}/ws/matches/{mid}")]
    pick = Rng.from_seed(3)
    try:
        wait_for(lambda: all(c.messages for c in (*seats.values(), *watchers)), what="snapshots")
        # seat 1 joined through B: A learns it through Redis, maybe after seat 0's first snapshot (the match still
        # open there). Both seats must see the running match, both to place, before the step that sends both
        both = [0, 1]
        wait_for(lambda: all(sorted(c.latest()["to_act"]) == both and c.latest()["legal"] for c in seats.values()),
                 what="both seats to place")
        version, concurrent = 0, 0
        while version < 40:
            msgs = {s: c.latest() for s, c in seats.items()}
            to_act = msgs[0]["to_act"]
            if msgs[0]["match"]["status"] != "running":
                break
            movers = [s for s in to_act if msgs[s]["version"] == version and msgs[s]["legal"]]
            if len(movers) != len(to_act):
                time.sleep(0.02)
                continue
            concurrent += len(movers) > 1
            for s in movers:  # at once: when both are to act, both processes store an action of this match
                options = calm(msgs[s]["legal"])
                seats[s].send({"type": "action", "version": version, "action": options[pick.randbelow(len(options))]})
            target = version + len(movers)
            wait_for(lambda t=target: all(c.latest()["version"] >= t for c in seats.values()), what=f"version {target}")
            version = target
        assert concurrent > 0, "no step had both seats acting at once"
        final = a.get(f"/api/matches/{mid}")["version"]
        assert final == version == b.get(f"/api/matches/{mid}")["version"] >= 10
        logs = [a.get(f"/api/matches/{mid}/state")["log"], b.get(f"/api/matches/{mid}/state")["log"]]
        assert logs[0] == logs[1] and len(logs[0]) == final
        for client in (*seats.values(), *watchers):
            events = events_once_in_order(client, final)
            start = final - len(events)
            if client in watchers:  # a spectator learns the same of each action on either process (a socket that
                # asked for no texts may get the notation where the page's log has the sentence)
                def plain(entry: dict) -> dict:
                    return {k: v for k, v in entry.items() if k != "text"}
                assert [plain(e["last"]) for e in events] == [plain(e) for e in logs[0][start:]]
        for client in seats.values():
            errors = [m for m in client.messages if m["type"] == "error"]
            assert errors == [], errors
    finally:
        for c in (*seats.values(), *watchers):
            c.close()


def test_an_ai_seat_moves_once_and_a_clock_fires_once(cluster: tuple[Server, Server]) -> None:
    """SRV-X3: an AI seat of a match held by both processes moves once per turn (the AI moves computed by both
    processes together are exactly the AI entries of the log), and a turn clock runs out once."""
    a, b = cluster
    data = a.post("/api/matches", {"game": "arena", "join_seat": 0, "ai_seats": {"1": "random"}, "ai_seconds": 0.05,
                                   "seed": 8, "open_seed": True})
    mid, t0 = data["match"]["id"], data["token"]
    human = Client(f"{b.ws}/ws/matches/{mid}?seat=0", t0)  # the human plays through B, the match was created on A
    watchers = [Client(f"{a.ws}/ws/matches/{mid}"), Client(f"{b.ws}/ws/matches/{mid}")]
    pick = Rng.from_seed(4)
    try:
        wait_for(lambda: human.messages, what="snapshot")
        for _ in range(12):
            msg = wait_for(lambda: (m := human.latest())["to_act"] == [0] and m["legal"] and m, 30, "the human's turn")
            options = calm(msg["legal"])
            human.send({"type": "action", "version": msg["version"], "action": options[pick.randbelow(len(options))]})
            wait_for(lambda v=msg["version"]: human.latest()["version"] > v, 30, "the human's event")
            if human.latest()["match"]["status"] != "running":
                break
        final = wait_for(lambda: (s := b.get(f"/api/matches/{mid}"))["to_act"] != [1] and s["version"], 30, "the AI")
        log = b.get(f"/api/matches/{mid}/state")["log"]
        ai_entries = [e for e in log if e["source"] == "ai"]
        assert ai_entries and all(e["seat"] == 1 for e in ai_entries)
        computed = a.health()["ai_moves"] + b.health()["ai_moves"]
        assert computed == len(ai_entries), (computed, len(ai_entries))
        for w in watchers:
            events_once_in_order(w, final)
    finally:
        for c in (human, *watchers):
            c.close()

    # a clock: both processes hold the match (a spectator on each); only the owner's timer plays the timeout action
    # (arena's own: the match goes on, a timeout each second); every firing is logged ("clock ran out")
    data = a.post("/api/matches", {"game": "arena", "join_seat": 0, "turn_seconds": 1, "seed": 9, "open_seed": True})
    mid = data["match"]["id"]
    b.post(f"/api/matches/{mid}/seats/1/join", {})
    watchers = [Client(f"{a.ws}/ws/matches/{mid}"), Client(f"{b.ws}/ws/matches/{mid}")]

    def fired() -> int:
        lines = a.log_text().splitlines() + b.log_text().splitlines()
        return sum(1 for line in lines if "clock ran out" in line and mid in line)

    try:
        wait_for(lambda: a.get(f"/api/matches/{mid}")["version"] >= 4, 30, "the clock")
        before = len(a.get(f"/api/matches/{mid}/state")["log"])
        count = fired()
        log = a.get(f"/api/matches/{mid}/state")["log"]
        assert {e["source"] for e in log} == {"timeout"}
        assert before <= count <= len(log) + 1, (before, count, len(log))  # one firing per timeout action
        for w in watchers:
            events_once_in_order(w, len(log))
    finally:
        for c in watchers:
            c.close()


class RestPlayer(threading.Thread):
    """Plays every seat of one match through one process's REST API; records each acknowledged action."""

    def __init__(self, server: Server, match_id: str, tokens: dict[int, str], seed: int) -> None:
        super().__init__(daemon=True)
        self.server, self.match_id, self.tokens = server, match_id, tokens
        self.pick = Rng.from_seed(seed)
        self.acked: list[tuple[int, int, dict[str, Any]]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        base, mid = self.server.base, self.match_id
        with httpx.Client(base_url=base, timeout=5) as c:
            while not self.stop.is_set():
                try:
                    summary = c.get(f"/api/matches/{mid}").json()
                    seats = [s for s in summary["to_act"] if s in self.tokens]
                    if not summary["to_act"]:
                        return
                    if not seats:
                        time.sleep(0.02)
                        continue
                    seat = seats[0]
                    snap = c.get(f"/api/matches/{mid}/state", params={"seat": seat},
                                 headers={"X-Seat-Token": self.tokens[seat]}).json()
                    options = calm(snap["legal"])
                    action = options[self.pick.randbelow(len(options))]
                    r = c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": self.tokens[seat],
                                                                     "version": snap["version"], "action": action})
                    if r.status_code == 200:
                        self.acked.append((snap["version"], seat, action))
                except (httpx.HTTPError, ValueError, KeyError):
                    return  # the server was killed


def test_kill_9_of_one_process_loses_nothing_and_the_other_carries_on(cluster: tuple[Server, Server]) -> None:
    """SRV-P2, SRV-X3: matches played through process A (two people; a person against an AI seat that A runs) while A
    is killed with SIGKILL: every action A acknowledged is stored, and B carries on, the AI seat included once A's
    lease ran out."""
    a, b = cluster
    people = []
    for k in range(3):
        data = a.post("/api/matches", {"game": "arena", "join_seat": 0, "seed": 20 + k, "open_seed": True})
        mid = data["match"]["id"]
        people.append(RestPlayer(a, mid, {0: data["token"], 1: a.post(f"/api/matches/{mid}/seats/1/join", {})["token"]},
                                 k))
    # an AI that uses its 1.5 s (Monte Carlo on the clock): a random one answers at once, and A then often stored the
    # AI's move before the kill, so that B became the owner by the person's next move, with nothing to take over
    data = a.post("/api/matches", {"game": "arena", "join_seat": 0, "ai_seats": {"1": "mcts"}, "ai_seconds": 1.5,
                                   "seed": 30, "open_seed": True})
    ai_match, ai_token = data["match"]["id"], data["token"]
    vs_ai = RestPlayer(a, ai_match, {0: ai_token}, 9)
    watcher = Client(f"{b.ws}/ws/matches/{ai_match}")  # B holds the AI match too, and tells what it sees
    for p in people:
        p.start()
    try:
        wait_for(lambda: all(len(p.acked) >= 3 for p in people), 60, "some play on A")
        # the person moves on A, so A runs the AI seat, which thinks 1.5 s: A is killed while it thinks
        summary = wait_for(lambda: (s := a.get(f"/api/matches/{ai_match}"))["to_act"] == [0] and s, 30, "the person's turn")
        snap = a.get(f"/api/matches/{ai_match}/state", params={"seat": 0}, headers={"X-Seat-Token": ai_token})
        a.post(f"/api/matches/{ai_match}/actions", {"seat": 0, "token": ai_token, "version": summary["version"],
                                                    "action": calm(snap["legal"])[0]})
        vs_ai.acked.append((summary["version"], 0, calm(snap["legal"])[0]))
        a.kill()  # mid-stream: the players are still sending
        for p in people:
            p.stop.set()
            p.join(10)
        for p in (*people, vs_ai):
            last = max(v for v, _, _ in p.acked)
            # B serves what is stored; a match it held catches up at once when A's lease runs out
            wait_for(lambda p=p, last=last: b.get(f"/api/matches/{p.match_id}")["version"] > last,
                     what="B to catch up")
            log = b.get(f"/api/matches/{p.match_id}/state")["log"]
            for version, seat, action in p.acked:  # every acknowledged action is stored where it was played
                assert log[version]["seat"] == seat and log[version]["action"] == action, (p.match_id, version)
        # the AI seat of A's match: B takes it over once A's lease ran out, and plays on with the person
        human = RestPlayer(b, ai_match, {0: ai_token}, 10)
        before = len(b.get(f"/api/matches/{ai_match}/state")["log"])
        human.start()
        wait_for(lambda: len(human.acked) >= 3 or b.get(f"/api/matches/{ai_match}")["status"] != "running", 60,
                 "play on B")
        human.stop.set()
        human.join(10)
        log = b.get(f"/api/matches/{ai_match}/state")["log"]
        assert [e for e in log[before:] if e["source"] == "ai"], "the AI seat did not move after the kill"
        assert b.health()["taken_over"] >= 1
        # and the people's matches go on through B
        for p in people:
            summary = b.get(f"/api/matches/{p.match_id}")
            if summary["to_act"]:
                seat = summary["to_act"][0]
                snap = b.get(f"/api/matches/{p.match_id}/state", params={"seat": seat},
                             headers={"X-Seat-Token": p.tokens[seat]})
                assert b.post(f"/api/matches/{p.match_id}/actions", {"seat": seat, "token": p.tokens[seat],
                              "version": snap["version"], "action": snap["legal"][0]})["version"] == snap["version"] + 1
        events_once_in_order(watcher, b.get(f"/api/matches/{ai_match}")["version"])
    finally:
        watcher.close()
        for p in people:
            p.stop.set()


@pytest.mark.hotpath  # each worker tunes its collector (issue 26)
def test_serve_with_two_workers(pg_url: str, redis_url: str, tmp_path: Path) -> None:
    """``spacetable serve --workers 2``: two processes on one port (the migrations run once, before them), each with
    its garbage collector tuned and its freezer running; a match is created, joined and played through it."""
    server = Server(pg_url, redis_url, tmp_path / "w.log", workers=2)
    try:
        def workers() -> list[int]:
            children = []
            for proc in Path("/proc").iterdir():
                if proc.name.isdigit():
                    try:
                        fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
                    except OSError:
                        continue
                    if int(fields[1]) == server.proc.pid:
                        children.append(int(proc.name))
            return children

        wait_for(lambda: len(workers()) >= 2, 30, "two worker processes")
        answers = [httpx.get(server.base + "/health", timeout=10).json() for _ in range(20)]
        ids = {health["server"] for health in answers}
        assert 1 <= len(ids) <= 2
        for health in answers:  # every worker set its own garbage collector, as one process does (issue 26)
            assert health["gc"]["thresholds"] == list(THRESHOLDS) and health["gc"]["frozen"] > 10_000

        def all_freeze() -> bool:  # and runs its collector's freezer on its own event loop
            freezes: dict[str, int] = {}
            for _ in range(20):
                health = httpx.get(server.base + "/health", timeout=10).json()
                freezes[health["server"]] = health["gc"]["freezes"]
            return all(n > 0 for n in freezes.values())

        wait_for(all_freeze, 30, "each worker's freezer")
        data = server.post("/api/matches", {"game": "arena", "join_seat": 0, "seed": 3, "open_seed": True})
        mid = data["match"]["id"]
        t1 = server.post(f"/api/matches/{mid}/seats/1/join", {})["token"]
        player = RestPlayer(server, mid, {0: data["token"], 1: t1}, 1)
        player.start()
        wait_for(lambda: len(player.acked) >= 6 or not player.is_alive(), 60, "play")
        player.stop.set()
        player.join(10)
        summary = server.get(f"/api/matches/{mid}")
        assert summary["version"] == len(player.acked) >= 1
        assert len(player.acked) >= 6 or summary["status"] == "finished"
    finally:
        server.stop()
