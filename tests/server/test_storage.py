"""The storage drivers (SRV-P2, SRV-X1, SRV-B1) on SQLite and PostgreSQL: compare-and-set appends, group commit,
a failing append isolated from the others in its batch, jobs, and the history of a live match (replays step by
step at one ``apply`` per step, undo from checkpoints)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.games import get_game
from spacetable.server import live as live_module
from spacetable.server import repo
from spacetable.server.live import CHECKPOINT_EVERY
from spacetable.server.storage import Append, PostgresStorage, SqliteTx, open_storage, run_now

from .conftest import create, join, live

MATCH = {"game": "nim", "name": "", "config": "{}", "seed": 1, "status": "running", "version": 0, "ai_seconds": 1.0,
         "turn_seconds": None, "turn_started_at": None, "outcome": None, "undo_request": None, "created_at": 0.0,
         "updated_at": 0.0, "open_seed": False, "to_act": "[0]", "broken": None, "revision": 0, "epoch": 0, "owner": None,
         "wake_at": None}
FIELDS = {"status": "running", "turn_started_at": 1.0, "updated_at": 2.0, "outcome": None, "undo_request": None,
          "to_act": "[1]", "wake_at": None, "owner": "me"}


def append(match_id: str, idx: int, revision: int) -> Append:
    return Append(match_id, idx, 0, json.dumps({"type": "take", "i": idx}), "player", time.time(), revision, FIELDS)


async def with_storage(url: str, body: Any) -> Any:
    storage = open_storage(url)
    storage.migrate()
    await storage.start()
    try:
        return await body(storage)
    finally:
        await storage.stop()


async def add_matches(storage: Any, ids: list[str]) -> None:
    async def job(tx: Any) -> None:
        for i in ids:
            await repo.insert_match(tx, {"id": i, **MATCH}, [])
    await storage.write(job)


def test_appends_are_compare_and_set_on_the_revision(db_url: str) -> None:
    """SRV-X1: an append commits only if the match is still at the revision it was built on; a stale one stores
    nothing and says so (no error)."""
    async def body(storage: Any) -> None:
        await add_matches(storage, ["m1"])
        assert await storage.append(append("m1", 0, 0)) is True
        assert await storage.append(append("m1", 1, 0)) is False  # built on revision 0: another change came first
        assert await storage.append(append("m1", 1, 1)) is True
        rows = await storage.read(lambda tx: repo.load(tx, "m1"))
        assert rows[0]["version"] == 2 and rows[0]["revision"] == 2 and [a["idx"] for a in rows[2]] == [0, 1]
        assert rows[0]["owner"] == "me" and rows[0]["to_act"] == "[1]"

    asyncio.run(with_storage(db_url, body))


def test_appends_waiting_together_commit_together(db_url: str) -> None:
    """SRV-B1: appends made at the same time (here 60 matches) go into a few transactions, each acknowledged only once
    committed; PostgreSQL counts its batches."""
    async def body(storage: Any) -> None:
        ids = [f"g{i}" for i in range(60)]
        await add_matches(storage, ids)
        results = await asyncio.gather(*(storage.append(append(i, 0, 0)) for i in ids))
        assert all(results)
        count = await storage.read(lambda tx: tx.fetch("SELECT COUNT(*) AS n FROM actions"))
        assert count[0]["n"] == 60
        if isinstance(storage, PostgresStorage):
            assert storage.appended == 60 and storage.batches < 60 / 2

    asyncio.run(with_storage(db_url, body))


def test_a_failing_append_does_not_fail_its_batch(db_url: str) -> None:
    """A batch in which one append breaks a constraint is retried one append per transaction: the others are stored,
    the bad one reports its error (or, on PostgreSQL, finds a row that is not its own: stored by someone else, a
    conflict)."""
    async def body(storage: Any) -> None:
        await add_matches(storage, ["a", "b", "c"])

        async def corrupt(tx: Any) -> None:  # an action row the match's version does not know of
            await tx.execute("INSERT INTO actions (match_id, idx, seat, action, source, created_at) "
                             "VALUES ('b', 0, 0, '{}', 'player', 0)")
        await storage.write(corrupt)
        results = await asyncio.gather(*(storage.append(append(i, 0, 0)) for i in ("a", "b", "c")), return_exceptions=True)
        assert results[0] is True and results[2] is True
        assert results[1] is False or isinstance(results[1], Exception)
        rows = await storage.read(lambda tx: repo.load(tx, "b"))
        assert rows[0]["version"] == 0 and rows[0]["revision"] == 0  # nothing of the bad append stayed

    asyncio.run(with_storage(db_url, body))


def test_sqlite_jobs_never_wait(sqlite_url: str) -> None:
    """Jobs on SQLite run to their end without giving the event loop away (nothing else runs inside a transaction)."""
    async def bad(tx: Any) -> None:
        await asyncio.sleep(0)

    async def good(tx: Any) -> int:
        return len(await tx.fetch("SELECT 1 AS one"))

    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    assert run_now(good(SqliteTx(conn))) == 1
    with pytest.raises(RuntimeError):
        run_now(bad(SqliteTx(conn)))


@pytest.mark.hotpath
def test_sqlite_counts_its_commits_and_the_actions_in_them(sqlite_url: str) -> None:
    """Issue 26 (``/health`` ``appends``, the benchmark's actions a commit): each turn of the event loop commits what
    was appended in it, once; appends one after the other commit one by one."""
    async def body(storage: Any) -> None:
        await add_matches(storage, ["z1", "z2", "z3"])
        for idx in range(3):
            assert await storage.append(append("z1", idx, idx)) is True
        assert (storage.batches, storage.appended) == (3, 3)
        together = [storage.append(append("z2", 0, 0)), storage.append(append("z3", 0, 0)),
                    storage.append(append("z1", 3, 3))]
        assert await asyncio.gather(*together) == [True, True, True]
        assert (storage.batches, storage.appended) == (4, 6)
        count = await storage.read(lambda tx: tx.fetch("SELECT COUNT(*) AS n FROM actions"))
        assert count[0]["n"] == 6

    asyncio.run(with_storage(sqlite_url, body))


@pytest.mark.hotpath
def test_commits_are_paced_by_the_commit_window(db_url: str) -> None:
    """Issue 26 (``storage.COMMIT_WINDOW``, ``serve --commit-window``): an append within a window of the last commit's
    start waits for the window's end, and the appends of other matches made meanwhile share its transaction; after a
    quiet stretch an append commits at once, alone. Nothing here bounds a duration from above."""
    window = 1.0  # long beside any stall of a busy machine between two statements of the test

    async def turns(n: int) -> None:
        for _ in range(n):
            await asyncio.sleep(0)

    async def body(storage: Any) -> None:
        storage.commit_window = window
        loop = asyncio.get_running_loop()
        await add_matches(storage, ["w1", "w2", "w3", "w4"])
        before_first = loop.time()
        assert await storage.append(append("w1", 0, 0)) is True  # the first: no commit before it, at once
        start = storage.batches
        pair = [asyncio.ensure_future(storage.append(append("w2", 0, 0)))]
        await turns(3)
        pair.append(asyncio.ensure_future(storage.append(append("w3", 0, 0))))
        assert await asyncio.gather(*pair) == [True, True]
        assert loop.time() >= before_first + window  # they waited for the window's end
        assert storage.batches == start + 1  # and committed together, in other turns of the loop than each other
        await asyncio.sleep(window * 1.5)  # quiet for longer than a window
        alone = asyncio.ensure_future(storage.append(append("w4", 0, 0)))
        await turns(3)  # the quiet append has committed by now, at the end of its own turn
        later = asyncio.ensure_future(storage.append(append("w1", 1, 1)))
        assert await asyncio.gather(alone, later) == [True, True]
        assert storage.batches == start + 3  # each on its own: the first at once, the next after a window
        count = await storage.read(lambda tx: tx.fetch("SELECT COUNT(*) AS n FROM actions"))
        assert count[0]["n"] == 5

    asyncio.run(with_storage(db_url, body))


@pytest.mark.usefixtures("nim")
def test_stepping_through_a_replay_costs_one_apply_per_step(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Replays (SRV-R1) read the match's history: stepping through all n steps applies about n actions, not n²/2; a jump
    costs at most CHECKPOINT_EVERY applies."""
    data = create(client, "nim", seed=5, open_seed=True, join_seat=0, config={"heaps": 5, "size": 30, "resign": False})
    mid, t0 = data["match"]["id"], data["token"]
    tokens = [t0, join(client, mid, 1)]
    version = 0
    while True:
        snap = client.get(f"/api/matches/{mid}/state", params={"seat": version % 2},
                          headers={"X-Seat-Token": tokens[version % 2]}).json()
        if not snap["legal"]:
            break
        r = client.post(f"/api/matches/{mid}/actions", json={"seat": version % 2, "token": tokens[version % 2],
                                                             "version": version, "action": snap["legal"][0]})
        assert r.status_code == 200
        version += 1
    assert version > CHECKPOINT_EVERY
    game = get_game("nim")
    calls = {"n": 0}
    real = game.apply

    def counting(*args: Any) -> Any:
        calls["n"] += 1
        return real(*args)

    monkeypatch.setattr(game, "apply", counting)
    views = [client.get(f"/api/matches/{mid}/replay/{i}").json()["view"] for i in range(version + 1)]
    assert calls["n"] <= version + 1, calls
    local = game.initial_state(game.normalize_config({"heaps": 5, "size": 30, "resign": False}), 5)
    assert views[0] == json.loads(json.dumps(game.view(local, None)))
    calls["n"] = 0
    client.get(f"/api/matches/{mid}/replay/{version - 1}")
    client.get(f"/api/matches/{mid}/replay/3")
    assert calls["n"] <= 2 * CHECKPOINT_EVERY
    m = live(client, mid)
    assert m.state_at(version) is m.state


@pytest.mark.usefixtures("nim")
def test_a_sockets_token_is_hashed_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """SRV-A3, SRV-B1: a seat's socket shows its token once; its actions compare the stored hash."""
    data = create(client, "nim", seed=6, open_seed=True, join_seat=0, config={"resign": False})
    mid, t0 = data["match"]["id"], data["token"]
    join(client, mid, 1)
    calls = {"n": 0}
    real = live_module.hash_token

    def counting(token: str) -> str:
        calls["n"] += 1
        return real(token)

    monkeypatch.setattr("spacetable.server.service.hash_token", counting)
    monkeypatch.setattr("spacetable.server.seats.hash_token", counting)
    with client.websocket_connect(f"/ws/matches/{mid}?seat=0") as ws:
        ws.send_json({"type": "auth", "token": t0})
        snap = ws.receive_json()
        ws.send_json({"type": "action", "version": snap["version"], "action": snap["legal"][0]})
        assert ws.receive_json()["type"] == "event"
        ws.send_json({"type": "undo"})  # a request to the other person
        assert {ws.receive_json()["type"], ws.receive_json()["type"]} == {"snapshot", "undo"}
    assert calls["n"] == 1


def test_two_appends_of_one_match_in_one_batch(db_url: str) -> None:
    """SRV-B1, SRV-X1: a batch may hold two appends of one match (never from one process, whose appends of a
    match wait for each other; the drivers still take it): they apply in order, each compare-and-set on its
    revision, beside a third match's append."""
    async def body(storage: Any) -> None:
        await add_matches(storage, ["d1", "d2"])
        results = await asyncio.gather(storage.append(append("d1", 0, 0)), storage.append(append("d1", 1, 1)),
                                       storage.append(append("d2", 0, 0)))
        assert list(results) == [True, True, True]
        rows = await storage.read(lambda tx: repo.load(tx, "d1"))
        assert rows[0]["version"] == 2 and rows[0]["revision"] == 2 and [a["idx"] for a in rows[2]] == [0, 1]

    asyncio.run(with_storage(db_url, body))


@pytest.mark.hotpath  # issue 26
def test_a_batch_stores_every_value_exactly_as_given(db_url: str) -> None:
    """Appends committed together (PostgreSQL: one statement over one JSON parameter) store each value as given:
    text with quotes, backslashes, braces, commas, NULL-looking words, JSON-looking text and characters beyond ASCII
    (and beyond the basic plane), control characters, empty text, a column with values and NULLs mixed and one with
    NULLs only, times of many digits read back as the same floats."""
    odd = ['{"type": "say", "text": "a \\"quoted\\" {brace}, \\\\ back"}', "NULL", "", "Трепещите, человеки! é ✓",
           '{"a": [1, 2, {"b": null}]}', "x" * 3000, "null", "tab\there\nline\x01 🚀 \u2028", "1e400"]

    async def body(storage: Any) -> None:
        ids = [f"v{i}" for i in range(len(odd))]
        await add_matches(storage, ids)
        recs = [Append(mid, 0, i % 2, text, "player" if i % 2 else "ai", 1.7e9 + i / 7, 0,
                       {**FIELDS, "turn_started_at": 1.7e9 + 1 / (i + 3), "updated_at": 0.1 + 0.2 * i,
                        "outcome": text if i % 2 else None, "undo_request": None, "to_act": f"[{i}]",
                        "wake_at": None if i % 3 else 2.0e9 + i, "owner": f"p-{text[:20]}"})
                for i, (mid, text) in enumerate(zip(ids, odd, strict=True))]
        assert all(await asyncio.gather(*(storage.append(r) for r in recs)))
        if isinstance(storage, PostgresStorage):
            assert storage.batches < len(recs)  # committed together, not one by one
        for r in recs:
            match, _, actions = await storage.read(lambda tx, r=r: repo.load(tx, r.match_id))
            assert [(a["seat"], a["action"], a["source"], a["created_at"]) for a in actions] == [
                (r.seat, r.action, r.source, r.created_at)]
            kept = ("outcome", "undo_request", "to_act", "wake_at", "owner", "turn_started_at", "updated_at")
            assert {k: match[k] for k in kept} == {k: r.fields[k] for k in kept}
            assert (match["version"], match["revision"]) == (1, 1)

    asyncio.run(with_storage(db_url, body))
