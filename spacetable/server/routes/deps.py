"""What every route needs: the service, the bounds, the rate limiter and the client's address."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from ..limits import Limits, RateLimiter
from ..service import MatchService


@dataclass
class Context:
    service: MatchService
    limits: Limits
    limiter: RateLimiter


def ctx(conn: HTTPConnection) -> Context:
    context: Context = conn.app.state.ctx
    return context


def client(request: Request) -> str | None:
    return request.client.host if request.client else None


async def _ctx(conn: HTTPConnection) -> Context:
    return ctx(conn)


async def _client(request: Request) -> str | None:
    return client(request)


# ``async`` dependencies: FastAPI runs plain ``def`` ones in a worker thread, a hop costing more than the route
Ctx = Annotated[Context, Depends(_ctx)]
Client = Annotated[str | None, Depends(_client)]


async def token_gate(request: Request) -> None:
    """SRV-A3, SRV-B2: a route that checks seat tokens refuses (429) an address that is over its failed-token-check
    limit (``--rate-auth-fail``), before looking at the token; failures are counted by the app's error handler."""
    await ctx(request).limiter.over("auth_fail", client(request))


TokenGate = Depends(token_gate)


def seat_link(match_id: str, seat: int, token: str) -> str:
    """SRV-A5: the token travels in the URL fragment, which browsers never send to a server (so it is in no
    access log); the page hands it to the server over its WebSocket."""
    return f"/match/{match_id}#seat={seat}&token={token}"
