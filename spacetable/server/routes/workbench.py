"""The designer's workbench API (issue 25, ``docs/workbench.md``), prefix ``/api/workbench``.

Content kinds (:mod:`spacetable.core.content`): the list, each kind's JSON Schema, the bundled entries, validation
with every problem named. Sets (an account's named content): create, list (mine and the public ones), read, change,
delete, export as one file, import one file. A match starts with a set through ``content_set`` in the match
creation (:func:`content_set_config`: the set is resolved here, its visibility checked).

Every body is schema-checked; content larger than its kind's ``max_bytes`` is refused with 413 before it is looked
at; invalid content is a 422 whose ``problems`` name every problem, and nothing is stored. A set's name is a
catalogue name (:data:`spacetable.core.catalog.NAME`), never a path.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from spacetable.core import catalog, content
from spacetable.core.errors import ConfigError
from spacetable.games.kinds import load_all

from ..errors import ServiceError
from ..routing import PrefixRoute
from ..workbench.sets import SetStore, not_found
from .deps import Client, Ctx
from .schemas import Body
from .session import MaybeSession, Writer, accounts, optional_session

router = APIRouter(prefix="/api/workbench", tags=["workbench"], route_class=PrefixRoute)

Segment = Annotated[str, Field(max_length=32)]
SetId = Annotated[str, Field(max_length=32)]
#: what an exported file says it is
ENVELOPE = "set"


class ProblemsError(ServiceError):
    """A 422 naming every problem of the content (nothing was stored)."""

    def __init__(self, problems: list[content.Problem], message: str = "the content is invalid") -> None:
        first = problems[0] if problems else None
        super().__init__(422, "invalid_content", f"{message}: {first}" if first else message,
                         rule=first.rule if first else None)
        self.problems = problems

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "problems": [p.to_json() for p in self.problems]}


# ------------------------------------------------------------------------------------------------ helpers
def store(request: Request) -> SetStore:
    s: SetStore | None = getattr(request.app.state, "workbench_sets", None)
    if s is None:
        s = SetStore(accounts(request).storage)
        request.app.state.workbench_sets = s
    return s


def kind_of(game: str, kind: str) -> catalog.Kind:
    load_all()
    key = f"{game}/{kind}"
    for k in content.kinds():
        if k.key == key:
            return k
    raise ServiceError(404, "no_such_kind", f"no content kind {key!r}")


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not catalog.NAME.match(name):
        raise ServiceError(422, "bad_name", "a name is 1-64 letters, digits, '-' or '_' (never a path)")
    return name


def check_size(k: catalog.Kind, data: Any) -> None:
    """413 above the kind's ``max_bytes`` (before anything else is looked at)."""
    try:
        catalog.check_content(k, data)
    except catalog.CatalogError as exc:
        raise ServiceError(413, "too_large", str(exc)) from None


def valid(k: catalog.Kind, data: Any) -> str:
    """The canonical JSON text of valid content; 413 when too large, 422 with every problem when invalid."""
    check_size(k, data)
    problems = content.validate(k.key, data)
    if problems:
        raise ProblemsError(problems)
    return content.canonical(data)


def kind_json(k: catalog.Kind) -> dict[str, Any]:
    return {"key": k.key, "game": k.game, "kind": k.name, "label": k.label or k.name, "max_bytes": k.max_bytes,
            "has_text": k.to_text is not None}


# ------------------------------------------------------------------------------------------------ bodies
class ContentBody(Body):
    content: Any = Field(description="the content, as the kind's JSON Schema describes it")


class NewSet(Body):
    game: Segment
    kind: Segment
    name: str = Field(max_length=64, description="letters, digits, '-' and '_' (1-64)")
    content: Any
    public: bool = False


class ChangeSet(Body):
    name: str | None = Field(default=None, max_length=64)
    content: Any = None
    public: bool | None = None


class Envelope(Body):
    """One exported file: what it is and the content."""

    spacetable: Literal["set"]
    game: Segment
    kind: Segment
    name: str = Field(max_length=200, description="checked as a catalogue name (never a path)")
    content: Any
    public: bool = False


# ------------------------------------------------------------------------------------------------ kinds
@router.get("/kinds")
async def list_kinds() -> list[dict[str, Any]]:
    """Every content kind: ``{key, game, kind, label, max_bytes, has_text}``."""
    return [kind_json(k) for k in sorted(load_all(), key=lambda k: k.key)]


@router.get("/kinds/{game}/{kind}/schema")
async def kind_schema(game: str, kind: str) -> dict[str, Any]:
    """The kind's JSON Schema (titles, descriptions, ranges; the forms are built from it)."""
    return content.json_schema(kind_of(game, kind).key)


@router.get("/kinds/{game}/{kind}/bundled")
async def bundled_names(game: str, kind: str) -> list[dict[str, str]]:
    return [{"name": n} for n in content.names(kind_of(game, kind).key)]


@router.get("/kinds/{game}/{kind}/bundled/{name}")
async def bundled_entry(game: str, kind: str, name: str) -> dict[str, Any]:
    k = kind_of(game, kind)
    try:
        return {"name": name, "content": content.bundled(k.key, check_name(name))}
    except catalog.CatalogError as exc:
        raise ServiceError(404, "no_such_entry", str(exc)) from None
    except ConfigError as exc:  # an operator's entry that does not load names itself, never a path
        raise ServiceError(422, "bad_entry", str(exc)) from None


@router.post("/validate/{game}/{kind}")
async def validate_content(game: str, kind: str, body: ContentBody, c: Ctx, client: Client) -> dict[str, Any]:
    """``{ok, problems: [{path, message, rule}]}`` (413 above the kind's size limit; the checks' rate limit, and
    the work off the event loop: a large map takes a second or two)."""
    await c.limiter.hit("check", client)
    k = kind_of(game, kind)
    check_size(k, body.content)
    problems = await run_in_threadpool(content.validate, k.key, body.content)
    return {"ok": not problems, "problems": [p.to_json() for p in problems]}


# ------------------------------------------------------------------------------------------------ sets
@router.post("/sets", status_code=201)
async def create_set(body: NewSet, request: Request, s: Writer) -> dict[str, Any]:
    k = kind_of(body.game, body.kind)
    text = await run_in_threadpool(valid, k, body.content)
    set_id = await store(request).create(s.account_id, k.game, k.name, check_name(body.name), text, body.public)
    return {"id": set_id}


@router.get("/sets")
async def list_sets(request: Request, s: MaybeSession, game: Annotated[str | None, Query(max_length=32)] = None,
                    kind: Annotated[str | None, Query(max_length=32)] = None) -> dict[str, Any]:
    """``{mine: [...], public: [...]}``: the signed-in account's sets and the public sets of others (summaries)."""
    viewer = s.account_id if s is not None else None
    rows = await store(request).listing(viewer, game, kind)
    return {"mine": [r for r in rows if r["mine"]], "public": [r for r in rows if not r["mine"]]}


@router.get("/sets/{set_id}")
async def get_set(set_id: str, request: Request, s: MaybeSession) -> dict[str, Any]:
    return await store(request).get(_id(set_id), s.account_id if s is not None else None)


@router.put("/sets/{set_id}")
async def change_set(set_id: str, body: ChangeSet, request: Request, s: Writer) -> dict[str, Any]:
    st = store(request)
    current = await st.get(_id(set_id), s.account_id)
    if not current["mine"]:
        raise not_found()
    text = None
    if body.content is not None:
        text = await run_in_threadpool(valid, kind_of(current["game"], current["kind"]), body.content)
    name = check_name(body.name) if body.name is not None else None
    await st.update(set_id, s.account_id, name, text, body.public)
    return {"id": set_id}


@router.delete("/sets/{set_id}")
async def delete_set(set_id: str, request: Request, s: Writer) -> dict[str, Any]:
    await store(request).delete(_id(set_id), s.account_id)
    return {"deleted": True}


def _id(set_id: str) -> str:
    if not re.fullmatch(r"[0-9a-f]{1,32}", set_id):
        raise not_found()
    return set_id


@router.get("/sets/{set_id}/export")
async def export_set(set_id: str, request: Request, s: MaybeSession,
                     format: Annotated[Literal["json", "fmp"], Query()] = "json") -> Response:
    """One file: the JSON envelope ``{spacetable: "set", game, kind, name, content}``, or the kind's own format
    (``?format=fmp`` for a Full Metal map)."""
    row = await store(request).get(_id(set_id), s.account_id if s is not None else None)
    k = kind_of(row["game"], row["kind"])
    if format != "json":
        text = content.to_text(k.key, row["content"]) if k.suffix == f".{format}" else None
        if text is None:
            raise ServiceError(422, "bad_format", f"a {k.label or k.name} is exported as JSON only")
        return Response(text.encode("cp1252", "replace"), media_type="text/plain; charset=windows-1252",
                        headers={"Content-Disposition": f'attachment; filename="{row["name"]}{k.suffix}"'})
    envelope = {"spacetable": ENVELOPE, "game": k.game, "kind": k.name, "name": row["name"], "content": row["content"]}
    return Response(json.dumps(envelope, ensure_ascii=False, indent=1).encode("utf-8"), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{row["name"]}.json"'})


def _import_limit(request: Request) -> int:
    """The largest import: the largest kind's limit and room for the envelope."""
    return max(k.max_bytes for k in load_all()) + 4096


async def read_import(request: Request, game: str | None, kind: str | None, name: str | None) -> Envelope:
    """The file sent to ``/import``: a JSON envelope, or (``game``, ``kind`` and ``name`` in the query) the kind's
    own text format (an ``.fmp`` map)."""
    raw = await request.body()
    if len(raw) > _import_limit(request):
        raise ServiceError(413, "too_large", f"an imported file is at most {_import_limit(request)} bytes")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype == "application/json":
        try:
            data = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ServiceError(422, "bad_file", "the file is not JSON") from None
        try:
            return Envelope.model_validate(data)
        except ValueError:
            raise ServiceError(422, "bad_file", "the file is not a spacetable set (an exported .json file)") from None
    if game is None or kind is None or name is None:
        raise ServiceError(422, "bad_file", "send an exported .json file, or a file of the kind's own format with "
                                            "game, kind and name")
    k = kind_of(game, kind)
    if k.from_text is None:
        raise ServiceError(422, "bad_file", f"a {k.label or k.name} is imported as an exported .json file")
    if len(raw) > k.max_bytes:
        raise ServiceError(413, "too_large", f"a {k.label or k.name} is at most {k.max_bytes} bytes")
    try:
        data = content.from_text(k.key, raw.decode("cp1252"))
    except UnicodeDecodeError:
        raise ServiceError(422, "bad_file", "the file is not text") from None
    except content.ContentError as exc:
        raise ProblemsError(exc.problems, "the file cannot be read") from None
    return Envelope(spacetable="set", game=k.game, kind=k.name, name=name, content=data)


@router.post("/import", status_code=201)
async def import_set(request: Request, s: Writer, game: Annotated[str | None, Query(max_length=32)] = None,
                     kind: Annotated[str | None, Query(max_length=32)] = None,
                     name: Annotated[str | None, Query(max_length=64)] = None) -> dict[str, Any]:
    """Store one file as a new set of the signed-in account (validated, capped, the name checked)."""
    env = await read_import(request, game, kind, name)
    k = kind_of(env.game, env.kind)
    text = await run_in_threadpool(valid, k, env.content)
    set_id = await store(request).create(s.account_id, k.game, k.name, check_name(env.name), text, env.public)
    return {"id": set_id, "game": k.game, "kind": k.name, "name": env.name}


@router.post("/import/check")
async def check_import(request: Request, c: Ctx, client: Client,
                       game: Annotated[str | None, Query(max_length=32)] = None,
                       kind: Annotated[str | None, Query(max_length=32)] = None,
                       name: Annotated[str | None, Query(max_length=64)] = None) -> dict[str, Any]:
    """Read one file without storing it (the editors open a file with this): ``{game, kind, name, content, ok,
    problems}``."""
    await c.limiter.hit("check", client)
    env = await read_import(request, game, kind, name)
    k = kind_of(env.game, env.kind)
    check_size(k, env.content)
    check_name(env.name)
    problems = await run_in_threadpool(content.validate, k.key, env.content)
    return {"game": k.game, "kind": k.name, "name": env.name, "content": env.content, "ok": not problems,
            "problems": [p.to_json() for p in problems]}


# ------------------------------------------------------------------------------------------------ profiles, matches
@router.get("/players/{username}/sets")
async def public_sets(username: str, request: Request, s: MaybeSession) -> list[dict[str, Any]]:
    """A player's public sets (their profile lists them)."""
    if len(username) > 64:
        raise ServiceError(404, "no_such_player", "no such player")
    acc = await accounts(request).by_username(username)
    if acc is None:
        raise ServiceError(404, "no_such_player", "no such player")
    return await store(request).listing(s.account_id if s is not None else None, owner=acc["id"], public_only=True)


async def content_set_config(request: Request, game: str, set_id: str) -> dict[str, Any]:
    """The configuration fragment of ``content_set`` in a match creation: the set (the creator's own or a public
    one; any other is 404), of the match's game, as the game's own content option."""
    s = await optional_session(request)
    row = await store(request).get(_id(set_id), s.account_id if s is not None else None)
    if row["game"] != game:
        raise ServiceError(422, "bad_config", f"set {row['name']!r} is {row['game']} content, not {game}")
    k = kind_of(row["game"], row["kind"])
    try:
        return content.config_for(k.key, row["content"])
    except content.ContentError as exc:  # stored content that a newer server no longer accepts
        raise ProblemsError(exc.problems) from None


async def with_content_set(request: Request, body: Any) -> dict[str, Any]:
    """A match creation's config with its ``content_set`` resolved (the body's own config when it names none)."""
    config: dict[str, Any] = dict(body.config)
    if body.content_set is None:
        return config
    return {**config, **await content_set_config(request, body.game, body.content_set)}
