"""Issue 26: the benchmark's own measures of what the server and the framework cost by themselves work: the floor
game (``bench/floor_game.py``) plays through the real server to its end, ``bench/framework_floor.py`` relays
actions and prints its table, and ``bench/server_load.py`` reads the server's CPU over the window it counts actions
in. Nothing here is timed; the figures are the benches' (docs/architecture.md)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient

from spacetable.games import unregister_game
from spacetable.server.app import create_app

from .conftest import create, join, lenient_limits

pytestmark = pytest.mark.hotpath
BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def floor() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("floor_game", BENCH / "floor_game.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    module.register()
    yield module
    unregister_game(module.ID)


def test_the_floor_game_plays_through_the_server_to_its_end(floor: ModuleType, sqlite_url: str) -> None:
    """Two seats take turns with their one move; after ``steps`` each the match is over, as the bench expects."""
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        made = create(c, floor.ID, config={"steps": 3}, join_seat=0)
        mid = made["match"]["id"]
        tokens = [made["token"], join(c, mid, 1)]
        version = 0
        while True:
            match = c.get(f"/api/matches/{mid}").json()
            if match["status"] == "finished":
                break
            seat = match["to_act"][0]
            legal = c.get(f"/api/matches/{mid}/legal", params={"seat": seat}, headers={"X-Seat-Token": tokens[seat]}).json()
            assert legal["actions"] == [{"type": "step"}]
            r = c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": tokens[seat], "version": version,
                                                            "action": {"type": "step"}})
            assert r.status_code == 200, r.text
            version += 1
        assert version == 6 and match["outcome"]["winners"] == [0]


def test_the_framework_floor_relays_and_prints_its_table() -> None:
    out = subprocess.run([sys.executable, str(BENCH / "framework_floor.py"), "--tables", "4", "--ramp", "1",
                          "--seconds", "2"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith("| FastAPI"))
    actions_per_second = float(row.split("|")[2].replace(",", ""))
    assert actions_per_second > 0


def test_the_servers_own_path_bench_plays_and_prints_its_table() -> None:
    """``bench/server_path.py``: the service's own path in-process (no HTTP, no sockets) plays matches of a game to
    the asked number of actions, with set-ups, and prints its table with the meter's split."""
    out = subprocess.run([sys.executable, str(BENCH / "server_path.py"), "--game", "arena,worlds", "--tables", "3",
                          "--actions", "60"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in out.stdout.splitlines() if line.startswith(("| arena", "| worlds"))}
    assert set(rows) == {"arena", "worlds"}
    for cells in rows.values():
        assert int(cells[0].replace(",", "")) >= 60 and int(cells[1]) >= 1  # actions (a move under way may pass it), matches
        assert float(cells[2]) > 0  # server CPU per action



def test_the_setup_bench_measures_requests_and_sockets_and_prints_its_table() -> None:
    """``bench/server_setup.py``: a match's set-up alone (the lobby's requests, then the seats' sockets) through a real
    server, for a two-seat game and a game of more seats, with the share of the server's other threads."""
    for game in ("arena", "tremble"):
        out = subprocess.run([sys.executable, str(BENCH / "server_setup.py"), "--game", game, "--count", "4"],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        row = next(line for line in out.stdout.splitlines() if line.startswith("| this checkout"))
        requests, other_threads, sockets, _, total = (float(c) for c in row.split("|")[3:-1])
        # CPU time from /proc counts in ticks of 10 ms: four set-ups may read 0 on a fast machine, never below it
        assert requests >= 0 and sockets >= 0 and 0 <= other_threads <= requests
        assert abs(total - requests - sockets) < 0.02
    refused = subprocess.run([sys.executable, str(BENCH / "server_setup.py"), "--count", "0"], capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 2 and "at least 1" in refused.stderr

def server_load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("server_load", BENCH / "server_load.py")
    assert spec is not None and spec.loader is not None
    sl = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(sl)
    return sl


def test_the_load_bench_reads_the_server_over_the_measured_window_only(sqlite_url: str) -> None:
    """``bench/server_load.py``'s CPU per action is the server's CPU over the window whose actions it counts: read when
    the window opens, after the ramp (set-ups of every table at once, actions not counted), and when it closes, not
    around the whole phase (the eighteenth stop found the ramp and the end counted: 0.71 against 0.62 ms an action).
    The clients' CPU is theirs over the same window."""
    sl = server_load()
    port = sl.free_port()
    server = sl.start_server(sqlite_url, port, "warning", game="floor")
    reads: list[float] = []

    def measure() -> dict[str, float]:
        reads.append(time.monotonic())
        return {"server": sl.cpu_seconds(server.pid), "at": reads[-1]}

    args = argparse.Namespace(client_procs=1, game="floor", config='{"steps": 400}', client="sansio", texts=False,
                              deflate=False)
    try:
        called = time.monotonic()
        stats = sl.run_phase([f"http://127.0.0.1:{port}"], args, 3, 1.5, 0.0, 1.0, measure=measure)
        returned = time.monotonic()
    finally:
        server.terminate()
        server.wait(30)
    assert len(reads) == 2
    assert reads[0] - called >= 1.0  # after the ramp, not when the phase starts
    assert 1.25 <= reads[1] - reads[0] <= returned - called  # a window apart (a busy machine may wake the first late)
    assert stats.measured["at"] == reads[1] - reads[0] and stats.measured["server"] > 0
    assert stats.actions > 0 and 0 < stats.client_cpu <= reads[1] - reads[0] + 0.5  # one process over the window


def test_the_load_bench_check_names_the_baselines_machine_and_fails_over_the_tolerance(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--check`` prints each ratio to the stored baseline and exits 1 over ``--tolerance``; the baseline records the
    machine that stored it, and a check on another machine says that its ratios compare the machines too (a fresh
    2-core machine read 1.16 to 1.60 of the stored figures with the same commit). ``--save-baseline`` on another
    machine replaces the file's figures rather than mixing two machines' in one file."""
    sl = server_load()
    args = argparse.Namespace(matches=200, seconds=15.0, max_seconds=10.0, texts=False, deflate=False)

    def rows(cpu: float) -> list[dict[str, str]]:
        return [{"game": "arena", "setup": "SQLite (WAL)", "phase": phase, "server CPU ms/action": f"{cpu:.2f}",
                 "actions/s": "1,000", "p99 ms": "30.0"} for phase in ("paced", "max")]

    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"machine": "2 x another CPU, Python 3.11.7",
                                "rows": {"tremble|SQLite (WAL)|paced": {"server_cpu_ms": 3.0, "actions_per_s": 300.0}}}))
    sl.save_baseline(rows(0.80), path, args)
    stored = json.loads(path.read_text())
    assert stored["machine"] == sl.machine() and sl.machine().startswith(f"{os.cpu_count()} x ")
    assert sorted(stored["rows"]) == ["arena|SQLite (WAL)|max", "arena|SQLite (WAL)|paced"]  # the other's went
    capsys.readouterr()

    assert sl.check(rows(0.80), path, 1.25) == 0
    out = capsys.readouterr().out
    assert "arena|SQLite (WAL)|paced: server CPU per action 0.80 ms / 0.80 = 1.00" in out
    assert "stored on" not in out and "within the tolerance" in out

    assert sl.check(rows(1.04), path, 1.25) == 1  # 1.30 of the baseline
    assert "= 1.30" in (out := capsys.readouterr().out) and "worse than the tolerance" in out

    path.write_text(json.dumps({**stored, "machine": "2 x another CPU, Python 3.11.7"}))
    assert sl.check(rows(0.80), path, 1.25) == 0
    assert "the baseline was stored on 2 x another CPU, Python 3.11.7, this is " + sl.machine() in capsys.readouterr().out


def test_the_load_bench_runs_a_server_under_the_interpreter_it_is_given(sqlite_url: str, tmp_path: Path) -> None:
    """``--against-python``: the other servers run under another interpreter (docs/server.md, "The interpreter"); the
    header names each interpreter by its version and real path. The stand-in interpreter here is this one behind a
    script that records each start."""
    sl = server_load()
    starts = tmp_path / "starts"
    wrapper = tmp_path / "python"
    wrapper.write_text(f'#!/usr/bin/env bash\necho "$*" >> {starts}\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    port = sl.free_port()
    server = sl.start_server(sqlite_url, port, "warning", game="floor", python=str(wrapper))
    try:
        assert sl.health(f"http://127.0.0.1:{port}")["status"] == "ok"
    finally:
        server.terminate()
        server.wait(30)
    assert "floor_game.py" in starts.read_text() and "--port " + str(port) in starts.read_text()
    assert sl.interpreter(str(wrapper)) == f"Python {platform.python_version()} at {os.path.realpath(sys.executable)}"
    assert sl.interpreter() == sl.interpreter(sys.executable)
    refused = subprocess.run([sys.executable, str(BENCH / "server_load.py"), "--against-python", str(tmp_path / "none")],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "not an executable" in refused.stderr
