"""What a notification says, in the reader's language (``notify/i18n/<lang>.json``)."""

from __future__ import annotations

from typing import Any

from spacetable.core import i18n

PACKAGES = ("spacetable.server.notify",)


def t(key: str, lang: str, **args: Any) -> str:
    return i18n.render(PACKAGES, key, {k: str(v) for k, v in args.items()}, lang)


def game_name(game_id: str) -> str:
    try:
        from spacetable.games import get_game

        return str(get_game(game_id).name)
    except Exception:  # an unknown or unloadable game: its id
        return game_id


def message(kind: str, data: dict[str, Any], lang: str) -> tuple[str, str]:
    """The title and the body of a notification."""
    args = {"name": data.get("name") or data.get("match") or "", "game": game_name(str(data.get("game", ""))),
            "by": data.get("by", ""), "text": data.get("text", "")}
    return t(f"notify.{kind}.title", lang, **args), t(f"notify.{kind}.body", lang, **args)


def link(public_url: str, data: dict[str, Any]) -> str:
    """The page the notification opens: the match (or the challenge)."""
    base = public_url.rstrip("/")
    if data.get("challenge"):
        return f"{base}/challenge/{data['challenge']}"
    if data.get("match"):
        return f"{base}/match/{data['match']}"
    return f"{base}/"
