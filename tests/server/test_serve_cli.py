"""``spacetable serve`` for a newcomer (issue 24, "a newcomer's first hour"): a taken port, an unreachable
PostgreSQL, an impossible port and the README's placeholder URL each end with one clear line, before anything
is announced; nothing prints "server ready" or a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from spacetable.server.cli import database_problem, parse_args

from .test_limits import ROOT, free_port

pytestmark = pytest.mark.hardening


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "spacetable.cli", "serve", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=180)  # a hang guard: each fails at once
    finally:
        proc.kill()
    return proc.returncode, out, err


@pytest.mark.slow
def test_serve_fails_clearly(tmp_path: Path) -> None:
    """Started together (each a Python start-up): a taken port, a PostgreSQL nobody listens on, the README's
    literal placeholder."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    db = f"sqlite:///{tmp_path / 's.sqlite3'}"
    try:
        busy = serve("--port", str(port), "--database-url", db)
        nobody = serve("--port", str(free_port()), "--database-url",
                       f"postgresql+psycopg://someone:s3cret@127.0.0.1:{free_port()}/spacetable")
        placeholder = serve("--port", str(free_port()), "--database-url", "postgresql+psycopg://...")
        results = {name: finish(p) for name, p in (("busy", busy), ("nobody", nobody), ("placeholder", placeholder))}
    finally:
        taken.close()
    for name, (code, out, err) in results.items():
        assert code != 0, (name, out, err)
        assert "Traceback" not in err and "server ready" not in out + err and "http://" not in out, (name, out, err)
        assert len(err.strip().splitlines()) == 1 and len(err) < 500, (name, err)
    assert f"port {port} on 127.0.0.1 is already in use" in results["busy"][2]
    nobody_err = results["nobody"][2].lower()
    assert "cannot reach the database" in nobody_err and "refused" in nobody_err
    assert "s3cret" not in nobody_err
    assert "names no usable host" in results["placeholder"][2]


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_impossible_ports_are_refused_by_the_parser(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(["--port", port])
    assert exc.value.code == 2
    assert "--port" in capsys.readouterr().err


@pytest.mark.hotpath
def test_the_commit_window_is_given_in_milliseconds_and_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    """``--commit-window MS`` (issue 26, ``storage.COMMIT_WINDOW``): 3 ms by default, 0 to 1,000 ms; anything else is
    refused by the parser."""
    assert parse_args([]).commit_window == 3.0
    assert parse_args(["--commit-window", "0"]).commit_window == 0.0
    assert parse_args(["--commit-window", "2.5"]).commit_window == 2.5
    for bad in ("-1", "1001", "nan", "soon"):
        with pytest.raises(SystemExit) as exc:
            parse_args(["--commit-window", bad])
        assert exc.value.code == 2
        assert "--commit-window" in capsys.readouterr().err


@pytest.mark.parametrize(("url", "problem"), [
    ("postgresql+psycopg://...", "names no usable host"),
    ("postgresql+psycopg://u:pw@db.example/", "names no database"),
    ("not a url", "is not a database URL"),
    ("mysql://u@h/d", "not supported"),
    ("postgresql+psycopg://u:pw@db.example:5432/spacetable", None),
    ("sqlite:///x.sqlite3", None),
])
def test_database_urls_are_checked_before_connecting(url: str, problem: str | None) -> None:
    found = database_problem(url)
    assert (found is None) if problem is None else (problem in (found or "")), found
    assert "pw" not in (found or "")
