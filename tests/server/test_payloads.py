"""Payload sizes and long legal-action lists (SRV-L1..L3).

* SRV-L1: only a seat that must act gets legal actions; above ``LEGAL_LIMIT`` a message carries a
  selection of them (``legal_complete`` false, ``legal_count`` the total), so no message grows with the
  number of combinations (tremble's plan decision has thousands).
* SRV-L2: ``GET /api/matches/{id}/legal`` pages through all of them (token-checked).
* SRV-L3: ``POST /api/matches/{id}/legal/check`` says whether an action would be accepted, changing nothing;
  an action outside the selection is still accepted when played (the server validates every action).
* SRV-L4: slow enumerations (tremble's plans) run off the event loop.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from spacetable.core.rng import Rng
from spacetable.games import available, get_game
from spacetable.server import legal as legal_module
from spacetable.server.legal import LEGAL_LIMIT, LEGAL_PAGE_MAX, select_legal
from spacetable.server.service import MatchService

from .conftest import create, join, live

#: no snapshot or event may exceed this (JSON text), for any game, any seat
MAX_MESSAGE = 256 * 1024
STEPS = 60


def norm(data: Any) -> Any:
    return json.loads(json.dumps(data))


def loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def seat_state(client: TestClient, mid: str, seat: int, token: str) -> dict[str, Any]:
    r = client.get(f"/api/matches/{mid}/state", params={"seat": seat}, headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def post_action(client: TestClient, mid: str, seat: int, token: str, version: int, action: Any) -> Any:
    return client.post(f"/api/matches/{mid}/actions", json={"seat": seat, "token": token, "version": version, "action": action})


def start(client: TestClient, game_id: str, config: dict[str, Any], seed: int) -> tuple[str, list[str]]:
    game = get_game(game_id)
    data = create(client, game_id, config=config, seed=seed, open_seed=True, join_seat=0)
    mid = data["match"]["id"]
    n = game.num_players(game.normalize_config(config))
    return mid, [data["token"]] + [join(client, mid, s) for s in range(1, n)]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game_id", available())
def test_message_sizes_are_bounded_for_every_game(client: TestClient, game_id: str) -> None:
    """SRV-L1: every snapshot and event sent to any seat or spectator of every game stays under MAX_MESSAGE,
    and carries legal actions only for a seat that must act."""
    game = get_game(game_id)
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    mid, tokens = start(client, game_id, {}, 4242)
    m = live(client, mid)
    viewers: list[int | None] = [*range(len(tokens)), None]
    subs = {v: service.subscribe(m, v, None if v is None else tokens[v]) for v in viewers}
    pick = Rng.from_seed(7)
    largest = played = 0
    try:
        for _ in range(STEPS):
            for v, sub in subs.items():
                while not sub.queue.empty():
                    text = sub.queue.get_nowait()
                    msg = json.loads(text)
                    largest = max(largest, len(text.encode()))
                    assert len(text.encode()) <= MAX_MESSAGE, f"{game_id}: {msg['type']} for {v} has {len(text)} bytes"
                    if v is None or v not in msg["to_act"]:
                        assert msg["legal"] == [] and msg["legal_count"] == 0, f"{game_id}: legal actions sent to {v}"
                    else:
                        assert len(msg["legal"]) == min(msg["legal_count"], LEGAL_LIMIT)
            to_act = list(game.to_act(m.state))
            if not to_act:
                break
            seat = to_act[pick.randbelow(len(to_act))]
            legal = [a for a in m.legal(seat) if a.get("type") not in ("resign", "accept_end")] or m.legal(seat)
            r = post_action(client, mid, seat, tokens[seat], m.version, legal[pick.randbelow(len(legal))])
            assert r.status_code == 200, r.text
            played += 1
    finally:
        for sub in subs.values():
            service.unsubscribe(m, sub)
    assert largest > 0 and played > 0
    print(f"{game_id}: {played} actions, largest message {largest} bytes")


def test_select_legal_keeps_the_simplest_in_canonical_order() -> None:
    """SRV-L1: the selection is the `limit` actions with the fewest list/dict entries, in canonical order."""
    legal: list[dict[str, Any]] = [{"type": "plan", "groups": [{"slot": i}] * (i % 3)} for i in range(9)]
    assert select_legal(legal, 20) is legal
    chosen = select_legal(legal, 4)
    assert chosen == [legal[0], legal[1], legal[3], legal[6]]  # the three flat ones and the first with one entry


@pytest.mark.hotpath
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), max_size=60), st.integers(1, 70))
def test_select_legal_is_the_stable_sort_by_weight_cut_at_the_limit(shape: list[tuple[int, int]], limit: int) -> None:
    """SRV-L1: the counting selection equals the plain definition: sort by weight (ties in canonical order), keep
    the first ``limit``, give them back in canonical order."""
    legal: list[dict[str, Any]] = [{"type": "t", "n": i, "a": [0] * a, "b": dict.fromkeys(range(b), 0)}
                                   for i, (a, b) in enumerate(shape)]
    weight = [a + b for a, b in shape]
    expected = sorted(sorted(range(len(legal)), key=lambda i: weight[i])[:limit])
    assert select_legal(legal, limit) == [legal[i] for i in expected]


def test_long_legal_lists_are_sent_as_a_selection_and_paged(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """SRV-L1..L3 on arena with a tiny limit: selection + count in the snapshot, every action by pages,
    check without side effects, and an action outside the selection is accepted when played."""
    monkeypatch.setattr(legal_module, "LEGAL_LIMIT", 3)
    game = get_game("arena")
    mid, tokens = start(client, "arena", {}, 99)
    local = game.initial_state(game.normalize_config({}), 99)
    seat = game.to_act(local)[0]
    full = norm(game.legal_actions(local, seat))
    assert len(full) > 3
    snap = seat_state(client, mid, seat, tokens[seat])
    assert snap["legal_complete"] is False and snap["legal_count"] == len(full)
    assert snap["legal"] == norm(select_legal(full, 3))
    other = 1 - seat
    assert seat_state(client, mid, other, tokens[other])["legal"] == []

    # SRV-L2: pages, token-checked
    pages: list[Any] = []
    while len(pages) < len(full):
        r = client.get(f"/api/matches/{mid}/legal", params={"seat": seat, "offset": len(pages), "limit": 2},
                       headers={"X-Seat-Token": tokens[seat]})
        assert r.status_code == 200, r.text
        assert r.json()["count"] == len(full) and r.json()["version"] == 0
        pages += r.json()["actions"]
    assert pages == full
    r = client.get(f"/api/matches/{mid}/legal", params={"seat": seat}, headers={"X-Seat-Token": "wrong"})
    assert r.status_code == 403
    r = client.get(f"/api/matches/{mid}/legal", params={"seat": seat, "limit": LEGAL_PAGE_MAX + 1},
                   headers={"X-Seat-Token": tokens[seat]})
    assert r.status_code == 422
    r = client.get(f"/api/matches/{mid}/legal", params={"seat": other}, headers={"X-Seat-Token": tokens[other]})
    assert r.json()["count"] == 0 and r.json()["actions"] == []

    # SRV-L3: check, nothing changes
    outside = next(a for a in full if a not in snap["legal"])
    body = {"seat": seat, "token": tokens[seat], "version": 0}
    assert client.post(f"/api/matches/{mid}/legal/check", json={**body, "action": outside}).json() == {"legal": True}
    bad = client.post(f"/api/matches/{mid}/legal/check", json={**body, "action": {"type": "warp"}}).json()
    assert bad["legal"] is False and bad["rule"]
    assert client.post(f"/api/matches/{mid}/legal/check", json={**body, "action": 5}).json()["rule"] == "CORE-ACTION"
    r = client.post(f"/api/matches/{mid}/legal/check", json={**body, "version": 3, "action": outside})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    r = client.post(f"/api/matches/{mid}/legal/check", json={**body, "token": "nope", "action": outside})
    assert r.status_code == 403
    not_mine = client.post(f"/api/matches/{mid}/legal/check",
                           json={"seat": other, "token": tokens[other], "version": 0, "action": outside}).json()
    assert not_mine["legal"] is False
    assert client.get(f"/api/matches/{mid}").json()["version"] == 0

    # SRV-A2: the server validates whatever is played, selection or not
    r = post_action(client, mid, seat, tokens[seat], 0, outside)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 1


@pytest.mark.timeout(240)
def test_tremble_plan_decision_is_not_sent_whole(client: TestClient) -> None:
    """SRV-L1 on a real long list: tremble's plan decision (thousands of plans) reaches the seat as a
    bounded selection that still contains the one-group plans its renderer offers on the board."""
    game = get_game("tremble")
    mid, tokens = start(client, "tremble", {}, 1)
    m = live(client, mid)
    pick = Rng.from_seed(3)
    for _ in range(300):
        to_act = list(game.to_act(m.state))
        assert to_act, "the match ended before a plan decision with many options"
        big = [s for s in to_act if len(m.legal(s)) > LEGAL_LIMIT]
        if big:
            break
        seat = to_act[0]
        legal = m.legal(seat)
        r = post_action(client, mid, seat, tokens[seat], m.version, legal[pick.randbelow(len(legal))])
        assert r.status_code == 200, r.text
    else:
        pytest.fail("no decision with more than LEGAL_LIMIT legal actions in 300 steps")
    seat = big[0]
    full = norm(game.legal_actions(m.state, seat))
    snap = seat_state(client, mid, seat, tokens[seat])
    assert len(json.dumps(snap)) <= MAX_MESSAGE < len(json.dumps(full)) + MAX_MESSAGE
    assert snap["legal_complete"] is False and snap["legal_count"] == len(full) and len(snap["legal"]) == LEGAL_LIMIT
    assert all(a in full for a in snap["legal"])
    one_group = [a for a in full if a.get("type") == "plan" and len(a.get("groups", [])) <= 1]
    assert all(a in snap["legal"] for a in one_group[:LEGAL_LIMIT])


@pytest.mark.usefixtures("nim")
def test_slow_legal_lists_are_computed_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """SRV-L4: for a game declaring ``slow_legal_actions`` the lists an event needs are computed in a worker thread
    (no event loop running there) before the new state is published, and the events stay exact and in order.
    SRV-V3 (issue 9, item 7): a client connecting while that happens gets the previous snapshot and then the event,
    never the new snapshot followed by the same event again."""
    game = get_game("nim")
    honest = type(game).legal_actions
    off_loop: list[bool] = []
    gate = {"armed": False}
    entered, release = threading.Event(), threading.Event()

    def slow(self: Any, state: Any, player: int) -> list[dict[str, Any]]:
        in_thread = not loop_running()
        off_loop.append(in_thread)
        if gate["armed"] and in_thread:
            gate["armed"] = False
            entered.set()
            release.wait(10)
        return honest(self, state, player)

    monkeypatch.setattr(type(game), "legal_actions", slow)
    monkeypatch.setattr(type(game), "slow_legal_actions", True, raising=False)
    mid, tokens = start(client, "nim", {}, 5)
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0&token={tokens[0]}") as w0, \
            client.websocket_connect(f"/ws/matches/{mid}?seat=1&token={tokens[1]}") as w1:
        msgs = [w0.receive_json(), w1.receive_json()]
        local = game.initial_state(game.normalize_config({}), 5)
        for step in range(4):
            seat = game.to_act(local)[0]
            action = msgs[seat]["legal"][0]
            gate["armed"] = step == 2
            (w0, w1)[seat].send_json({"type": "action", "version": step, "action": action})
            local = game.apply(local, seat, action)
            if step == 2:  # a spectator connects while the next seat's legal actions are being listed
                assert entered.wait(10)
                with client.websocket_connect(f"/ws/matches/{mid}") as late:
                    snap = late.receive_json()
                    release.set()
                    event = late.receive_json()
                    assert snap["type"] == "snapshot" and event["type"] == "event"
                    assert event["version"] == snap["version"] + 1 == step + 1  # the event comes once, after the snapshot
                    late.send_json({"type": "ping", "id": 1})
                    assert late.receive_json() == {"type": "pong", "id": 1}  # nothing else was queued
            msgs = [w0.receive_json(), w1.receive_json()]
            for v, msg in enumerate(msgs):
                assert msg["type"] == "event" and msg["version"] == step + 1
                expected = norm(honest(game, local, v)) if v in game.to_act(local) else []
                assert msg["legal"] == expected
    assert any(off_loop), "no legal-action list was computed in a worker thread"
