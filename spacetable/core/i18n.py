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
from functools import cache
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


def template(packages: tuple[str, ...], key: str, lang: str) -> str | None:
    for lg in (lang, DEFAULT):
        for pkg in packages:
            found = catalog(pkg, lg).get(key)
            if found is not None:
                return found
    return None


def render(packages: tuple[str, ...], key: str, args: dict[str, Any], lang: str) -> str:
    """Translate ``key`` with ``args`` (nested phrases translated first) for ``lang``."""
    values = {k: _value(packages, v, lang) for k, v in args.items()}
    tpl = template(packages, key, lang)
    if tpl is None:
        return key if not values else f"{key} " + " ".join(f"{k}={v}" for k, v in values.items())
    try:
        return tpl.format_map(values)
    except (KeyError, IndexError, ValueError):
        return tpl


def _value(packages: tuple[str, ...], value: Any, lang: str) -> Any:
    if isinstance(value, dict) and set(value) <= {"key", "args"} and isinstance(value.get("key"), str):
        return render(packages, value["key"], dict(value.get("args") or {}), lang)
    if isinstance(value, list):
        return ", ".join(str(_value(packages, v, lang)) for v in value)
    return value


def phrase(key: str, **args: Any) -> dict[str, Any]:
    """A translatable value to put among another phrase's arguments."""
    return {"key": key, "args": args}
