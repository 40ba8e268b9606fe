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
