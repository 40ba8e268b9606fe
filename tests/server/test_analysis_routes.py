"""Analyse on the play server (issue 22): refused while the match runs, then a background job polled to its
result, one job per match."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from spacetable.server.app import create_app

from .conftest import create, join, lenient_limits

pytestmark = [pytest.mark.learn, pytest.mark.usefixtures("nim")]


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        yield c


def act(client: TestClient, mid: str, seat: int, token: str, version: int, action: dict[str, object]) -> None:
    r = client.post(f"/api/matches/{mid}/actions",
                    json={"seat": seat, "token": token, "version": version, "action": action})
    assert r.status_code == 200, r.text


def test_analysis_refused_while_running_then_computed_once(client: TestClient) -> None:
    data = create(client, "nim", config={"heaps": 1, "size": 3}, seed=7, open_seed=True, join_seat=0, player_name="Ann")
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(client, mid, 1, "Bob")
    r = client.post(f"/api/matches/{mid}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    assert client.get(f"/api/matches/{mid}/analysis").json() == {"status": "none"}
    act(client, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1})
    act(client, mid, 1, t1, 1, {"type": "take", "heap": 0, "count": 2})
    first = client.post(f"/api/matches/{mid}/analysis")
    assert first.status_code == 202 and first.json()["status"] in ("queued", "running", "done")
    answer: dict[str, object] = {}
    for _ in range(600):  # wait for the condition, not for a time
        answer = client.get(f"/api/matches/{mid}/analysis").json()
        if answer["status"] in ("done", "failed"):
            break
        time.sleep(0.1)
    assert answer["status"] == "done", answer
    result = answer["result"]
    assert isinstance(result, dict)
    views = result.get("seats") or [result["shared"]]
    assert all(len(v["points"]) == 2 for v in views)
    # one job per match: asking again hands back the same result
    again = client.post(f"/api/matches/{mid}/analysis").json()
    assert again == answer


def test_hint_refused_against_a_person_given_against_the_computer(client: TestClient) -> None:
    data = create(client, "nim", config={"heaps": 1, "size": 5}, join_seat=0, player_name="Ann")
    mid, t0 = data["match"]["id"], data["token"]
    join(client, mid, 1, "Bob")
    r = client.post(f"/api/matches/{mid}/hint", json={"seat": 0, "token": t0})
    assert r.status_code == 403 and r.json()["error"]["code"] == "hint_refused"
    # a wrong token gets nothing either
    assert client.post(f"/api/matches/{mid}/hint", json={"seat": 0, "token": "x" * 32}).status_code in (401, 403)

    data = create(client, "nim", config={"heaps": 1, "size": 5}, join_seat=0, player_name="Ann",
                  ai_seats={"1": "random"})
    mid, t0 = data["match"]["id"], data["token"]
    r = client.post(f"/api/matches/{mid}/hint", json={"seat": 0, "token": t0})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["action"]["type"] == "take" and answer["hints_used"] == 1 and answer["text"]
