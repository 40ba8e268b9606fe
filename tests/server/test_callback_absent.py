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


def test_lapsed_seat_goes_to_the_computer(nim: None, db_url: str) -> None:
    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as c:
        data = create(c, "nim", config={"heaps": 2, "size": 3}, seed=4, open_seed=True, join_seat=0, turn_seconds=1)
        mid, t0 = data["match"]["id"], data["token"]
        t1 = join(c, mid, 1)
        # hostile: a wrong token, an unknown policy, an unknown agent change nothing
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "computer"},
                     headers={"X-Seat-Token": t1}).status_code == 403
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "explode"},
                     headers={"X-Seat-Token": t0}).status_code == 422
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "computer", "agent": "nope"},
                     headers={"X-Seat-Token": t0}).status_code == 422
        assert c.get(f"/api/matches/{mid}/lapse").json() == {"lapse": "forfeit", "agent": None}
        r = c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "computer"}, headers={"X-Seat-Token": t0})
        assert r.status_code == 200, r.text
        assert c.get(f"/api/matches/{mid}/lapse").json()["lapse"] == "computer"
        assert act(c, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        # too late to change the policy once a move was played
        assert c.put(f"/api/matches/{mid}/lapse", json={"seat": 0, "lapse": "forfeit"},
                     headers={"X-Seat-Token": t0}).status_code == 409
        # seat 1 never answers: its clock runs out, the computer takes the seat and plays its move
        s = wait_for(c, mid, lambda s: s["seats"][1]["kind"] == "ai" and s["version"] >= 2)
        assert s["status"] == "running" or s["outcome"]["kind"] != "resignation"
        log = c.get(f"/api/matches/{mid}/state").json()["log"]
        assert [e["source"] for e in log[:2]] == ["player", "ai"]
        # the old token of seat 1 no longer acts
        r = act(c, mid, 1, t1, s["version"], {"type": "take", "heap": 1, "count": 1})
        assert r.status_code == 403


def test_default_policy_forfeits(nim: None, db_url: str) -> None:
    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as c:
        data = create(c, "nim", seed=4, open_seed=True, join_seat=0, turn_seconds=1)
        mid, t0 = data["match"]["id"], data["token"]
        join(c, mid, 1)
        assert act(c, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        s = wait_for(c, mid, lambda s: s["status"] == "finished")
        assert s["outcome"]["winners"] == [0] and s["seats"][1]["kind"] == "human"
