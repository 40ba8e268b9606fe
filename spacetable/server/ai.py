"""AI seats: the game's agents and off-loop execution (SRV-AI).

The players a seat may get are the game's own (``Game.agents()``, declared by its
package) plus the generic ``mcts`` and ``random`` (:mod:`spacetable.ai.agents`).

Moves are computed in a process pool (default) or a thread pool, never on the
event loop, so an AI thinking never blocks other matches (SRV-AI2). The agent
receives a *determinised* copy of the state from its seat's point of view
(``game.determinize``), so even a careless agent cannot read hidden cards or
future dice (SRV-AI3).

AI time is scheduled (SRV-AI5, :class:`AiScheduler`): matches with a person seated and matches with computer
seats only think in separate lanes with their own workers (the computer-only ones at a lower CPU priority), so
a person's AI never waits behind a match that plays itself; within a lane, client addresses and then their
matches take turns.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spacetable.ai.agents import agent_specs, choose_for_seat
from spacetable.core import catalog
from spacetable.core.game import Action, Game

AgentFactory = Callable[..., Any]
log = logging.getLogger("spacetable.server.ai")


def agent_registry(game: Game[Any]) -> tuple[dict[str, AgentFactory], str]:
    """``(name -> factory(seed=, seconds=), default name)`` of a game's AI players."""
    specs = agent_specs(game)
    return {s.name: s.make for s in specs}, specs[0].name


def compute_move(game: Game[Any], state: Any, seat: int, agent_name: str, seed: int, seconds: float) -> Action:
    """Choose a move for ``seat`` (runs in a worker). The agent sees a determinised state."""
    agents, default = agent_registry(game)
    factory = agents.get(agent_name) or agents[default]
    return choose_for_seat(game, state, seat, factory(seed=seed, seconds=seconds), seed)


def _die_with_parent(parent: int, data_dir: str | None) -> None:
    """Initializer of an AI worker process (SRV-AI4): it dies with the server, even one killed with SIGKILL
    (``PR_SET_PDEATHSIG`` on Linux, and a thread that watches the parent everywhere), so no worker and no
    multiprocessing resource tracker is left behind; it reads the server's data catalogue."""
    catalog.configure(data_dir)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    if os.getppid() != parent:  # the server died before the line above took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="spacetable-parent-watch", daemon=True).start()


def _warm_worker() -> None:
    """A worker's first task at server start: import every game now rather than on a person's first AI move."""
    from spacetable.games import available, get_game

    for game_id in available():
        with contextlib.suppress(Exception):
            get_game(game_id)


def _background_worker(parent: int, data_dir: str | None) -> None:
    """Initializer of a computer-only match's AI worker: :func:`_die_with_parent`, at a lower CPU priority, so
    that on a busy machine the processes thinking for people's matches get the processor first."""
    _die_with_parent(parent, data_dir)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


#: the two lanes of AI time: matches with a person, and matches with computer seats only
PERSON, COMPUTER = "person", "computer"


@dataclass(eq=False)
class _Request:
    address: str
    match_id: str
    granted: asyncio.Future[None]


@dataclass
class Lane:
    """One lane of AI time: ``slots`` moves computed at once, the waiting requests served fairly (SRV-AI5).

    The next slot goes to the client address served longest ago (round robin over addresses), and within an
    address to its longest-waiting match; a match has at most one request waiting (its AI loop waits for each
    move), so every match of an address gets its turn before any gets a second one."""

    slots: int
    busy: int = 0
    #: address -> its waiting requests, oldest first
    waiting: dict[str, deque[_Request]] = field(default_factory=dict)
    #: address -> the grant number it was last served at (round robin)
    last_served: dict[str, int] = field(default_factory=dict)
    #: moves granted in all
    granted: int = 0

    def queued(self) -> int:
        return sum(len(q) for q in self.waiting.values())

    def enqueue(self, address: str, match_id: str) -> _Request:
        req = _Request(address, match_id, asyncio.get_running_loop().create_future())
        self.waiting.setdefault(address, deque()).append(req)
        return req

    def withdraw(self, req: _Request) -> None:
        q = self.waiting.get(req.address)
        if q is not None and req in q:
            q.remove(req)
            if not q:
                del self.waiting[req.address]

    def pick(self) -> _Request | None:
        """Remove and return the request to serve next (None when nothing waits or no slot is free)."""
        if self.busy >= self.slots or not self.waiting:
            return None
        address = min(self.waiting, key=lambda a: self.last_served.get(a, -1))
        q = self.waiting[address]
        req = q.popleft()
        if not q:
            del self.waiting[address]
        self.granted += 1
        self.last_served[address] = self.granted
        if len(self.last_served) > 4096:  # forget addresses that no longer wait (bounded memory)
            for a in [a for a in self.last_served if a not in self.waiting][:2048]:
                del self.last_served[a]
        self.busy += 1
        return req


class AiScheduler:
    """AI time as a scheduled, fair resource (SRV-AI5).

    Matches with a person and matches with computer seats only have separate lanes (and separate workers), so
    a person's AI never waits behind a computer-only match: it is granted a slot as soon as one of the
    person lane's is free, whatever the computer-only matches do. Each lane serves client addresses in turn
    and, within an address, its matches in turn (:class:`Lane`). ``log`` keeps the latest grants
    (lane, address, match) in order, for ``/health`` and the tests."""

    def __init__(self, person_slots: int, computer_slots: int) -> None:
        self.lanes = {PERSON: Lane(max(1, person_slots)), COMPUTER: Lane(max(1, computer_slots))}
        self.log: deque[tuple[str, str, str]] = deque(maxlen=1000)

    async def acquire(self, lane_name: str, address: str, match_id: str) -> None:
        """Wait for a slot of ``lane_name`` (released with :meth:`release`)."""
        lane = self.lanes[lane_name]
        req = lane.enqueue(address, match_id)
        self._dispatch(lane_name)
        try:
            await req.granted
        except asyncio.CancelledError:
            if req.granted.done() and not req.granted.cancelled():
                self.release(lane_name)  # granted just as it was cancelled: hand the slot on
            else:
                lane.withdraw(req)
            raise

    def release(self, lane_name: str) -> None:
        lane = self.lanes[lane_name]
        lane.busy -= 1
        self._dispatch(lane_name)

    def _dispatch(self, lane_name: str) -> None:
        lane = self.lanes[lane_name]
        while (req := lane.pick()) is not None:
            if req.granted.done():  # its waiter was cancelled
                lane.busy -= 1
                continue
            self.log.append((lane_name, req.address, req.match_id))
            req.granted.set_result(None)

    def stats(self) -> dict[str, dict[str, int]]:
        return {name: {"slots": lane.slots, "busy": lane.busy, "waiting": lane.queued(), "granted": lane.granted}
                for name, lane in self.lanes.items()}


class AIRunner:
    """Runs agent moves in pools, one per lane of :class:`AiScheduler`: ``workers`` processes for matches with a
    person, ``background_workers`` (at a lower CPU priority) for computer-only matches. ``workers=0`` uses
    threads (tests, tiny machines): two for the person lane, ``background_workers`` for the other."""

    def __init__(self, workers: int = 1, background_workers: int = 1) -> None:
        self.workers = workers
        self.background_workers = max(1, background_workers)
        self.scheduler = AiScheduler(workers if workers > 0 else 2, self.background_workers)
        self._pools: dict[str, concurrent.futures.Executor] = {}

    def _executor(self, lane: str = PERSON) -> concurrent.futures.Executor:
        pool = self._pools.get(lane)
        if pool is None:
            size = self.scheduler.lanes[lane].slots
            if self.workers > 0:
                ctx = multiprocessing.get_context("spawn")
                root = catalog.data_dir()
                pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=size, mp_context=ctx,
                    initializer=_die_with_parent if lane == PERSON else _background_worker,
                    initargs=(os.getpid(), str(root) if root else None))
            else:
                pool = concurrent.futures.ThreadPoolExecutor(max_workers=size, thread_name_prefix=f"ai-{lane}")
            self._pools[lane] = pool
        return pool

    def background_executor(self) -> concurrent.futures.Executor:
        """The computer-only lane's pool (lower CPU priority): background jobs such as the workbench's balance runs."""
        return self._executor(COMPUTER)

    def warm(self) -> None:
        """Start the person lane's worker processes now (with the games imported): a process takes seconds to start
        on a busy machine, and the first person's AI reply should not wait for it."""
        if self.workers > 0:
            pool = self._executor(PERSON)
            for _ in range(self.workers):
                pool.submit(_warm_worker)

    async def choose(self, game: Game[Any], state: Any, seat: int, agent: str, seed: int, seconds: float,
                     match_id: str = "", address: str | None = None, person: bool = True) -> Action:
        """The move of ``seat``, computed in a worker once the scheduler grants this match a slot: in the person
        lane when ``person`` (the match has a person seated), else in the computer-only lane; ``address`` is the
        client the match counts for (its creator's address, else the match itself)."""
        lane = PERSON if person else COMPUTER
        await self.scheduler.acquire(lane, address or f"match:{match_id}", match_id)
        try:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._executor(lane), compute_move, game, state, seat, agent, seed,
                                                  seconds)
            except concurrent.futures.process.BrokenProcessPool:
                log.warning("the AI worker pool broke; starting a new one")
                self._drop(lane)
                return await loop.run_in_executor(self._executor(lane), compute_move, game, state, seat, agent, seed,
                                                  seconds)
        finally:
            self.scheduler.release(lane)

    def _drop(self, lane: str) -> None:
        pool = self._pools.pop(lane, None)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` (a picklable top-level function) in the pool: a background job such as an analysis."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            self.shutdown()
            return await loop.run_in_executor(self._executor(), fn, *args)

    def shutdown(self) -> None:
        for lane in list(self._pools):
            self._drop(lane)
