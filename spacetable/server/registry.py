"""The matches in memory (SRV-M1, SRV-P4): loading them from the database (one load per match however many
requests ask at once; subscribed to its notices before it is read, SRV-X2), marking the ones that cannot be
loaded broken, and evicting idle ones.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from spacetable.core.errors import ConfigError, RuleError, SpacetableError
from spacetable.core.match import replay_states
from spacetable.games import UnknownGame, get_game

from . import repo
from .changes import Changes
from .clocks import Clocks
from .errors import ServiceError
from .limits import Limits
from .live import LiveMatch, Seat, make_entry

log = logging.getLogger("spacetable.server")
#: Seconds between two passes of the eviction sweep (SRV-M1).
SWEEP_INTERVAL = 15.0


def _reason(exc: BaseException) -> str:
    """Why a stored match cannot be loaded, for the lobby: rule and config messages, else the error's kind."""
    if isinstance(exc, RuleError):
        return f"[{exc.rule}] {exc.message}"
    if isinstance(exc, (ConfigError, ServiceError)):
        return str(exc)
    return f"{type(exc).__name__} while replaying"


class Registry:
    """``matches``: the live matches by id; ``broken``: the ones that cannot be loaded, with the reason."""

    def __init__(self, changes: Changes, limits: Limits) -> None:
        self.changes = changes
        self.storage = changes.storage
        self.fanout = changes.fanout
        self.limits = limits
        #: a notice that came while its match was loading, given on once the match is loaded (the catch-up
        #: registers its ``notice`` here)
        self.on_early_notice: Callable[[str, str, dict[str, Any]], None] = lambda match_id, origin, notice: None
        self.matches: dict[str, LiveMatch] = {}
        self.broken: dict[str, str] = {}
        self.loading: dict[str, asyncio.Future[LiveMatch]] = {}
        #: notices that came while their match was being loaded, applied after the load
        self.early: dict[str, list[tuple[str, dict[str, Any]]]] = {}

    async def get(self, match_id: str) -> LiveMatch:
        """The live match, loaded from the database if it is not in memory (SRV-M1)."""
        m = self.matches.get(match_id)
        if m is None:
            if not isinstance(match_id, str) or not 1 <= len(match_id) <= 32 or not match_id.isalnum():
                raise ServiceError(404, "not_found", "no such match")
            reason = self.broken.get(match_id)
            if reason is not None:
                raise ServiceError(409, "broken", f"this match cannot be loaded: {reason}")
            m = await self._load(match_id)
        m.last_used = time.monotonic()
        return m

    async def _load(self, match_id: str) -> LiveMatch:
        """Replay a stored match into memory; mark it broken (and raise 409) when that fails (SRV-P4). Concurrent
        requests for the same match share one load; notices arriving meanwhile are applied after it."""
        pending = self.loading.get(match_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveMatch] = asyncio.get_running_loop().create_future()
        self.loading[match_id] = fut
        self.early[match_id] = []
        try:
            m = await self._load_now(match_id)
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: nobody else may be waiting
            self.fanout.unwatch(match_id)
            raise
        finally:
            self.loading.pop(match_id, None)
            early = self.early.pop(match_id, [])
        fut.set_result(m)
        for origin, notice in early:
            self.on_early_notice(match_id, origin, notice)
        return m

    async def _load_now(self, match_id: str) -> LiveMatch:
        await self.fanout.watch(match_id)  # before reading: no change committed after the read goes unheard
        found = await self.storage.read(lambda tx: repo.load(tx, match_id))
        if found is None:
            raise ServiceError(404, "not_found", "no such match")
        row, seat_rows, action_rows = found
        try:
            m = self.replay(row, seat_rows, action_rows)
        except Exception as exc:  # anything at all: one bad match must not stop the server
            reason = _reason(exc)
            log.error("match %s cannot be loaded: %s", match_id, reason, exc_info=not isinstance(exc, SpacetableError))
            self.broken[match_id] = reason
            if row["broken"] != reason:
                await self.storage.write(lambda tx: repo.mark_broken(tx, match_id, reason))
            raise ServiceError(409, "broken", f"this match cannot be loaded: {reason}") from None
        if row["broken"] is not None:
            await self.storage.write(lambda tx: repo.mark_broken(tx, match_id, None))
        self.broken.pop(match_id, None)
        self.matches[match_id] = m
        self.evict_over_cap()
        self.changes.after_change(m)  # what is due in it runs (once the service has started)
        return m

    def replay(self, row: dict[str, Any], seat_rows: list[dict[str, Any]], action_rows: list[dict[str, Any]]) -> LiveMatch:
        try:
            game = get_game(row["game"])
        except UnknownGame:
            raise ConfigError(f"the game {row['game']!r} is not installed on this server") from None
        config = game.normalize_config(json.loads(row["config"]))
        seed = int(row["seed"])
        m = LiveMatch(
            id=row["id"], game=game, name=row["name"], config=config, seed=seed, status=row["status"],
            ai_seconds=float(row["ai_seconds"]), turn_seconds=row["turn_seconds"], turn_started_at=row["turn_started_at"],
            created_at=row["created_at"], updated_at=row["updated_at"],
            seats=[Seat(r["kind"], r["name"], r["token_hash"], r["agent"]) for r in seat_rows],
            state=game.initial_state(config, seed), open_seed=bool(row["open_seed"]),
            undo_request=json.loads(row["undo_request"]) if row["undo_request"] else None,
            revision=int(row["revision"]), epoch=int(row["epoch"]), owner=row["owner"],
            clock_kind=row.get("clock_kind"), clock_increment=float(row.get("clock_increment") or 0.0),
            started_at=row.get("started_at"),
        )
        self.extend(m, action_rows)
        out = game.outcome(m.state)
        m.outcome = out.to_json() if out else None
        return m

    @staticmethod
    def extend(m: LiveMatch, action_rows: list[dict[str, Any]]) -> None:
        """Append stored actions to the log of ``m`` (replayed with ``core.match.replay_states``)."""
        moves = [(int(a["seat"]), json.loads(a["action"]), a["source"]) for a in action_rows]
        before, n = m.state, len(m.seats)
        for (seat, action, source), after in zip(moves, replay_states(m.game, before, ((s, a) for s, a, _ in moves)),
                                                 strict=True):
            m.log.append(make_entry(m.game, before, seat, action, source, n))
            before = after
        for entry, a in zip(m.log[len(m.log) - len(action_rows):], action_rows, strict=True):
            entry.t = float(a.get("created_at") or 0.0)  # the clocks' banks (issue 21)
        m.publish(before, {})

    async def run(self) -> None:
        """The eviction sweep, every ``SWEEP_INTERVAL`` seconds (or half of ``--evict-finished``)."""
        while True:
            await asyncio.sleep(min(SWEEP_INTERVAL, self.limits.evict_finished / 2 or SWEEP_INTERVAL))
            try:
                self.sweep()
            except Exception:  # the sweep must never stop
                log.exception("eviction sweep failed")

    @staticmethod
    def evictable(m: LiveMatch) -> bool:
        return not m.subscribers and not m.lock.locked() and (m.ai_task is None or m.ai_task.done()) and not m.inbox

    def sweep(self, now: float | None = None) -> int:
        """SRV-M1: drop finished matches idle for ``evict_finished`` seconds and any match idle for ``evict_idle``
        seconds (nobody connected, no AI thinking, no change in progress). Returns how many left memory."""
        now = time.monotonic() if now is None else now
        gone = 0
        for m in list(self.matches.values()):
            idle = now - m.last_used
            limit = self.limits.evict_finished if m.status == "finished" else self.limits.evict_idle
            if idle >= limit and self.evictable(m):
                self.evict(m)
                gone += 1
        return gone

    def evict_over_cap(self) -> None:
        """At most ``--max-live-matches`` in memory (SRV-M1): over it, the least recently used idle matches leave,
        down to a sixteenth below the cap, so that a server at its cap orders its matches by use once in a while and
        not at every match it creates or loads (2,000 matches, some 0.4 ms of the event loop a time)."""
        cap = self.limits.max_live_matches
        if len(self.matches) <= cap:
            return
        over = len(self.matches) - (cap - cap // 16)
        for m in sorted(self.matches.values(), key=lambda x: x.last_used):
            if over <= 0:
                break
            if self.evictable(m):
                self.evict(m)
                over -= 1

    def evict(self, m: LiveMatch) -> None:
        """Out of memory. A clock that runs out meanwhile is found by the lease scan (SRV-X3), which loads it."""
        m.evicted = True
        self.matches.pop(m.id, None)
        Clocks.cancel(m)
        if self.changes.started:
            self.fanout.unwatch(m.id)
