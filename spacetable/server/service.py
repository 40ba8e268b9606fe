"""The authoritative match service: seats, actions and the changes of a match, on the event loop.

The service owns the matches this process holds in memory; every change of a match happens under the match's
lock, is stored first (``storage.py``, a compare-and-set on the match's revision) and only then shown to the
clients (``clients.py``) and announced to the other processes (``fanout.py``). Its parts have their own
modules, and none of them knows the service: storing and showing a change (``changes.py``), the matches in
memory (``registry.py``), changes from other processes (``catchup.py``), creation and the lobby (``lobby.py``),
undo (``undo.py``), clocks (``clocks.py``), AI seats (``ailoop.py``), leases of AI seats and clocks across
processes (``leases.py``), seats' tokens (``seats.py``); each gets the parts below it that it uses, and the two
that play actions by themselves (a clock's timeout, an AI seat's move) get :meth:`MatchService.act` as a function.
Legal actions in messages are in ``legal.py``, queries in ``repo.py``.

Rule ids used in errors and docs (see ``docs/server.md``):

* SRV-A1 every action carries the state version it was computed against; a stale version is refused (409)
  and nothing changes. SRV-A1b exception: in a sealed simultaneous decision, a seat whose decision was
  pending the whole time while only other seats acted may still send its choice against the older version.
* SRV-A2 an action is normalised by ``game.normalize_action`` and applied only through ``game.apply``; a
  rejected action names the rule and changes nothing; only the normalised action is stored and sent.
* SRV-A3 nobody acts for a seat without its secret token (checked once per socket, SRV-B1).
* SRV-A5 a seat acts only when it is to act, except for a move its game declares ``out_of_turn`` (resign, some
  responses): that one goes to the game, whose move table checks its own window (``core.moves``).
* SRV-A4 leaving a seat revokes its token: every socket bound to it is closed with a message.
* SRV-V1..V3 each client receives only what its seat may see, once (``clients.py``).
* SRV-P1/P2 a match is config + seed + action log; each action is appended in the same transaction as the
  version bump. SRV-P4 a match that cannot be loaded is marked broken (with the reason).
* SRV-S1 seeds come from ``secrets``; a chosen seed only in an "open seed" match; published at the end.
* SRV-M1 finished and idle matches leave memory and are loaded again from the database on demand.
* SRV-X1 several processes share one database: every change commits only if the match's stored revision is
  the one the process built it on; otherwise the process catches up from the database and checks the
  request again on the new state (an action may then be stale, a token revoked).
* SRV-X2 changes are announced to the other processes, which apply them in revision order (``fanout.py``).
* SRV-X3 AI seats and clocks run in the process that committed the match's last change (``leases.py``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from spacetable.core.errors import RuleError, SpacetableError
from spacetable.core.game import Action, Game
from spacetable.core.match import LogEntry, Match

from . import clients, meter, render, seats
from .ai import AIRunner, agent_registry
from .ailoop import AiSeats
from .catchup import Catchup
from .changes import Changes, Conflict, Watcher
from .clocks import Clocks, wake_at
from .db import dumps
from .errors import ServiceError
from .fanout import Fanout
from .leases import Leases, new_server_id
from .limits import Limits
from .live import Entry, LiveMatch, Seat, Subscriber, hash_token
from .lobby import Lobby
from .meter import METER, clock
from .registry import Registry
from .storage import Append, Storage, Tx
from .undo import Undo

log = logging.getLogger("spacetable.server")
T = TypeVar("T")

#: Engine exceptions on malformed input that are reported as CORE-ACTION, not as a server error.
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)
#: How often an action is tried again after other processes changed the match first (SRV-X1).
ATTEMPTS = 5


def check_turn(game: Game[Any], state: Any, seat: int, action: Action) -> None:
    """SRV-A5: refuse (``CORE-TURN``) an action of a seat that is not to act, unless the game declares the move
    ``out_of_turn``: a seat may resign while another seat is to act. Such a move is left to ``game.apply``,
    whose move table still checks its window (game over, ``may_resign``, phases)."""
    table = game.moves
    kind = action.get("type")
    if table is not None and isinstance(kind, str) and kind in table and table[kind].out_of_turn:
        return
    game.check_turn(state, seat)


class MatchService:
    """Owns the live matches of this process; all mutation happens on the event loop under a per-match lock,
    each change stored (one transaction, compare-and-set) before it is shown and announced."""

    def __init__(self, storage: Storage, ai_workers: int = 1, limits: Limits | None = None,
                 fanout: Fanout | None = None, lease_seconds: float = 10.0, server_id: str | None = None) -> None:
        self.storage = storage
        self.limits = limits or Limits()
        self.server_id = server_id or new_server_id()
        self.fanout = fanout or Fanout(self.server_id)
        self.fanout.server_id = self.server_id
        # the parts, each given the parts below it that it uses (none of them knows the service)
        self.changes = Changes(self.storage, self.fanout, self.server_id)
        self.registry = Registry(self.changes, self.limits)
        self.catchup = Catchup(self.registry, self.changes, self.spawn)
        self.fanout.on_notice = self.catchup.notice
        self.fanout.on_resync = self.catchup.resync_soon
        #: the matches in memory, and the ones that cannot be loaded (SRV-P4): id -> reason
        self.matches = self.registry.matches
        self.broken = self.registry.broken
        self.clocks = Clocks(self.act)
        self.ai_seats = AiSeats(self.matches, self.limits, self.server_id,
                                AIRunner(ai_workers, self.limits.ai_only_workers), self.act)
        self.changes.due += [self.clocks, self.ai_seats]  # what runs in the matches this process owns (SRV-X3)
        self.lobby = Lobby(self.registry, self.changes, self.limits, self.ai_seats)
        self.undo = Undo(self.changes, self.catchup)
        self.leases = Leases(self.catchup, lease_seconds)
        self.sockets = 0
        #: called after this process committed a change of a match: ``watcher(m, seat, action)`` (notifications,
        #: issue 21: ``notify.events.MatchWatcher``); a watcher must not block
        self.watchers: list[Watcher] = self.changes.watchers
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def started(self) -> bool:
        return self.changes.started

    @property
    def conflicts(self) -> int:
        """Changes that found the match changed by another process first and were checked again (SRV-X1)."""
        return self.catchup.conflicts

    @property
    def lapses(self) -> Any:
        """The absent players' policies (``absence.Lapses``, issue 21), used by creation and the clocks."""
        return self.clocks.lapses

    @lapses.setter
    def lapses(self, lapses: Any) -> None:
        self.clocks.lapses = self.lobby.lapses = lapses

    @property
    def vacations(self) -> Any:
        """Accounts' vacations (``absence.Vacations``, issue 21), which pause correspondence clocks."""
        return self.clocks.vacations

    @vacations.setter
    def vacations(self, vacations: Any) -> None:
        self.clocks.vacations = vacations

    @property
    def engine(self) -> Any:
        """A synchronous SQLAlchemy engine on the database (tests, tools)."""
        return self.storage.engine

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Open the database and the fan-out, then take over what is due (SRV-X3): matches of stopped
        processes (this one's previous run included) where an AI or a clock must act."""
        await self.storage.start()
        await self.fanout.start()
        self.changes.started = True
        await self.leases.start()
        self.spawn(self.registry.run())
        self.spawn(self.catchup.run())
        log.info("server process %s: %d matches loaded", self.server_id, len(self.matches))

    async def stop(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        for m in self.matches.values():
            if m.ai_task:
                m.ai_task.cancel()
            self.clocks.cancel(m)
        self.clocks.stop()
        self.ai_seats.shutdown()
        await self.leases.stop()
        await self.fanout.stop()
        await self.storage.stop()
        self.changes.started = False

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ---------------------------------------------------------------- the helpers' parts
    async def get(self, match_id: str) -> LiveMatch:
        """The live match, loaded from the database if it is not in memory (SRV-M1)."""
        return await self.registry.get(match_id)

    def sweep(self, now: float | None = None) -> int:
        """SRV-M1: the eviction sweep now (``registry.Registry.sweep``)."""
        return self.registry.sweep(now)

    async def sync(self, m: LiveMatch, reason: str | None = None) -> None:
        """Catch ``m`` up with the database, its lock held (``catchup.Catchup.sync``)."""
        await self.catchup.sync(m, reason)

    async def resync(self) -> int:
        return await self.catchup.resync()

    async def adopt(self, match_id: str) -> bool:
        return await self.catchup.adopt(match_id)

    async def summary(self, match_id: str) -> dict[str, Any]:
        return await self.lobby.summary(match_id)

    # ------------------------------------------------------------------- lookups

    @staticmethod
    def check_token(m: LiveMatch, seat: int, token: str | None) -> str:
        """SRV-A3: only the holder of a seat's token acts for it; returns the token's hash (``seats.check_token``)."""
        return seats.check_token(m, seat, token)

    @staticmethod
    def check_seat(m: LiveMatch, seat: int, token: str | None, sub: Subscriber | None) -> None:
        """SRV-A3, SRV-A4 for a request (``seats.check_seat``)."""
        seats.check_seat(m, seat, token, sub)

    async def authorize(self, m: LiveMatch, seat: int, token: str | None) -> str:
        """:meth:`check_token`, after catching up with the stored match if this copy missed a change (a seat taken
        through another process a moment ago, SRV-X1); returns the token's hash."""
        try:
            return seats.check_token(m, seat, token)
        except ServiceError as exc:
            if not await self.catchup.refused_behind(m, exc):
                raise
        async with m.lock:
            await self.sync(m)
        return seats.check_token(m, seat, token)

    # ----------------------------------------------------------------- messages
    def snapshot(self, m: LiveMatch, viewer: int | None, kind: str = "snapshot", lang: str | None = "en") -> dict[str, Any]:
        """A snapshot for ``viewer`` with texts in ``lang`` (``None``: notations only), see ``render.snapshot``."""
        return render.snapshot(m, viewer, kind, lang)

    def subscribe(self, m: LiveMatch, viewer: int | None, token: str | None = None, lang: str = "en",
                  token_hash: str | None = None, texts: bool = True) -> Subscriber:
        """A new client of ``m`` (a seat's token already checked; pass its hash to avoid hashing it again).
        ``texts``: it reads sentences in ``lang`` (legal actions, log); without, notations only."""
        return clients.subscribe(m, viewer, token_hash or (hash_token(token) if token else None), lang, texts,
                                 self.limits.ws_backlog_bytes)

    def unsubscribe(self, m: LiveMatch, sub: Subscriber) -> None:
        clients.unsubscribe(m, sub)

    def chat_posted(self, m: LiveMatch, room: str, message: dict[str, Any], hidden: frozenset[int]) -> None:
        """A chat message stored (``chat.service``, issue 21): sent to this process's readers of its room, and
        announced to the other processes, which send it to theirs (``catchup.Catchup.notice``). ``hidden``: the
        seats whose accounts blocked the writer."""
        clients.broadcast_chat(m, room, message, hidden)
        self.fanout.publish(m.id, {"k": "chat", "room": room, "msg": message, "h": sorted(hidden)})

    # -------------------------------------------------------------- storing changes
    @staticmethod
    def memo(m: LiveMatch) -> Callable[[], None]:
        """Remember the mutable lobby fields of a match, to restore them if storing fails (``changes.Changes.memo``)."""
        return Changes.memo(m)

    async def store_change(self, m: LiveMatch, restore: Callable[[], None], reason: str,
                           seat: int | None = None, also: Callable[[Tx], Awaitable[None]] | None = None) -> None:
        """Store the lobby fields of ``m`` (and one seat), then show and announce the change
        (``changes.Changes.store_change``)."""
        await self.changes.store_change(m, restore, reason, seat, also)

    def watch(self, m: LiveMatch, seat: int | None, action: Action | None) -> None:
        """Tell the watchers about a change this process committed (errors logged, never raised)."""
        self.changes.watch(m, seat, action)

    async def mutate(self, match_id: str, op: Callable[[LiveMatch], Awaitable[T]]) -> T:
        """Run ``op`` on the match under its lock, again on the newest state when another process changed it first
        (SRV-X1, ``catchup.Catchup.mutate``)."""
        return await self.catchup.mutate(match_id, op)

    # ---------------------------------------------------------------------- seats
    @staticmethod
    def _free_seat(m: LiveMatch, seat: int) -> None:
        if not 0 <= seat < len(m.seats):
            raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
        if m.status == "finished":
            raise ServiceError(409, "finished", "the match is over")
        if m.seats[seat].kind != "open":
            raise ServiceError(409, "seat_taken", f"seat {seat} is taken")

    async def join(self, match_id: str, seat: int, name: str = "", token: str | None = None,
                   also: Callable[[Tx], Awaitable[None]] | None = None) -> str:
        """Take an open seat; returns the seat's secret token (shown once; ``token``: an account seat's derived one).
        ``also``: statements stored in the join's own transaction (the account's binding to the seat: the first
        "your turn" of a match this join starts already finds the account)."""

        async def op(m: LiveMatch) -> str:
            self._free_seat(m, seat)
            token_ = token or secrets.token_urlsafe(18)
            restore = Changes.memo(m)
            m.seats[seat] = Seat("human", (name or f"Player {seat + 1}")[:100], hash_token(token_), None)
            self.lobby.maybe_start(m)
            m.updated_at = time.time()
            await self.store_change(m, restore, "update", seat, also)
            return token_

        return await self.mutate(match_id, op)

    async def leave(self, match_id: str, seat: int, token: str | None) -> None:
        """Free a seat (SRV-A4): its token stops working, and every socket bound to it (on any process) is closed
        with a message, so that whoever takes the seat next is not seen through an old connection."""

        async def op(m: LiveMatch) -> None:
            seats.check_token(m, seat, token)
            restore = Changes.memo(m)
            m.seats[seat] = Seat()
            m.updated_at = time.time()
            await self.store_change(m, restore, "update", seat)

        await self.mutate(match_id, op)

    async def set_ai(self, match_id: str, seat: int, agent: str | None, by_seat: int | None, token: str | None,
                     client: str | None = None) -> None:
        """Put an AI on an open seat. Once somebody sits in the match, only a seated player may do it."""

        async def op(m: LiveMatch) -> None:
            self._free_seat(m, seat)
            if any(s.kind == "human" for s in m.seats):
                if by_seat is None:
                    raise ServiceError(403, "bad_token", "a seated player's seat and token are needed to add an AI (SRV-A3)")
                seats.check_token(m, by_seat, token)
            agents, default = agent_registry(m.game)
            if agent is not None and agent not in agents:
                raise ServiceError(422, "bad_config", f"unknown agent {agent!r}; known: {sorted(agents)}")
            after = [*m.seats[:seat], Seat("ai"), *m.seats[seat + 1:]]
            self.ai_seats.check_ai_only(after, min(m.ai_seconds, self.limits.ai_only_seconds), client, m.id)
            restore = Changes.memo(m)
            m.seats[seat] = Seat("ai", f"AI ({agent or default})", None, agent or default)
            if self.ai_seats.computer_only(m.seats):
                self.ai_seats.remember(m.id, client)
            self.lobby.maybe_start(m)
            m.updated_at = time.time()
            await self.store_change(m, restore, "update", seat)

        await self.mutate(match_id, op)

    # -------------------------------------------------------------------- actions
    @staticmethod
    def _concurrent_ok(m: LiveMatch, seat: int, version: int) -> bool:
        """SRV-A1b: an older version is still good for a seat whose decision has been pending the whole time while
        only *other* seats acted (sealed simultaneous decisions: buying, planning, bids). The seat's choice is about
        the same decision point, so it is not stale; the game still validates it against the current state."""
        if not 0 <= version < m.version or seat not in m.to_act():
            return False
        return all(e.seat != seat and seat in e.waiting for e in m.log[version:])

    @staticmethod
    def _normalize(game: Game[Any], action: Any) -> Action:
        """SRV-A2: the action in the game's normal form (its declared schema), or a CORE-ACTION refusal."""
        try:
            return game.normalize_action(action)
        except RuleError as exc:
            raise ServiceError(422, "illegal_action", exc.message, rule=exc.rule) from None
        except MALFORMED:
            raise ServiceError(422, "illegal_action", "malformed action", rule="CORE-ACTION") from None

    @staticmethod
    def _check_version(version: Any) -> int:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ServiceError(
                400, "bad_request", "'version' (an integer: the state version the action was computed against) is required"
            )
        return version

    def _checks(self, m: LiveMatch, seat: int, version: int, source: str) -> None:
        if source != "player" and m.owner != self.server_id:
            raise ServiceError(409, "not_owner", "another server process runs this match's AI seats and clock (SRV-X3)")
        if m.status == "open":
            raise ServiceError(409, "not_started", "the match waits for players to take every seat")
        if m.status == "finished":
            raise ServiceError(409, "finished", "the match is over")
        if version != m.version and not self._concurrent_ok(m, seat, version):
            raise ServiceError(409, "stale_version", f"stale state: action computed against version {version}, "
                               f"the match is at version {m.version}; reload and retry (SRV-A1)")

    async def act(self, match_id: str, seat: int, token: str | None, version: Any, action: Any, source: str = "player",
                  sub: Subscriber | None = None) -> int:
        """Apply ``action`` for ``seat`` if ``version`` is current (SRV-A1..A3). Returns the new version. ``sub``: the
        socket it came from (its seat was checked when it connected)."""
        meter.tick()
        m = await self.get(match_id)
        self._check_version(version)
        t = clock()
        action = self._normalize(m.game, action)
        METER.add("apply", t)
        for _ in range(ATTEMPTS):
            async with m.lock:
                if m.evicted:  # left memory while this request waited; act on the reloaded match
                    m = await self.get(match_id)
                    continue
                try:
                    if source == "player":
                        seats.check_seat(m, seat, token, sub)  # SRV-A3, SRV-A4 (on the newest state after a catch-up)
                    self._checks(m, seat, version, source)
                    if await self._act_locked(m, seat, version, action, source):
                        return m.version
                    self.catchup.conflicts += 1
                except ServiceError as exc:  # refused: unless this copy missed a change, the refusal stands
                    if exc.status >= 500 or not await self.catchup.refused_behind(m, exc):
                        raise
                await self.sync(m)  # another process changed the match first (SRV-X1): check again on the new state
        raise ServiceError(503, "busy", "the match kept changing meanwhile; try again")

    async def _act_locked(self, m: LiveMatch, seat: int, version: int, action: Action, source: str) -> bool:
        """Apply, store and show ``action``, in normal form (``game.normalize_action``), under ``m``'s lock."""
        game = m.game
        t = clock()
        old_to_act = m.to_act()
        try:
            check_turn(game, m.state, seat, action)
            after = game.apply_normal(m.state, seat, action)  # normalised once, in ``act``
        except RuleError as exc:
            raise ServiceError(422, "illegal_action", exc.message, rule=exc.rule) from None
        except MALFORMED as exc:
            log.warning("match %s: the game could not read an action (%s)", m.id, type(exc).__name__)
            raise ServiceError(422, "illegal_action", "malformed action: the game cannot read it", rule="CORE-ACTION") from None
        out = game.outcome(after)
        new_to_act = () if out is not None else tuple(game.to_act(after))
        started_at = m.turn_started_at
        now = time.time()
        if not set(new_to_act) <= set(old_to_act):
            started_at = now  # SRV-C1: a seat newly to act gets a fresh clock
        status = "finished" if out is not None else "running"
        fields = {
            "status": status, "turn_started_at": started_at, "updated_at": now,
            "outcome": dumps(out.to_json()) if out is not None else None, "undo_request": None,
            "to_act": dumps(list(new_to_act)),
            "wake_at": wake_at(status, m.seats, new_to_act, started_at,
                               self.clocks.limit_after(m, seat, new_to_act, started_at, now)),
            "owner": self.server_id,
        }
        text = dumps(action)
        rec = Append(m.id, m.version, seat, text, source, now, m.revision, fields)
        METER.add("apply", t)
        try:
            stored = await self.storage.append(rec)
        except Exception as exc:  # nothing was stored, so nothing changes
            log.exception("storing an action of match %s failed", m.id)
            raise ServiceError(503, "storage_error", "the action could not be stored; nothing changed, try again") from exc
        if not stored:
            return False
        METER.actions += 1
        # committed: shown here, then announced to the other processes (SRV-X2)
        revision = m.revision + 1
        changes = self.changes
        changes.announce_action(m, revision, seat, action, source, started_at, now)
        await changes.advance(m, seat, action, source, after, turn_started_at=started_at, updated_at=now,
                              revision=revision, owner=self.server_id, known=(out, new_to_act))
        changes.watch(m, seat, action)
        return True

    # ------------------------------------------------------------- legal actions
    async def check_action(self, match_id: str, seat: int, token: str | None, version: Any, action: Any) -> dict[str, Any]:
        """SRV-L3: would ``action`` be accepted now? The same checks as ``act`` (SRV-A1..A3), nothing stored or
        changed: ``{"legal": true}`` or ``{"legal": false, "rule": ..., "message": ...}``."""
        m = await self.get(match_id)
        await self.authorize(m, seat, token)
        self._check_version(version)
        if m.status != "running":
            raise ServiceError(409, m.status if m.status == "finished" else "not_started", f"the match is {m.status}")
        if version != m.version and not self._concurrent_ok(m, seat, version):
            raise ServiceError(409, "stale_version", f"stale state: the match is at version {m.version} (SRV-A1)")
        try:
            action = self._normalize(m.game, action)
        except ServiceError as exc:
            return {"legal": False, "rule": exc.rule, "message": exc.message}
        try:
            check_turn(m.game, m.state, seat, action)
            m.game.apply_normal(m.state, seat, action)
        except RuleError as exc:
            return {"legal": False, "rule": exc.rule, "message": exc.message}
        except MALFORMED:
            return {"legal": False, "rule": "CORE-ACTION", "message": "malformed action: the game cannot read it"}
        return {"legal": True}

    # ------------------------------------------------------------------- replays
    async def finished(self, match_id: str) -> LiveMatch:
        m = await self.get(match_id)
        if m.status != "finished":
            raise ServiceError(409, "not_finished", "replays and exports are available once the match is over")
        return m

    @staticmethod
    def replay_state(m: LiveMatch, step: int) -> Any:
        """The state after ``step`` actions, from the match's history (checkpoints: O(1) per step when stepping)."""
        if not 0 <= step <= m.version:
            raise ServiceError(404, "no_such_step", f"steps are 0..{m.version}")
        return m.state_at(step)

    @staticmethod
    def record(m: LiveMatch) -> Match:
        """The ``spacetable-match/1`` record of ``m``: config (player content included), seed and log (no replay:
        every logged action was applied when it was played)."""
        return Match(game=m.game.id, config=m.config, seed=m.seed, meta={"server_match": m.id, "name": m.name},
                     log=[LogEntry(e.seat, e.action) for e in m.log], engine=m.game)


__all__ = ["Conflict", "Entry", "LiveMatch", "MatchService", "ServiceError", "SpacetableError", "Subscriber", "hash_token"]
