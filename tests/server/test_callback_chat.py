"""Chat per match (issue 21): players' room by seat token, bounds (length, rate), text kept as written for the
pages to show escaped, quick messages in the reader's language, reports and moderation, retention, off without
two people."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from .conftest import create, join, lenient_limits

pytestmark = pytest.mark.callback


def table(client: TestClient, players: int = 2) -> tuple[str, list[str]]:
    """A two-seat Galaxies match with ``players`` people (the rest computers)."""
    mid = create(client, "galaxies", ai_seats={str(i): None for i in range(players, 2)})["match"]["id"]
    return mid, [join(client, mid, s, f"P{s}") for s in range(players)]


def say(client: TestClient, mid: str, seat: int, token: str, **body: Any) -> Any:
    return client.post(f"/api/matches/{mid}/chat", json={"seat": seat, **body}, headers={"X-Seat-Token": token})


def read(client: TestClient, mid: str, seat: int | None, token: str | None, **params: Any) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    q = {"seat": seat, **params} if seat is not None else params
    return client.get(f"/api/matches/{mid}/chat", params=q, headers=headers)


def test_players_chat_quick_messages_translated(client: TestClient) -> None:
    mid, (t0, t1) = table(client)
    assert say(client, mid, 0, t0, text="hello <b>there</b>").status_code == 201
    assert say(client, mid, 1, t1, quick="good_game").status_code == 201
    en = read(client, mid, 0, t0, lang="en").json()
    assert en["rooms"] == ["players", "spectators"]
    assert [(m["name"], m["text"]) for m in en["messages"]] == [("P0", "hello <b>there</b>"), ("P1", "Good game!")]
    fr = read(client, mid, 1, t1, lang="fr").json()["messages"]
    ru = read(client, mid, 1, t1, lang="ru").json()["messages"]
    assert fr[1]["text"] == "Bonne partie !" and ru[1]["text"] == "Хорошая игра!"
    after = en["messages"][0]["id"]
    assert [m["quick"] for m in read(client, mid, 0, t0, after=after).json()["messages"]] == ["good_game"]


def test_hostile_chat_refused_and_nothing_stored(client: TestClient) -> None:
    mid, (t0, t1) = table(client)
    cases = [
        say(client, mid, 0, t0, text="x" * 100_000),  # 100 KB
        say(client, mid, 0, t0, text="x" * 501),
        say(client, mid, 0, t0, text="   \u200b\x00 "),  # nothing left once cleaned
        say(client, mid, 0, t0, quick="rm -rf"),
        say(client, mid, 0, t0, text="a", quick="good_game"),
        say(client, mid, 0, t1, text="not my seat"),  # another seat's token
        say(client, mid, 0, "", text="no token"),
        client.post(f"/api/matches/{mid}/chat", json={"seat": 0, "text": "hi", "extra": 1}, headers={"X-Seat-Token": t0}),
        say(client, mid, 0, t0, room="spectators", text="players write in their room"),
    ]
    assert [r.status_code for r in cases] == [422, 422, 422, 422, 422, 403, 403, 422, 403]
    assert all("error" in r.json() for r in cases)
    assert read(client, mid, 0, t0).json()["messages"] == []
    assert read(client, mid, 0, t1).status_code == 403  # the players' room needs the seat's own token
    assert read(client, mid, None, None).status_code == 403


def test_escaped_markup_kept_as_text(client: TestClient) -> None:
    mid, (t0, _t1) = table(client)
    payload = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    r = say(client, mid, 0, t0, text=payload)
    assert r.status_code == 201 and r.json()["text"] == payload
    raw = read(client, mid, 0, t0)
    assert raw.headers["content-type"].startswith("application/json")
    assert raw.json()["messages"][0]["text"] == payload


def test_chat_flood_rate_limited(db_url: str) -> None:
    from spacetable.server.app import create_app

    with TestClient(create_app(db_url, ai_workers=0, limits=lenient_limits())) as client:
        mid, (t0, t1) = table(client)
        codes = [say(client, mid, 0, t0, text=f"m{i}").status_code for i in range(8)]
        assert codes[:5] == [201] * 5 and set(codes[5:]) == {429}
        refused = say(client, mid, 0, t0, text="more")
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
        assert say(client, mid, 1, t1, text="the other seat still talks").status_code == 201
        assert len(read(client, mid, 0, t0).json()["messages"]) == 6


def test_chat_off_against_the_computer(client: TestClient) -> None:
    mid, (t0,) = table(client, players=1)
    r = say(client, mid, 0, t0, text="hello computer")
    assert r.status_code == 409 and r.json()["error"]["code"] == "chat_off"
    assert read(client, mid, 0, t0).json() == {"rooms": ["spectators"], "messages": []}


def seat_socket(client: TestClient, mid: str, seat: int | None, token: str | None = None, lang: str = "en") -> Any:
    """A match socket (a seat's authenticated with its token, as the page does), its first snapshot read."""
    url = f"/ws/matches/{mid}?lang={lang}" + (f"&seat={seat}" if seat is not None else "")
    ws = client.websocket_connect(url)
    sock = ws.__enter__()
    if seat is not None:
        sock.send_json({"type": "auth", "token": token})
    assert sock.receive_json()["type"] == "snapshot"
    return ws, sock


def next_of(sock: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        msg: dict[str, Any] = sock.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def nothing_pending(sock: Any) -> list[dict[str, Any]]:
    """What the socket was sent before the answer to a ping (its messages come in order)."""
    sock.send_json({"type": "ping", "id": "p"})
    got = []
    while (msg := sock.receive_json())["type"] != "pong":
        got.append(msg)
    return got


def test_chat_over_the_seat_socket_pushed_to_readers(client: TestClient) -> None:
    """A seat writes over its socket; every seat's socket is sent the message (a quick one in its own language),
    with no request and no polling; the spectators' sockets are not; an HTTP post is pushed too."""
    mid, (t0, t1) = table(client)
    c0, ws0 = seat_socket(client, mid, 0, t0, "en")
    c1, ws1 = seat_socket(client, mid, 1, t1, "fr")
    cs, spectator = seat_socket(client, mid, None)
    try:
        ws0.send_json({"type": "chat", "text": "hello <b>there</b>", "id": 7})
        for sock in (ws0, ws1):
            msg = next_of(sock, "chat")
            assert msg["room"] == "players"
            assert {k: msg["message"][k] for k in ("seat", "name", "text", "quick")} == \
                {"seat": 0, "name": "P0", "text": "hello <b>there</b>", "quick": None}
            assert "texts" not in msg["message"]
        ws1.send_json({"type": "chat", "quick": "good_game"})
        assert next_of(ws0, "chat")["message"]["text"] == "Good game!"
        assert next_of(ws1, "chat")["message"]["text"] == "Bonne partie !"
        assert say(client, mid, 1, t1, text="by http").status_code == 201
        assert next_of(ws0, "chat")["message"]["text"] == "by http"
        assert next_of(ws1, "chat")["message"]["text"] == "by http"
        assert not [m for m in nothing_pending(spectator) if m["type"] == "chat"]
        stored = read(client, mid, 0, t0).json()["messages"]
        assert [m["text"] for m in stored] == ["hello <b>there</b>", "Good game!", "by http"]
        assert [m["id"] for m in stored] == sorted(m["id"] for m in stored)
    finally:
        for ws in (c0, c1, cs):
            ws.__exit__(None, None, None)


def test_hostile_chat_over_the_socket_refused_and_nothing_stored(client: TestClient) -> None:
    """Over the socket the same bounds hold: each refusal is an error naming the message's id, the socket stays
    open, nothing is stored or sent; a spectator's socket cannot write in the players' room; the flood is cut."""
    mid, (t0, _t1) = table(client)
    c0, ws0 = seat_socket(client, mid, 0, t0)
    cs, spectator = seat_socket(client, mid, None)
    try:
        cases = [({"text": "x" * 501}, "chat_too_long"), ({"text": "x" * 100_000}, "bad_request"),
                 ({"text": " \u200b\x00 "}, "bad_request"), ({"quick": "rm -rf"}, "bad_request"),
                 ({"text": "a", "quick": "good_game"}, "bad_request"), ({"text": 12}, "bad_request"),
                 ({"quick": ["good_game"]}, "bad_request"), ({}, "bad_request")]
        for i, (body, code) in enumerate(cases):
            ws0.send_json({"type": "chat", "id": i, **body})
            err = ws0.receive_json()
            assert err["type"] == "error" and err["error"]["code"] == code, (body, err)
            if code != "bad_request" or i != 1:
                assert err["id"] == i
        spectator.send_json({"type": "chat", "text": "let me in", "id": "s"})
        err = spectator.receive_json()
        assert err["error"]["code"] == "spectators_room" and err["error"]["status"] == 403 and err["id"] == "s"
        assert read(client, mid, 0, t0).json()["messages"] == []
        assert nothing_pending(ws0) == []
        # the flood: five messages in ten seconds, then refused (429) and not stored
        for i in range(7):
            ws0.send_json({"type": "chat", "text": f"m{i}", "id": f"f{i}"})
        got = [ws0.receive_json() for _ in range(7)]
        assert [m["type"] for m in got] == ["chat"] * 5 + ["error"] * 2
        assert {m["error"]["code"] for m in got[5:]} == {"chat_rate"}
        assert got[5]["error"]["explain"] == "You are writing too fast; wait a few seconds."  # not "something went wrong"
        assert len(read(client, mid, 0, t0).json()["messages"]) == 5
    finally:
        for ws in (c0, cs):
            ws.__exit__(None, None, None)


def test_chat_socket_of_a_seat_left_refused(client: TestClient) -> None:
    """SRV-A4: a socket whose seat was left (and taken again) neither writes nor reads the players' room."""
    mid, (t0, t1) = table(client)
    c0, ws0 = seat_socket(client, mid, 0, t0)
    c1, ws1 = seat_socket(client, mid, 1, t1)
    try:
        assert client.post(f"/api/matches/{mid}/seats/1/leave", json={"token": t1}).status_code == 200
        assert next_of(ws1, "error")["error"]["code"] == "seat_left"
        t1b = join(client, mid, 1, "Q1")
        c2, ws2 = seat_socket(client, mid, 1, t1b)
        ws0.send_json({"type": "chat", "text": "who is there"})
        assert next_of(ws2, "chat")["message"]["text"] == "who is there"
        c2.__exit__(None, None, None)
    finally:
        for ws in (c0, c1):
            ws.__exit__(None, None, None)


def test_report_review_hide_suspend_and_retention(client: TestClient) -> None:
    chat = client.app.state.chat  # type: ignore[attr-defined]
    mid, (t0, t1) = table(client)
    msg = say(client, mid, 0, t0, text="rude words").json()["id"]
    ok = client.post(f"/api/matches/{mid}/chat/{msg}/report", json={"seat": 1, "reason": "insult"},
                     headers={"X-Seat-Token": t1})
    assert ok.status_code == 201 and ok.json()["new"] is True
    again = client.post(f"/api/matches/{mid}/chat/{msg}/report", json={"seat": 1}, headers={"X-Seat-Token": t1})
    assert again.json()["new"] is False
    other = table(client)[0]
    assert client.post(f"/api/matches/{other}/chat/{msg}/report", json={"seat": 1},
                       headers={"X-Seat-Token": t1}).status_code == 403
    [rep] = chat.reports()
    assert rep["text"] == "rude words" and rep["reason"] == "insult" and rep["match_id"] == mid
    assert chat.resolve(rep["id"], hide=True)
    assert chat.reports() == [] and read(client, mid, 1, t1).json()["messages"] == []
    chat.suspend("acc1", 3, "spam")
    assert chat.suspended("acc1") and not chat.suspended("acc2")
    chat.suspend("acc1", 0)
    assert not chat.suspended("acc1")
    # retention: a message older than KEEP_DAYS is deleted by the hourly prune
    say(client, mid, 1, t1, text="old")
    with chat.engine.begin() as conn:
        conn.execute(text("UPDATE chat_messages SET created_at = :t"), {"t": time.time() - 31 * 86400})
    assert chat.prune() >= 2
    with chat.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM chat_messages")).scalar_one() == 0


def test_moderate_command(sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from spacetable.cli import main
    from spacetable.server.app import create_app

    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as client:
        mid, (t0, t1) = table(client)
        msg = say(client, mid, 0, t0, text="<img src=x onerror=alert(1)> buy now").json()["id"]
        client.post(f"/api/matches/{mid}/chat/{msg}/report", json={"seat": 1, "reason": "spam"},
                    headers={"X-Seat-Token": t1})
    assert main(["moderate", "--database-url", sqlite_url, "reports"]) == 0
    out = capsys.readouterr().out
    assert "buy now" in out and "spam" in out and "1 open report(s)" in out
    report = int(out.split()[0].lstrip("#"))
    assert main(["moderate", "--database-url", sqlite_url, "hide", str(report)]) == 0
    assert main(["moderate", "--database-url", sqlite_url, "hide", "999"]) == 1
    assert main(["moderate", "--database-url", sqlite_url, "suspend", "acc9", "--days", "2"]) == 0
    assert main(["moderate", "--database-url", sqlite_url, "reports"]) == 0
    assert "0 open report(s)" in capsys.readouterr().out
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as client:
        assert client.app.state.chat.suspended("acc9")  # type: ignore[attr-defined]
        assert read(client, mid, 0, t0).json()["messages"] == []
