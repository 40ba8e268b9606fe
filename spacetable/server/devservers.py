"""Throw-away PostgreSQL and Redis servers on loopback, in a temporary folder (tests and benchmarks).

:class:`TempPostgres` runs Debian's ``initdb`` and ``postgres`` (``/usr/lib/postgresql/<version>/bin``) on a
fresh data folder and a free port, as a child process that dies with its parent. PostgreSQL refuses to run
as root, so when the caller is root the cluster is owned by and runs as the ``postgres`` user (created by
Debian's package) or, failing that, ``nobody``. Durability settings stay at PostgreSQL's defaults
(``fsync``, ``synchronous_commit`` on): benchmarks measure what an operator gets. :class:`TempRedis` runs
``redis-server`` without persistence, also dying with its parent. Both stop (and delete their folder) on
:meth:`stop` or when used as context managers.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the server's child process, before it runs: be killed when the test or benchmark that started it dies,
    however it dies (Linux ``PR_SET_PDEATHSIG``), so that no cluster outlives its run."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1


def postgres_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest ``/usr/lib/postgresql/*/bin``."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]) if
                        p.split("/")[4].isdigit() else 0)
    return Path(candidates[-1]).parent if candidates else None


def redis_bin() -> str | None:
    return shutil.which("redis-server")


def _run_as() -> tuple[int, int] | None:
    """``(uid, gid)`` to run PostgreSQL as when we are root (it refuses root), else ``None``."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pw = pwd.getpwnam(name)
            return pw.pw_uid, pw.pw_gid
    raise RuntimeError("running as root and neither a 'postgres' nor a 'nobody' user exists to run PostgreSQL")


class TempPostgres:
    """A PostgreSQL cluster in a temporary folder, listening on 127.0.0.1 only."""

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        bindir = postgres_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.bindir = bindir
        self.settings = {"max_connections": "300", "shared_buffers": "128MB", **(settings or {})}
        self.port = free_port()
        self.user = "spacetable"
        self.root = Path(tempfile.mkdtemp(prefix="spacetable-pg-"))
        self.data = self.root / "data"
        self._owner = _run_as()
        self._databases = 0
        self.started = False
        self.proc: subprocess.Popen[bytes] | None = None

    def _cmd(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        kwargs: dict[str, Any] = {}
        if self._owner is not None:
            kwargs.update(user=self._owner[0], group=self._owner[1], extra_groups=[])
        return subprocess.run(args, check=check, capture_output=True, cwd=self.root, **kwargs)

    def start(self) -> TempPostgres:
        """``initdb``, then ``postgres`` in the foreground as this process's child (it dies with it)."""
        if self._owner is not None:
            os.chown(self.root, *self._owner)
        try:
            self._cmd(str(self.bindir / "initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8",
                      "--locale=C", "--no-sync")
        except subprocess.CalledProcessError as exc:
            self.stop()
            raise RuntimeError(f"initdb failed: {exc.stderr.decode(errors='replace')[-2000:]}") from exc
        args = [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port), "-h", "127.0.0.1",
                "-k", str(self.root)]
        for k, v in self.settings.items():
            args += ["-c", f"{k}={v}"]
        kwargs: dict[str, Any] = {}
        if self._owner is not None:
            kwargs.update(user=self._owner[0], group=self._owner[1], extra_groups=[])
        log = (self.root / "postgres.log").open("ab")
        self.proc = subprocess.Popen(args, cwd=self.root, stdout=log, stderr=subprocess.STDOUT,
                                     preexec_fn=_die_with_parent, **kwargs)
        log.close()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            ready = subprocess.run([str(self.bindir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
                                   check=False)
            if ready.returncode == 0:
                self.started = True
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        detail = (self.root / "postgres.log").read_text(errors="replace")[-2000:]
        self.stop()
        raise RuntimeError(f"PostgreSQL did not start: {detail}")

    def url(self, database: str = "postgres", driver: str = "psycopg") -> str:
        return f"postgresql+{driver}://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None, template: str | None = None) -> str:
        """A new database, empty or a copy of the database ``template`` (no one may be connected to it); returns
        its SQLAlchemy URL."""
        import psycopg

        self._databases += 1
        name = name or f"t{os.getpid()}_{self._databases}"
        copy = f' TEMPLATE "{template}"' if template else ""
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={self.user} dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with contextlib.suppress(psycopg.Error), psycopg.connect(
                f"host=127.0.0.1 port={self.port} user={self.user} dbname=postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGQUIT)  # immediate shutdown
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
        self.started = False
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> TempPostgres:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


class TempRedis:
    """A ``redis-server`` on 127.0.0.1 without persistence, in a temporary folder."""

    def __init__(self) -> None:
        path = redis_bin()
        if path is None:
            raise RuntimeError("Redis is not installed (Debian: apt-get install redis-server)")
        self.path = path
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="spacetable-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> TempRedis:
        self.proc = subprocess.Popen(
            [self.path, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.root), "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        end = time.monotonic() + 20
        while time.monotonic() < end:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> TempRedis:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
