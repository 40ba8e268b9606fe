"""AI seats: agent registry lookup and off-loop execution (SRV-AI).

Each game may ship ``spacetable/games/<id>/ai.py`` with ``AGENTS`` (name ->
factory ``(seed, seconds_per_move)``) and ``DEFAULT_AGENT``. Games without it
get the generic ``MCTSAgent`` under the name ``mcts`` (and ``random``).

Moves are computed in a process pool (default) or a thread pool, never on the
event loop, so an AI thinking never blocks other matches (SRV-AI2). The agent
receives a *determinised* copy of the state from its seat's point of view
(``game.determinize``), so even a careless agent cannot read hidden cards or
future dice (SRV-AI3).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import logging
import multiprocessing
from collections.abc import Callable
from typing import Any

from spacetable.ai import MCTSAgent, RandomAgent
from spacetable.core.game import Action, Game
from spacetable.core.rng import Rng

AgentFactory = Callable[[int, float], Any]
log = logging.getLogger("spacetable.server.ai")


def _generic_agents() -> dict[str, AgentFactory]:
    return {
        "mcts": lambda seed, seconds: MCTSAgent(iterations=None, seconds=seconds, seed=seed),
        "random": lambda seed, seconds: RandomAgent(seed),
    }


_registries: dict[str, tuple[dict[str, AgentFactory], str]] = {}


def agent_registry(game: Game[Any]) -> tuple[dict[str, AgentFactory], str]:
    """``(AGENTS, DEFAULT_AGENT)`` of a game (looked up once per process), falling back to generic MCTS."""
    key = f"{type(game).__module__}.{type(game).__qualname__}"
    if key not in _registries:
        _registries[key] = _load_registry(game)
    return _registries[key]


def _load_registry(game: Game[Any]) -> tuple[dict[str, AgentFactory], str]:
    from spacetable.games import REGISTRY

    module_name = REGISTRY.get(game.id, type(game).__module__.rsplit(".", 1)[0]) + ".ai"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return _generic_agents(), "mcts"
        log.exception("cannot import %s; AI seats of %s use the generic MCTS", module_name, game.id)
        return _generic_agents(), "mcts"
    except Exception:  # a broken ai.py must not take the lobby down
        log.exception("cannot import %s; AI seats of %s use the generic MCTS", module_name, game.id)
        return _generic_agents(), "mcts"
    agents = dict(getattr(module, "AGENTS", {}) or {})
    if not agents:
        return _generic_agents(), "mcts"
    agents.setdefault("random", lambda seed, seconds: RandomAgent(seed))
    default = str(getattr(module, "DEFAULT_AGENT", next(iter(agents))))
    if default not in agents:
        default = next(iter(agents))
    return agents, default


def compute_move(game: Game[Any], state: Any, seat: int, agent_name: str, seed: int, seconds: float) -> Action:
    """Choose a move for ``seat`` (runs in a worker). The agent sees a determinised state."""
    agents, default = agent_registry(game)
    factory = agents.get(agent_name) or agents[default]
    agent = factory(seed, seconds)
    if game.hidden_information or isinstance(getattr(state, "rng", None), Rng):
        state = game.determinize(state, seat, Rng.from_seed(seed))
    action: Action = agent.choose(game, state, seat)
    return action


class AIRunner:
    """Runs agent moves in a pool. ``workers=0`` uses threads (tests, tiny machines)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers > 0:
                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="ai")
        return self._pool

    async def choose(self, game: Game[Any], state: Any, seat: int, agent: str, seed: int, seconds: float) -> Action:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), compute_move, game, state, seat, agent, seed, seconds)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
