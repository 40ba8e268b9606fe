"""Translated text for players: English, French, Dutch and Russian.

Each game package may hold ``i18n/<lang>.json`` (key -> template); core strings live in
``spacetable/core/i18n/<lang>.json``. Templates use ``str.format`` fields named after the
arguments of a phrase (``"{unit} moves to {to}"``). An argument may itself be a phrase
``{"key": ..., "args": {...}}`` (a unit kind, a phase name), translated first. A missing
key in a language falls back to English, then to the key itself; the tests check that every
key exists in every language.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from functools import cache, lru_cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "fr", "nl", "ru")
DEFAULT = "en"


@cache
def catalog(package: str, lang: str) -> dict[str, str]:
    """The templates of one package (``spacetable.games.arena``, ``spacetable.core``) in one language."""
    if lang not in LANGUAGES:
        lang = DEFAULT
    try:
        text = resources.files(package).joinpath("i18n", f"{lang}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return {}
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{package} i18n/{lang}.json must be an object")
    return {str(k): str(v) for k, v in data.items()}


@cache
def _merged(packages: tuple[str, ...], lang: str) -> dict[str, str]:
    """Every template ``packages`` offer in ``lang``, then in English: the first package holding a key wins, a
    language's own template before the English one (what :func:`template` finds, in one lookup)."""
    out: dict[str, str] = {}
    for lg in (DEFAULT, lang):
        for pkg in reversed(packages):
            out.update(catalog(pkg, lg))
    return out


def template(packages: tuple[str, ...], key: str, lang: str) -> str | None:
    return _merged(packages, lang).get(key)


def render(packages: tuple[str, ...], key: str, args: dict[str, Any], lang: str) -> str:
    """Translate ``key`` with ``args`` (nested phrases translated first) for ``lang``."""
    values = {k: v if type(v) is str else _value(packages, v, lang) for k, v in args.items()} if args else {}
    tpl = _merged(packages, lang).get(key)
    if tpl is None:
        return key if not values else f"{key} " + " ".join(f"{k}={v}" for k, v in values.items())
    try:
        return tpl.format_map(values)
    except (KeyError, IndexError, ValueError):
        return tpl


#: Sentences already rendered: the same move is described again and again (every legal action's sentence goes
#: to the seat to act). Keyed by what names a sentence exactly (see :func:`remembered`); emptied at the bound.
_RENDERED: dict[Hashable, str] = {}
RENDERED_BOUND = 50_000


def remembered(memo: Hashable, make: Callable[[], str]) -> str:
    """The sentence remembered under ``memo``, made by ``make()`` the first time. ``memo`` must name everything
    the sentence depends on, its language included."""
    text = _RENDERED.get(memo)
    if text is None:
        if len(_RENDERED) >= RENDERED_BOUND:
            _RENDERED.clear()
        text = _RENDERED[memo] = make()
    return text


def render_cached(packages: tuple[str, ...], key: str, args: dict[str, Any], lang: str) -> str:
    """:func:`render`, remembered: ``repr`` names the arguments exactly (nested phrases included; ``1`` and
    ``True`` differ) and costs less than rendering them."""
    return remembered((packages, key, lang, repr(args)), lambda: render(packages, key, args, lang))


_PHRASE_FIELDS = frozenset(("key", "args"))


def _value(packages: tuple[str, ...], value: Any, lang: str) -> Any:
    if type(value) is str:  # the common case first: a cell name, a code, a number's text
        return value
    if isinstance(value, dict):
        key = value.get("key")
        if isinstance(key, str) and value.keys() <= _PHRASE_FIELDS:
            args = value.get("args")
            if not args:  # a bare phrase (a unit kind, a phase name): the same words every time
                return _bare(packages, key, lang)
            return render(packages, key, dict(args), lang)
        return value
    if isinstance(value, list):
        return ", ".join(str(_value(packages, v, lang)) for v in value)
    return value


@lru_cache(maxsize=8192)
def _bare(packages: tuple[str, ...], key: str, lang: str) -> str:
    return render(packages, key, {}, lang)


def phrase(key: str, **args: Any) -> dict[str, Any]:
    """A translatable value to put among another phrase's arguments."""
    return {"key": key, "args": args}
