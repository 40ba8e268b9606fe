"""SRV-A5 and SRV-L5: the core draw moves (declared out_of_turn) are taken out of turn, and every message of a game
with a draw agreement carries the pending offer and the draw moves open to the client's seat (a Worlds & Suns match,
WS-D25)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import create, join


def act(client: TestClient, mid: str, seat: int, token: str, version: int, action: dict[str, Any]) -> Any:
    return client.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": token, "version": version, "action": action})


def state(client: TestClient, mid: str, seat: int, token: str) -> dict[str, Any]:
    r = client.get(f"/api/matches/{mid}/state", params={"seat": seat}, headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


@pytest.mark.rule("SRV-A5", "SRV-L5", "CORE-DRAW", "WS-D25")
def test_draw_moves_out_of_turn_and_the_draw_field(client: TestClient) -> None:
    data = create(client, "worlds", config={"scenario": "s1-example"}, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(client, mid, 1, "B")
    s1 = state(client, mid, 1, t1)
    assert s1["to_act"] == [0] and s1["legal"] == []  # SRV-L1 unchanged
    assert s1["draw"] == {"offer": {"by": None, "accepted": [], "barred": [], "agreed": False}, "moves": ["offer_draw"]}
    # seat 1 offers out of turn; a normal move out of turn is still refused
    assert act(client, mid, 1, t1, 0, {"type": "end_turn"}).status_code == 422
    assert act(client, mid, 1, t1, 0, {"type": "offer_draw"}).status_code == 200
    s0 = state(client, mid, 0, t0)
    assert s0["draw"]["offer"]["by"] == 1 and s0["draw"]["moves"] == ["accept_draw", "decline_draw"]
    assert {"type": "accept_draw"} in s0["legal"]
    # SRV-A1b: a decision seat 0 computed before seat 1's offer (version 0) is still good
    probe = client.post(f"/api/matches/{mid}/legal/check",
                        json={"seat": 0, "token": t0, "version": 0, "action": {"type": "declare_combat", "card": "X.w1"}})
    assert probe.status_code == 200 and probe.json()["legal"] is True, probe.text
    r = act(client, mid, 1, t1, 1, {"type": "offer_draw"})
    assert r.status_code == 422 and r.json()["error"]["rule"] == "CORE-DRAW"
    # seat 0 declines; its offer is then barred for seat 1 until seat 1 moves
    assert act(client, mid, 0, t0, 1, {"type": "decline_draw"}).status_code == 200
    assert state(client, mid, 1, t1)["draw"]["moves"] == []
    spectator = client.get(f"/api/matches/{mid}/state").json()
    assert spectator["draw"] == {"offer": {"by": None, "accepted": [], "barred": [1], "agreed": False}, "moves": []}
    assert act(client, mid, 0, t0, 2, {"type": "offer_draw"}).status_code == 200
    assert act(client, mid, 1, t1, 3, {"type": "accept_draw"}).status_code == 200
    summary = client.get(f"/api/matches/{mid}").json()
    assert summary["status"] == "finished" and summary["outcome"]["kind"] == "agreement"


def test_games_without_a_draw_agreement_carry_no_draw_field(client: TestClient) -> None:
    data = create(client, "arena", config={"red_seat": 0}, join_seat=0)
    assert "draw" not in state(client, data["match"]["id"], 0, data["token"])
