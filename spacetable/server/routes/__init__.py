"""The play server's routes, one ``APIRouter`` per area: lobby (``lobby.py``), play (``play.py``), replays
(``replays.py``), the WebSocket (``sockets.py``) and the web client's pages (``pages.py``). Each route reaches
the service through :func:`.deps.ctx` (``app.state.ctx``), never through a closure of ``create_app``."""

from __future__ import annotations

from fastapi import APIRouter

from . import accounts, analysis, guides, hints, lobby, mapeditor, pages, play, replays, sockets, workbench

#: the routers of this package in the order the app tries them (``app.py``): the routes of a move first (SRV-A1:
#: actions, legal actions, the WebSocket), the lobby (its list, new matches, joins) after the polled areas, the pages
#: and the workbench last
PLAY: tuple[APIRouter, ...] = (play.router, sockets.router)
LOBBY: APIRouter = lobby.router
ROUTERS: tuple[APIRouter, ...] = (replays.router, accounts.router, analysis.router, hints.router, guides.router,
                                  pages.router, workbench.router, mapeditor.router)
