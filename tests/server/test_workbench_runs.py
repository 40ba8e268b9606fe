"""Balance runs of the workbench (issue 25, goal 3): the run engine plays the game's own simulation (the records
of ``spacetable simulate`` for the same seeds), beside the bundled set's run (cached); runs are bounded (games,
one user's runs, the server's queue), cancellable, stored (a finished result survives a restart, a lost run is
marked failed), and hostile requests get a 4xx that changes nothing."""

from __future__ import annotations

import contextlib
import copy
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from spacetable.games.tremble.cards import HOUSE_DIR, content_key, set_document
from spacetable.games.tremble.simulate import simulate
from spacetable.server.app import create_app
from spacetable.server.errors import ServiceError
from spacetable.server.workbench_runs import STALE_SECONDS, RunRow, wilson

from .conftest import lenient_limits

pytestmark = [pytest.mark.workbench, pytest.mark.timeout(300)]


def house() -> dict[str, Any]:
    return set_document(HOUSE_DIR)


def edited() -> dict[str, Any]:
    doc = house()
    ship = next(s for s in doc["ships"] if s["id"] == "watch_saucer")
    ship["price"] = 10000
    return doc


def make_client(db: Path, **workbench: Any) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", ai_workers=0, limits=lenient_limits(), workbench=workbench))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "wb.sqlite3", per_user=2, max_games=2000) as c:
        yield c


def start(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/workbench/runs", json={"game": "tremble", "kind": "card_sets", "seed": 5, "ai": "random",
                                          "players": 3, **body})
    assert r.status_code == 202, r.text
    out: dict[str, Any] = r.json()
    return out


def wait(c: TestClient, run_id: str, until: tuple[str, ...] = ("done", "cancelled", "failed"),
         limit: float = 240) -> dict[str, Any]:
    """Poll until the run is in one of ``until`` (a generous limit: the machine may be busy)."""
    deadline = time.monotonic() + limit
    while True:
        r = c.get(f"/api/workbench/runs/{run_id}")
        assert r.status_code == 200, r.text
        run: dict[str, Any] = r.json()
        if run["state"] in until and (run["state"] != "done" or "bundled" in run):
            return run
        assert time.monotonic() < deadline, run
        time.sleep(0.05)


def test_a_run_plays_the_simulation_of_the_edited_and_the_bundled_set_with_the_same_seeds(client: TestClient) -> None:
    run = start(client, content=edited(), games=6)
    assert run["state"] in ("queued", "running") and run["total"] == 12  # its games and the bundled set's
    done = wait(client, run["id"])
    assert done["state"] == "done" and done["done"] == 12
    games = client.get(f"/api/workbench/runs/{run['id']}/games").json()
    # the same records as `spacetable simulate tremble` with these seeds: the edited set's and the house set's
    assert games["games"] == simulate(3, 6, 5, ["random"], card_set=content_key(edited()), progress=False)
    assert games["bundled"] == simulate(3, 6, 5, ["random"], progress=False)
    res, bun = done["result"], done["bundled"]
    assert res["games"] == bun["games"] == 6 and len(res["seat_win_rate"]) == 3
    for rate, (lo, hi) in zip(res["seat_win_rate"], res["seat_win_ci"], strict=True):
        assert lo <= rate <= hi
    assert sum(res["score_histogram"]["counts"]) == 18 and sum(res["battles_histogram"]["counts"]) == 6
    assert set(res["win_when_bought_ci"]) == set(res["purchase_rate"])
    # the same parameters again: the bundled run is reused (its games are not played twice)
    again = start(client, content=edited(), games=6)
    assert again["total"] == 6
    second = wait(client, again["id"])
    assert second["bundled"] == done["bundled"]
    assert client.get(f"/api/workbench/runs/{again['id']}/games").json()["games"] == games["games"]


def test_the_bundled_set_itself_is_its_own_comparison(client: TestClient) -> None:
    run = start(client, content=house(), games=3)
    assert run["total"] == 3
    done = wait(client, run["id"])
    assert done["result"] == done["bundled"]


def test_no_reader_sees_a_runs_figures_while_it_still_says_it_is_running(client: TestClient, monkeypatch: Any) -> None:
    """After every write of the run engine, a reader sees a run either running without both sets' figures, or
    done with them: the last part's figures and the run's "done" are one transaction. (The page shows the figures
    as soon as both are there, and the status beside them must agree.)"""
    from spacetable.server import workbench_runs

    seen: list[tuple[str, bool, bool]] = []
    real_begin = workbench_runs.store_begin

    @contextlib.contextmanager
    def begin(engine: Any) -> Iterator[Any]:
        with real_begin(engine) as conn:
            yield conn
        with engine.connect() as read:
            rows = {r.id: r for r in read.execute(sa.select(RunRow.id, RunRow.owner, RunRow.state, RunRow.result,
                                                                 RunRow.bundled_id))}
        for r in rows.values():
            if r.owner:
                b = rows.get(r.bundled_id) if r.bundled_id else None
                seen.append((r.state, r.result is not None, b is not None and b.result is not None))

    monkeypatch.setattr(workbench_runs, "store_begin", begin)
    first = wait(client, start(client, content=edited(), games=3)["id"])  # its games, then the bundled set's
    second = wait(client, start(client, content=edited(), seed=6, games=2)["id"])
    other = edited()
    other["ships"][0]["price"] += 10000
    cached = start(client, content=other, seed=6, games=2)
    assert cached["total"] == 2  # the bundled part is the second run's: this run has one part
    cached = wait(client, cached["id"])
    assert [r["state"] for r in (first, second, cached)] == ["done"] * 3
    assert ("done", True, True) in seen
    assert [s for s in seen if s[0] != "done" and s[1] and s[2]] == []


def test_a_run_is_cancelled_and_its_bundled_part_is_not_reused(client: TestClient) -> None:
    run = start(client, content=edited(), games=2000)
    wait(client, run["id"], until=("running",))
    r = client.delete(f"/api/workbench/runs/{run['id']}")
    assert r.status_code == 200 and r.json()["state"] == "cancelled"
    client.portal.call(client.app.state.workbench_runs.wait, run["id"])  # type: ignore[union-attr]
    after = client.get(f"/api/workbench/runs/{run['id']}").json()
    assert after["state"] == "cancelled" and after["done"] < after["total"] and "result" not in after
    assert after["bundled_state"] == "cancelled"
    # a later run with the same parameters plays the bundled set again rather than waiting on a cancelled one
    assert start(client, content=edited(), games=2000)["total"] == 4000


def test_bounds_games_user_and_queue(tmp_path: Path) -> None:
    with make_client(tmp_path / "b.sqlite3", per_user=1, max_games=50, max_active=2) as c:
        body = {"game": "tremble", "kind": "card_sets", "content": edited(), "ai": "random", "players": 2}
        assert c.post("/api/workbench/runs", json={**body, "games": 51}).json()["error"]["code"] == "bad_request"
        first = c.post("/api/workbench/runs", json={**body, "games": 50})
        assert first.status_code == 202
        # one unfinished run per user: the second is refused and nothing is stored
        second = c.post("/api/workbench/runs", json={**body, "games": 5, "seed": 9})
        assert second.status_code == 429 and second.json()["error"]["code"] == "wb_too_many_runs"
        runs = c.app.state.workbench_runs  # type: ignore[attr-defined]
        assert runs._active("address:testclient") == 1
        # the server's queue: another user fills it
        async def submit(owner: str) -> str:
            return str(runs.submit(owner, "tremble/card_sets", None, 5, 3, 2, "random"))

        c.portal.call(submit, "address:other")  # type: ignore[union-attr]
        with pytest.raises(ServiceError) as full:
            c.portal.call(submit, "address:third")  # type: ignore[union-attr]
        assert full.value.status == 429 and full.value.code == "wb_runs_full"
        c.delete(f"/api/workbench/runs/{first.json()['id']}")


@pytest.mark.parametrize(("change", "status", "code"), [
    ({"kind": "maps", "game": "fullmetal"}, 404, "wb_no_balance"),
    ({"game": "../etc"}, 422, "bad_request"),
    ({"games": 0}, 422, "bad_request"),
    ({"games": 10**9}, 422, "bad_request"),
    ({"seed": -1}, 422, "bad_request"),
    ({"players": 9}, 422, "bad_request"),
    ({"ai": "mcts"}, 422, "bad_request"),
    ({"extra": 1}, 422, "bad_request"),
    ({"content": None}, 422, "bad_request"),
    ({"set_id": "x", "content": None}, 404, "no_such_set"),
    ({"set_id": "x"}, 422, "bad_request"),
])
def test_hostile_requests_are_refused_and_store_nothing(client: TestClient, change: dict[str, Any], status: int,
                                                        code: str) -> None:
    body = {"game": "tremble", "kind": "card_sets", "content": edited(), "games": 5, "seed": 1, "ai": "random",
            **change}
    r = client.post("/api/workbench/runs", json=body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code
    assert runs_stored(client) == 0


def test_invalid_or_oversized_content_is_refused_with_the_reason(client: TestClient) -> None:
    bad = edited()
    bad["ships"][1]["price"] = -10000
    r = client.post("/api/workbench/runs", json={"game": "tremble", "kind": "card_sets", "content": bad, "games": 5})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_content"
    assert any(p["path"] == "ships[1].price" for p in r.json()["error"]["problems"])
    big = copy.deepcopy(edited())
    big["set"]["notes"] = "x" * 600_000
    r = client.post("/api/workbench/runs", json={"game": "tremble", "kind": "card_sets", "content": big, "games": 5})
    assert r.status_code == 413
    assert runs_stored(client) == 0


def test_unknown_runs_and_other_users_cancels(client: TestClient) -> None:
    for rid in ("nope", "../../etc/passwd", "0" * 24):
        assert client.get(f"/api/workbench/runs/{rid}").status_code == 404
    run = start(client, content=edited(), games=3)
    runs = client.app.state.workbench_runs  # type: ignore[attr-defined]
    with pytest.raises(ServiceError) as refused:
        runs.cancel(run["id"], "address:somebody-else")
    assert refused.value.status == 403
    assert wait(client, run["id"])["state"] == "done"


def test_a_finished_result_survives_a_restart_and_a_lost_run_is_marked_failed(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    with make_client(db) as c:
        run = start(c, content=edited(), games=3)
        done = wait(c, run["id"])
        engine = c.app.state.service.storage.engine  # type: ignore[attr-defined]
        old = time.time() - STALE_SECONDS - 5
        with engine.begin() as conn:  # a run that a stopped server process was playing
            conn.execute(RunRow.__table__.insert().values(
                id="ab" * 12, owner="address:testclient", kind="tremble/card_sets", state="running", done=7, total=20,
                params=json.dumps({"games": 10, "seed": 1, "players": 2, "ai": "random", "label": "x"}),
                created_at=old, beat_at=old))
    with make_client(db) as c:
        again = c.get(f"/api/workbench/runs/{run['id']}").json()
        assert again["result"] == done["result"] and again["bundled"] == done["bundled"]
        lost = c.get(f"/api/workbench/runs/{'ab' * 12}").json()
        assert lost["state"] == "failed" and "restart" in lost["error"]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def runs_stored(c: TestClient) -> int:
    engine = c.app.state.service.storage.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return len(conn.execute(RunRow.__table__.select()).all())


def test_old_runs_are_pruned_per_user(tmp_path: Path) -> None:
    with make_client(tmp_path / "k.sqlite3", kept=2, per_user=1) as c:
        ids = []
        for seed in range(4):
            run = start(c, content=edited(), games=1, seed=seed, players=2)
            wait(c, run["id"])
            ids.append(run["id"])
        # the newest finished runs stay (the pruning happens when a run starts), with their bundled runs only
        assert [c.get(f"/api/workbench/runs/{i}").status_code for i in ids] == [404, 200, 200, 200]
        assert runs_stored(c) == 6


def test_balance_runs_come_from_the_games_hooks_and_a_game_without_one_is_refused_with_the_reason(
        client: TestClient) -> None:
    from spacetable.games import get_game

    kinds = client.get("/api/workbench/runs/kinds").json()
    keys = [k["key"] for k in kinds]
    assert {"tremble/card_sets", "galaxies/packs"} <= set(keys) and keys == sorted(keys)
    tremble = next(k for k in kinds if k["key"] == "tremble/card_sets")
    hooks = get_game("tremble").balance_hooks()
    assert hooks is not None and tremble["ais"] == list(hooks.ais) and tremble["bundled"] == hooks.bundled
    assert get_game("arena").balance_hooks() is None and not any(k.startswith("arena/") for k in keys)
    for game, kind, reason in (("arena", "packs", "arena lends no balance runs"),
                               ("tremble", "other", "tremble balance-tests tremble/card_sets only"),
                               ("nogame", "packs", "no such game")):
        r = client.post("/api/workbench/runs", json={"game": game, "kind": kind, "content": {}, "games": 5})
        assert r.status_code == 404, r.text
        assert r.json()["error"]["code"] == "wb_no_balance" and reason in r.json()["error"]["message"]
    assert runs_stored(client) == 0
