"""The garbage collector of a server process (issue 26, ``spacetable/server/collector.py``): ``spacetable serve`` sets
it once (what was alive at start frozen, the young generation collected after 20,000 net allocations), ``/health``
reports its settings and its pauses, counted per generation and by length, and ``bench/server_load.py`` turns two
readings into a window's figures. ``serve --workers N`` sets it in every worker: tests/server/test_multiprocess.py."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from spacetable.server import collector
from spacetable.server.cli import wait_until_healthy

from .test_bench_floor import server_load
from .test_limits import free_port

pytestmark = pytest.mark.hotpath
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pauses() -> Iterator[collector.Pauses]:
    counted = collector.Pauses()
    counted.install()
    try:
        yield counted
    finally:
        counted.uninstall()


def test_pauses_are_counted_per_generation_and_by_length(pauses: collector.Pauses,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pass adds to its generation's passes and pause time, to every bucket its pause reached (cumulative, so
    that the difference of two readings is a window's), and may be the longest."""
    clock = iter([0.0, 0.0005, 1.0, 1.007, 2.0, 2.06, 3.0, 3.02])
    monkeypatch.setattr(collector.time, "perf_counter", lambda: next(clock))
    for generation in (0, 0, 2, 1):
        pauses._callback("start", {"generation": generation})
        pauses._callback("stop", {"generation": generation, "collected": 0, "uncollectable": 0})
    monkeypatch.undo()
    snap = pauses.snapshot()
    assert snap["passes"] == [2, 1, 1]
    assert snap["pause_seconds"] == pytest.approx([0.0075, 0.02, 0.06])
    assert snap["pauses_at_least_ms"] == {"1": 3, "5": 3, "10": 2, "20": 2, "50": 1, "100": 0}
    assert snap["longest_ms"] == pytest.approx(60.0)


def test_a_real_collection_is_counted_and_uninstalling_stops_counting(pauses: collector.Pauses) -> None:
    before = pauses.snapshot()["passes"]
    gc.collect(0)
    gc.collect(2)
    after = pauses.snapshot()["passes"]
    assert after[0] >= before[0] + 1 and after[2] >= before[2] + 1
    pauses.uninstall()
    gc.collect(0)
    assert pauses.snapshot()["passes"] == after


def test_the_served_process_tunes_its_collector_and_health_reports_it(tmp_path: Path) -> None:
    """``spacetable serve``: the thresholds are :data:`collector.THRESHOLDS`, start-up's objects are frozen, and the
    pauses counted since grow with the server's work (its collections run in its own process)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "spacetable.cli", "serve", "--port", str(port), "--database-url",
                             f"sqlite:///{tmp_path / 's.sqlite3'}", "--ai-workers", "0", "--log-level", "warning",
                             "--rate-create", "1000/second;100000/minute"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until_healthy(port, proc)
        base = f"http://127.0.0.1:{port}"
        first = httpx.get(base + "/health", timeout=30).json()["gc"]
        assert first["thresholds"] == list(collector.THRESHOLDS) and first["enabled"]
        assert first["frozen"] > 10_000  # modules, catalogues and the app
        with httpx.Client(base_url=base, timeout=30) as client:
            for made in range(1, 1001):  # matches kept in memory until the young generation's 20,000 are reached
                mid = client.post("/api/matches", json={"game": "tremble", "join_seat": 0}).json()["match"]["id"]
                client.get(f"/api/matches/{mid}")
                if made % 20 == 0 and sum(client.get("/health").json()["gc"]["passes"]) > sum(first["passes"]):
                    break
        last = httpx.get(base + "/health", timeout=30).json()["gc"]
        assert sum(last["passes"]) > sum(first["passes"])
        assert sum(last["pause_seconds"]) > sum(first["pause_seconds"])
        assert set(last["pauses_at_least_ms"]) == {f"{edge * 1000:g}" for edge in collector.BUCKETS}
    finally:
        proc.terminate()
        proc.wait(30)


def test_the_load_bench_prints_a_windows_collections() -> None:
    """The table's columns from the difference of two ``/health`` readings; an older server's row has dashes."""
    sl = server_load()
    window: dict[str, Any] = {"gc:passes": 12.0, "gc:seconds": 0.3, "gc:>=10": 4.0, "gc:>=50": 1.0}
    assert sl.collections(window, 10.0) == {"gc passes/s": "1.2", "gc % of time": "3.0", "gc pauses >=10 ms": "4",
                                            "gc pauses >=50 ms": "1"}
    assert set(sl.collections({}, 10.0).values()) == {"-"}
