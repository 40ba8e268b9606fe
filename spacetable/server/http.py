"""HTTP-level guards (SRV-B2, SRV-E2): request bodies and silent connections.

* :class:`BodyGuard` (ASGI middleware) reads each request body up to ``max_body`` bytes (413 above
  it) and checks a JSON body strictly (:mod:`.jsonio`: UTF-8, no NaN/Infinity/overflowing numbers,
  no lone surrogates, bounded depth) before the application sees it; a bad body gets a 400 in the
  API's error shape.
* :class:`GuardedHttp` (:func:`guarded_protocol`) gives uvicorn an HTTP protocol that closes a connection which has not sent
  complete request headers within ``header_timeout`` seconds (uvicorn by itself keeps a connection
  that never sends a byte open forever, so silent connections could exhaust file descriptors), cuts off a
  request body that arrives too slowly, caps the connections of one client address and lets a new
  connection in by closing the longest-waiting idle one when too many wait.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, ClassVar

from .errors import error_body
from .jsonio import BadJson, loads

Scope = dict[str, Any]
Receive = Any
Send = Any


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(status, code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            media = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or media.endswith(b"+json")
    return True  # no content type: FastAPI would read the body as JSON


class BodyGuard:
    """Bounded, strictly checked request bodies (see the module docstring)."""

    def __init__(self, app: Any, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _send_error(send, 400, "bad_request", "invalid Content-Length")
                    return
                if declared > self.max_body:
                    await _send_error(send, 413, "too_large", f"request bodies are at most {self.max_body} bytes")
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _send_error(send, 413, "too_large", f"request bodies are at most {self.max_body} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and _is_json(scope):
            try:
                loads(body)
            except BadJson as exc:
                await _send_error(send, 400, "bad_json", str(exc))
                return
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return dict(await receive())

        await self.app(scope, replay, send)


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
except ImportError:  # pragma: no cover - httptools not installed
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Base  # type: ignore[assignment]

#: the header timeout of :class:`GuardedHttp` in processes started by ``serve --workers N``
HEADER_TIMEOUT_ENV = "SPACETABLE_HEADER_TIMEOUT"
#: the other connection guards of :class:`GuardedHttp` there (JSON of :func:`guard_settings`)
GUARDS_ENV = "SPACETABLE_HTTP_GUARDS"


def guard_settings(header_timeout: float, body_timeout: float, body_min_rate: int, max_address_connections: int,
                   max_pending_connections: int) -> dict[str, float]:
    """The class attributes of :class:`GuardedHttp` for these bounds (``Limits`` fields of the same names)."""
    return {"header_timeout": header_timeout, "body_timeout": body_timeout, "body_min_rate": body_min_rate,
            "max_address_connections": max_address_connections, "max_pending_connections": max_pending_connections}


def _from_env() -> dict[str, float]:
    try:
        found: dict[str, float] = json.loads(os.environ.get(GUARDS_ENV, "{}"))
    except ValueError:
        found = {}
    if HEADER_TIMEOUT_ENV in os.environ:
        found.setdefault("header_timeout", float(os.environ[HEADER_TIMEOUT_ENV]))
    return found


#: the trusted proxies (``--forwarded-allow-ips``) as uvicorn parses them, per setting
_TRUSTED: dict[Any, Any] = {}


def _refusal(status: int, code: str, message: str) -> bytes:
    body = json.dumps(error_body(status, code, message)).encode()
    reason = {408: "Request Timeout", 429: "Too Many Requests"}.get(status, "Error")
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n").encode() + body


class GuardedHttp(_Base):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (httptools when installed, else h11) with connection guards (SRV-B2):

    * a connection that has not delivered complete request headers within ``header_timeout`` seconds (at
      connection, and again whenever a keep-alive connection starts its next request) is closed;
    * a request body must arrive within ``body_timeout`` seconds plus one second per ``body_min_rate`` bytes
      received (a body trickling in slower than that is cut off with a 408): a slow body holds nothing for long;
    * one client address has at most ``max_address_connections`` connections open (WebSockets included; 0: no
      cap); more are refused with a 429 at once. The addresses of trusted proxies (``--forwarded-allow-ips``)
      are not capped, since every client behind them shares them;
    * at most ``max_pending_connections`` connections may wait for a complete request (headers or body) at
      once: a new connection above that closes the one that has waited longest, so idle and slow connections
      can never keep a new request (``/health``) out.

    A module-level class so that uvicorn can import it in each worker (``--workers``); the settings are class
    attributes (:func:`guarded_protocol`), or ``$SPACETABLE_HTTP_GUARDS`` in the workers."""

    header_timeout = 10.0
    body_timeout = 20.0
    body_min_rate = 500.0
    max_address_connections = 0
    max_pending_connections = 1024

    #: open connections per client address (transports; closed ones are pruned as new ones arrive)
    _by_address: ClassVar[dict[str, set[Any]]] = {}
    #: connections waiting for a complete request, oldest first (a dict used as an ordered set)
    _pending: ClassVar[dict[Any, None]] = {}
    #: connections refused or closed by each guard (tests, logs)
    closed: ClassVar[dict[str, int]] = {"header": 0, "body": 0, "address": 0, "pending": 0}

    _guard: asyncio.TimerHandle | None = None
    _guard_cycle: Any = None
    _body_started: float | None = None
    _body_bytes = 0
    _host: str | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        if not self._admit(transport):
            return
        self._arm()

    # ------------------------------------------------------------------ admission
    def _capped(self, host: str | None) -> bool:
        if not host or self.max_address_connections <= 0:
            return False
        if not getattr(self.config, "proxy_headers", False):
            return True
        allowed = self.config.forwarded_allow_ips
        key = tuple(allowed) if isinstance(allowed, list) else allowed
        trusted = _TRUSTED.get(key)
        if trusted is None:
            # parsed once per setting, not per connection: each parse left an address, a set and a cache in a
            # reference cycle for the garbage collector (hundreds a second under load)
            try:
                from uvicorn.middleware.proxy_headers import _TrustedHosts

                trusted = _TRUSTED[key] = _TrustedHosts(allowed)
            except (ImportError, ValueError, TypeError):  # pragma: no cover - another uvicorn
                return True
        return host not in trusted

    def _admit(self, transport: Any) -> bool:
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        if host is not None and self._capped(host):
            mine = self._by_address.setdefault(host, set())
            for t in [t for t in mine if t.is_closing()]:
                mine.discard(t)
            if len(mine) >= self.max_address_connections:
                GuardedHttp.closed["address"] += 1
                transport.write(_refusal(429, "too_many_connections", "too many connections from your address"))
                transport.close()
                return False
            mine.add(transport)
            self._host = host
            if len(self._by_address) > 4 * self.max_pending_connections + 1024:
                self._sweep()
        pending = GuardedHttp._pending
        while len(pending) >= max(1, self.max_pending_connections):
            oldest = next(iter(pending))
            oldest._unpend()
            oldest._close("pending")
        return True

    @classmethod
    def _sweep(cls) -> None:
        """Forget closed connections and addresses without open ones (upgraded sockets are not seen closing)."""
        for host in list(GuardedHttp._by_address):
            live = {t for t in GuardedHttp._by_address[host] if not t.is_closing()}
            if live:
                GuardedHttp._by_address[host] = live
            else:
                del GuardedHttp._by_address[host]

    def _pend(self) -> None:
        GuardedHttp._pending[self] = None

    def _unpend(self) -> None:
        GuardedHttp._pending.pop(self, None)

    def _close(self, why: str, refusal: bytes | None = None) -> None:
        self._disarm()
        transport = self.transport
        # an upgraded connection (WebSocket) belongs to another protocol object by now
        if transport is not None and not transport.is_closing() and transport.get_protocol() is self:
            GuardedHttp.closed[why] += 1
            if refusal is not None and self.cycle is not None and not self.cycle.response_started:
                transport.write(refusal)
            transport.close()

    # -------------------------------------------------------------------- timers
    def _arm(self) -> None:
        self._disarm()
        self._guard_cycle = self.cycle
        self._body_started = None
        self._pend()
        self._guard = self.loop.call_later(self.header_timeout, self._expire)

    def _disarm(self) -> None:
        if self._guard is not None:
            self._guard.cancel()
            self._guard = None

    def _arm_body(self) -> None:
        self._disarm()
        self._body_started = self.loop.time()
        self._body_bytes = 0
        self._guard = self.loop.call_later(self.body_timeout, self._expire_body)

    def _body_deadline(self) -> float:
        assert self._body_started is not None
        rate = self.body_min_rate if self.body_min_rate > 0 else float("inf")
        return self._body_started + self.body_timeout + self._body_bytes / rate

    def data_received(self, data: bytes) -> None:
        if self._guard is None and self._body_started is None and self.cycle is not None \
                and self.cycle.response_complete:
            self._arm()  # a keep-alive connection begins its next request
        super().data_received(data)
        if self.transport is not None and self.transport.get_protocol() is not self:
            self._disarm()  # upgraded to a WebSocket: its own protocol guards it now
            self._unpend()
            # this object is done with: without its parser (which calls it back) it is freed at once, not left in a
            # reference cycle for the garbage collector (one per WebSocket; uvicorn does the same when a connection
            # is lost, which an upgraded connection never is here)
            self.parser = None
            return
        cycle = self.cycle
        if cycle is None or (cycle is self._guard_cycle and self._body_started is None):
            return  # the headers are not complete yet
        if self._body_started is None:  # the headers are complete: a request is being handled
            if cycle.more_body and not cycle.response_complete:
                self._arm_body()
                return
            self._disarm()
            self._unpend()
            return
        self._body_bytes += len(data)
        if not cycle.more_body:
            self._disarm()
            self._unpend()
            self._body_started = None
            self._guard_cycle = cycle

    def _expire(self) -> None:
        self._guard = None
        self._unpend()
        self._close("header")

    def _expire_body(self) -> None:
        self._guard = None
        cycle = self.cycle
        if cycle is None or not cycle.more_body:
            return
        now = self.loop.time()
        deadline = self._body_deadline()
        if now < deadline:
            self._guard = self.loop.call_later(deadline - now, self._expire_body)
            return
        self._unpend()
        self._close("body", _refusal(408, "body_timeout", "the request body arrived too slowly"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._unpend()
        mine = GuardedHttp._by_address.get(self._host or "")
        if mine is not None:
            mine.discard(self.transport)
            if not mine:
                del GuardedHttp._by_address[self._host or ""]
        super().connection_lost(exc)


for _name, _value in _from_env().items():
    setattr(GuardedHttp, _name, _value)


def guarded_protocol(header_timeout: float, body_timeout: float = 20.0, body_min_rate: float = 500.0,
                     max_address_connections: int = 0, max_pending_connections: int = 1024) -> type:
    """:class:`GuardedHttp` with these settings (one process)."""
    return type("GuardedHttpWithTimeout", (GuardedHttp,), guard_settings(
        header_timeout, body_timeout, int(body_min_rate), max_address_connections, max_pending_connections))
