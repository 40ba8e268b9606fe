"""The garbage collector of a server process (issue 26, ``spacetable/server/collector.py``): ``spacetable serve`` sets
it once (what was alive at start frozen, no young pass below a million net allocations) and its freezer does the
collector's work (what is alive frozen four times a second, a full pass when the frozen objects grew by a quarter,
counted every 30 s and at once when a bound kept at each freeze says they may have doubled), ``/health`` reports
its settings and its pauses, counted per generation and by length, and ``bench/server_load.py`` turns two readings
into a window's figures. ``serve --workers N`` sets it in every worker: tests/server/test_multiprocess.py.

The freezer's tests freeze this test process's own objects, and unfreeze them all when they end (``thawed``)."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import time
import weakref
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


def test_pauses_are_counted_per_generation_and_by_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pass adds to its generation's passes and pause time, to every bucket its pause reached (cumulative, so
    that the difference of two readings is a window's), and may be the longest. (Not installed: a real pass meanwhile
    would be counted too.)"""
    pauses = collector.Pauses()
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


@pytest.fixture
def thawed(pauses: collector.Pauses) -> Iterator[collector.Pauses]:
    """Nothing of this process frozen before the test, and all of it unfrozen after (a full pass frees the rest)."""
    gc.unfreeze()
    try:
        yield pauses
    finally:
        gc.unfreeze()
        gc.collect()


class _Node:
    """A reference cycle of one object (``node.me is node``), as reference counting never frees."""

    def __init__(self) -> None:
        self.me = self


def _in_a_generation(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects())  # the three generations; the frozen objects are in none


def test_a_freeze_takes_the_living_out_of_the_passes_and_a_full_pass_frees_a_cycle_that_died_frozen(
        thawed: collector.Pauses) -> None:
    """What is alive at a freeze leaves the generations the passes walk; reference counting still frees a frozen
    object, but a cycle that dies frozen waits for the full pass, which frees it and freezes what is left."""
    freezer = collector.Freezer(pauses=thawed)
    kept, cycle, plain = [object()], _Node(), [[1, 2, 3]]
    gone, inner = weakref.ref(cycle), plain[0]
    assert _in_a_generation(kept) and _in_a_generation(cycle)
    freezer.tick()
    assert thawed.freezes == 1
    assert not _in_a_generation(kept) and not _in_a_generation(cycle)
    assert gc.get_freeze_count() > 0
    frozen = gc.get_freeze_count()
    del plain
    assert gc.get_freeze_count() == frozen - 1  # the list freed at once by reference counting, frozen or not
    assert inner == [1, 2, 3]
    del cycle
    gc.collect()
    assert gone() is not None  # a dead cycle, frozen: no pass walks it
    freezer.full_pass()
    assert gone() is None
    assert thawed.full_passes == 1 and freezer.base == gc.get_freeze_count() == thawed.frozen
    assert not _in_a_generation(kept)  # what lived is frozen again


def test_the_full_pass_waits_for_the_frozen_objects_to_grow_by_its_share(thawed: collector.Pauses) -> None:
    freezer = collector.Freezer(growth=0.25, pauses=thawed)
    freezer.full_pass()
    base = freezer.base
    assert not freezer.check() and thawed.full_passes == 1
    grown = [[k] for k in range(base // 5)]  # 20 % more frozen: under the share
    freezer.tick()
    assert not freezer.check() and thawed.frozen == pytest.approx(base * 1.2, rel=0.02)
    grown += [[k] for k in range(base // 10)]  # 30 %: over it
    freezer.tick()
    assert freezer.check() and thawed.full_passes == 2
    assert freezer.base >= base + len(grown)  # the living stay frozen: the next pass counts from here
    del grown


@pytest.fixture
def served_thresholds() -> Iterator[None]:
    """No young pass, as in a served process (none below a million net allocations within one freeze interval):
    here the collector is off meanwhile, since a test process's heap, which the tests below make more of, may be
    larger than that million. Its counts go on as in a served process; restored afterwards."""
    saved, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(*collector.THRESHOLDS)
    gc.disable()
    try:
        yield
    finally:
        gc.set_threshold(*saved)
        if enabled:
            gc.enable()


def test_the_bound_kept_at_each_freeze_is_never_below_the_frozen_objects(thawed: collector.Pauses,
                                                                         served_thresholds: None) -> None:
    """Each freeze adds the young count (net allocations since the last one) to the bound: objects made add to it,
    objects freed meanwhile take from it only as far as the count goes, so it never falls below the frozen objects
    (their count, a walk, then sets it back to what it is)."""
    freezer = collector.Freezer(pauses=thawed)
    freezer.tick()
    freezer.check()
    counted = freezer.bound
    assert counted == thawed.frozen >= gc.get_freeze_count() and thawed.counts == 1  # frees only lower it
    made = [[k] for k in range(5000)]
    freezer.tick()
    assert freezer.bound >= counted + 5000
    assert freezer.bound >= gc.get_freeze_count()
    del made[:4000]  # frozen ones freed: the next interval's count starts from zero and cannot go below it
    more = [[k] for k in range(1000)]
    freezer.tick()
    assert freezer.bound >= gc.get_freeze_count()
    freezer.check()
    assert gc.get_freeze_count() <= freezer.bound == thawed.frozen < counted + 5000
    del made, more


def test_a_flood_of_cycles_that_died_frozen_is_freed_before_the_periodic_count(thawed: collector.Pauses,
                                                                               served_thresholds: None) -> None:
    """No young pass runs in a served process, so every dead cycle is frozen; the freezer does not wait for its
    periodic count (here an hour away) to free them once they may be ``bound_growth`` of the frozen objects (a
    tenth here, so that the test makes fewer of them than the served share, the live heap): the bound read at each
    freeze starts a count, and the count a full pass. Fewer of them wait for the periodic count."""
    freezer = collector.Freezer(every=0.01, check_every=3600.0, bound_growth=0.1, bound_min=0, pauses=thawed)
    freezer.tick()  # what lives now frozen, as a served process's start-up heap is: the base of the growth

    async def run() -> tuple[int, bool, list[weakref.ref[_Node]]]:
        freezer.start(asyncio.get_running_loop())
        base = freezer.base
        few = [_Node() for _ in range(base // 20)]  # 5 % more, dead: the bound is under its share
        del few
        await asyncio.sleep(0.2)
        waited = thawed.full_passes == 0 and thawed.counts == 0
        cycles = [_Node() for _ in range(base // 5)]  # 20 % more: over it
        refs = [weakref.ref(c) for c in cycles[::97]]
        del cycles
        started = time.monotonic()
        while thawed.full_passes == 0 and time.monotonic() - started < 60:
            await asyncio.sleep(0.01)
        freezer.stop()
        return base, waited, refs

    base, waited, refs = asyncio.run(run())
    assert waited
    assert thawed.full_passes == 1 and thawed.counts == 1
    assert all(r() is None for r in refs)
    assert gc.get_freeze_count() <= freezer.base == freezer.bound < base * 1.1


def test_the_bounds_count_walks_the_heap_only_when_it_doubled(thawed: collector.Pauses) -> None:
    """Under churn the bound overstates the growth (frees in an interval whose count is at zero are not taken
    from it): its count runs a full pass only at a doubling, and the periodic count at a quarter."""
    freezer = collector.Freezer(bound_min=0, pauses=thawed)
    freezer.full_pass()
    base = freezer.base
    grown = [[k] for k in range(base * 2 // 5)]  # 40 % more, alive
    freezer.tick()
    assert not freezer.check(prompt=True) and thawed.full_passes == 1 and thawed.counts == 1
    assert freezer.check() and thawed.full_passes == 2 and thawed.counts == 2
    del grown


def test_a_heap_smaller_than_the_floor_is_not_walked_at_its_doublings(thawed: collector.Pauses) -> None:
    """A server just started fills up: its heap doubles more than once. Before a million objects more the bound's
    count runs no full pass (the periodic count still does, at a quarter)."""
    freezer = collector.Freezer(pauses=thawed)
    freezer.full_pass()
    base = freezer.base
    assert freezer.prompt_limit() == base + max(base, collector.BOUND_MIN)
    freezer.bound_min = 3 * base  # this process's heap stands for a server's start-up heap
    grown = [[k] for k in range(base * 5 // 2)]  # two and a half times as many again, alive
    freezer.tick()
    assert not freezer.check(prompt=True) and thawed.full_passes == 1
    grown += [[k] for k in range(base)]
    freezer.tick()
    assert freezer.check(prompt=True) and thawed.full_passes == 2
    del grown


def test_the_freezer_runs_on_the_event_loop_until_stopped(thawed: collector.Pauses) -> None:
    """Its ticks are timer callbacks of the loop (never a thread, which could meet a collection under way), its
    check comes every ``check_every`` seconds, and ``stop`` ends both."""
    freezer = collector.Freezer(every=0.01, check_every=0.05, growth=100.0, pauses=thawed)

    async def run() -> tuple[int, int]:
        freezer.tick()  # what lives now frozen, as a served process's start-up heap is: the base of the growth
        freezer.start(asyncio.get_running_loop())
        started = time.monotonic()
        while thawed.freezes < 10 and time.monotonic() - started < 60:
            await asyncio.sleep(0.01)
        counted = thawed.frozen
        while thawed.frozen == counted and time.monotonic() - started < 60:  # a check after start's count
            _ = [[k] for k in range(1000)]
            await asyncio.sleep(0.01)
        freezer.stop()
        stopped = thawed.freezes
        await asyncio.sleep(0.1)
        return stopped, thawed.freezes

    stopped, later = asyncio.run(run())
    assert stopped >= 10 and later == stopped
    assert thawed.full_passes == 0


def test_a_process_the_server_did_not_tune_gets_no_freezer(monkeypatch: pytest.MonkeyPatch) -> None:
    """An app built in a test or an embedding program leaves the process's collector alone."""
    monkeypatch.setattr(collector, "_tuned", False)

    async def run() -> object:
        return collector.start()

    assert asyncio.run(run()) is None


def test_the_served_process_tunes_its_collector_and_health_reports_it(tmp_path: Path) -> None:
    """``spacetable serve``: the thresholds are :data:`collector.THRESHOLDS`, start-up's objects are frozen, and its
    freezer runs on its event loop while it serves (a freeze also restarts the young generation's count: no young
    pass here)."""
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
            started = time.monotonic()
            while time.monotonic() - started < 60:  # a freeze every quarter of a second; a busy machine may be slower
                mid = client.post("/api/matches", json={"game": "tremble", "join_seat": 0}).json()["match"]["id"]
                client.get(f"/api/matches/{mid}")
                last = client.get("/health").json()["gc"]
                if last["freezes"] >= first["freezes"] + 4:
                    break
        assert last["freezes"] >= first["freezes"] + 4
        assert last["frozen"] >= first["frozen"] and last["full_passes"] == 0  # grown < 25 %
        assert last["passes"][0] == first["passes"][0]
        assert len(last["passes"]) == len(last["pause_seconds"]) == 3
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
