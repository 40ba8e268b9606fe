"""The WebSocket of a match: ``/ws/matches/{id}`` (SRV-V1, SRV-A3, SRV-A4, SRV-B2, SRV-E2).

A client connects as a spectator (no ``seat``), or for a seat: with ``?seat=n`` and then, as its first
message, ``{"type": "auth", "token": T}`` within ``ws_auth_timeout`` seconds (the token stays out of
URLs and so out of every access log); ``?seat=n&token=T`` is still accepted. ``{"type": "auth", "seat":
n, "token": T}`` also turns a spectator's socket into a seat's. Every malformed message (binary frame,
text over ``max_message`` bytes, invalid or non-object JSON, NaN, lone surrogates, deep nesting, an
unknown type) gets an ``error`` message and the socket stays open; sockets are capped per match (counted
when they connect and again when a seat's socket authenticates) and in all, closed after ``ws_idle`` seconds of
silence, and actions count against the client's rate limit. Each socket has its own bounds (SRV-B2): messages
per second (``ws_rate``; over it the socket is closed, 4429), messages answered with a whole snapshot per minute
(``ws_snapshots``: ``lang``, ``texts``, ``auth``; over it an error and no snapshot) and the bytes waiting to be
sent (``ws_backlog_bytes``; over it the socket is closed, 1013). Failed token checks count against the client's
``auth_fail`` limit; over it every token check of that address is refused for the window.

Texts (sentences of legal actions and log entries, in the socket's language) are sent only to a socket that
asks for them: ``?texts=1`` or ``{"type": "texts", "on": true}`` (the web page does); others get notations
(``render.py``).

A seat's socket also carries its players' chat (issue 21): ``{"type": "chat", "text": T}`` (or ``"quick": K``)
posts, and every message of the rooms a socket reads comes to it as ``{"type": "chat", ...}``
(``clients.broadcast_chat``), so that the page neither polls nor makes an HTTP request per message.

The message's one way (``docs/architecture.md``): receive and decode here, then ``service`` authorises, acts and
stores, ``clients``/``render`` render per seat and queue, and this socket's sender sends.

The token is hashed once, when the socket authenticates; its actions then only compare that hash with the
seat's (a seat left meanwhile closes the socket, SRV-A4). Any process of the service accepts any match's
socket (SRV-X2).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import WebSocket

from . import clients, presentation
from .errors import ServiceError
from .jsonio import BadJson, dumps, loads
from .limits import Bucket
from .live import LiveMatch, Subscriber
from .meter import METER, clock

if TYPE_CHECKING:
    from .chat.service import ChatService
    from .limits import Limits, RateLimiter
    from .service import MatchService

log = logging.getLogger("spacetable.server")

T = TypeVar("T")


def _error(exc: ServiceError, ref: Any = None, game: Any = None, lang: str = "en") -> str:
    """An error message, explained in the client's language (``presentation.error_json``)."""
    out: dict[str, Any] = {"type": "error", "error": presentation.error_json(exc.to_json(), game, lang)}
    if ref is not None:
        out["id"] = ref
    return dumps(out)


class _Closed(Exception):
    """The client went away."""


class _Full(Exception):
    """The match has ``max_match_sockets`` sockets."""


class Silence:
    """The silence timeout of a socket's receive (``ws_auth_timeout``, then ``ws_idle``) with one timer per
    connection instead of one per message.

    Each :meth:`wait` only moves the deadline (a float). The timer, armed for the earliest deadline, re-arms
    itself for the current one when it fires early (a message came meanwhile), and when the deadline has passed
    while the socket waits, cancels the waiting task; :meth:`wait` turns that cancellation into
    ``TimeoutError``, as ``asyncio.timeout`` does. A timer per received message (``asyncio.timeout``) cost about
    2 % of the event loop under load (docs/architecture.md, "Where the time goes"). :meth:`close` drops the timer
    when the socket closes, so that nothing of the connection stays reachable from the loop."""

    def __init__(self) -> None:
        self.deadline = 0.0
        self._armed = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[Any] | None = None  # the task waiting now, else None
        self._expired = False

    async def wait(self, awaitable: Awaitable[T], timeout: float) -> T:
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + timeout
        if self._timer is None or self._armed > self.deadline:
            if self._timer is not None:
                self._timer.cancel()
            self._armed = self.deadline
            self._timer = loop.call_at(self.deadline, self._fire, loop)
        task = self._task = asyncio.current_task()
        try:
            result = await awaitable
        except asyncio.CancelledError:
            if self._expired:
                self._expired = False
                if task is not None and task.uncancel() == 0:  # ours alone: a timeout, not a shutdown
                    raise TimeoutError from None
            raise
        finally:
            self._task = None
        if self._expired:  # the awaitable swallowed our cancellation: take it back, as ``asyncio.timeout`` does
            self._expired = False
            if task is not None:
                task.uncancel()
        return result

    def _fire(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        if self._task is None:  # not waiting: the next wait arms the timer again
            return
        if loop.time() < self.deadline:  # heard from meanwhile: wait until the current deadline
            self._armed = self.deadline
            self._timer = loop.call_at(self.deadline, self._fire, loop)
            return
        self._expired = True
        self._task.cancel()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Connection:
    """One WebSocket client of one match."""

    def __init__(self, websocket: WebSocket, service: MatchService, limits: Limits, limiter: RateLimiter,
                 chat: ChatService | None = None) -> None:
        self.ws = websocket
        self.service = service
        self.chat = chat
        self.limits = limits
        self.limiter = limiter
        self.client = websocket.client.host if websocket.client else None
        self.match: LiveMatch | None = None
        self.sub: Subscriber | None = None
        self.seat: int | None = None
        self._sender: asyncio.Task[None] | None = None
        self._held: tuple[str, str] | None = None
        self.lang = "en"  # the client's language (?lang= or a {"type": "lang"} message)
        self.texts = False  # whether it reads texts (?texts=1 or a {"type": "texts"} message)
        self.rate = Bucket(limits.ws_rate, 2 * limits.ws_rate)
        self._silence = Silence()
        self.snapshots = Bucket(limits.ws_snapshots / 60.0, limits.ws_snapshots)

    # ------------------------------------------------------------------ plumbing
    async def _fail(self, exc: ServiceError, code: int | None = None) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_text(_error(exc, None, self.match.game if self.match else None, self.lang))
            await self.ws.close(code=code or 4000 + exc.status)

    async def _receive(self, timeout: float) -> dict[str, Any] | str | None:
        """The next message: a dict (JSON object), a ``str`` describing why it was refused, or ``None`` on
        timeout. Raises :class:`_Closed` when the client went away."""
        try:
            message = await self._silence.wait(self.ws.receive(), timeout)
        except TimeoutError:
            return None
        except RuntimeError as exc:  # closed by the sender (backlog, seat left)
            raise _Closed from exc
        if message["type"] == "websocket.disconnect":
            raise _Closed
        text = message.get("text")
        if text is None:
            return "binary frames are not accepted; send JSON text"
        if len(text) > self.limits.max_message:
            return f"messages are at most {self.limits.max_message} bytes"
        try:
            value = loads(text)
        except BadJson as exc:
            return str(exc)
        if not isinstance(value, dict):
            return "a message is a JSON object"
        return value

    def _push(self, text: str) -> None:
        if self.sub is not None:
            self.sub.push(text)

    def _bind(self, m: LiveMatch, seat: int | None, token_hash: str | None) -> None:
        """Subscribe to ``m`` as ``seat`` (token already checked), replacing an earlier subscription. The match's
        socket cap counts it here too (SRV-B2): a socket that connected under the cap and authenticates once the
        match is full is refused."""
        if self.sub is not None:
            self.service.unsubscribe(m, self.sub)
            self.sub = None
        if len(m.subscribers) >= self.limits.max_match_sockets:
            raise _Full
        if self._sender is not None:
            self._sender.cancel()
        self._away()
        if seat is not None and (presence := getattr(self.service, "presence", None)) is not None:
            presence.hold("m:" + m.id, str(seat))  # the seat's player is at the table (social.presence)
            self._held = ("m:" + m.id, str(seat))
        self.seat = seat
        self.sub = self.service.subscribe(m, seat, lang=self.lang, token_hash=token_hash, texts=self.texts)
        self._sender = asyncio.create_task(self._send_loop(self.sub))

    def _away(self) -> None:
        """Release the seat this socket held in the presence of the match."""
        if self._held is not None:
            self.service.presence.release(*self._held)  # type: ignore[attr-defined]
            self._held = None

    async def _send_loop(self, sub: Subscriber) -> None:
        try:
            while True:
                text = await sub.next()
                if not text and sub.close_code is not None:
                    await self.ws.close(code=sub.close_code)  # too far behind (1013) or the seat was left (4403)
                    return
                t = clock()
                await self.ws.send_text(text)
                METER.add("sending", t)
        except Exception:  # the client went away; the receive loop notices and cleans up
            return

    async def _authorize(self, m: LiveMatch, seat: int, token: str | None) -> str:
        """SRV-A3 for this socket: refused at once while its address is over the failed-token limit; a failure
        counts against it (``limits.RateLimiter``, ``auth_fail``)."""
        await self.limiter.over("auth_fail", self.client)
        try:
            return await self.service.authorize(m, seat, token)
        except ServiceError as exc:
            if exc.code == "bad_token":
                await self.limiter.hit("auth_fail", self.client)
            raise

    # -------------------------------------------------------------------- serving
    async def serve(self, match_id: str, seat_text: str | None, token: str | None, lang: str | None = None,
                    texts: str | None = None) -> None:
        await self.ws.accept()
        self.lang = presentation.pick_lang(lang)
        self.texts = texts in ("1", "true", "yes")
        service, limits = self.service, self.limits
        if service.sockets >= limits.max_sockets:
            await self._fail(ServiceError(503, "too_many_connections", "the server has too many connections; "
                                          "try again later"), 1013)
            return
        service.sockets += 1
        try:
            await self._serve(match_id, seat_text, token)
        except _Closed:
            pass
        except _Full:
            await self._fail(ServiceError(503, "too_many_connections", "this match has too many connections; "
                                          "try again later"), 1013)
        finally:
            service.sockets -= 1
            self._silence.close()
            self._away()
            if self.match is not None and self.sub is not None:
                service.unsubscribe(self.match, self.sub)
            if self._sender is not None:
                self._sender.cancel()
            # nothing of this connection points at its sender task any more: the task's cancellation (its traceback
            # holds the sender's frame, which holds this connection) is freed when the task ends, not left in a
            # reference cycle for the garbage collector, one per closed socket
            self._sender = None
            self.sub = None

    async def _serve(self, match_id: str, seat_text: str | None, token: str | None) -> None:
        service, limits = self.service, self.limits
        try:
            seat = None if seat_text is None else int(seat_text)
        except ValueError:
            await self._fail(ServiceError(400, "bad_request", "seat is a seat number"))
            return
        try:
            m = await service.get(match_id)
        except ServiceError as exc:
            await self._fail(exc)
            return
        if len(m.subscribers) + m.connecting >= limits.max_match_sockets:
            raise _Full
        if seat is not None and token is None:
            m.connecting += 1  # counted against the cap while it authenticates
            try:
                first = await self._receive(limits.ws_auth_timeout)
            finally:
                m.connecting -= 1
            if not isinstance(first, dict) or first.get("type") != "auth":
                await self._fail(ServiceError(401, "auth_required", 'a seat\'s socket first sends {"type": "auth", '
                                              '"token": ...} (SRV-A3)'))
                return
            token = first.get("token")
            try:
                m = await service.get(match_id)  # the same match, or its reload if it left memory meanwhile
            except ServiceError as exc:
                await self._fail(exc)
                return
        digest = None
        if seat is not None:
            try:
                digest = await self._authorize(m, seat, token if isinstance(token, str) else None)
            except ServiceError as exc:
                await self._fail(exc)
                return
        while m.evicted:  # it left memory while this socket authenticated: bind to the copy in memory now
            m = await service.get(match_id)
        self.match = m
        self._bind(m, seat, digest)
        while True:
            msg = await self._receive(limits.ws_idle)
            if msg is None:
                await self._fail(ServiceError(408, "idle", f"no message for {limits.ws_idle:g} s; "
                                              "reconnect to go on"), 4408)
                return
            if not self.rate.take():
                await self._fail(ServiceError(429, "rate_limited", f"more than {limits.ws_rate:g} messages a second "
                                              "on this connection; reconnect more slowly"), 4429)
                return
            if isinstance(msg, str):
                self._push(_error(ServiceError(400, "bad_request", msg)))
                continue
            await self._handle(m, msg)

    def _snapshot_allowed(self) -> None:
        """SRV-B2: a message answered with a whole snapshot counts against ``ws_snapshots`` per minute."""
        if not self.snapshots.take():
            raise ServiceError(429, "rate_limited", f"at most {self.limits.ws_snapshots} snapshots a minute on one "
                               "connection; wait a little")

    async def _handle(self, m: LiveMatch, msg: dict[str, Any]) -> None:
        service = self.service
        kind = msg.get("type")
        ref = msg.get("id")
        if not isinstance(ref, (int, str, type(None))) or isinstance(ref, bool) or (isinstance(ref, str) and len(ref) > 64):
            ref = None
        try:
            if kind == "ping":
                self._push(dumps({"type": "pong", "id": ref}))
                return
            if kind in ("lang", "texts"):  # texts from now on in this language / on or off, with a fresh snapshot
                self._snapshot_allowed()
                if kind == "lang":
                    self.lang = presentation.pick_lang(str(msg.get("lang") or ""))
                else:
                    self.texts = msg.get("on", True) is True
                if self.sub is not None:
                    self.sub.lang, self.sub.texts = self.lang, self.texts
                    clients.resend_snapshot(m, self.sub)
                return
            if kind == "auth":
                seat = msg.get("seat", self.seat)
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise ServiceError(400, "bad_request", "auth needs the seat number")
                self._snapshot_allowed()
                token = msg.get("token")
                digest = await self._authorize(m, seat, token if isinstance(token, str) else None)
                self._bind(m, seat, digest)
                return
            if kind == "chat":
                await self._chat(m, msg)
                return
            if self.seat is None or self.sub is None:
                raise ServiceError(403, "spectator", "spectators cannot act (SRV-A3)")
            if kind == "action":
                await self.limiter.hit("act", self.client)
                await service.act(m.id, self.seat, None, msg.get("version"), msg.get("action"), sub=self.sub)
            elif kind == "undo":
                await self.limiter.hit("act", self.client)
                res = await service.undo.request(m.id, self.seat, None, self.sub)
                self._push(dumps({"type": "undo", "id": ref, **res}))
            elif kind in ("undo_accept", "undo_decline"):
                await self.limiter.hit("act", self.client)
                res = await service.undo.answer(m.id, self.seat, None, kind == "undo_accept", self.sub)
                self._push(dumps({"type": "undo", "id": ref, **res}))
            else:
                shown = kind if isinstance(kind, str) and len(kind) <= 32 else "?"
                raise ServiceError(400, "bad_request", f"unknown message type {shown!r}")
        except ServiceError as exc:
            self._push(_error(exc, ref, m.game, self.lang))

    async def _chat(self, m: LiveMatch, msg: dict[str, Any]) -> None:
        """``{"type": "chat", "text": T}`` or ``{"type": "chat", "quick": K}``: a seat's message in the players'
        room (issue 21), with every bound of ``POST /api/matches/{id}/chat`` (length, rate, suspension, the room
        open). Every reader's socket, this one included, is then sent ``{"type": "chat", "room": "players",
        "message": {...}}``; a refusal is an ``error`` with the message's ``id``."""
        if self.chat is None:
            raise ServiceError(404, "chat_off", "this server has no chat")
        if self.seat is None or self.sub is None:
            raise ServiceError(403, "spectators_room", "spectators write in their room with POST /api/matches/{id}/chat, "
                               "signed in")
        self.service.check_seat(m, self.seat, None, self.sub)
        await self.chat.post_for_seat(m, self.seat, msg.get("text"), msg.get("quick"))
