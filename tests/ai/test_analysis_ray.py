"""Post-game analysis on Ray when the operator names a cluster (``SPACETABLE_ANALYSIS_RAY``; here a small local
instance): the job runs there and its result is the same kind of answer as from the server's own pool."""

from __future__ import annotations

import asyncio
import json

import pytest

from spacetable.example_matches import example_path
from spacetable.server.ai import AIRunner
from spacetable.server.analysis_jobs import RAY_ENV, AnalysisJobs, ray_address

ray = pytest.importorskip("ray")
pytestmark = [pytest.mark.learn, pytest.mark.slow]


def test_an_analysis_job_runs_on_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RAY_ENV, "local")
    assert ray_address() == "local"
    record = json.loads(example_path("worlds").read_text(encoding="utf-8"))

    async def go() -> dict[str, object]:
        jobs = AnalysisJobs(AIRunner(0), None, ray_address())
        job = await jobs.start("m1", len(record["log"]), record)
        assert job.task is not None
        await job.task
        assert job.status == "done" and job.result is not None
        return job.result

    result = asyncio.run(go())
    views = result["seats"]
    assert isinstance(views, list) and len(views) == 2
    assert all(len(v["points"]) == len(record["log"]) for v in views)
    assert not ray.is_initialized()  # the instance started for the job is shut down after it
