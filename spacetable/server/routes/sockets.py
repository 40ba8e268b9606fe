"""The WebSocket route of a match; the connection itself is ``..ws.Connection``."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from ..ws import Connection
from .deps import ctx

router = APIRouter()


@router.websocket("/ws/matches/{match_id}")
async def match_socket(websocket: WebSocket, match_id: str, seat: str | None = None, token: str | None = None,
                       lang: str | None = None, texts: str | None = None) -> None:
    c = ctx(websocket)
    chat = getattr(websocket.app.state, "chat", None)
    await Connection(websocket, c.service, c.limits, c.limiter, chat).serve(match_id, seat, token, lang, texts)
