"""AI time is a scheduled, fair resource (SRV-AI5, issue 24 server item 1).

One client used to starve every AI opponent: three computer-only matches with long budgets held the AI
workers and a person's match against a 0.2 s AI waited minutes. The tests check the *order* in which AI time
is granted (the scheduler's grants, the moves stored), never a wall-clock threshold: the only timeouts are
hang guards far above anything a loaded machine needs. ``bench/bench_fair_ai.py`` measures the reply time.

The agents of these matches are replaced by one that waits out its budget without using the processor
(``_patient``): the scheduler and the server are real, only the search is left out, so the suite burns no
CPU for a minute of "thinking".
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server import ai
from spacetable.server.ai import AiScheduler
from spacetable.server.app import create_app

from .conftest import create, lenient_limits

pytestmark = [pytest.mark.hardening, pytest.mark.usefixtures("nim")]

#: a hang guard, not a measurement: the person's reply takes a fraction of a second with the scheduler
HANG_GUARD = 50.0


class Patient:
    """An agent that thinks exactly its budget, sleeping (no CPU), then plays the first legal action; stopped
    early by ``stop`` (the end of a test). Records the budgets it was given."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.budgets: list[tuple[str, float]] = []

    def __call__(self, game: Any, state: Any, seat: int, agent: str, seed: int, seconds: float) -> Any:
        self.budgets.append((agent, seconds))
        self.stop.wait(seconds)
        return game.legal_actions(state, seat)[0]


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> Iterator[Patient]:
    p = Patient()
    monkeypatch.setattr(ai, "compute_move", p)
    yield p
    p.stop.set()


def _wait(pred: Any, what: str) -> None:
    end = time.monotonic() + HANG_GUARD
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(f"hang guard: {what} not reached in {HANG_GUARD:g} s")
        time.sleep(0.02)


def test_a_person_s_ai_is_not_starved_by_computer_only_matches(sqlite_url: str, patient: Patient) -> None:
    """The issue's scenario: three computer-only matches thinking 60 s a move, then a person's match against a
    0.2 s AI. The person's AI is granted a worker while the computer-only matches still wait (their first
    moves are not even done), and its move is stored before any of theirs."""
    limits = lenient_limits(ai_only_seconds=120.0, ai_only_matches=3)
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=limits)) as c:
        bots = [create(c, "nim", ai_seats={"0": "mcts", "1": "mcts"}, ai_seconds=60)["match"]["id"] for _ in range(3)]
        _wait(lambda: len(patient.budgets) >= 1, "a computer-only match thinking")
        data = create(c, "nim", join_seat=0, ai_seats={"1": "random"}, ai_seconds=0.2)
        mid, token = data["match"]["id"], data["token"]
        r = c.post(f"/api/matches/{mid}/actions",
                   json={"seat": 0, "token": token, "version": 0, "action": {"type": "take", "heap": 0, "count": 1}})
        assert r.status_code == 200, r.text
        _wait(lambda: c.get(f"/api/matches/{mid}").json()["version"] == 2, "the person's AI reply")
        assert [c.get(f"/api/matches/{b}").json()["version"] for b in bots] == [0, 0, 0]
        grants = list(c.app.state.service.ai_seats.runner.scheduler.log)  # type: ignore[attr-defined]
        person = next(i for i, (_lane, _addr, match) in enumerate(grants) if match == mid)
        assert grants[person][0] == "person"
        later = [match for lane, _addr, match in grants[person + 1:] if match in bots]
        assert later == [], "no computer-only match got a second slot before the person's AI"
        waiting = c.get("/health").json()["ai_lanes"]["computer"]
        assert waiting["busy"] == 1 and waiting["waiting"] == 2
        patient.stop.set()


def test_each_address_and_match_gets_its_turn() -> None:
    """Within a lane the next slot goes to the address served longest ago, and within an address to its
    longest-waiting match: one address's many matches cannot crowd out another's one."""

    async def scenario() -> list[str]:
        s = AiScheduler(person_slots=1, computer_slots=1)
        order: list[str] = []

        async def move(address: str, match: str, gate: asyncio.Event) -> None:
            await s.acquire("person", address, match)
            order.append(match)
            await gate.wait()
            s.release("person")

        gates = {m: asyncio.Event() for m in ("a1", "a2", "a3", "b1", "c1", "a4")}
        tasks = [asyncio.create_task(move("A", "a1", gates["a1"]))]
        await asyncio.sleep(0)
        for addr, m in (("A", "a2"), ("A", "a3"), ("B", "b1"), ("A", "a4"), ("C", "c1")):
            tasks.append(asyncio.create_task(move(addr, m, gates[m])))
        await asyncio.sleep(0)
        assert order == ["a1"] and s.stats()["person"]["waiting"] == 5
        for _ in range(6):
            gates[order[-1]].set()
            for _ in range(5):
                await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        assert s.stats()["person"] == {"slots": 1, "busy": 0, "waiting": 0, "granted": 6}
        return order

    assert asyncio.run(scenario()) == ["a1", "b1", "c1", "a2", "a3", "a4"]


def test_a_cancelled_wait_gives_its_turn_away() -> None:
    """A match leaving memory while its AI waits (its task cancelled) neither keeps a slot nor blocks the lane."""

    async def scenario() -> None:
        s = AiScheduler(person_slots=1, computer_slots=1)
        await s.acquire("computer", "A", "m1")
        waiter = asyncio.create_task(s.acquire("computer", "A", "m2"))
        other = asyncio.create_task(s.acquire("computer", "B", "m3"))
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.sleep(0)
        s.release("computer")
        await asyncio.wait_for(other, 10)
        assert s.stats()["computer"] == {"slots": 1, "busy": 1, "waiting": 0, "granted": 2}

    asyncio.run(scenario())


def test_computer_only_matches_are_bounded_per_address(sqlite_url: str, patient: Patient) -> None:
    """``ai_only_seconds`` and ``ai_only_matches`` (defaults 10 s and 2): a longer budget is refused, a third
    unfinished computer-only match from one address is refused (429), including one made computer-only by
    adding AI seats; another address and matches with a person are not affected; a match made computer-only
    thinks at most ``ai_only_seconds`` a move whatever budget it was created with."""
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits())) as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        portal = c.portal
        assert portal is not None
        bots = {"0": "mcts", "1": "mcts"}
        r = c.post("/api/matches", json={"game": "nim", "ai_seats": bots, "ai_seconds": 10.5})
        assert r.status_code == 422 and "10 s" in r.json()["error"]["message"]
        for _ in range(2):
            create(c, "nim", ai_seats=bots, ai_seconds=5)
        r = c.post("/api/matches", json={"game": "nim", "ai_seats": bots, "ai_seconds": 5})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_ai_matches", r.text
        # a person's match may think longer, and the other address has its own count
        create(c, "nim", join_seat=0, ai_seats={"1": "mcts"}, ai_seconds=60)
        # the service as the routes call it for a client at another address
        half, _ = portal.call(lambda: service.lobby.create("nim", None, ai_seats={0: "mcts"}, ai_seconds=60,
                                                          client="203.0.113.7"))
        r = c.post(f"/api/matches/{half.id}/seats/1/ai", json={"agent": "mcts"})
        assert r.status_code == 429, r.text
        portal.call(lambda: service.set_ai(half.id, 1, "mcts", None, None, client="203.0.113.7"))
        assert c.get(f"/api/matches/{half.id}").json()["status"] == "running"
        _wait(lambda: ("mcts", 10.0) in patient.budgets, "the computer-only match thinking")
        assert ("mcts", 60) not in patient.budgets
        patient.stop.set()


def test_a_finished_computer_only_match_frees_its_place(sqlite_url: str, patient: Patient) -> None:
    """The bound counts unfinished matches: once an address's computer-only matches end, it may start others."""
    with TestClient(create_app(sqlite_url, ai_workers=0, limits=lenient_limits(ai_only_matches=1))) as c:
        bots = {"0": "mcts", "1": "mcts"}
        first = create(c, "nim", ai_seats=bots, ai_seconds=0.01)["match"]["id"]
        assert c.post("/api/matches", json={"game": "nim", "ai_seats": bots, "ai_seconds": 0.01}).status_code == 429
        _wait(lambda: c.get(f"/api/matches/{first}").json()["status"] == "finished", "the first match to end")
        create(c, "nim", ai_seats=bots, ai_seconds=0.01)
