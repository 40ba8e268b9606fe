"""AI seats: the game's agents and off-loop execution (SRV-AI).

The players a seat may get are the game's own (``Game.agents()``, declared by its
package) plus the generic ``mcts`` and ``random`` (:mod:`spacetable.ai.agents`).

Moves are computed in a process pool (default) or a thread pool, never on the
event loop, so an AI thinking never blocks other matches (SRV-AI2). The agent
receives a *determinised* copy of the state from its seat's point of view
(``game.determinize``), so even a careless agent cannot read hidden cards or
future dice (SRV-AI3).
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
from collections.abc import Callable
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


class AIRunner:
    """Runs agent moves in a pool. ``workers=0`` uses threads (tests, tiny machines)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers > 0:
                ctx = multiprocessing.get_context("spawn")
                root = catalog.data_dir()
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=ctx, initializer=_die_with_parent,
                    initargs=(os.getpid(), str(root) if root else None))
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="ai")
        return self._pool

    async def choose(self, game: Game[Any], state: Any, seat: int, agent: str, seed: int, seconds: float) -> Action:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), compute_move, game, state, seat, agent, seed, seconds)
        except concurrent.futures.process.BrokenProcessPool:
            log.warning("the AI worker pool broke; starting a new one")
            self.shutdown()
            return await loop.run_in_executor(self._executor(), compute_move, game, state, seat, agent, seed, seconds)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` (a picklable top-level function) in the pool: a background job such as an analysis."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except concurrent.futures.process.BrokenProcessPool:
            self.shutdown()
            return await loop.run_in_executor(self._executor(), fn, *args)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
