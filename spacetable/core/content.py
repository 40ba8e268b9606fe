"""Content kinds declared once: validation with every problem named, JSON Schema, bundled entries, match config.

Every kind of content a game reads (:class:`~spacetable.core.catalog.Kind`: Tremble card sets, Battleship Galaxies
packs, Worlds & Suns scenarios, Full Metal maps) carries a pydantic ``model`` declared in the game's own package.
From that one declaration come:

- :func:`validate`: every problem of a piece of content, each a :class:`Problem` with its path (``ships[3].price``),
  a message and, where a rule is the reason, the rule id (``TH-C5``, ``FM-1.1``). Field constraints and validators
  of the model give the problems of single records; a root model may define ``problems()`` for the checks across
  records (counts, references), which run once every record is valid;
- :func:`json_schema`: the model's JSON Schema, from which the workbench builds its forms (titles, descriptions,
  ranges);
- :func:`field_tables`: the field tables of ``docs/content.md`` (``python -m spacetable.games.kinds docs/content.md``
  writes them);
- :func:`bundled` and :func:`names`: the catalogue's entries as content;
- :func:`config_for`: the configuration fragment (the game's own option, such as ``card_set_content``) that starts a
  match with content.

A rule id is taken, in this order, from a validator's :class:`pydantic_core.PydanticCustomError` context
(``{"rule": ...}``, see :func:`rule_error`), from the field's declaration (``json_schema_extra={"x-rule": ...}``)
or from a message ending in ``(RULE-ID)``.
"""

from __future__ import annotations

import json
import re
import types
import typing
from dataclasses import asdict, dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticCustomError

from . import catalog
from .errors import ConfigError

#: A rule id at the end of a message: ``... (TH-2.2)``, ``(BG-8.8)``, ``(D-21)``.
_RULE_AT_END = re.compile(r"\(([A-Z]{1,3}-[A-Z]?[0-9][0-9A-Za-z.]*)\)\s*$")


@dataclass(frozen=True)
class Problem:
    """One problem of a piece of content: where (a path such as ``ships[3].price``; empty for the whole), what, and
    the rule that makes it a problem when one does."""

    path: str
    message: str
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{where}{self.message}"


class ContentError(ConfigError):
    """Content that fails validation; ``problems`` names every problem."""

    def __init__(self, label: str, problems: list[Problem]) -> None:
        super().__init__(f"{label} is invalid:\n  - " + "\n  - ".join(str(p) for p in problems))
        self.problems = problems


def rule_error(rule: str, message: str) -> PydanticCustomError:
    """The error a validator raises for a problem that a rule names (the rule id travels with it)."""
    return PydanticCustomError("rule", message, {"rule": rule})


def path_text(loc: tuple[Any, ...] | list[Any]) -> str:
    """``("ships", 3, "price")`` -> ``ships[3].price``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (``list[X]``, ``dict[str, X]``, ``X | None``, ``Annotated[X, ...]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        out.extend(_models_in(arg))
    return out


def _field_of(model: type[BaseModel], name: str) -> Any:
    fields = model.model_fields
    if name in fields:
        return fields[name]
    for f in fields.values():
        if f.alias == name:
            return f
    return None


def _field_rule(model: type[BaseModel], loc: tuple[Any, ...]) -> str | None:
    """The ``x-rule`` of the deepest declared field along ``loc`` (list indexes and dict keys are stepped over)."""
    rule: str | None = None
    current: list[type[BaseModel]] = [model]
    for part in loc:
        if not isinstance(part, str):
            continue
        found = None
        for m in current:
            found = _field_of(m, part)
            if found is not None:
                break
        if found is None:
            continue
        extra = found.json_schema_extra
        rule = extra.get("x-rule") if isinstance(extra, dict) and isinstance(extra.get("x-rule"), str) else rule
        nested = _models_in(found.annotation)
        if nested:
            current = nested
    return rule


def problems_of(error: ValidationError, model: type[BaseModel]) -> list[Problem]:
    """A pydantic validation error as problems, each with its path, message and rule."""
    out: list[Problem] = []
    for err in error.errors(include_url=False):
        loc = tuple(err.get("loc", ()))
        msg = str(err.get("msg", "invalid"))
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        ctx = err.get("ctx") or {}
        rule = ctx.get("rule") if isinstance(ctx.get("rule"), str) else None
        if rule is None:
            m = _RULE_AT_END.search(msg)
            rule = m.group(1) if m else _field_rule(model, loc)
        problem = Problem(path_text(loc), msg, rule)
        if problem not in out:
            out.append(problem)
    return out


def check(model: type[BaseModel], content: Any) -> tuple[BaseModel | None, list[Problem]]:
    """Validate ``content`` against ``model``: the instance (``None`` when a field fails) and every problem."""
    try:
        obj = model.model_validate(content)
    except ValidationError as exc:
        return None, problems_of(exc, model)
    extra = getattr(obj, "problems", None)
    found: list[Problem] = list(extra()) if callable(extra) else []
    return obj, found


# ------------------------------------------------------------------------------------------- the kinds
def kinds() -> list[catalog.Kind]:
    """Every registered kind that declares its content (a game registers its kinds when its package is imported)."""
    return [k for k in catalog.kinds() if k.model is not None]


def kind(key: str) -> catalog.Kind:
    found = catalog.kind(key)
    if found.model is None:
        raise catalog.CatalogError(f"content kind {key!r} declares no model")
    return found


def size_problem(k: catalog.Kind, content: Any) -> Problem | None:
    try:
        catalog.check_content(k, content)
    except catalog.CatalogError as exc:
        return Problem("", str(exc))
    return None


def validate(kind_key: str, content: Any) -> list[Problem]:
    """Every problem of ``content`` as a ``kind_key`` entry (empty: valid). Content over the kind's size limit is
    one problem and is not looked at further."""
    k = kind(kind_key)
    too_big = size_problem(k, content)
    if too_big is not None:
        return [too_big]
    return check(k.model, content)[1]


def parse(kind_key: str, content: Any) -> BaseModel:
    """The model instance of valid content; :class:`ContentError` naming every problem otherwise."""
    k = kind(kind_key)
    too_big = size_problem(k, content)
    if too_big is not None:
        raise ContentError(k.label or k.name, [too_big])
    obj, found = check(k.model, content)
    if obj is None or found:
        raise ContentError(k.label or k.name, found)
    return obj


def json_schema(kind_key: str) -> dict[str, Any]:
    """The JSON Schema of a kind's content (the model's, with ``x-kind`` and ``x-max-bytes`` added)."""
    k = kind(kind_key)
    schema: dict[str, Any] = k.model.model_json_schema(by_alias=True)
    schema["x-kind"] = k.key
    schema["x-max-bytes"] = k.max_bytes
    return schema


def names(kind_key: str) -> list[str]:
    """The names of the kind's catalogue entries (bundled, then the operator's)."""
    return catalog.names(kind(kind_key))


def bundled(kind_key: str, name: str) -> Any:
    """A catalogue entry as content (JSON data), by name (never a path)."""
    k = kind(kind_key)
    catalog.locate(k, name)  # the name is checked against the listing first
    if k.load is None:
        raise catalog.CatalogError(f"{k.label or k.name} entries cannot be read as content")
    return k.load(name)


def config_for(kind_key: str, content: Any) -> dict[str, Any]:
    """The configuration fragment that starts a match of the kind's game with ``content`` (validated first)."""
    k = kind(kind_key)
    parse(kind_key, content)
    if k.config is None:
        raise catalog.CatalogError(f"a match cannot be started with a {k.label or k.name}")
    return k.config(content)


def to_text(kind_key: str, content: Any) -> str | None:
    """The kind's own file format of valid content (the ``.fmp`` text of a map); ``None`` when it has none."""
    k = kind(kind_key)
    return None if k.to_text is None else k.to_text(content)


def from_text(kind_key: str, text: str) -> Any:
    """Content from the kind's own file format; :class:`ContentError` when the text cannot be read."""
    k = kind(kind_key)
    if k.from_text is None:
        raise ContentError(k.label or k.name, [Problem("", f"a {k.label or k.name} is a JSON document")])
    return k.from_text(text)


def canonical(content: Any) -> str:
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ------------------------------------------------------------------------------------------- field tables
def _type_text(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type_text(args[0])
    if origin is typing.Literal:
        return " \\| ".join(f"`{json.dumps(a)}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_text(a) for a in args if a is not type(None)) + (
            " or null" if type(None) in args else "")
    if origin in (list, tuple, set, frozenset):
        inner = ", ".join(_type_text(a) for a in args if a is not Ellipsis)
        return f"list of {inner}" if origin is not tuple else f"[{inner}]"
    if origin is dict:
        return f"map {_type_text(args[0])} → {_type_text(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})"
    if annotation is Any:
        return "any"
    return getattr(annotation, "__name__", str(annotation))


def _bounds(f: Any) -> str:
    out = []
    for meta in f.metadata:
        for attr, sym in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"), ("min_length", "length ≥"),
                          ("max_length", "length ≤"), ("multiple_of", "multiple of"), ("pattern", "pattern")):
            v = getattr(meta, attr, None)
            if v is not None:
                out.append(f"{sym} `{v}`" if attr == "pattern" else f"{sym} {v}")
    extra = f.json_schema_extra if isinstance(f.json_schema_extra, dict) else {}
    for key, sym in (("minimum", "≥"), ("maximum", "≤"), ("multipleOf", "multiple of")):
        if key in extra:
            out.append(f"{sym} {extra[key]}")
    if isinstance(extra.get("x-rule"), str):
        out.append(str(extra["x-rule"]))
    return ", ".join(out)


def _default(f: Any) -> str:
    if f.is_required():
        return "required"
    if f.default_factory is not None:
        try:
            value = f.default_factory()
        except TypeError:
            return ""
    else:
        value = f.default
    text = json.dumps(value, ensure_ascii=False,
                      default=lambda v: v.model_dump(mode="json", by_alias=True) if isinstance(v, BaseModel) else str(v))
    return f"`{text}`" if len(text) <= 40 else "(see the bundled entry)"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def field_tables(model: type[BaseModel]) -> list[str]:
    """Markdown: one table per model reachable from ``model`` (the root first): field, type, bounds, default,
    meaning."""
    seen: list[type[BaseModel]] = []
    todo = [model]
    while todo:
        m = todo.pop(0)
        if m in seen:
            continue
        seen.append(m)
        for f in m.model_fields.values():
            todo.extend(x for x in _models_in(f.annotation) if x not in seen)
    lines: list[str] = []
    for m in seen:
        lines.append(f"#### {m.__name__}")
        lines.append("")
        doc = " ".join((m.__doc__ or "").split())
        if doc:
            lines += [doc, ""]
        lines.append("| Field | Type | Bounds | Default | Meaning |")
        lines.append("|---|---|---|---|---|")
        for name, f in m.model_fields.items():
            shown = f.alias or name
            lines.append(f"| `{shown}` | {_cell(_type_text(f.annotation))} | {_cell(_bounds(f))} | "
                         f"{_cell(_default(f))} | {_cell(f.description or f.title or '')} |")
        lines.append("")
    return lines


DOC_HEAD = """# Content kinds: the fields of every card set, pack, scenario and map

<!-- Generated by `python -m spacetable.games.kinds docs/content.md` from the models the games declare; do not
edit by hand (a test checks that this page is up to date). -->

Each kind of content is declared once, as a pydantic model in its game's package. The same declaration validates
content (every problem named, with the rule where a rule is the reason), gives the JSON Schema the workbench builds
its forms from (`GET /api/workbench/kinds/{game}/{kind}/schema`) and writes the tables below. The designer's guide
is [workbench.md](workbench.md).
"""


def document(kind_list: list[catalog.Kind]) -> str:
    """The whole ``docs/content.md`` page for ``kind_list``."""
    lines = [DOC_HEAD]
    for k in sorted(kind_list, key=lambda k: k.key):
        lines.append(f"## `{k.key}` — {k.label or k.name}")
        lines.append("")
        lines.append(f"At most {k.max_bytes // 1024} KiB. Bundled: {', '.join(f'`{n}`' for n in catalog.names(k))}.")
        lines.append("")
        lines += field_tables(k.model)
    return "\n".join(lines).rstrip() + "\n"
