"""The WebSocket route of a match; the connection itself is ``..ws.Connection``."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..routing import PrefixRoute
from ..ws import Connection
from .deps import ctx

router = APIRouter(route_class=PrefixRoute)


@router.websocket("/ws/matches/{match_id}")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    """A match's socket. Its query (``seat``, ``token``, ``lang``, ``texts``: texts, each optional) is read here and
    checked by the connection (``Connection.serve``: the seat's number, the token, a known language), rather than
    declared as parameters: FastAPI works out each declared parameter's type again at every connection, some 0.2 ms
    for these four, to hand over the same texts (docs/architecture.md, "Where the time goes")."""
    c = ctx(websocket)
    chat = getattr(websocket.app.state, "chat", None)
    query = websocket.query_params
    await Connection(websocket, c.service, c.limits, c.limiter, chat).serve(
        match_id, query.get("seat"), query.get("token"), query.get("lang"), query.get("texts"))
