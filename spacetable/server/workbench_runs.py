"""Balance runs of the designer's workbench (issue 25, goal 3): N simulated games of an edited set, beside the
bundled set's games with the same seeds.

A run plays the game's own simulation, as the game lends it (``Game.provide(balance=BalanceHooks(...))``; for
Tremble the same games, seats and records as ``spacetable simulate tremble``) in a worker pool of the server's AI pool kind (an
:class:`~.ai.AIRunner` of its own, in its computer-only lane at a lower CPU priority, so that a person's AI seat
never waits behind a balance run), or on Ray when the operator configured it (``serve --workbench-ray ADDRESS``,
through :func:`spacetable.ai.runner.run_tasks`). The back end decides where a game runs, never its result: game
``g`` of a run with seed ``S`` is the same on both.

Bounds: at most :attr:`RunLimits.max_games` games a run, one run running at a time per server process (the others
wait in order), at most :attr:`RunLimits.per_user` unfinished runs per user and :attr:`RunLimits.max_active` in
all (429 beyond). A run is cancellable while queued or running.

Runs are stored (table ``workbench_runs``, migration ``0010``): a finished run's result survives a restart. A run
that was queued or running when its server process stopped is marked ``failed`` ("interrupted") once its heartbeat
is older than :data:`STALE_SECONDS` (at start-up and whenever it is read); it is not resumed, start it again.
The bundled set's run is cached by its parameters (kind, bundled name, games, seed, players, AI), so many edited
sets compared against the house set pay for its games once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Float, Integer, String, Text, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from spacetable.core.hooks import BalanceHooks
from spacetable.core.stats import wilson
from spacetable.games import UnknownGame, available, get_game

from .ai import AIRunner
from .db import Base
from .errors import ServiceError
from .notify.store import begin as store_begin

log = logging.getLogger("spacetable.server.workbench")
#: a queued or running run whose heartbeat is older than this was lost with its server process
STALE_SECONDS = 120.0
#: how often a running run writes its progress (and heartbeat) to the database
BEAT_SECONDS = 2.0


class RunRow(Base):
    __tablename__ = "workbench_runs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: ``account:<id>`` or ``address:<ip>``; empty for a cached bundled-set run
    owner: Mapped[str] = mapped_column(String(100), index=True)
    #: the content kind (``tremble/card_sets``)
    kind: Mapped[str] = mapped_column(String(64))
    #: queued | running | done | cancelled | failed
    state: Mapped[str] = mapped_column(String(12), index=True)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    #: the run's parameters (JSON: games, seed, players, ai, label); never the content itself
    params: Mapped[str] = mapped_column(Text)
    #: the summary (JSON) once done
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: the per-game records (JSON) once done
    games: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: the bundled set's run beside this one
    bundled_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: for a bundled-set run: the digest of its parameters (reused by later runs with the same parameters)
    cache_key: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    beat_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


@dataclass(frozen=True)
class RunLimits:
    max_games: int = 2000
    per_user: int = 3
    max_active: int = 16
    #: finished runs kept per user (the oldest are deleted, with the bundled runs no other run refers to)
    kept: int = 20


# --------------------------------------------------------------------------------------------- simulators
#: a kind's balance runs as its game lends them (``<game>/<kind>`` -> the game's hooks)
_made: dict[str, BalanceHooks] = {}


def simulator(kind: str) -> BalanceHooks:
    """The balance runs of content kind ``kind`` (``<game>/<kind>``), as its game lends them with
    ``Game.provide(balance=...)``; 404 with the reason when the game is unknown or lends none for this kind."""
    if kind not in _made:
        game_id, _, name = kind.partition("/")
        try:
            hooks = get_game(game_id).balance_hooks()
        except UnknownGame:
            raise ServiceError(404, "wb_no_balance", f"there is no balance run for {kind[:100]}: no such game") from None
        if hooks is None:
            raise ServiceError(404, "wb_no_balance",
                               f"there is no balance run for {kind[:100]}: {game_id} lends no balance runs")
        if hooks.kind != name:
            raise ServiceError(404, "wb_no_balance", f"there is no balance run for {kind[:100]}: {game_id} "
                                                     f"balance-tests {game_id}/{hooks.kind} only")
        _made[kind] = hooks
    return _made[kind]


def balance_kinds() -> list[str]:
    """The content kinds that have balance runs (every game asked)."""
    kinds = []
    for game_id in available():
        hooks = get_game(game_id).balance_hooks()
        if hooks is not None:
            kinds.append(f"{game_id}/{hooks.kind}")
    return sorted(kinds)


# -------------------------------------------------------------------------------------------------- runs
@dataclass
class _Live:
    """A run of this process: its games (the edited set's, then the bundled set's when not cached)."""

    id: str
    sim: BalanceHooks
    parts: list[tuple[str, str, list[Any]]]  # (row id, set key, tasks)
    cancel: threading.Event = field(default_factory=threading.Event)
    done: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Cancelled(Exception):
    """A run was cancelled while its games were being played."""


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:40]


class BalanceRuns:
    """The balance runs of one server process (see the module's docstring)."""

    def __init__(self, engine: Engine, runner: AIRunner | None = None, workers: int = 1, ray: str | None = None,
                 limits: RunLimits | None = None) -> None:
        self.engine = engine
        self.workers = max(1, workers)
        self.runner = runner or AIRunner(workers=workers, background_workers=self.workers)
        self.ray = ray
        self.limits = limits or RunLimits()
        self.live: dict[str, _Live] = {}
        self._one = asyncio.Lock()
        self._ray_started = False
        self.sweep()

    # ---------------------------------------------------------------- storage
    def sweep(self, now: float | None = None) -> int:
        """Mark the runs lost with their server process (no heartbeat for :data:`STALE_SECONDS`) as failed."""
        now = time.time() if now is None else now
        with store_begin(self.engine) as conn:
            res = conn.execute(update(RunRow).where(RunRow.state.in_(("queued", "running")),
                                                    RunRow.beat_at < now - STALE_SECONDS,
                                                    RunRow.id.not_in(list(self.live) or [""]))
                               .values(state="failed", error="interrupted by a server restart; start it again",
                                       finished_at=now))
        return int(res.rowcount or 0)

    def prune(self, owner: str) -> None:
        """Keep ``owner``'s :attr:`RunLimits.kept` latest finished runs, and the bundled runs still referred to."""
        with store_begin(self.engine) as conn:
            old = [r.id for r in conn.execute(
                select(RunRow.id).where(RunRow.owner == owner, RunRow.state.not_in(("queued", "running")))
                .order_by(RunRow.created_at.desc()).offset(self.limits.kept)).all()]
            if not old:
                return
            conn.execute(RunRow.__table__.delete().where(RunRow.id.in_(old)))
            used = select(RunRow.bundled_id).where(RunRow.bundled_id.is_not(None))
            conn.execute(RunRow.__table__.delete().where(RunRow.owner == "", RunRow.id.not_in(used),
                                                         RunRow.state.not_in(("queued", "running"))))

    def _row(self, run_id: str) -> RunRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(RunRow).where(RunRow.id == run_id)).first()
        return RunRow(**row._mapping) if row is not None else None

    def _insert(self, **values: Any) -> None:
        now = time.time()
        with store_begin(self.engine) as conn:
            conn.execute(RunRow.__table__.insert().values(created_at=now, beat_at=now, done=0, **values))

    def _set(self, run_id: str, only_if: tuple[str, ...] | None = None, **values: Any) -> bool:
        with store_begin(self.engine) as conn:
            stmt = update(RunRow).where(RunRow.id == run_id)
            if only_if:
                stmt = stmt.where(RunRow.state.in_(only_if))
            return bool(conn.execute(stmt.values(**values)).rowcount)

    def _active(self, owner: str | None = None) -> int:
        with self.engine.connect() as conn:
            stmt = select(RunRow.id).where(RunRow.state.in_(("queued", "running")),
                                           RunRow.beat_at >= time.time() - STALE_SECONDS)
            # a cached bundled-set run (no owner) is a part of the run that asked for it, not a run of its own
            stmt = stmt.where(RunRow.owner == owner) if owner is not None else stmt.where(RunRow.owner != "")
            return len(conn.execute(stmt).all())

    # ------------------------------------------------------------------ start
    def check(self, sim: BalanceHooks, games: int, seed: int, players: int | None, ai: str | None) -> tuple[int, str]:
        if not 1 <= games <= self.limits.max_games:
            raise ServiceError(422, "bad_request", f"games must be 1 to {self.limits.max_games}")
        if not 0 <= seed < 1 << 62:
            raise ServiceError(422, "bad_request", "seed must be 0 to 2^62 - 1")
        lo, hi, default = sim.players
        p = default if players is None else players
        if not lo <= p <= hi:
            raise ServiceError(422, "bad_request", f"players must be {lo} to {hi}")
        a = sim.default_ai if ai is None else ai
        if a not in sim.ais:
            raise ServiceError(422, "bad_request", f"ai must be one of {', '.join(sim.ais)}")
        return p, a

    def submit(self, owner: str, kind: str, content: Any, games: int, seed: int, players: int | None = None,
               ai: str | None = None) -> str:
        """Start a run (queued behind this process's running one); returns its id."""
        sim = simulator(kind)
        p, a = self.check(sim, games, seed, players, ai)
        if content is None:
            key = sim.bundled
        else:
            try:
                key = sim.content_key(content)
            except ValueError as exc:
                raise ServiceError(422, "wb_invalid", str(exc)[:1000]) from None
        self.sweep()
        if self._active(owner) >= self.limits.per_user:
            raise ServiceError(429, "wb_too_many_runs", f"you have {self.limits.per_user} balance runs unfinished; "
                                                     "wait for one or cancel it")
        if self._active() >= self.limits.max_active:
            raise ServiceError(429, "wb_runs_full", "too many balance runs are waiting; try again later")
        self.prune(owner)
        params = {"games": games, "seed": seed, "players": p, "ai": a}
        cache = _digest(kind, sim.bundled, params)
        run_id = secrets.token_hex(12)
        label = sim.label(key)
        parts: list[tuple[str, str, list[Any]]] = [(run_id, key, sim.tasks(p, games, seed, a, key))]
        bundled_id = self._cached(cache)
        if bundled_id is None and key == sim.bundled:
            bundled_id = run_id  # the bundled set itself: its own run is the one beside it
            cache_value: str | None = cache
        else:
            cache_value = None
        if bundled_id is None:
            bundled_id = secrets.token_hex(12)
            self._insert(id=bundled_id, owner="", kind=kind, state="queued", total=games, cache_key=cache,
                         params=json.dumps({**params, "label": sim.label(sim.bundled)}))
            parts.append((bundled_id, sim.bundled, sim.tasks(p, games, seed, a, sim.bundled)))
        self._insert(id=run_id, owner=owner, kind=kind, state="queued", total=sum(len(t) for _, _, t in parts),
                     params=json.dumps({**params, "label": label}), bundled_id=bundled_id, cache_key=cache_value)
        live = _Live(run_id, sim, parts)
        self.live[run_id] = live
        live.task = asyncio.get_running_loop().create_task(self._run(live))
        return run_id

    def _cached(self, cache: str) -> str | None:
        """A bundled-set run with these parameters: done, or unfinished and alive (it will be done)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(RunRow.id, RunRow.state, RunRow.beat_at).where(RunRow.cache_key == cache)
                                .order_by(RunRow.created_at.desc())).all()
        for r in rows:
            if r.state == "done":
                return str(r.id)
        for r in rows:
            if r.state in ("queued", "running") and r.beat_at >= time.time() - STALE_SECONDS:
                return str(r.id)
        return None

    # -------------------------------------------------------------------- run
    async def _run(self, live: _Live) -> None:
        async with self._one:
            if live.cancel.is_set() or not self._set(live.id, ("queued",), state="running", beat_at=time.time()):
                self.live.pop(live.id, None)
                self._finish_parts(live, "cancelled")
                return
            try:
                for n, (row_id, key, tasks) in enumerate(live.parts, 1):
                    if row_id != live.id:
                        self._set(row_id, ("queued",), state="running", beat_at=time.time())
                    records = await self._play(live, tasks)
                    # the run itself is done once the bundled part beside it is too; the figures and the write
                    # (a few hundred kilobytes for 2,000 games) are made off the event loop
                    await asyncio.to_thread(self._store_part, live, row_id, key, records, n == len(live.parts))
            except Cancelled:
                self._finish_parts(live, "cancelled")
            except Exception as exc:  # a failed run is reported to its user; the server goes on
                log.exception("balance run failed", extra={"run": live.id})
                self._finish_parts(live, "failed", str(exc)[:200])
            finally:
                self.live.pop(live.id, None)

    def _store_part(self, live: _Live, row_id: str, key: str, records: list[dict[str, Any]], last: bool) -> None:
        """Store a part's figures and games; with the ``last`` part, the run turns done in the same transaction, so
        that no reader sees every figure of a run that still says it is running."""
        summary = live.sim.summarize(records, live.sim.label(key))
        now = time.time()
        finished = {} if row_id == live.id else {"state": "done", "finished_at": now}
        with store_begin(self.engine) as conn:
            conn.execute(update(RunRow).where(RunRow.id == row_id).values(
                done=len(records), result=json.dumps(summary), games=json.dumps(records, separators=(",", ":")),
                **finished))
            if last:
                conn.execute(update(RunRow).where(RunRow.id == live.id, RunRow.state == "running")
                             .values(state="done", done=live.done, finished_at=now))

    def _finish_parts(self, live: _Live, state: str, error: str | None = None) -> None:
        for row_id, _key, _tasks in live.parts:
            self._set(row_id, ("queued", "running"), state=state, error=error, finished_at=time.time(),
                      done=live.done if row_id == live.id else 0)

    def _beat(self, live: _Live) -> None:
        """Write the progress of ``live`` and touch this process's waiting runs; a cancel from another process
        (the row is no longer running) stops the run."""
        now = time.time()
        if not self._set(live.id, ("running",), done=live.done, beat_at=now):
            live.cancel.set()
        with store_begin(self.engine) as conn:
            ids = [i for lv in self.live.values() for i, _k, _t in lv.parts]
            conn.execute(update(RunRow).where(RunRow.id.in_(ids), RunRow.state.in_(("queued", "running")))
                         .values(beat_at=now))

    async def _play(self, live: _Live, tasks: list[Any]) -> list[dict[str, Any]]:
        """The records of ``tasks`` in task order, played on the pool or on Ray."""
        records: list[dict[str, Any]] = []
        last = [time.monotonic()]

        def took(rec: dict[str, Any]) -> None:
            records.append(rec)
            live.done += 1

        async def progress() -> None:
            if time.monotonic() - last[0] >= BEAT_SECONDS:
                last[0] = time.monotonic()
                await asyncio.to_thread(self._beat, live)
            if live.cancel.is_set():
                raise Cancelled

        if self.ray is not None:
            await self._play_ray(live, tasks, took, progress)
        else:
            await self._play_pool(live, tasks, took, progress)
        order = {t[1]: i for i, t in enumerate(tasks)}
        records.sort(key=lambda r: order[r["seed"]])
        return records

    async def _play_pool(self, live: _Live, tasks: list[Any], took: Callable[[dict[str, Any]], None],
                         progress: Callable[[], Any]) -> None:
        loop = asyncio.get_running_loop()
        pool = self.runner.background_executor()
        window = 2 * self.workers
        queue = iter(tasks)
        pending: set[asyncio.Future[Any]] = set()
        try:
            for t in queue:
                pending.add(loop.run_in_executor(pool, live.sim.play, t))
                if len(pending) >= window:
                    break
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for fut in done:
                    took(fut.result())
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending.add(loop.run_in_executor(pool, live.sim.play, nxt))
                await progress()
        finally:
            for fut in pending:
                fut.cancel()

    async def _play_ray(self, live: _Live, tasks: list[Any], took: Callable[[dict[str, Any]], None],
                        progress: Callable[[], Any]) -> None:
        from spacetable.ai.runner import run_tasks, start_ray

        assert self.ray is not None
        loop = asyncio.get_running_loop()
        if not self._ray_started:
            # one connection for the server's life (``local``: an instance of ``workers`` CPUs started here)
            await asyncio.to_thread(start_ray, self.ray, self.workers if self.ray == "local" else None)
            self._ray_started = True

        def on_result(rec: dict[str, Any]) -> None:
            if live.cancel.is_set():
                raise Cancelled
            loop.call_soon_threadsafe(took, rec)

        job = asyncio.ensure_future(asyncio.to_thread(run_tasks, live.sim.play, tasks, ray=self.ray,
                                                      jobs=self.workers, on_result=on_result))
        while not job.done():
            await asyncio.wait([job], timeout=0.5)
            await progress()
        job.result()
        await asyncio.sleep(0)  # the last call_soon_threadsafe callbacks

    # ------------------------------------------------------------------ read
    def get(self, run_id: str, owner: str | None = None) -> dict[str, Any]:
        row = self._row(run_id)
        if row is None or not row.owner:
            raise ServiceError(404, "wb_no_run", "no such balance run")
        if row.state in ("queued", "running") and run_id not in self.live:
            self.sweep()
            row = self._row(run_id) or row
        out: dict[str, Any] = {"id": row.id, "kind": row.kind, "state": row.state, "total": row.total,
                               "done": self.live[run_id].done if run_id in self.live else row.done,
                               "params": json.loads(row.params), "mine": owner is not None and owner == row.owner}
        if row.error:
            out["error"] = row.error
        if row.result is not None:
            out["result"] = json.loads(row.result)
        if row.bundled_id:
            b = self._row(row.bundled_id) if row.bundled_id != row.id else row
            if b is not None:
                out["bundled_state"] = b.state
                if b.result is not None:
                    out["bundled"] = json.loads(b.result)
        return out

    def games(self, run_id: str) -> dict[str, Any]:
        """The per-game records of a finished run and of the bundled run beside it."""
        row = self._row(run_id)
        if row is None or not row.owner:
            raise ServiceError(404, "wb_no_run", "no such balance run")
        if row.games is None:
            raise ServiceError(409, "wb_not_done", "the run is not done")
        b = self._row(row.bundled_id) if row.bundled_id and row.bundled_id != row.id else row
        return {"games": json.loads(row.games), "bundled": json.loads(b.games) if b is not None and b.games else None}

    def cancel(self, run_id: str, owner: str) -> dict[str, Any]:
        row = self._row(run_id)
        if row is None or not row.owner:
            raise ServiceError(404, "wb_no_run", "no such balance run")
        if row.owner != owner:
            raise ServiceError(403, "wb_not_yours", "only who started a balance run may cancel it")
        live = self.live.get(run_id)
        if live is not None:
            live.cancel.set()
        # the bundled part it was to play is marked cancelled by the run's own task when it stops
        self._set(run_id, ("queued", "running"), state="cancelled", finished_at=time.time())
        return self.get(run_id, owner)

    async def wait(self, run_id: str) -> None:
        """Until the run of this process has ended (tests, the bench)."""
        live = self.live.get(run_id)
        if live is not None and live.task is not None:
            await asyncio.shield(live.task)

    def close(self) -> None:
        for live in self.live.values():
            live.cancel.set()
        self.runner.shutdown()
        if self._ray_started:
            from spacetable.ai.runner import stop_ray

            stop_ray()
            self._ray_started = False


__all__ = ["BalanceRuns", "RunLimits", "RunRow", "balance_kinds", "simulator", "wilson"]
