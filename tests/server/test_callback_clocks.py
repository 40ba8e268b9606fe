"""Time controls and absent players (issue 21): the clocks chosen at creation (per move, increment, days per move,
none) with bounded values; each lapse policy played out (claim the win, computer, pass, forfeit) with the clocks'
time injected (no waiting on the wall clock); increment banks counted from the log; a vacation pausing a
correspondence clock; the spectators' chat (accounts only, hidden from the players while the match is on, hostile
input refused or kept as text); an account's seat bound in the join's own transaction (no first "your turn"
lost)."""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from spacetable.server.app import create_app
from spacetable.server.live import bank_step
from spacetable.server.notify.events import seat_accounts

from .conftest import create, join, lenient_limits, live
from .test_callback_accounts import Mailbox, browser, mailbox, make_app, signup  # noqa: F401 (fixture)

pytestmark = pytest.mark.callback


def act(c: TestClient, mid: str, seat: int, token: str, action: dict[str, Any]) -> Any:
    version = c.get(f"/api/matches/{mid}").json()["version"]
    return c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": token, "version": version,
                                                        "action": action})


def later(c: TestClient, seconds: float) -> None:
    """The clocks' time moves ``seconds`` on (injected: nothing waits on the wall clock)."""
    clocks = c.app.state.service.clocks  # type: ignore[attr-defined]
    base = clocks.now()
    clocks.now = lambda: base + seconds


def expire(c: TestClient, mid: str) -> None:
    """What the match's timer does when it fires (the clocks' injected time decides whether it is due)."""
    service = c.app.state.service  # type: ignore[attr-defined]
    m = live(c, mid)
    c.portal.call(service.clocks._timeout, m, m.version)  # type: ignore[union-attr]


def two_nim(c: TestClient, **body: Any) -> tuple[str, str, str]:
    data = create(c, "nim", config={"heaps": 2, "size": 3}, join_seat=0, **body)
    mid = data["match"]["id"]
    return mid, data["token"], join(c, mid, 1)


def test_time_controls_bounded_and_shown(nim: None, sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        bad = [
            {"clock": {"kind": "move", "seconds": 5}},  # under 10 s
            {"clock": {"kind": "move"}},  # no seconds
            {"clock": {"kind": "increment", "seconds": 30, "increment": 2}},  # a bank under a minute
            {"clock": {"kind": "increment", "seconds": 300, "increment": 601}},
            {"clock": {"kind": "days", "days": 15}},
            {"clock": {"kind": "days", "days": 0}},
            {"clock": {"kind": "hourglass"}},
            {"clock": {"kind": "move", "seconds": 60}, "turn_seconds": 60},  # both
            {"clock": {"kind": "move", "seconds": 60, "extra": 1}},
            {"lapse": "claim"},  # a lapse policy without a clock
            {"lapse": "explode", "clock": {"kind": "move", "seconds": 60}},
            {"lapse": "claim", "lapse_agent": "default", "clock": {"kind": "move", "seconds": 60}},
        ]
        for body in bad:
            r = c.post("/api/matches", json={"game": "nim", **body})
            assert r.status_code == 422 and "error" in r.json(), (body, r.text)
        # Galaxies' rules name no move for an absent seat: "pass" is refused with the reason
        r = c.post("/api/matches", json={"game": "galaxies", "lapse": "pass", "clock": {"kind": "days", "days": 3}})
        assert r.status_code == 422 and "no pass" in r.json()["error"]["message"]
        with c.app.state.service.engine.connect() as conn:  # type: ignore[attr-defined]
            assert conn.execute(text("SELECT count(*) FROM matches")).scalar_one() == 0
        shown = {
            "none": ({"kind": "none"}, None),
            "move": ({"kind": "move", "seconds": 90}, 90),
            "increment": ({"kind": "increment", "seconds": 300, "increment": 5}, 300),
            "days": ({"kind": "days", "days": 3}, 3 * 86400),
        }
        for kind, (clock, seconds) in shown.items():
            s = create(c, "nim", clock=clock)["match"]
            assert s["clock"]["kind"] == kind and s["turn_seconds"] == seconds
            assert c.get("/api/matches", params={"status": "open"}).json()[0]["clock"]["kind"] == kind
        mid, _t0, _t1 = two_nim(c, clock={"kind": "days", "days": 2}, lapse="claim")
        clock = c.get(f"/api/matches/{mid}/clock").json()
        assert clock["kind"] == "days" and clock["lapse"] == "claim" and clock["lapsed"] == []
        summary = c.get(f"/api/matches/{mid}").json()
        assert summary["turn_started_at"] is not None and summary["to_act"] == [0]


def test_claim_the_win(nim: None, sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        mid, t0, t1 = two_nim(c, clock={"kind": "move", "seconds": 60}, lapse="claim")
        assert act(c, mid, 0, t0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        # seat 1 is to act; seat 0 waits: before the time is out, a claim is refused and changes nothing
        r = c.post(f"/api/matches/{mid}/claim", json={"seat": 0}, headers={"X-Seat-Token": t0})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_lapsed"
        later(c, 61)
        expire(c, mid)  # the timer fires: with "claim" nothing is played for the absent seat
        s = c.get(f"/api/matches/{mid}").json()
        assert s["status"] == "running" and s["version"] == 1
        assert c.get(f"/api/matches/{mid}/clock").json()["lapsed"] == [1]
        # hostile: no token, the absent seat itself, another seat's token
        assert c.post(f"/api/matches/{mid}/claim", json={"seat": 0}).status_code == 403
        assert c.post(f"/api/matches/{mid}/claim", json={"seat": 1}, headers={"X-Seat-Token": t1}).status_code == 409
        assert c.post(f"/api/matches/{mid}/claim", json={"seat": 0}, headers={"X-Seat-Token": t1}).status_code == 403
        r = c.post(f"/api/matches/{mid}/claim", json={"seat": 0}, headers={"X-Seat-Token": t0})
        assert r.status_code == 200 and r.json()["absent"] == 1, r.text
        s = c.get(f"/api/matches/{mid}").json()
        assert s["status"] == "finished" and s["outcome"]["winners"] == [0]
        assert c.get(f"/api/matches/{mid}/state").json()["log"][-1]["source"] == "timeout"


def test_lapse_to_the_computer_chosen_at_creation(nim: None, sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        mid, t0, _t1 = two_nim(c, clock={"kind": "move", "seconds": 30}, lapse="computer")
        assert c.get(f"/api/matches/{mid}/lapse").json()["lapse"] == "computer"
        expire(c, mid)  # not due yet: nothing happens
        assert c.get(f"/api/matches/{mid}").json()["seats"][0]["kind"] == "human"
        later(c, 31)
        expire(c, mid)
        s = c.get(f"/api/matches/{mid}").json()
        assert s["seats"][0]["kind"] == "ai" and s["seats"][1]["kind"] == "human"
        assert act(c, mid, 0, t0, {"type": "take", "heap": 0, "count": 1}).status_code == 403  # the token is gone


def test_lapse_forfeit_by_default(nim: None, sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        mid, _t0, _t1 = two_nim(c, clock={"kind": "move", "seconds": 30})
        later(c, 31)
        expire(c, mid)
        s = c.get(f"/api/matches/{mid}").json()
        assert s["status"] == "finished" and s["outcome"]["winners"] == [1]


def test_absent_seat_passes_in_a_sealed_phase(sqlite_url: str) -> None:
    """Tremble opens with a sealed simultaneous buy: the absent seat's pass is the rules' own default (buy
    nothing), played for it; the match goes on with both seats still people."""
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        # seed 0 opens with the buy (with some seeds a seat is first offered the station redraw, TH-4.2)
        data = create(c, "tremble", config={"players": 2}, join_seat=0, clock={"kind": "move", "seconds": 120},
                      lapse="pass", seed=0, open_seed=True)
        mid, t0 = data["match"]["id"], data["token"]
        join(c, mid, 1)
        state = c.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": t0}).json()
        assert sorted(c.get(f"/api/matches/{mid}").json()["to_act"]) == [0, 1]
        m = live(c, mid)
        own = m.game.timeout_action(m.state, 0)
        assert act(c, mid, 0, t0, own).status_code == 200, state
        assert c.get(f"/api/matches/{mid}").json()["to_act"] == [1]
        later(c, 121)
        expire(c, mid)
        s = c.get(f"/api/matches/{mid}").json()
        log = c.get(f"/api/matches/{mid}/state").json()["log"]
        assert log[-1]["seat"] == 1 and log[-1]["source"] == "timeout" and s["status"] == "running"
        assert [seat["kind"] for seat in s["seats"]] == ["human", "human"] and s["version"] == 2


def test_increment_banks() -> None:
    banks = [300.0, 300.0]
    started = bank_step(banks, 1000.0, (0,), (1,), 1040.0, 5.0)  # seat 0 used 40 s, gains 5
    assert banks == [265.0, 300.0] and started == 1040.0
    started = bank_step(banks, started, (1,), (1,), 1100.0, 5.0)  # seat 1 acts on in its own turn: nothing yet
    assert banks == [265.0, 300.0] and started == 1040.0
    started = bank_step(banks, started, (1,), (0, 1), 1140.0, 5.0)  # both to act: seat 1 spent 100 s
    assert banks == [265.0, 200.0] and started == 1140.0
    bank_step(banks, started, (0, 1), (1,), 1150.0, 5.0)  # seat 0 seals its choice after 10 s
    assert banks == [260.0, 200.0]


def test_increment_clock_across_a_restart(nim: None, sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import spacetable.server.service as service_module

    now = [time.time()]
    monkeypatch.setattr(service_module.time, "time", lambda: now[0])
    app = create_app(sqlite_url, ai_workers=0, limits=lenient_limits())
    with TestClient(app) as c:
        mid, t0, t1 = two_nim(c, clock={"kind": "increment", "seconds": 120, "increment": 10})
        start = c.get(f"/api/matches/{mid}").json()["turn_started_at"]
        now[0] = start + 50
        assert act(c, mid, 0, t0, {"type": "take", "heap": 0, "count": 1}).status_code == 200
        now[0] = start + 60
        assert act(c, mid, 1, t1, {"type": "take", "heap": 1, "count": 1}).status_code == 200
        clock = c.get(f"/api/matches/{mid}/clock").json()
        assert clock["banks"] == [80.0, 120.0]
        assert c.get(f"/api/matches/{mid}").json()["deadline"] == pytest.approx(start + 60 + 80)
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:  # a restart
        assert c.get(f"/api/matches/{mid}/clock").json()["banks"] == [80.0, 120.0]
        assert c.get(f"/api/matches/{mid}").json()["deadline"] == pytest.approx(start + 60 + 80)


def accounts_table(c: TestClient, box: Mailbox) -> tuple[TestClient, str, str, str, str, str]:
    bob = browser(c)
    csrf_a, csrf_b = signup(c, box, "ann@example.org", "ann"), signup(bob, box, "bob@example.org", "bob")
    r = c.post("/api/account/matches", json={"game": "nim", "config": {"heaps": 2, "size": 3},
                                             "clock": {"kind": "days", "days": 1}}, headers={"X-CSRF-Token": csrf_a})
    assert r.status_code == 201, r.text
    mid, token_a = r.json()["match"]["id"], r.json()["token"]
    r = bob.post(f"/api/account/matches/{mid}/seats/1/join", headers={"X-CSRF-Token": csrf_b})
    assert r.status_code == 200, r.text
    return bob, csrf_a, csrf_b, mid, token_a, r.json()["token"]


def test_vacation_pauses_a_correspondence_clock(nim: None, sqlite_url: str, mailbox: tuple[Mailbox, int]) -> None:  # noqa: F811
    box, port = mailbox
    with TestClient(make_app(sqlite_url, port)) as ann:
        bob, csrf_a, _csrf_b, mid, _ta, _tb = accounts_table(ann, box)
        clocks = ann.app.state.service.clocks  # type: ignore[attr-defined]
        start = ann.get(f"/api/matches/{mid}").json()["turn_started_at"]
        assert ann.put("/api/account/vacation", json={"on": True}).status_code == 403  # no CSRF token
        clocks.now = lambda: start + 3600
        r = ann.put("/api/account/vacation", json={"on": True}, headers={"X-CSRF-Token": csrf_a})
        assert r.status_code == 200 and r.json()["on"] is True, r.text
        away = bob.get(f"/api/matches/{mid}/clock").json()
        assert list(away["vacation"]) == ["0"]  # the others see it
        clocks.now = lambda: start + 86400 + 3600  # the day is out, but ann is away: nothing is played
        expire(ann, mid)
        assert ann.get(f"/api/matches/{mid}").json()["status"] == "running"
        clocks.now = lambda: start + 2 * 86400
        r = ann.put("/api/account/vacation", json={"on": False}, headers={"X-CSRF-Token": csrf_a})
        assert r.json()["on"] is False and r.json()["days_left"] < 30
        # 2 days - 1 hour away: the day's clock runs out 2 days - 1 hour later than it would have
        assert bob.get(f"/api/matches/{mid}/clock").json()["due"]["0"] == pytest.approx(start + 3 * 86400 - 3600)
        expire(ann, mid)
        assert ann.get(f"/api/matches/{mid}").json()["status"] == "running"
        clocks.now = lambda: start + 3 * 86400
        expire(ann, mid)
        s = ann.get(f"/api/matches/{mid}").json()
        assert s["status"] == "finished" and s["outcome"]["winners"] == [1]


def test_a_vacation_ended_early_resets_the_clock_of_the_process_running_the_match(
        nim: None, sqlite_url: str, mailbox: tuple[Mailbox, int]) -> None:  # noqa: F811
    """Ended early in a process that does not run the match's clock, a vacation is announced to the others
    (``{"k": "w"}``), and the process that runs it sets the match's timer again at once (not at the latest end)."""
    box, port = mailbox
    with TestClient(make_app(sqlite_url, port)) as ann:
        _bob, csrf_a, _csrf_b, mid, _ta, _tb = accounts_table(ann, box)
        service = ann.app.state.service  # type: ignore[attr-defined]
        start = ann.get(f"/api/matches/{mid}").json()["turn_started_at"]
        service.clocks.now = lambda: start + 3600
        assert ann.put("/api/account/vacation", json={"on": True}, headers={"X-CSRF-Token": csrf_a}).status_code == 200
        m = live(ann, mid)
        m.owner = "another-process"  # the match's clock runs elsewhere
        published: list[tuple[str, dict[str, Any]]] = []
        service.fanout.publish = lambda match_id, notice: published.append((match_id, notice))
        scheduled: list[str] = []
        schedule = service.clocks.schedule
        service.clocks.schedule = lambda mm: (scheduled.append(mm.id), schedule(mm))
        service.clocks.now = lambda: start + 7200
        assert ann.put("/api/account/vacation", json={"on": False}, headers={"X-CSRF-Token": csrf_a}).status_code == 200
        assert published == [(mid, {"k": "w"})] and scheduled == []  # told to the owner, not set here
        # the owner gets the notice: its timer is set again; a process that does not run the clock ignores it
        ann.portal.call(service.catchup._apply, m, "another-process", {"k": "w"})  # type: ignore[union-attr]
        assert scheduled == []
        m.owner = service.server_id
        ann.portal.call(service.catchup._apply, m, "another-process", {"k": "w"})  # type: ignore[union-attr]
        assert scheduled == [mid]


def test_account_bound_in_the_join_transaction(nim: None, sqlite_url: str, mailbox: tuple[Mailbox, int]) -> None:  # noqa: F811
    """The watchers run as soon as the join that starts the match is committed: the joining account must already
    be bound to its seat then, or its first notification would be lost."""
    box, port = mailbox
    with TestClient(make_app(sqlite_url, port)) as ann:
        service = ann.app.state.service  # type: ignore[attr-defined]
        seen: list[dict[int, str]] = []
        service.watchers.insert(0, lambda m, seat, action: seen.append(seat_accounts(service.engine, m.id)))
        accounts_table(ann, box)
        assert len(seen) == 2 and set(seen[0]) == {0} and set(seen[1]) == {0, 1}


def spectator_post(c: TestClient, mid: str, csrf: str | None, **body: Any) -> Any:
    headers = {"X-CSRF-Token": csrf} if csrf else {}
    return c.post(f"/api/matches/{mid}/chat", json={"room": "spectators", **body}, headers=headers)


def test_spectators_chat(nim: None, sqlite_url: str, mailbox: tuple[Mailbox, int]) -> None:  # noqa: F811
    box, port = mailbox
    with TestClient(make_app(sqlite_url, port)) as ann:
        bob, csrf_a, _csrf_b, mid, ta, _tb = accounts_table(ann, box)
        eve = browser(ann)
        csrf_e = signup(eve, box, "eve@example.org", "eve")
        guest = browser(ann)
        payload = '<img src=x onerror="alert(1)">'
        cases = [
            spectator_post(guest, mid, None, text="hi"),  # signed out: 401
            spectator_post(eve, mid, None, text="hi"),  # no CSRF token
            spectator_post(ann, mid, csrf_a, text="players write in their room"),  # seated
            spectator_post(eve, mid, csrf_e, text="x" * 100_000),  # 100 KB
            spectator_post(eve, mid, csrf_e, text="hi", seat=0),
        ]
        assert [r.status_code for r in cases] == [401, 403, 403, 422, 403]
        r = spectator_post(eve, mid, csrf_e, text=payload)
        assert r.status_code == 201 and r.json()["text"] == payload and r.json()["seat"] is None
        codes = [spectator_post(eve, mid, csrf_e, text=f"m{i}").status_code for i in range(8)]  # a flood
        assert 429 in codes and codes[0] == 201
        msgs = guest.get(f"/api/matches/{mid}/chat", params={"room": "spectators"}).json()["messages"]
        assert msgs[0]["text"] == payload and msgs[0]["name"] == "eve" and len(msgs) == 1 + codes.count(201)
        # the players do not read it while the match is on (as on lichess), by seat or by account
        assert ann.get(f"/api/matches/{mid}/chat", params={"room": "spectators"}).status_code == 403
        assert guest.get(f"/api/matches/{mid}/chat", params={"room": "spectators", "seat": 0},
                         headers={"X-Seat-Token": ta}).status_code == 403
        assert bob.post(f"/api/matches/{mid}/chat", json={"room": "players", "seat": 1, "text": "x"}).status_code == 403
        ann.post(f"/api/matches/{mid}/actions", json={"seat": 0, "token": ta, "version": 0,
                                                      "action": {"type": "resign"}})
        after = ann.get(f"/api/matches/{mid}/chat", params={"room": "spectators"})
        assert after.status_code == 200 and after.json()["messages"][0]["text"] == payload
        # off in a computer-only match
        solo = create(ann, "nim", ai_seats={"0": None, "1": None})["match"]["id"]
        r = spectator_post(eve, solo, csrf_e, text="hello")
        assert r.status_code == 409 and r.json()["error"]["code"] == "chat_off"


def test_mailer_reuses_relay_connections(mailbox: tuple[Mailbox, int]) -> None:  # noqa: F811
    """Mails go over kept connections to the relay (one for many messages); a kept connection the relay dropped
    is replaced once, and the message still arrives."""
    import asyncio

    from spacetable.server.mail import Mailer, SmtpRelay

    box, port = mailbox
    mailer = Mailer(SmtpRelay("127.0.0.1", port), "table@example.org")

    async def send(n: int) -> None:
        for i in range(n):
            await mailer.send(f"p{i}@example.org", f"m{i}", "hello")

    asyncio.run(send(5))
    assert mailer.sent == 5 and mailer.connections == 1
    mailer._idle[0][0].sock.shutdown(socket.SHUT_RDWR)  # the relay (or the network) dropped the kept connection
    asyncio.run(send(2))
    mailer.close()
    deadline = time.monotonic() + 60
    while len(box.messages) < 7 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(box.messages) == 7 and mailer.connections == 2


def test_a_claim_in_a_three_seat_match_resigns_every_lapsed_seat(sqlite_url: str) -> None:
    """Tremble for three opens with a sealed buy that every seat makes at once: when two seats let their time run
    out, one claim by the seat that played resigns both (not one claim each), and the claimer wins."""
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        # seed 0 opens with the buy (with some seeds a seat is first offered the station redraw, TH-4.2)
        data = create(c, "tremble", config={"players": 3}, join_seat=0, clock={"kind": "move", "seconds": 120},
                      lapse="claim", seed=0, open_seed=True)
        mid, t0 = data["match"]["id"], data["token"]
        join(c, mid, 1)
        join(c, mid, 2)
        assert sorted(c.get(f"/api/matches/{mid}").json()["to_act"]) == [0, 1, 2]
        m = live(c, mid)
        assert act(c, mid, 0, t0, m.game.timeout_action(m.state, 0)).status_code == 200
        later(c, 121)
        expire(c, mid)  # with "claim" nothing is played for the absent seats
        assert sorted(c.get(f"/api/matches/{mid}/clock").json()["lapsed"]) == [1, 2]
        r = c.post(f"/api/matches/{mid}/claim", json={"seat": 0}, headers={"X-Seat-Token": t0})
        assert r.status_code == 200, r.text
        assert r.json()["absent_seats"] == [1, 2] and r.json()["absent"] == 1
        s = c.get(f"/api/matches/{mid}").json()
        assert s["status"] == "finished" and s["outcome"]["winners"] == [0], s
        log = c.get(f"/api/matches/{mid}/state").json()["log"]
        assert [(e["seat"], e["source"]) for e in log[-2:]] == [(1, "timeout"), (2, "timeout")]
