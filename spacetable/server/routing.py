"""The routes' class: a route that turns away a path outside its literal prefix before trying its expression.

Starlette finds a request's route by trying the routes one by one; each try of a FastAPI route costs about 2 µs
(FastAPI's own bookkeeping, then the path's regular expression), and the app has about 140 routes. A lobby call
tried some 45 routes before its own (83 µs on a 2-core machine for ``POST /api/matches``), an account's call about
130 (240 µs, a third of a small request's CPU). :class:`PrefixRoute` answers "no" for a path that does not start
with the text of its path before the first parameter (``/api/matches/`` for ``/api/matches/{match_id}/chat``) in a
fraction of that: the expression starts with that same text, so no path outside it can match, and the route found
is the same as before for every request (``tests/server/test_hotpath.py``). Every router of the server makes its
routes of this class (``APIRouter(route_class=PrefixRoute)``; ``app.add_routes`` refuses other ones).
"""

from __future__ import annotations

from typing import Any

from fastapi.routing import APIRoute
from starlette.routing import Match

__all__ = ["PrefixRoute"]

_NONE: tuple[Match, dict[str, Any]] = (Match.NONE, {})


class PrefixRoute(APIRoute):
    """An :class:`APIRoute` that checks its literal prefix first (see the module docstring)."""

    def __init__(self, path: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(path, *args, **kwargs)
        #: the route's path up to its first parameter (the whole path when it has none)
        self.literal = self.path.split("{", 1)[0]

    def matches(self, scope: dict[str, Any]) -> tuple[Match, dict[str, Any]]:
        # an HTTP route matches HTTP requests only; with a root path (a proxy's prefix) the path the expression is
        # tried on is not ``scope["path"]``, and the full check decides
        if scope["type"] != "http":
            return _NONE
        if not scope.get("root_path") and not scope["path"].startswith(self.literal):
            return _NONE
        return super().matches(scope)
