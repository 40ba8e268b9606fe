"""The proxy configuration docs/server.md gives for several processes ("Several processes"): nginx, with the ``map``
and ``upstream`` blocks taken from the document itself, in front of two backends that answer with their own name.
Every request and socket of one match (``/ws/matches/{id}``, ``/api/matches/{id}/...``, ``/match/{id}``) reaches one
backend, and requests that name no match go to either (issue 26: a match's moves applied by one process only).

nginx runs as the test's user on loopback, from a configuration file in the test's temporary folder; Debian's
``nginx-light`` (``.ci/run``) provides it. Without it the test is skipped, and fails under ``CI=true``."""

from __future__ import annotations

import collections
import http.server
import re
import secrets
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from spacetable.server.devservers import free_port

from .conftest import unavailable

pytestmark = pytest.mark.hotpath

DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def documented_blocks() -> str:
    """The nginx ``map`` and ``upstream`` blocks of docs/server.md's routing paragraph, as written there."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"With\s+nginx,\s+in\s+front\s+of\s+processes.*?```\n(.*?)```", text, re.S)
    assert found, "docs/server.md has no nginx configuration for routing by match id"
    return found.group(1)


class Named(http.server.BaseHTTPRequestHandler):
    """Answers every request with the name of its server (the backend the proxy chose)."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = self.server.name.encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[str]:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        unavailable("nginx is not installed")
        return
    backends = []
    for name in ("one", "two"):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Named)
        server.name = name  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        backends.append(server)
    blocks = documented_blocks()
    ports = re.findall(r"server 127\.0\.0\.1:(\d+);", blocks)
    assert ports == ["8001", "8002"], ports
    for port, server in zip(ports, backends, strict=True):
        blocks = blocks.replace(f"127.0.0.1:{port};", f"127.0.0.1:{server.server_address[1]};")
    port = free_port()
    temp = " ".join(f"{kind}_temp_path {tmp_path / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"""worker_processes 1;
pid {tmp_path / 'nginx.pid'};
error_log {tmp_path / 'error.log'};
events {{ worker_connections 64; }}
http {{
    access_log off;
    {temp}
{blocks}
    server {{
        listen 127.0.0.1:{port};
        location / {{ proxy_pass http://spacetable; }}
    }}
}}
""")
    subprocess.run([nginx, "-c", str(conf), "-p", str(tmp_path)], check=True, timeout=60, capture_output=True)
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/health", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.05)
        yield base
    finally:
        subprocess.run([nginx, "-c", str(conf), "-p", str(tmp_path), "-s", "stop"], timeout=60, capture_output=True)
        for server in backends:
            server.shutdown()
            server.server_close()


def answered_by(base: str, path: str, method: str = "GET") -> str:
    req = urllib.request.Request(base + path, method=method, data=b"{}" if method == "POST" else None)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.read().decode()


def test_the_documented_proxy_sends_every_request_of_a_match_to_one_process(proxy: str) -> None:
    """Forty matches: each one's socket, join, state, actions and page reach the same backend, and the matches fall on
    both; lobby requests (no match named) reach both."""
    homes: collections.Counter[str] = collections.Counter()
    for _ in range(40):
        mid = secrets.token_hex(8)  # the form of the server's match ids
        got = {answered_by(proxy, f"/ws/matches/{mid}?seat=0"),
               answered_by(proxy, f"/api/matches/{mid}/seats/1/join", "POST"),
               answered_by(proxy, f"/api/matches/{mid}"),
               answered_by(proxy, f"/api/matches/{mid}/actions", "POST"),
               answered_by(proxy, f"/match/{mid}")}
        assert len(got) == 1, (mid, got)
        homes[got.pop()] += 1
    assert set(homes) == {"one", "two"}, homes
    lobby = collections.Counter(answered_by(proxy, "/api/matches", "POST") for _ in range(40))
    assert set(lobby) == {"one", "two"}, lobby
