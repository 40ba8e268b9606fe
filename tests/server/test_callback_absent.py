"""Absent players (issue 21): a lapsed turn clock hands the seat to the computer, or forfeits (the default); the
policy is chosen before the first move by a seated player."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.app import create_app

from .conftest import create, join, lenient_limits

pytestmark = pytest.mark.callback


def wait_for(c: TestClient, mid: str, pred: Any, timeout: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        s: dict[str, Any] = c.get(f"/api/matches/{mid}").json()
        if pred(s):
            return s
        assert time.monotonic() < end, s
        time.sleep(0.05)


def act(c: TestClient, mid: str, seat: int, token: str, version: int, action: dict[str, Any]) -> Any:
    return c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": token, "version": version, "action": action})


def test_lapsed_seats_go_to_the_computer(nim: None, db_url: str) -> None:
    """The policy is chosen while the match waits for its players; then nobody moves: each lapsed seat in turn is
    handed to the computer, which plays on (no timeout move is ever played)."""
    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as c:
        data = create(c, "nim", config={"heaps": 2, "size": 3}, seed=4, open_seed=True, join_seat=0, turn_seconds=1)
        mid, t0 = data["match"]["id"], data["token"]
        # hostile: no token, an unknown policy, an unknown agent change nothing
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "computer"}).status_code == 403
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "explode"},
                     headers={"X-Seat-Token": t0}).status_code == 422
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "computer", "agent": "nope"},
                     headers={"X-Seat-Token": t0}).status_code == 422
        assert c.get(f"/api/matches/{mid}/lapse").json() == {"lapse": "forfeit", "agent": None}
        r = c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "computer"}, headers={"X-Seat-Token": t0})
        assert r.status_code == 200, r.text
        assert c.get(f"/api/matches/{mid}/lapse").json()["lapse"] == "computer"
        t1 = join(c, mid, 1)
        s = wait_for(c, mid, lambda s: s["seats"][0]["kind"] == "ai" and s["version"] >= 1)
        log = c.get(f"/api/matches/{mid}/state").json()["log"]
        assert log[0]["source"] == "ai" and log[0]["seat"] == 0
        # too late to change the policy once a move was played; seat 0's old token no longer acts
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 1, "lapse": "forfeit"},
                     headers={"X-Seat-Token": t1}).status_code == 409
        assert act(c, mid, 0, t0, s["version"], {"type": "take", "heap": 0, "count": 1}).status_code == 403
        s = wait_for(c, mid, lambda s: s["status"] == "finished")
        log = c.get(f"/api/matches/{mid}/state").json()["log"]
        assert {e["source"] for e in log} == {"ai"} and s["outcome"]["kind"] != "resignation"
        assert [seat["kind"] for seat in s["seats"]] == ["ai", "ai"]


def test_default_policy_forfeits(nim: None, db_url: str) -> None:
    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as c:
        data = create(c, "nim", seed=4, open_seed=True, join_seat=0, turn_seconds=1)
        mid, t0 = data["match"]["id"], data["token"]
        join(c, mid, 1)
        assert act(c, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        s = wait_for(c, mid, lambda s: s["status"] == "finished")
        assert s["outcome"]["winners"] == [0] and s["seats"][1]["kind"] == "human"
