"""Issue 26: the benchmark's own measures of what the server and the framework cost by themselves work: the floor
game (``bench/floor_game.py``) plays through the real server to its end, ``bench/framework_floor.py`` relays
actions and prints its table, and ``bench/server_load.py`` reads the server's CPU over the window it counts actions
in. Nothing here is timed; the figures are the benches' (docs/architecture.md)."""

from __future__ import annotations

import argparse
import importlib.util
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


def test_the_load_bench_reads_the_server_over_the_measured_window_only(sqlite_url: str) -> None:
    """``bench/server_load.py``'s CPU per action is the server's CPU over the window whose actions it counts: read when
    the window opens, after the ramp (set-ups of every table at once, actions not counted), and when it closes, not
    around the whole phase (the nineteenth stop found the ramp and the end counted: 0.71 against 0.62 ms an action).
    The clients' CPU is theirs over the same window."""
    spec = importlib.util.spec_from_file_location("server_load", BENCH / "server_load.py")
    assert spec is not None and spec.loader is not None
    sl = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(sl)
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
