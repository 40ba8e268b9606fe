"""Post-game analysis as bounded background jobs (issue 22, Analyse).

One job per finished match, run off the event loop in a worker pool of the AI pool's kind (an
:class:`~.ai.AIRunner` of its own, so that a long analysis never delays an AI seat's move), one at a
time per server process (the others wait in a queue, at most :data:`MAX_QUEUED`); a result is kept for the
match (at most :data:`MAX_KEPT` results, the oldest dropped first) and handed to every later request.
The analysis itself (:mod:`spacetable.ai.analysis`) judges every seat from what that seat knew.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from spacetable.ai.analysis import Budget, analyse_match
from spacetable.core.match import Match
from spacetable.games import get_game

from .ai import AIRunner
from .errors import ServiceError

log = logging.getLogger("spacetable.server.analysis")
MAX_QUEUED = 16
MAX_KEPT = 256
#: The per-position budget of a server analysis.
SERVER_BUDGET = Budget(samples=4, max_steps=150, seconds=0.05)


def run_analysis(record: dict[str, Any], seed: int) -> dict[str, Any]:
    """The analysis of a match record (runs in a worker process)."""
    match = Match.from_json(record, get_game)
    return analyse_match(match, SERVER_BUDGET, seed)


@dataclass
class Job:
    status: str = "queued"  # queued | running | done | failed
    result: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class AnalysisJobs:
    def __init__(self, runner: AIRunner) -> None:
        self.runner = runner
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._one = asyncio.Semaphore(1)

    def get(self, match_id: str) -> Job | None:
        return self.jobs.get(match_id)

    def start(self, match_id: str, record: dict[str, Any]) -> Job:
        job = self.jobs.get(match_id)
        if job is not None and job.status != "failed":
            return job
        waiting = sum(1 for j in self.jobs.values() if j.status in ("queued", "running"))
        if waiting >= MAX_QUEUED:
            raise ServiceError(429, "analysis_queue_full", "too many analyses are waiting; try again later")
        job = Job()
        self.jobs[match_id] = job
        self.jobs.move_to_end(match_id)
        while len(self.jobs) > MAX_KEPT:
            old = next((k for k, j in self.jobs.items() if j.status in ("done", "failed")), None)
            if old is None:
                break
            del self.jobs[old]
        job.task = asyncio.get_running_loop().create_task(self._run(match_id, job, record))
        return job

    async def _run(self, match_id: str, job: Job, record: dict[str, Any]) -> None:
        async with self._one:
            job.status = "running"
            try:
                job.result = await self.runner.run(run_analysis, record, 0)
                job.status = "done"
            except Exception:  # a failed job is reported to the client; the server goes on
                log.exception("analysis failed", extra={"match": match_id})
                job.status = "failed"
