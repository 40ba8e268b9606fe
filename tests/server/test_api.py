"""API tests of the lobby and the action path (SRV-A1..A3, SRV-L*), every kind of bad input.

Most tests use the test game ``nim`` (tests/server/nimgame.py); the lobby tests also use the real games.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.core.match import Match
from spacetable.games import available, get_game
from spacetable.server import repo, storage
from spacetable.server.app import create_app
from spacetable.server.live import MAX_BACKLOG, Subscriber

from .conftest import create, join, lenient_limits

pytestmark = pytest.mark.usefixtures("nim")


def start_nim(client: TestClient, **config: Any) -> tuple[str, str, str]:
    data = create(client, "nim", config=config, seed=7, open_seed=True, join_seat=0, player_name="Ann")
    mid = data["match"]["id"]
    t1 = join(client, mid, 1, "Bob")
    return mid, data["token"], t1


def act(client: TestClient, mid: str, seat: int, token: str | None, version: Any, action: Any) -> Any:
    return client.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": token, "version": version, "action": action})


def state(client: TestClient, mid: str, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/matches/{mid}/state", params={} if seat is None else {"seat": seat},
                   headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# ----------------------------------------------------------------------------- lobby
def test_health_openapi_and_docs(client: TestClient) -> None:
    """SRV-L1: health endpoint, OpenAPI schema and docs page are published."""
    assert client.get("/health").json()["status"] == "ok"
    schema = client.get("/openapi.json").json()
    for path in ("/api/games", "/api/matches", "/api/matches/{match_id}/actions", "/api/matches/{match_id}/seats/{seat}/join"):
        assert path in schema["paths"]
    assert client.get("/docs").status_code == 200
    assert client.get("/").status_code == 200 and "spacetable" in client.get("/").text
    assert client.get("/static/app/main.js").status_code == 200


def test_games_list_every_available_game(client: TestClient) -> None:
    """SRV-L2: the lobby lists every available game with options and AI agents."""
    games = {g["id"]: g for g in client.get("/api/games").json()}
    for gid in available():
        assert gid in games
        g = get_game(gid)
        assert games[gid]["name"] == g.name
        assert [o["name"] for o in games[gid]["options"]] == [o.name for o in g.options()]
        assert games[gid]["default_agent"] in games[gid]["agents"]
    assert games["nim"]["agents"] == ["mcts", "random"]  # no ai.py: generic MCTS fallback


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "no-such-game"}, 404, "unknown_game"),
        ({"game": "nim", "config": {"heaps": 99}}, 422, "bad_config"),
        ({"game": "nim", "config": {"colour": "red"}}, 422, "bad_config"),
        ({"game": "nim", "config": {"mode": "chess"}}, 422, "bad_config"),
        ({"game": "nim", "ai_seats": {"5": None}}, 422, "bad_config"),
        ({"game": "nim", "ai_seats": {"1": "deep-thought"}}, 422, "bad_config"),
        ({"game": "nim", "ai_seconds": 0}, 422, "bad_config"),
        ({"game": "nim", "turn_seconds": 0.5}, 422, "bad_config"),
        ({"game": "nim", "seed": -1}, 422, "bad_config"),
    ],
)
def test_create_rejects_bad_input(client: TestClient, body: dict[str, Any], status: int, code: str) -> None:
    """SRV-L3: a bad match request names the problem and creates nothing."""
    r = client.post("/api/matches", json=body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code
    assert client.get("/api/matches").json() == []


def test_create_rejects_schema_errors(client: TestClient) -> None:
    """SRV-L3: wrong JSON types are refused by the schema (422) before anything happens."""
    assert client.post("/api/matches", json={"config": {}}).status_code == 422
    assert client.post("/api/matches", json={"game": "nim", "seed": "abc"}).status_code == 422
    r = client.post("/api/matches", content=b"not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"  # read by the server's strict JSON reader
    for body in ({"config": {}}, {"game": "nim", "seed": "abc"}):
        bad = client.post("/api/matches", json=body)
        assert set(bad.json()) == {"error"} and bad.json()["error"]["code"] == "bad_request"  # SRV-E1: one error shape


def test_seats_join_leave_and_lists(client: TestClient) -> None:
    """SRV-L4: seats are taken once; a match starts when every seat is filled; lists filter by status."""
    data = create(client, "nim", seed=1, open_seed=True)
    mid = data["match"]["id"]
    assert data["match"]["status"] == "open" and "token" not in data
    assert [m["id"] for m in client.get("/api/matches", params={"status": "open"}).json()] == [mid]
    t0 = join(client, mid, 0, "Ann")
    r = client.post(f"/api/matches/{mid}/seats/0/join", json={"name": "Eve"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    assert client.post(f"/api/matches/{mid}/seats/7/join", json={}).status_code == 404
    assert client.post("/api/matches/nope/seats/0/join", json={}).status_code == 404
    # leaving needs the seat's token
    assert client.post(f"/api/matches/{mid}/seats/0/leave", json={"token": "wrong"}).status_code == 403
    assert client.post(f"/api/matches/{mid}/seats/0/leave", json={"token": t0}).status_code == 200
    t0 = join(client, mid, 0, "Ann")
    # adding an AI once somebody sits requires a seated player's token
    assert client.post(f"/api/matches/{mid}/seats/1/ai", json={}).status_code == 403
    assert client.post(f"/api/matches/{mid}/seats/1/ai", json={"by_seat": 0, "token": "bad"}).status_code == 403
    r = client.post(f"/api/matches/{mid}/seats/1/ai", json={"by_seat": 0, "token": t0, "agent": "random"})
    assert r.status_code == 200
    summary = r.json()
    assert summary["status"] == "running" and summary["seats"][1]["kind"] == "ai"
    assert client.get("/api/matches", params={"status": "open"}).json() == []
    assert [m["id"] for m in client.get("/api/matches", params={"status": "running"}).json()] == [mid]
    assert all("token" not in str(s) for s in summary["seats"])


# ----------------------------------------------------------------------------- actions
def test_action_path_and_every_bad_input(client: TestClient) -> None:
    """SRV-A1..A3: token, version and legality are checked; a refused action changes nothing."""
    mid, t0, t1 = start_nim(client)
    before = state(client, mid, 0, t0)
    assert before["version"] == 0 and before["to_act"] == [0]
    good = {"type": "take", "heap": 0, "count": 2}
    cases = [
        (act(client, mid, 0, None, 0, good), 403, "bad_token", None),
        (act(client, mid, 0, t1, 0, good), 403, "bad_token", None),  # another seat's token
        (act(client, mid, 5, t0, 0, good), 404, "no_such_seat", None),
        (act(client, mid, 0, t0, None, good), 400, "bad_request", None),
        (act(client, mid, 0, t0, "0", good), 400, "bad_request", None),
        (act(client, mid, 0, t0, 3, good), 409, "stale_version", None),
        (act(client, mid, 0, t0, 0, ["take"]), 422, "illegal_action", "CORE-ACTION"),
        (act(client, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 9}), 422, "illegal_action", "NIM-1"),
        (act(client, mid, 0, t0, 0, {"type": "take", "heap": "x", "count": 1}), 422, "illegal_action", "NIM-1"),
        (act(client, mid, 0, t0, 0, {"type": "fly"}), 422, "illegal_action", "NIM-1"),
        (act(client, mid, 1, t1, 0, good), 422, "illegal_action", "CORE-TURN"),
    ]
    for r, status, code, rule in cases:
        assert r.status_code == status, r.text
        err = r.json()["error"]
        assert err["code"] == code and err["message"]
        assert err.get("rule") == rule
    assert state(client, mid, 0, t0) == before  # nothing changed
    r = act(client, mid, 0, t0, 0, good)
    assert r.status_code == 200 and r.json()["version"] == 1
    r = act(client, mid, 0, t0, 0, good)  # replay of the same request: stale now
    assert r.status_code == 409 and "SRV-A1" in r.json()["error"]["message"]
    after = state(client, mid, 1, t1)
    assert after["version"] == 1 and after["view"]["heaps"] == [2, 4, 4]
    # a seat that sees an action also gets its text (presentation: sentences only say what the action shows)
    text = '{"count":2,"heap":0,"type":"take"}'
    assert after["log"] == [{"index": 0, "seat": 0, "action": good, "text": text, "notation": text, "sealed": False,
                             "source": "player"}]
    assert state(client, mid, 0, t0)["log"][0]["text"] == text


def test_a_failed_write_changes_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """SRV-P2: when the action cannot be stored, the client is told (503) and the match does not move."""
    mid, t0, _t1 = start_nim(client)
    before = state(client, mid, 0, t0)

    def broken(*_args: Any) -> None:
        raise OSError("disk full")

    # the database refuses the statement (both drivers, the PostgreSQL batch and its one-by-one retry)
    monkeypatch.setattr(storage, "INSERT_SQL", storage.INSERT_SQL.replace("INTO actions", "INTO no_such_table"))
    monkeypatch.setattr(storage, "APPEND_SQL_PG", storage.APPEND_SQL_PG.replace("INTO actions", "INTO no_such_table"))
    monkeypatch.setattr(storage, "BATCH_SQL_PG", storage.BATCH_SQL_PG.replace("INTO actions", "INTO no_such_table"))
    r = act(client, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1})
    assert r.status_code == 503 and r.json()["error"]["code"] == "storage_error"
    assert state(client, mid, 0, t0) == before
    monkeypatch.undo()
    assert act(client, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
    # the same for lobby changes: a seat taken in memory but not stored would be lost at a restart
    other = create(client, "nim", seed=1, open_seed=True)["match"]["id"]
    monkeypatch.setattr(repo, "change", broken)
    r = client.post(f"/api/matches/{other}/seats/0/join", json={"name": "Ann"})
    assert r.status_code == 503
    summary = client.get(f"/api/matches/{other}").json()
    assert summary["seats"][0]["kind"] == "open" and summary["status"] == "open"


def test_state_endpoint_requires_token_for_seat_views(client: TestClient) -> None:
    """SRV-V1: a seat's view needs the seat's token; spectators get the public view."""
    mid, t0, t1 = start_nim(client)
    assert client.get(f"/api/matches/{mid}/state", params={"seat": 1}).status_code == 403
    assert client.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers={"X-Seat-Token": t0}).status_code == 403
    spectator = state(client, mid)
    assert spectator["view"]["hand"] is None and spectator["legal"] == []
    assert state(client, mid, 1, t1)["view"]["hand"] is not None
    assert client.get("/api/matches/none/state").status_code == 404


def test_actions_before_start_and_after_end(client: TestClient) -> None:
    """SRV-A2: nobody acts in an open match or a finished one."""
    data = create(client, "nim", seed=3, open_seed=True, join_seat=0)
    mid, t0 = data["match"]["id"], data["token"]
    r = act(client, mid, 0, t0, 0, {"type": "resign"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    t1 = join(client, mid, 1)
    assert act(client, mid, 0, t0, 0, {"type": "resign"}).status_code == 200
    summary = client.get(f"/api/matches/{mid}").json()
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == [1]
    r = act(client, mid, 1, t1, 1, {"type": "take", "heap": 0, "count": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "finished"
    assert client.post(f"/api/matches/{mid}/seats/0/join", json={}).status_code == 409


def test_a_seat_resigns_when_it_is_not_its_turn(client: TestClient) -> None:
    """SRV-A5: a move the game declares ``out_of_turn`` (resign) passes the server's turn check, over REST (the
    check endpoint too) and over a socket; any other move of a seat that is not to act is still refused."""
    data = create(client, "arena", seed=5, open_seed=True, join_seat=0, player_name="Ann")
    mid, tokens = data["match"]["id"], {0: data["token"]}
    tokens[1] = join(client, mid, 1, "Bob")
    st = state(client, mid, 0, tokens[0])
    (mover,), version = st["to_act"], st["version"]
    waiting = 1 - mover
    move = next(a for a in state(client, mid, mover, tokens[mover])["legal"] if a["type"] != "resign")
    r = act(client, mid, waiting, tokens[waiting], version, move)
    assert r.status_code == 422 and r.json()["error"]["rule"] == "CORE-TURN"
    for action, legal in ((move, False), ({"type": "resign"}, True)):
        r = client.post(f"/api/matches/{mid}/check", json={"seat": waiting, "token": tokens[waiting], "version": version,
                                                            "action": action})
        assert r.status_code == 200 and r.json()["legal"] is legal, r.text
    assert state(client, mid)["version"] == version  # nothing changed so far
    with (
        client.websocket_connect(f"/ws/matches/{mid}?seat={waiting}&token={tokens[waiting]}") as ws_waiting,
        client.websocket_connect(f"/ws/matches/{mid}?seat={mover}&token={tokens[mover]}") as ws_mover,
    ):
        assert ws_waiting.receive_json()["type"] == ws_mover.receive_json()["type"] == "snapshot"
        ws_waiting.send_json({"type": "action", "version": version, "action": {"type": "resign"}})
        for ws in (ws_waiting, ws_mover):
            event = ws.receive_json()
            assert event["type"] == "event" and event["version"] == version + 1, event
            assert event["last"]["seat"] == waiting and event["last"]["action"] == {"type": "resign"}
    summary = client.get(f"/api/matches/{mid}").json()
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == [mover]
    assert summary["outcome"]["kind"] == "resignation"


def test_websocket_protocol_and_bad_messages(client: TestClient) -> None:
    """SRV-V1/SRV-A1: WebSocket snapshot, events to every seat, errors for bad messages."""
    mid, t0, t1 = start_nim(client, mode="sealed")
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token=bad") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"]["code"] == "bad_token"
    with client.websocket_connect("/ws/matches/nope") as ws:
        assert ws.receive_json()["error"]["code"] == "not_found"
    with (
        client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={t0}") as w0,
        client.websocket_connect(f"/ws/matches/{mid}?seat=1&token={t1}") as w1,
        client.websocket_connect(f"/ws/matches/{mid}") as spec,
    ):
        s0, s1, ss = w0.receive_json(), w1.receive_json(), spec.receive_json()
        assert s0["type"] == s1["type"] == ss["type"] == "snapshot"
        assert s0["to_act"] == [0, 1] and len(s0["legal"]) == 4 and ss["legal"] == []
        w0.send_text("{not json")
        assert w0.receive_json()["error"]["code"] == "bad_request"
        w0.send_json({"type": "dance", "id": 5})
        err = w0.receive_json()
        assert err["error"]["code"] == "bad_request" and err["id"] == 5
        spec.send_json({"type": "action", "version": 0, "action": {"type": "bid", "amount": 1}})
        assert spec.receive_json()["error"]["code"] == "spectator"
        w0.send_json({"type": "action", "version": 0, "action": {"type": "bid", "amount": 7}})
        assert w0.receive_json()["error"]["rule"] == "NIM-2"
        w0.send_json({"type": "ping", "id": 1})
        assert w0.receive_json() == {"type": "pong", "id": 1}
        w0.send_json({"type": "action", "version": 0, "action": {"type": "bid", "amount": 3}})
        e0, e1, es = w0.receive_json(), w1.receive_json(), spec.receive_json()
        assert e0["type"] == "event" and e0["version"] == 1
        assert e0["last"]["action"] == {"type": "bid", "amount": 3}
        assert e1["last"]["action"] == {"type": "bid", "amount": None} == es["last"]["action"]  # sealed
        assert e1["view"]["sealed"] == {"committed": {"0": True, "1": False}, "own": None}
        assert e0["view"]["sealed"]["own"] == 3
        w0.send_json({"type": "action", "version": 0, "action": {"type": "bid", "amount": 2}})
        assert w0.receive_json()["error"]["code"] == "stale_version"  # seat 0 acted since version 0
        # SRV-A1b: seat 1's sealed decision was pending all along, so version 0 is still good for it
        w1.send_json({"type": "action", "version": 0, "action": {"type": "bid", "amount": 1}})
        assert w1.receive_json()["version"] == 2 and w0.receive_json()["view"]["heaps"][0] == 0


def test_replay_and_export_of_finished_match(client: TestClient) -> None:
    """SRV-R1: replays step by step and the saved match file, only once the match is over."""
    mid, t0, t1 = start_nim(client, heaps=1, size=3)
    assert client.get(f"/api/matches/{mid}/replay").status_code == 409
    assert client.get(f"/api/matches/{mid}/export").status_code == 409
    assert act(client, mid, 0, t0, 0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
    assert act(client, mid, 1, t1, 1, {"type": "take", "heap": 0, "count": 2}).status_code == 200
    rep = client.get(f"/api/matches/{mid}/replay").json()
    assert rep["steps"] == 2 and [e["seat"] for e in rep["log"]] == [0, 1]
    views = [client.get(f"/api/matches/{mid}/replay/{i}").json()["view"]["heaps"] for i in range(3)]
    assert views == [[3], [2], [0]]
    assert client.get(f"/api/matches/{mid}/replay/3").status_code == 404
    match = Match.from_json(client.get(f"/api/matches/{mid}/export").json(), get_game)
    assert match.seed == 7 and len(match.log) == 2
    assert get_game("nim").outcome(match.replay()).winners == (1,)


def test_matches_survive_a_restart(db_url: str) -> None:
    """SRV-P1: a new server on the same database resumes every match from its log (SQLite written on the event
    loop, PostgreSQL through the group-commit writer)."""
    app = create_app(db_url, ai_workers=0, limits=lenient_limits())
    with TestClient(app) as c:
        mid, t0, t1 = start_nim(c, mode="dice")
        for v, (seat, tok) in enumerate([(0, t0), (1, t1), (0, t0)]):
            assert act(c, mid, seat, tok, v, {"type": "take", "heap": v, "count": 1}).status_code == 200
        before = state(c, mid, 1, t1)
    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as c:
        after = state(c, mid, 1, t1)
        assert after == before
        assert act(c, mid, 1, t1, 3, {"type": "take", "heap": 0, "count": 1}).status_code == 200


def test_a_client_that_stops_reading_is_cut_off() -> None:
    """SRV-V2: a client that stops reading does not make the server hoard messages: after MAX_BACKLOG it is
    marked for disconnection (it reconnects and gets a fresh snapshot)."""
    sub = Subscriber(0)
    for i in range(MAX_BACKLOG + 10):
        sub.push(f"m{i}")
    assert sub.overflow
    assert sub.queue.qsize() == MAX_BACKLOG + 1  # the backlog and the wake-up marker, nothing more
