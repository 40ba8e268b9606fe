"""Undo policy (SRV-U1..U4), clocks and timeout actions (SRV-C1, SRV-C2), AI seats (SRV-AI1..AI3)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.games import get_game
from spacetable.server.app import create_app
from spacetable.server.clocks import timeout_action

from .conftest import create, join, lenient_limits

pytestmark = pytest.mark.usefixtures("nim")


def act(client: TestClient, mid: str, seat: int, token: str, version: int, action: dict[str, Any]) -> Any:
    return client.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": token, "version": version, "action": action})


def wait_for(client: TestClient, mid: str, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
    end = time.time() + timeout
    while time.time() < end:
        summary: dict[str, Any] = client.get(f"/api/matches/{mid}").json()
        if pred(summary):
            return summary
        time.sleep(0.05)
    raise AssertionError(f"condition not reached; last summary {summary}")


def vs_ai(client: TestClient, **config: Any) -> tuple[str, str]:
    data = create(client, "nim", config={"resign": False, **config}, seed=11, open_seed=True, join_seat=0,
                  ai_seats={"1": "random"}, ai_seconds=0.05)
    return data["match"]["id"], data["token"]


def undo(client: TestClient, mid: str, seat: int, token: str, what: str = "") -> Any:
    return client.post(f"/api/matches/{mid}/undo{what}", json={"seat": seat, "token": token})


# ------------------------------------------------------------------------------- undo
def test_undo_against_ai_takes_back_own_move_and_ai_reply(client: TestClient) -> None:
    """SRV-U1/U4: against an AI, undo takes back the seat's last action and the AI's replies, no consent."""
    mid, tok = vs_ai(client)
    assert act(client, mid, 0, tok, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
    wait_for(client, mid, lambda s: s["version"] == 2)
    r = undo(client, mid, 0, tok)
    assert r.status_code == 200 and r.json() == {"done": True, "version": 0}, r.text
    snap = client.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": tok}).json()
    assert snap["version"] == 0 and snap["view"]["heaps"] == [4, 4, 4] and snap["log"] == []
    r = undo(client, mid, 0, tok)
    assert r.status_code == 409 and "SRV-U1" in r.json()["error"]["message"]  # nothing of ours left
    assert undo(client, mid, 0, "bad").status_code == 403


def test_undo_refused_after_dice(client: TestClient) -> None:
    """SRV-U2: no undo once dice were rolled (the state's RNG moved)."""
    mid, tok = vs_ai(client, mode="dice")
    assert act(client, mid, 0, tok, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
    wait_for(client, mid, lambda s: s["version"] == 2)
    r = undo(client, mid, 0, tok)
    assert r.status_code == 409 and "SRV-U2" in r.json()["error"]["message"]
    assert client.get(f"/api/matches/{mid}").json()["version"] == 2


def test_undo_refused_after_a_hidden_reveal(client: TestClient) -> None:
    """SRV-U3: no undo once a sealed commit of the AI was revealed to the seat."""
    mid, tok = vs_ai(client, mode="sealed", size=20)
    wait_for(client, mid, lambda s: s["version"] == 1)  # the AI commits at once
    assert act(client, mid, 0, tok, 1, {"type": "bid", "amount": 2}).status_code == 200  # resolves: AI bid revealed
    r = undo(client, mid, 0, tok)
    assert r.status_code == 409 and "SRV-U3" in r.json()["error"]["message"]


def test_undo_of_a_sealed_commit_nobody_saw(client: TestClient) -> None:
    """SRV-U3: a commit still sealed (the AI had not committed after it) may be taken back."""
    data = create(client, "nim", config={"mode": "sealed"}, seed=2, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(client, mid, 1)
    assert act(client, mid, 0, t0, 0, {"type": "bid", "amount": 3}).status_code == 200
    # a human opponent: consent needed (SRV-U4)
    r = undo(client, mid, 0, t0)
    assert r.status_code == 200 and r.json() == {"done": False, "waiting": [1], "version": 1}
    assert client.get(f"/api/matches/{mid}").json()["undo_request"]["seat"] == 0
    assert undo(client, mid, 0, t0, "/accept").status_code == 409  # the asker cannot consent for others
    r = undo(client, mid, 1, t1, "/accept")
    assert r.status_code == 200 and r.json()["done"] is True
    summary = client.get(f"/api/matches/{mid}").json()
    assert summary["version"] == 0 and summary["to_act"] == [0, 1] and summary["undo_request"] is None


def test_undo_declined_and_lapsing(client: TestClient) -> None:
    """SRV-U4: a declined request changes nothing; any new action cancels a pending request."""
    data = create(client, "nim", seed=2, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    t1 = join(client, mid, 1)
    assert act(client, mid, 0, t0, 0, {"type": "take", "heap": 1, "count": 1}).status_code == 200
    assert undo(client, mid, 0, t0).json()["done"] is False
    assert undo(client, mid, 1, t1, "/decline").json() == {"done": False, "declined": True, "version": 1}
    assert undo(client, mid, 1, t1, "/accept").status_code == 409
    assert undo(client, mid, 0, t0).json()["done"] is False
    assert act(client, mid, 1, t1, 1, {"type": "take", "heap": 1, "count": 1}).status_code == 200
    assert client.get(f"/api/matches/{mid}").json()["undo_request"] is None
    assert undo(client, mid, 1, t1, "/accept").status_code == 409
    assert client.get(f"/api/matches/{mid}").json()["version"] == 2


def test_undo_on_a_real_game_against_ai(client: TestClient) -> None:
    """SRV-U1 on arena (no chance after setup, nothing hidden in play): one's move and the AI reply come back."""
    data = create(client, "arena", seed=5, open_seed=True, join_seat=0, ai_seats={"1": "random"}, ai_seconds=0.05,
                  config={"red_seat": 0})
    mid, tok = data["match"]["id"], data["token"]
    snap = client.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": tok}).json()
    assert act(client, mid, 0, tok, 0, snap["legal"][0]).status_code == 200
    wait_for(client, mid, lambda s: s["version"] == 2)
    assert undo(client, mid, 0, tok).json() == {"done": True, "version": 0}
    again = client.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": tok}).json()
    assert again["view"] == snap["view"] and again["legal"] == snap["legal"]


# ------------------------------------------------------------------------------ clocks
def test_timeout_action_choice() -> None:
    """SRV-C2: the game's timeout_action if legal, else resign if legal, else the first legal action."""
    game = get_game("nim")
    st = game.initial_state(game.normalize_config({}), 1)
    assert timeout_action(game, st, 0) == {"type": "resign"}
    object.__setattr__(game, "timeout_action", lambda state, seat: {"type": "take", "heap": 2, "count": 1})
    try:
        assert timeout_action(game, st, 0) == {"type": "take", "heap": 2, "count": 1}
        object.__setattr__(game, "timeout_action", lambda state, seat: {"type": "take", "heap": 2, "count": 9})
        assert timeout_action(game, st, 0) == {"type": "resign"}  # illegal proposal ignored
    finally:
        del game.__dict__["timeout_action"]
    assert timeout_action(game, st, 1) is None  # a seat with no legal action gets none


def test_clock_runs_out_and_survives_restart(db_url: str) -> None:
    """SRV-C1/C2: the clock is persisted; when it runs out (even while the server was down) the timeout action is played."""
    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as c:
        data = create(c, "nim", seed=4, open_seed=True, join_seat=0, turn_seconds=1)
        mid, t0 = data["match"]["id"], data["token"]
        join(c, mid, 1)
        summary = c.get(f"/api/matches/{mid}").json()
        assert summary["deadline"] is not None and summary["deadline"] > time.time()
        assert act(c, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
    time.sleep(1.2)  # seat 1's clock runs out while no server runs
    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as c:
        summary = wait_for(c, mid, lambda s: s["status"] == "finished", timeout=60)
        assert summary["outcome"]["winners"] == [0] and summary["outcome"]["kind"] == "resignation"
        snap = c.get(f"/api/matches/{mid}/state").json()
        assert snap["log"][-1]["source"] == "timeout" and snap["log"][-1]["action"] == {"type": "resign"}


# ------------------------------------------------------------------------------ AI
def test_ai_in_a_process_does_not_block_other_matches(db_url: str) -> None:
    """SRV-AI1/AI2: an AI thinking (in a worker process) leaves the server free for other matches."""
    with TestClient(create_app(db_url, ai_workers=1, limits=lenient_limits())) as c:
        data = create(c, "nim", config={"heaps": 5, "size": 30}, seed=9, open_seed=True, join_seat=0,
                      ai_seats={"1": "mcts"}, ai_seconds=2.5)
        slow, ts = data["match"]["id"], data["token"]
        other = create(c, "nim", seed=1, open_seed=True, join_seat=0)
        fast, tf0 = other["match"]["id"], other["token"]
        tf1 = join(c, fast, 1)
        assert act(c, slow, 0, ts, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        t_start = time.time()
        for v in range(6):
            seat, tok = (0, tf0) if v % 2 == 0 else (1, tf1)
            assert act(c, fast, seat, tok, v, {"type": "take", "heap": v % 3, "count": 1}).status_code == 200
        if time.time() - t_start < 2.0:  # the AI's budget has not elapsed: it has not moved yet
            assert c.get(f"/api/matches/{slow}").json()["version"] == 1
        summary = wait_for(c, slow, lambda s: s["version"] == 2, timeout=30)
        assert summary["to_act"] == [0]
        log = c.get(f"/api/matches/{slow}/state").json()["log"]
        assert log[-1]["seat"] == 1 and log[-1]["source"] == "ai"


def test_ai_seats_play_a_whole_match(client: TestClient) -> None:
    """SRV-AI1: a match of two AI seats plays itself to the end."""
    data = create(client, "nim", seed=3, open_seed=True, ai_seats={"0": "random", "1": "mcts"}, ai_seconds=0.02)
    summary = wait_for(client, data["match"]["id"], lambda s: s["status"] == "finished", timeout=30)
    assert len(summary["outcome"]["winners"]) == 1
