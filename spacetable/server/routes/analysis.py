"""Analyse a finished match (issue 22): start the background job, then poll it.

``POST /api/matches/{id}/analysis`` starts (or finds) the job; ``GET`` tells its status and, once done, the
result: each seat's chances move by move and its flagged decisions, judged from what that seat knew (a
finished match's log and seed are public, see ``replays.py``). A running match is refused (409). A finished
analysis is stored with the match (``analysis_jobs.py``): a restart keeps it."""

from __future__ import annotations

import weakref
from typing import Any

from fastapi import APIRouter

from ..ai import AIRunner
from ..analysis_jobs import AnalysisJobs, Job, ray_address
from ..errors import ServiceError
from ..learn.store import learn_store
from ..routing import PrefixRoute
from ..service import MatchService
from .deps import Ctx

router = APIRouter(route_class=PrefixRoute)
_jobs: weakref.WeakKeyDictionary[MatchService, AnalysisJobs] = weakref.WeakKeyDictionary()


def jobs_of(service: MatchService) -> AnalysisJobs:
    if service not in _jobs:
        # a pool of its own, of the AI pool's kind (processes, or threads where the server runs AI in threads):
        # a long analysis never holds up the AI seats' moves
        _jobs[service] = AnalysisJobs(AIRunner(1 if service.ai_seats.runner.workers > 0 else 0),
                                      learn_store(service.storage), ray_address())
    return _jobs[service]


def _answer(job: Job | None) -> dict[str, Any]:
    if job is None:
        return {"status": "none"}
    out: dict[str, Any] = {"status": job.status}
    if job.result is not None and job.status == "done":
        out["result"] = job.result
    return out


@router.post("/api/matches/{match_id}/analysis", status_code=202)
async def start_analysis(match_id: str, c: Ctx) -> dict[str, Any]:
    m = await c.service.get(match_id)
    if m.status != "finished":
        raise ServiceError(409, "not_finished", "a running match cannot be analysed; analyse it once it is over")
    return _answer(await jobs_of(c.service).start(m.id, m.version, c.service.record(m).to_json()))


@router.get("/api/matches/{match_id}/analysis")
async def get_analysis(match_id: str, c: Ctx) -> dict[str, Any]:
    m = await c.service.get(match_id)
    if m.status != "finished":
        return {"status": "none"}
    return _answer(await jobs_of(c.service).find(m.id, m.version))
