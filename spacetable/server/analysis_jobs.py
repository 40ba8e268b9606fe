"""Post-game analysis as bounded background jobs (issue 22, Analyse).

One job per finished match, run off the event loop in a worker pool of the AI pool's kind (an
:class:`~.ai.AIRunner` of its own, so that a long analysis never delays an AI seat's move), or on a Ray cluster
when the operator names one in ``SPACETABLE_ANALYSIS_RAY`` (an address, or ``local``; :data:`RAY_ENV`), one at a
time per server process (the others wait in a queue, at most :data:`MAX_QUEUED`). A finished analysis is
stored with its match (``learn/store.py``: keyed by the match, its version and :data:`SETTINGS_KEY`), so a
restarted server, or another process of the service, hands it out again without running it twice; this
process also keeps the last :data:`MAX_KEPT` jobs in memory (the oldest finished ones dropped first).
A job still queued or running when the server stops is not kept: asking again starts it again.
The analysis itself (:mod:`spacetable.ai.analysis`) judges every seat from what that seat knew.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from typing import Any

from spacetable.ai.analysis import ENGINE_VERSION, Budget, analyse_match
from spacetable.ai.runner import run_tasks
from spacetable.core.match import Match
from spacetable.games import get_game

from .ai import AIRunner
from .errors import ServiceError
from .learn.store import LearnStore

log = logging.getLogger("spacetable.server.analysis")
MAX_QUEUED = 16
MAX_KEPT = 256
#: The per-position budget of a server analysis.
SERVER_BUDGET = Budget(samples=4, max_steps=150, seconds=0.05)


def settings_key(budget: Budget) -> str:
    """A short key of the analysis settings (the budget and the analysis engine's version): a stored analysis
    is handed out only for the settings it was made with."""
    text = json.dumps({"engine": ENGINE_VERSION, **asdict(budget)}, sort_keys=True)
    return f"v{ENGINE_VERSION}-" + hashlib.sha256(text.encode()).hexdigest()[:24]


SETTINGS_KEY = settings_key(SERVER_BUDGET)


#: The environment variable naming the Ray cluster analyses run on (unset: the server's own worker pool).
RAY_ENV = "SPACETABLE_ANALYSIS_RAY"


def run_analysis(record: dict[str, Any], seed: int) -> dict[str, Any]:
    """The analysis of a match record (runs in a worker process)."""
    match = Match.from_json(record, get_game)
    return analyse_match(match, SERVER_BUDGET, seed)


def _analysis_task(task: tuple[dict[str, Any], int]) -> dict[str, Any]:
    return run_analysis(*task)


def ray_address() -> str | None:
    return os.environ.get(RAY_ENV) or None


@dataclass
class Job:
    status: str = "queued"  # queued | running | done | failed
    result: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class AnalysisJobs:
    def __init__(self, runner: AIRunner, store: LearnStore | None = None, ray: str | None = None) -> None:
        self.runner = runner
        self.store = store
        self.ray = ray
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self._one = asyncio.Semaphore(1)

    async def find(self, match_id: str, version: int) -> Job | None:
        """The job of this match (in this process), or its stored analysis (made before a restart or by another
        process), or ``None``."""
        job = self.jobs.get((match_id, version))
        if job is not None or self.store is None:
            return job
        result = await self.store.analysis(match_id, version, SETTINGS_KEY)
        if result is None:
            return None
        job = Job(status="done", result=result)
        self._remember((match_id, version), job)
        return job

    async def start(self, match_id: str, version: int, record: dict[str, Any]) -> Job:
        job = await self.find(match_id, version)
        if job is not None and job.status != "failed":
            return job
        waiting = sum(1 for j in self.jobs.values() if j.status in ("queued", "running"))
        if waiting >= MAX_QUEUED:
            raise ServiceError(429, "analysis_queue_full", "too many analyses are waiting; try again later")
        job = Job()
        self._remember((match_id, version), job)
        job.task = asyncio.get_running_loop().create_task(self._run(match_id, version, job, record))
        return job

    def _remember(self, key: tuple[str, int], job: Job) -> None:
        self.jobs[key] = job
        self.jobs.move_to_end(key)
        while len(self.jobs) > MAX_KEPT:
            old = next((k for k, j in self.jobs.items() if j.status in ("done", "failed")), None)
            if old is None:
                break
            del self.jobs[old]

    async def _run(self, match_id: str, version: int, job: Job, record: dict[str, Any]) -> None:
        async with self._one:
            job.status = "running"
            try:
                if self.ray is not None:  # a worker thread waits for the cluster's answer
                    address = self.ray
                    job.result = (await asyncio.to_thread(run_tasks, _analysis_task, [(record, 0)], ray=address))[0]
                else:
                    job.result = await self.runner.run(run_analysis, record, 0)
            except Exception:  # a failed job is reported to the client; the server goes on
                log.exception("analysis failed", extra={"match": match_id})
                job.status = "failed"
                return
            if self.store is not None:
                try:
                    await self.store.keep_analysis(match_id, version, SETTINGS_KEY, job.result)
                except Exception:  # not stored: still handed out by this process
                    log.exception("analysis not stored", extra={"match": match_id})
            job.status = "done"
