"""What the learning features keep in the database (issue 22; migration 0008): a finished analysis is handed out
again after a restart without running again, the cache stays bounded, the hints a seat asked for survive a restart
and show in the match's record, and a signed-in account's tutorial progress is kept (never moved back)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server import analysis_jobs
from spacetable.server.accounts.service import SESSION_COOKIE, AccountService
from spacetable.server.app import create_app
from spacetable.server.learn import store as learn_store_module
from spacetable.server.learn.store import learn_store
from spacetable.server.routes.guides import tutorial_steps

from .conftest import browser, create, join, lenient_limits

pytestmark = [pytest.mark.learn, pytest.mark.usefixtures("nim")]


def app_client(db_url: str) -> TestClient:
    return TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits()))


def act(client: TestClient, mid: str, seat: int, token: str, version: int, action: dict[str, object]) -> None:
    r = client.post(f"/api/matches/{mid}/actions",
                    json={"seat": seat, "token": token, "version": version, "action": action})
    assert r.status_code == 200, r.text


def wait_done(client: TestClient, mid: str) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for _ in range(1200):  # wait for the condition, not for a time
        answer = client.get(f"/api/matches/{mid}/analysis").json()
        if answer["status"] in ("done", "failed"):
            break
        time.sleep(0.05)
    assert answer["status"] == "done", answer
    return answer


def test_an_analysis_survives_a_restart_and_is_not_run_again(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with app_client(db_url) as c:
        data = create(c, "nim", config={"heaps": 1, "size": 3}, seed=5, open_seed=True, join_seat=0,
                      player_name="Ann")
        mid, t0 = data["match"]["id"], data["token"]
        t1 = join(c, mid, 1, "Bob")
        act(c, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1})
        act(c, mid, 1, t1, 1, {"type": "take", "heap": 0, "count": 2})
        c.post(f"/api/matches/{mid}/analysis")
        first = wait_done(c, mid)
    runs: list[str] = []
    monkeypatch.setattr(analysis_jobs, "run_analysis", lambda record, seed: runs.append("ran") or {})
    with app_client(db_url) as c:  # a new server process on the same database
        assert c.get(f"/api/matches/{mid}/analysis").json() == first
        assert c.post(f"/api/matches/{mid}/analysis").json() == first
        store = learn_store(c.app.state.service.storage)  # type: ignore[attr-defined]
        assert c.portal.call(store.analyses_kept) == 1  # type: ignore[union-attr]
    assert runs == []


def test_the_analysis_cache_is_bounded(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learn_store_module, "MAX_ROWS", 3)
    monkeypatch.setattr(learn_store_module, "MAX_RESULT_CHARS", 200)
    with app_client(db_url) as c:
        store = learn_store(c.app.state.service.storage)  # type: ignore[attr-defined]
        call = c.portal.call  # type: ignore[union-attr]
        now = time.time()
        old = now - (learn_store_module.KEEP_DAYS + 1) * 86400
        assert call(store.keep_analysis, "ancient", 4, "k", {"a": 1}, old)
        for i in range(5):
            assert call(store.keep_analysis, f"m{i}", 2, "k", {"i": i}, now + i)
        assert call(store.analyses_kept) == 3  # the newest three; the one past its retention went first
        assert call(store.analysis, "ancient", 4, "k") is None and call(store.analysis, "m0", 2, "k") is None
        assert call(store.analysis, "m4", 2, "k") == {"i": 4}
        assert call(store.analysis, "m4", 3, "k") is None and call(store.analysis, "m4", 2, "other") is None
        assert not call(store.keep_analysis, "big", 1, "k", {"x": "y" * 500})  # too large: not stored
        assert call(store.analysis, "big", 1, "k") is None


def test_hints_are_counted_in_the_database_and_shown_in_the_record(db_url: str) -> None:
    with app_client(db_url) as c:
        data = create(c, "nim", config={"heaps": 1, "size": 9}, join_seat=0, player_name="Ann", ai_seats={"1": "random"})
        mid, t0 = data["match"]["id"], data["token"]
        for n in (1, 2):
            r = c.post(f"/api/matches/{mid}/hint", json={"seat": 0, "token": t0})
            assert r.status_code == 200 and r.json()["hints_used"] == n, r.text
    with app_client(db_url) as c:  # restarted: the count goes on from the database
        r = c.post(f"/api/matches/{mid}/hint", json={"seat": 0, "token": t0})
        assert r.json()["hints_used"] == 3
        assert c.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": t0, "version": 0,
                                                           "action": {"type": "resign"}}).status_code == 200
        assert c.get(f"/api/matches/{mid}/replay").json()["hints"] == {"0": 3}
        assert c.get(f"/api/matches/{mid}/review").json()["hints"] == {"0": 3}
        assert c.get(f"/api/matches/{mid}/export").json()["meta"]["hints"] == {"0": 3}


@pytest.fixture
def signed_in(db_url: str) -> Iterator[tuple[TestClient, str, str]]:
    """A client signed in as a new account (made in the database directly: sign-up itself is tested elsewhere)."""
    with app_client(db_url) as c:
        accounts: AccountService = c.app.state.accounts  # type: ignore[attr-defined]
        row = accounts.new_row("learner", "learner", "Learner", "en")

        async def make() -> tuple[str, str]:
            await accounts.storage.write(lambda tx: accounts._insert_account(tx, row))
            return await accounts.open_session(row["id"], "test", None)

        cookie, csrf = c.portal.call(make)  # type: ignore[union-attr]
        c.cookies.set(SESSION_COOKIE, cookie)
        yield c, csrf, row["id"]


def test_tutorial_progress_kept_with_the_account(signed_in: tuple[TestClient, str, str]) -> None:
    c, csrf, _ = signed_in
    steps = tutorial_steps()
    assert set(steps) == {"arena", "fullmetal", "galaxies", "tremble", "worlds"} and min(steps.values()) > 3
    assert c.get("/api/account/tutorials").json() == {"progress": {}}
    h = {"X-CSRF-Token": csrf}
    assert c.post("/api/account/tutorials/arena", json={"step": 3}).status_code == 403  # no CSRF token
    r = c.post("/api/account/tutorials/arena", json={"step": 3}, headers=h)
    assert r.status_code == 200 and r.json() == {"game": "arena", "step": 3, "done": False, "steps": steps["arena"]}
    c.post("/api/account/tutorials/arena", json={"step": 1}, headers=h)  # a restarted tutorial: never moved back
    c.post("/api/account/tutorials/worlds", json={"step": steps["worlds"] - 1, "done": True}, headers=h)
    c.post("/api/account/tutorials/worlds", json={"step": 0}, headers=h)  # done stays done
    got = c.get("/api/account/tutorials").json()["progress"]
    assert got == {"arena": {"step": 3, "done": False, "steps": steps["arena"]},
                   "worlds": {"step": steps["worlds"] - 1, "done": True, "steps": steps["worlds"]}}
    # hostile inputs change nothing
    assert c.post("/api/account/tutorials/chess", json={"step": 1}, headers=h).status_code == 404
    assert c.post("/api/account/tutorials/arena", json={"step": 10**6}, headers=h).status_code == 422
    assert c.post("/api/account/tutorials/arena", json={"step": steps["arena"]}, headers=h).status_code == 422
    assert c.post("/api/account/tutorials/arena", json={"step": -1}, headers=h).status_code == 422
    assert c.post("/api/account/tutorials/arena", json={"step": 1, "x": 1}, headers=h).status_code == 422
    assert c.get("/api/account/tutorials").json()["progress"] == got
    assert c.get("/api/account/export").json()["tutorials"][0]["game"] == "arena"
    signed_out = browser(c)
    assert signed_out.get("/api/account/tutorials").status_code == 401
    assert signed_out.post("/api/account/tutorials/arena", json={"step": 1}).status_code == 401


def test_hint_refused_in_a_rated_match(signed_in: tuple[TestClient, str, str]) -> None:
    c, csrf, _ = signed_in
    r = c.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 1, "size": 5}, "rated": True},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    mid, seat, token = r.json()["match"]["id"], r.json()["seat"], r.json()["token"]
    r = c.post(f"/api/matches/{mid}/hint", json={"seat": seat, "token": token})
    assert r.status_code == 403 and r.json()["error"]["code"] == "hint_refused"
    assert c.portal.call(learn_store(c.app.state.service.storage).hints, mid) == {}  # type: ignore[attr-defined,union-attr]
