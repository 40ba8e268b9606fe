"""Balance runs from the browser (issue 25, goal 3; docs/workbench.md) and the editors' pages.

``POST /api/workbench/runs`` ``{game, kind, content | set_id, games, seed, players?, ai?}`` starts a run of the
edited set beside the bundled set's run with the same seeds; ``GET /api/workbench/runs/{id}`` tells its state,
progress and, once done, both results; ``GET .../games`` gives the per-game records; ``DELETE`` cancels it (its
starter only). A run belongs to the signed-in account, else to the client's address; the bounds are
:class:`~..workbench_runs.RunLimits`. The engine is :mod:`..workbench_runs`."""

from __future__ import annotations

import secrets
import weakref
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from spacetable.core import catalog
from spacetable.core import content as contents

from ..accounts.service import CSRF_HEADER
from ..errors import ServiceError
from ..routing import PrefixRoute
from ..service import MatchService
from ..workbench_runs import BalanceRuns, RunLimits, balance_kinds, simulator
from .deps import Ctx, client
from .schemas import Body
from .session import optional_session
from .workbench import ProblemsError, check_size, kind_of, store

router = APIRouter(tags=["workbench"], route_class=PrefixRoute)
_runs: weakref.WeakKeyDictionary[MatchService, BalanceRuns] = weakref.WeakKeyDictionary()
Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")]
RunId = Annotated[str, Field(pattern=r"^[0-9a-f]{24}$")]


def runs_of(request: Request) -> BalanceRuns:
    """The balance runs of this server process (made on first use from ``app.state.workbench``: ``ray``,
    ``workers``, ``max_games``, ``per_user``, ``max_active``)."""
    service: MatchService = request.app.state.service
    runs = _runs.get(service)
    if runs is None:
        settings: dict[str, Any] = dict(getattr(request.app.state, "workbench", None) or {})
        kind_of_pool = service.ai_seats.runner.workers  # processes, or threads where the server runs AI in threads
        workers = int(settings.pop("workers", 0) or max(1, kind_of_pool))
        ray = settings.pop("ray", None) or None
        limits = RunLimits(**{k: int(v) for k, v in settings.items() if k in RunLimits.__dataclass_fields__})
        from ..ai import AIRunner

        runner = AIRunner(workers if kind_of_pool > 0 else 0, background_workers=workers)
        runs = BalanceRuns(service.storage.engine, runner, workers=workers, ray=ray, limits=limits)
        _runs[service] = runs
        request.app.state.workbench_runs = runs
    return runs


async def owner_of(request: Request, writing: bool) -> str:
    """``account:<id>`` for a signed-in request (a state-changing one must carry the CSRF token), else
    ``address:<ip>``."""
    s = await optional_session(request)
    if s is None:
        return f"address:{client(request) or 'unknown'}"
    if writing:
        sent = request.headers.get(CSRF_HEADER, "")
        if not sent or not secrets.compare_digest(sent.encode(), s.csrf.encode()):
            raise ServiceError(403, "csrf", "this request lacks the page's CSRF token; reload the page")
    return f"account:{s.account_id}"


class StartRun(Body):
    game: Ident
    kind: Ident
    content: dict[str, Any] | None = None
    set_id: Annotated[str, Field(max_length=64)] | None = None
    games: Annotated[int, Field(ge=1)] = 200
    seed: Annotated[int, Field(ge=0, lt=1 << 62)] = 1
    players: Annotated[int, Field(ge=1, le=16)] | None = None
    ai: Annotated[str, Field(max_length=32)] | None = None


async def _content_of_set(request: Request, set_id: str, kind: str) -> Any:
    """The content of a saved set the requester may see (their own or a public one; any other is 404), of ``kind``."""
    s = await optional_session(request)
    if not set_id or len(set_id) > 32 or not all(ch.isalnum() for ch in set_id):
        raise ServiceError(404, "no_such_set", "no such set")
    row = await store(request).get(set_id, s.account_id if s is not None else None)
    if f"{row['game']}/{row['kind']}" != kind:
        raise ServiceError(422, "bad_request", f"set {row['name']!r} is {row['game']}/{row['kind']} content, not {kind}")
    return row["content"]


@router.get("/api/workbench/runs/kinds")
async def run_kinds(request: Request) -> list[dict[str, Any]]:
    """The kinds that have a balance run, with their seat counts, AIs and the server's cap on games."""
    out = []
    cap = runs_of(request).limits.max_games
    for key in balance_kinds():
        sim = simulator(key)
        out.append({"key": key, "bundled": sim.bundled, "players": list(sim.players), "ais": list(sim.ais),
                    "default_ai": sim.default_ai, "max_games": cap})
    return out


class PlayWith(Body):
    content: Any


@router.post("/api/workbench/play/{game}/{kind}")
async def play_config(game: str, kind: str, body: PlayWith) -> dict[str, Any]:
    """The match configuration that plays ``content`` (the kind's own option: ``card_set_content``, ``pack_content``,
    ``scenario_json``...), validated first: the editor's "play with this set" sends it to ``POST /api/matches``."""
    k = kind_of(game, kind)
    check_size(k, body.content)
    problems = contents.validate(k.key, body.content)
    if problems:
        raise ProblemsError(problems)
    return {"config": contents.config_for(k.key, body.content)}


@router.post("/api/workbench/runs", status_code=202)
async def start_run(body: StartRun, request: Request, c: Ctx) -> dict[str, Any]:
    owner = await owner_of(request, writing=True)
    kind = f"{body.game}/{body.kind}"
    if (body.content is None) == (body.set_id is None):
        raise ServiceError(422, "bad_request", "send either content or set_id")
    known = {k.key: k for k in catalog.kinds()}
    simulator(kind)  # 404 for a kind without a balance run
    content = body.content if body.set_id is None else await _content_of_set(request, body.set_id, kind)
    if kind in known:
        try:
            catalog.check_content(known[kind], content)
        except catalog.CatalogError as exc:
            raise ServiceError(413, "too_large", str(exc)) from None
        problems = contents.validate(kind, content)  # every problem named, as the editor's check shows them
        if problems:
            raise ProblemsError(problems)
    runs = runs_of(request)
    run_id = runs.submit(owner, kind, content, body.games, body.seed, body.players, body.ai)
    return runs.get(run_id, owner)


@router.get("/api/workbench/runs/{run_id}")
async def get_run(run_id: str, request: Request) -> dict[str, Any]:
    _check_id(run_id)
    return runs_of(request).get(run_id, await owner_of(request, writing=False))


@router.get("/api/workbench/runs/{run_id}/games")
async def get_run_games(run_id: str, request: Request) -> dict[str, Any]:
    _check_id(run_id)
    return runs_of(request).games(run_id)


@router.delete("/api/workbench/runs/{run_id}")
async def cancel_run(run_id: str, request: Request) -> dict[str, Any]:
    _check_id(run_id)
    return runs_of(request).cancel(run_id, await owner_of(request, writing=True))


def _check_id(run_id: str) -> None:
    if len(run_id) != 24 or any(ch not in "0123456789abcdef" for ch in run_id):
        raise ServiceError(404, "wb_no_run", "no such balance run")
