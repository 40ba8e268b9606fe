"""HTTP routes for people's pages: the lobby's game cards, rules documents, reviews and replays, checks with
explanations. Formatting lives in :mod:`spacetable.server.presentation`; nothing here changes a match.

* ``GET /api/lobby`` – per game: players, options, AI players with their level (``game.agents()`` when the game
  declares them, else the server's agent registry), whether it has a board renderer and a rules document;
* ``GET /api/rules/{game}`` – the rules document as HTML with an anchor per rule id; ``GET /rules/{game}`` is the
  browser page showing it (``/rules/arena#AR-5.2``);
* ``GET /api/matches/{id}/review`` and ``/review/{step}`` – step through a match: a running match up to now from a
  seat's own view (header ``X-Seat-Token``) or as a spectator; a finished one as anybody, with every action shown
  (sealed choices included) and the view of any seat (``as``);
* ``POST /api/matches/{id}/check`` – like ``/legal/check`` (SRV-L3) plus the action's sentence and, when refused,
  the explanation in the client's language with the rule's link;
* ``GET /api/i18n/{game}/{lang}`` – the game's own catalogue (``spacetable/games/<id>/i18n/<lang>.json``: card names,
  effects, its renderer's texts) for the browser, which loads it beside the client's catalogue (``{}`` when the
  game has none).
* ``POST /api/games/{game}/calc/{name}`` – one of the game's calculators (``game.calculators()``): a what-if the
  client asks with a JSON query and no match (the exact odds of a worlds combat as the player drafts it).

Every route takes ``lang`` (query) or the ``Accept-Language`` header.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel

from spacetable import guide
from spacetable.ai.agents import agent_specs
from spacetable.ai.ladder import ladder
from spacetable.games import available, get_game

from . import presentation, render
from .ai import agent_registry
from .errors import ServiceError
from .live import LiveMatch
from .routes.deps import TokenGate
from .routes.pages import packaged_flags
from .routing import PrefixRoute
from .service import MatchService

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: The levels shown for agents of games that do not declare them (``game.agents()``), by agent name.
FALLBACK_LEVELS = {"random": "easy"}


class CheckBody(BaseModel):
    seat: int
    token: str | None = None
    version: Any = None
    action: Any = None


def lang_of(request: Request, lang: str | None = None) -> str:
    return presentation.pick_lang(lang or request.headers.get("accept-language"))


def agents_of(game: Any) -> list[dict[str, Any]]:
    """The AI players offered for a game, weakest first: ``name``, ``level`` (easy/medium/hard), ``rating``,
    ``seconds`` (per move, measured), ``description`` and ``default``."""
    registry, default = agent_registry(game)
    specs = {}
    try:
        specs = {a.name: a for a in agent_specs(game)}  # with the ladder's ratings (spacetable.ai.ladder)
    except Exception:  # a game's hook must not break the lobby
        specs = {}
    order = {"easy": 0, "medium": 1, "hard": 2}
    leveled = any(s.level for s in specs.values())
    out = []
    for name in registry:
        spec = specs.get(name)
        if leveled and (spec is None or not spec.level) and name != default:
            continue  # a game that names its levels offers those; baselines and clock-driven tools stay off the lobby
        level = (spec.level if spec is not None else "") or FALLBACK_LEVELS.get(name) or ("hard" if name == default else "medium")
        out.append({
            "name": name, "level": level, "default": name == default,
            "rating": spec.rating if spec is not None else None,
            "seconds": spec.seconds_per_move if spec is not None else None,
            "description": spec.description if spec is not None else "",
        })
    out.sort(key=lambda a: (order.get(a["level"], 1), not a["default"], a["name"]))
    return out


#: ``agents_of`` per game, with the ladder data it was read from (``spacetable.ai.ladder``: a rewritten ladder is a
#: new object, so its ratings show at the next request)
_lobby_agents: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}


def lobby_agents(game: Any) -> list[dict[str, Any]]:
    """:func:`agents_of`, worked out once per game and ladder (the agents' specs are code; their ratings the
    ladder's file): some 0.3 ms for the five games at every lobby request before. A fresh list of fresh dicts."""
    marker = ladder(game)
    hit = _lobby_agents.get(game.id)
    if hit is None or hit[0] is not marker:
        hit = _lobby_agents[game.id] = (marker, agents_of(game))
    return [dict(a) for a in hit[1]]


def make_router(service: MatchService) -> APIRouter:
    router = APIRouter(route_class=PrefixRoute)

    @router.get("/api/lobby")
    async def lobby() -> list[dict[str, Any]]:
        out = []
        for gid in available():
            g = get_game(gid)
            renderer, tutorial = packaged_flags(gid)
            out.append({
                "id": gid, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                # the options are read at each request: their choices list the operator's catalogue (maps, card sets)
                "options": [o.to_json() for o in g.options()], "agents": lobby_agents(g),
                "hidden_information": g.hidden_information, "stochastic": g.stochastic,
                "renderer": renderer,
                "rules": presentation.has_rules(gid),
                "guide": guide.meta(gid) is not None,  # the players' guide (/guide/<game>) and tutorial (/tutorial/<game>)
                "tutorial": tutorial,
            })
        return out

    @router.get("/api/i18n/{game_id}/{lang}")
    async def game_texts(game_id: str, lang: str) -> dict[str, str]:
        if game_id not in available():
            raise ServiceError(404, "not_found", f"no game {game_id!r}")
        code = presentation.pick_lang(lang)
        return presentation.game_catalogue(get_game(game_id), code)

    @router.get("/api/rules/{game_id}")
    async def rules(game_id: str) -> dict[str, Any]:
        doc = presentation.rules_document(game_id)
        if doc is None:
            raise ServiceError(404, "no_rules", f"no rules document for {game_id!r}")
        return doc

    @router.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def viewer_of(m: LiveMatch, seat: int | None, token: str | None, as_seat: int | None) -> tuple[int | None, bool]:
        """Whose view a review shows and whether everything is revealed (finished matches only)."""
        if m.status == "finished":
            if as_seat is not None and not 0 <= as_seat < len(m.seats):
                raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
            return (as_seat if as_seat is not None else seat), True
        if seat is not None:
            await service.authorize(m, seat, token)
        return seat, False

    @router.get("/api/matches/{match_id}/review", dependencies=[TokenGate])
    async def review(request: Request, match_id: str, seat: int | None = None, lang: str | None = None,
                     x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
        m = await service.get(match_id)
        viewer, reveal = await viewer_of(m, seat, x_seat_token, None)
        code = lang_of(request, lang)
        log = [render.entry_json(m, i, e, viewer, code, reveal) for i, e in enumerate(m.log)]
        out = {"match": m.summary(), "steps": m.version, "viewer": viewer, "reveal": reveal, "log": log}
        if m.status == "finished":  # the match's record: the hints each seat asked for (issue 22)
            from .learn.store import learn_store

            out["hints"] = {str(k): v for k, v in sorted((await learn_store(service.storage).hints(m.id)).items())}
        return out

    @router.get("/api/matches/{match_id}/review/{step}", dependencies=[TokenGate])
    async def review_step(request: Request, match_id: str, step: int, seat: int | None = None, lang: str | None = None,
                          x_seat_token: str | None = Header(default=None), as_seat: int | None = None) -> dict[str, Any]:
        m = await service.get(match_id)
        viewer, reveal = await viewer_of(m, seat, x_seat_token, as_seat)
        state = service.replay_state(m, step)  # the match's history: checkpoints, one apply per step
        code = lang_of(request, lang)
        last = render.entry_json(m, step - 1, m.log[step - 1], viewer, code, reveal) if step > 0 else None
        return {"step": step, "steps": m.version, "viewer": viewer, "view": m.game.view(state, viewer), "last": last,
                "to_act": list(m.game.to_act(state))}

    @router.post("/api/matches/{match_id}/check", dependencies=[TokenGate])
    async def check(request: Request, match_id: str, body: CheckBody, lang: str | None = None) -> dict[str, Any]:
        await request.app.state.ctx.limiter.hit("check", request.client.host if request.client else None)
        m = await service.get(match_id)
        code = lang_of(request, lang)
        res = await service.check_action(match_id, body.seat, body.token, body.version, body.action)
        if res.get("legal"):
            res["text"] = presentation.action_text_in(m.game, m.state, body.seat, body.action, code)
            return res
        err = presentation.error_json({"status": 422, "code": "illegal_action", "message": res.get("message", ""),
                                       "rule": res.get("rule")}, m.game, code)
        return {**res, **{k: v for k, v in err.items() if k in ("explain", "rule_url", "rule_text")}}

    @router.post("/api/games/{game_id}/calc/{name}")
    async def calculate(game_id: str, name: str, query: dict[str, Any]) -> dict[str, Any]:
        if game_id not in available():
            raise ServiceError(404, "not_found", f"no game {game_id!r}")
        calc = get_game(game_id).calculators().get(name)
        if calc is None:
            raise ServiceError(404, "no_such_calculator", f"{game_id} has no calculator {name!r}")
        try:
            return calc.run(query)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError: the query does not fit the schema
            raise ServiceError(422, "bad_query", str(exc)[:400]) from exc

    return router
