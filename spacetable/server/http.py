"""HTTP-level guards (SRV-B2, SRV-E2): request bodies and silent connections.

* :class:`BodyGuard` (ASGI middleware) reads each request body up to ``max_body`` bytes (413 above
  it) and checks a JSON body strictly (:mod:`.jsonio`: UTF-8, no NaN/Infinity/overflowing numbers,
  no lone surrogates, bounded depth) before the application sees it; a bad body gets a 400 in the
  API's error shape.
* :class:`GuardedHttp` (:func:`guarded_protocol`) gives uvicorn an HTTP protocol that closes a connection which has not sent
  complete request headers within ``header_timeout`` seconds (uvicorn by itself keeps a connection
  that never sends a byte open forever, so silent connections could exhaust file descriptors).
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

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


class GuardedHttp(_Base):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (httptools when installed, else h11) closing connections that do not deliver
    complete request headers within ``header_timeout`` seconds: at connection, and again whenever a keep-alive
    connection starts its next request. A module-level class so that uvicorn can import it in each worker
    (``--workers``); the timeout is a class attribute, or ``$SPACETABLE_HEADER_TIMEOUT``."""

    header_timeout = float(os.environ.get(HEADER_TIMEOUT_ENV, "10"))
    _guard: asyncio.TimerHandle | None = None
    _guard_cycle: Any = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._guard_cycle = self.cycle
        self._guard = self.loop.call_later(self.header_timeout, self._expire)

    def _disarm(self) -> None:
        if self._guard is not None:
            self._guard.cancel()
            self._guard = None

    def data_received(self, data: bytes) -> None:
        if self._guard is None and self.cycle is not None and self.cycle.response_complete:
            self._arm()  # a keep-alive connection begins its next request
        super().data_received(data)
        if self._guard is not None and self.cycle is not self._guard_cycle:
            self._disarm()  # the headers are complete: a request is being handled

    def _expire(self) -> None:
        self._guard = None
        transport = self.transport
        # an upgraded connection (WebSocket) belongs to another protocol object by now
        if transport is not None and not transport.is_closing() and transport.get_protocol() is self:
            transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def guarded_protocol(header_timeout: float) -> type:
    """:class:`GuardedHttp` with ``header_timeout`` (one process)."""
    return type("GuardedHttpWithTimeout", (GuardedHttp,), {"header_timeout": header_timeout})
