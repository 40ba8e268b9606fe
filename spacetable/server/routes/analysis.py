"""Analyse a finished match (issue 22): start the background job, then poll it.

``POST /api/matches/{id}/analysis`` starts (or finds) the job; ``GET`` tells its status and, once done, the
result: each seat's chances move by move and its flagged decisions, judged from what that seat knew (a
finished match's log and seed are public, see ``replays.py``). A running match is refused (409)."""

from __future__ import annotations

import weakref
from typing import Any

from fastapi import APIRouter

from ..ai import AIRunner
from ..analysis_jobs import AnalysisJobs
from ..errors import ServiceError
from ..service import MatchService
from .deps import Ctx

router = APIRouter()
_jobs: weakref.WeakKeyDictionary[MatchService, AnalysisJobs] = weakref.WeakKeyDictionary()


def jobs_of(service: MatchService) -> AnalysisJobs:
    if service not in _jobs:
        # a pool of its own, of the AI pool's kind (processes, or threads where the server runs AI in threads):
        # a long analysis never holds up the AI seats' moves
        _jobs[service] = AnalysisJobs(AIRunner(1 if service.ai_seats.runner.workers > 0 else 0))
    return _jobs[service]


def _answer(match_id: str, service: MatchService) -> dict[str, Any]:
    job = jobs_of(service).get(match_id)
    if job is None:
        return {"status": "none"}
    out: dict[str, Any] = {"status": job.status}
    if job.result is not None:
        out["result"] = job.result
    return out


@router.post("/api/matches/{match_id}/analysis", status_code=202)
async def start_analysis(match_id: str, c: Ctx) -> dict[str, Any]:
    m = await c.service.get(match_id)
    if m.status != "finished":
        raise ServiceError(409, "not_finished", "a running match cannot be analysed; analyse it once it is over")
    jobs_of(c.service).start(m.id, c.service.record(m).to_json())
    return _answer(m.id, c.service)


@router.get("/api/matches/{match_id}/analysis")
async def get_analysis(match_id: str, c: Ctx) -> dict[str, Any]:
    m = await c.service.get(match_id)
    return _answer(m.id, c.service)
