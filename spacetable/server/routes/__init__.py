"""The play server's routes, one ``APIRouter`` per area: lobby (``lobby.py``), play (``play.py``), replays
(``replays.py``), the WebSocket (``sockets.py``) and the web client's pages (``pages.py``). Each route reaches
the service through :func:`.deps.ctx` (``app.state.ctx``), never through a closure of ``create_app``."""

from __future__ import annotations

from fastapi import APIRouter

from . import accounts, analysis, guides, hints, lobby, pages, play, replays, sockets, workbench

ROUTERS: tuple[APIRouter, ...] = (lobby.router, play.router, replays.router, sockets.router, pages.router,
                                  guides.router, accounts.router, analysis.router, hints.router,
                                  workbench.router)
