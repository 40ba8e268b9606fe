"""Slow and idle connections cannot block the server (issue 24, server item 2; SRV-B2).

The real ``spacetable serve`` on loopback, driven with raw sockets: complete request headers, then one byte of
body a second. Such connections used to stay open for ever, and 300 of them under a 256-descriptor limit kept
``/health`` failing. Now a body must arrive at ``--body-min-rate`` after ``--body-timeout`` (408, closed), one
address holds at most ``--max-address-connections`` connections (429 at once), and above
``--max-pending-connections`` the longest-waiting connection makes room. The clients use several loopback
addresses (127.0.0.2 and up; Linux routes all of 127/8 to loopback) so that ``/health`` comes from an address
of its own. Every wait is for a condition, with a hang guard far above what a loaded machine needs.
"""

from __future__ import annotations

import resource
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from spacetable.server.cli import wait_until_healthy

from .test_limits import ROOT, free_port

pytestmark = [pytest.mark.hardening, pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="several loopback addresses")]

HANG_GUARD = 90.0
HEADERS = (b"POST /api/matches HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
           b"Content-Length: 5000\r\n\r\n{")


def _limit_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def _serve(tmp_path: Path, port: int, *flags: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "spacetable.cli", "serve", "--port", str(port), "--database-url",
         f"sqlite:///{tmp_path / 's.sqlite3'}", "--ai-workers", "0", "--log-level", "warning", *flags],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_limit_descriptors)


def _slow(port: int, source: str) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(HEADERS)
    s.setblocking(False)
    return s


class Trickle:
    """Slow clients: each sends one more byte of body a second until the server closes it; records what the
    server answered before closing."""

    def __init__(self, socks: list[socket.socket]) -> None:
        self.open = set(socks)
        self.answers: dict[socket.socket, bytes] = {s: b"" for s in socks}

    def step(self) -> None:
        readable, _, _ = select.select(list(self.open), [], [], 0) if self.open else ([], [], [])
        for s in readable:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if data:
                self.answers[s] += data
            else:
                self.open.discard(s)
                s.close()
        for s in list(self.open):
            try:
                s.send(b" ")
            except BlockingIOError:
                pass
            except OSError:
                self.open.discard(s)
                s.close()

    def statuses(self) -> list[bytes]:
        return [a.split(b" ", 2)[1] if a.startswith(b"HTTP/1.1 ") else b"" for a in self.answers.values()]


def test_slow_bodies_are_cut_off_and_health_stays_answered(tmp_path: Path) -> None:
    """300 connections trickling a body, one byte a second, from ten addresses, against a server limited to 256
    descriptors: the connections over an address's cap are refused at once (429), the longest-waiting ones make
    room for new ones, the rest are cut off by the body timeout (408); ``/health`` answers throughout, and every
    slow connection ends closed."""
    port = free_port()
    proc = _serve(tmp_path, port, "--no-proxy-headers", "--body-timeout", "3", "--body-min-rate", "100",
                  "--max-address-connections", "32")
    socks: list[socket.socket] = []
    try:
        assert wait_until_healthy(port, proc, 120)
        # 40 from one address (8 over its cap), 260 more from nine others
        for i in range(300):
            source = "127.0.0.2" if i < 40 else f"127.0.0.{3 + i % 9}"
            socks.append(_slow(port, source))
        trickle = Trickle(socks)
        healthy = 0
        end = time.monotonic() + HANG_GUARD
        with httpx.Client(timeout=30) as http:
            while trickle.open:
                assert time.monotonic() < end, f"hang guard: {len(trickle.open)} slow connections still open"
                trickle.step()
                r = http.get(f"http://127.0.0.1:{port}/health", headers={"Connection": "close"})
                assert r.status_code == 200
                healthy += 1
                time.sleep(1.0)
            assert http.get(f"http://127.0.0.1:{port}/health").status_code == 200
        statuses = trickle.statuses()
        assert statuses.count(b"429") >= 8, statuses
        assert b"408" in statuses, statuses
        assert healthy >= 1
    finally:
        for s in socks:
            s.close()
        proc.kill()
        proc.wait(10)


def test_one_slow_body_gets_408_and_a_normal_request_is_not_disturbed(tmp_path: Path) -> None:
    """A single slow body, alone, is answered 408 and closed by the body timeout (not by any other guard); a
    request sent whole on a keep-alive connection meanwhile is served as usual, twice on the same connection."""
    port = free_port()
    proc = _serve(tmp_path, port, "--body-timeout", "2", "--body-min-rate", "100")
    try:
        assert wait_until_healthy(port, proc, 120)
        trickle = Trickle([_slow(port, "127.0.0.1")])
        end = time.monotonic() + HANG_GUARD
        with httpx.Client(timeout=30) as http:
            while trickle.open:
                assert time.monotonic() < end, "hang guard: the slow body was never cut off"
                trickle.step()
                r = http.post(f"http://127.0.0.1:{port}/api/matches", json={"game": "nim-unknown"})
                assert r.status_code == 404
                time.sleep(1.0)
        assert trickle.statuses() == [b"408"]
        assert b"body_timeout" in next(iter(trickle.answers.values()))
    finally:
        proc.kill()
        proc.wait(10)


def test_the_cap_per_address_spares_trusted_proxies(tmp_path: Path) -> None:
    """``--max-address-connections 4``: a fifth and sixth connection from one address are refused at once (429),
    while a trusted proxy's address (``--forwarded-allow-ips``, default 127.0.0.1) is never capped, since every
    client behind it shares it. The admitted connections, silent, end with the header timeout."""
    port = free_port()
    proc = _serve(tmp_path, port, "--max-address-connections", "4", "--header-timeout", "2")
    socks: dict[str, list[socket.socket]] = {"127.0.0.2": [], "127.0.0.1": []}
    try:
        assert wait_until_healthy(port, proc, 120)
        for source, mine in socks.items():
            for _ in range(6):
                s = socket.socket()
                s.bind((source, 0))
                s.connect(("127.0.0.1", port))
                s.setblocking(False)
                mine.append(s)
        answers: dict[socket.socket, bytes] = {}
        pending = [s for mine in socks.values() for s in mine]
        end = time.monotonic() + HANG_GUARD
        while pending:
            assert time.monotonic() < end, f"hang guard: {len(pending)} connections still open"
            readable, _, _ = select.select(pending, [], [], 1.0)
            for s in readable:
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                answers[s] = answers.get(s, b"") + data
                if not data:
                    pending.remove(s)
        refused = {source: sum(answers[s].startswith(b"HTTP/1.1 429") for s in mine) for source, mine in socks.items()}
        assert refused == {"127.0.0.2": 2, "127.0.0.1": 0}
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=30).status_code == 200
    finally:
        for mine in socks.values():
            for s in mine:
                s.close()
        proc.kill()
        proc.wait(10)
