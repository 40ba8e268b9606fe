"""Players' guides: how to play each game, in every language, as data.

A guide lives in ``spacetable/web/guides/<game>/``:

* ``meta.json`` (language-independent): the sections in order, each with a stable ``id``, the rule ids it covers
  (``rules``: an id such as ``AR-5.2`` covers itself and every id below it, ``AR-5`` covers ``AR-5.1``…, an id
  ending in a letter such as ``AR-D`` covers every id that starts with it), whether it is house content
  (``house``), an optional ``diagram`` (a position the game's own renderer draws in the page: ``config``, ``seed``,
  ``seat`` and the ``actions`` played from the start) and ``phases``: which section the rules drawer of a match
  opens for each phase key of the game's renderer (the translation key its ``phase`` hook returns);
* ``<lang>.md`` for ``en``, ``fr``, ``nl`` and ``ru``: a title line ``# …`` then one ``## Title {#id}`` block per
  section of ``meta.json``, in the same order, written for players.

The developers' rules documents (``docs/rules/<game>.md``) are never shown to players; this module maps their
rule ids to the guide's sections so that a refusal's rule opens the player's text. ``spacetable rules GAME
--lang fr`` prints a guide in the terminal (:func:`guide_text`); the play server serves it as JSON
(:func:`guide_json`, ``GET /api/guide/{game}``).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt

LANGUAGES: tuple[str, ...] = ("en", "fr", "nl", "ru")
PACKAGE = "spacetable.web.guides"
HEADING = re.compile(r"^## +(?P<title>.+?) *\{#(?P<id>[a-z0-9-]+)\} *$")
GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,31}")


@dataclass(frozen=True)
class Section:
    id: str
    rules: tuple[str, ...] = ()
    house: bool = False
    diagram: dict[str, Any] | None = None


@dataclass(frozen=True)
class Meta:
    game: str
    sections: tuple[Section, ...]
    phases: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Text:
    """One guide in one language: its title and, per section id, the title and the Markdown body."""

    title: str
    sections: dict[str, tuple[str, str]]


def _files(game: str) -> Any:
    return resources.files(PACKAGE).joinpath(game)


def games() -> list[str]:
    """Games that have a guide."""
    root = resources.files(PACKAGE)
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.joinpath("meta.json").is_file())


@functools.cache
def meta(game: str) -> Meta | None:
    if not GAME_ID.fullmatch(game):
        return None
    path = _files(game).joinpath("meta.json")
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    sections = tuple(Section(id=s["id"], rules=tuple(s.get("rules", ())), house=bool(s.get("house", False)),
                             diagram=s.get("diagram")) for s in data["sections"])
    return Meta(game=game, sections=sections, phases=dict(data.get("phases", {})))


@functools.cache
def text(game: str, lang: str) -> Text | None:
    """The guide's text in ``lang`` as written (``None`` when that file is missing)."""
    if meta(game) is None or lang not in LANGUAGES:
        return None
    path = _files(game).joinpath(f"{lang}.md")
    if not path.is_file():
        return None
    return parse(path.read_text(encoding="utf-8"))


def parse(source: str) -> Text:
    title = ""
    sections: dict[str, tuple[str, str]] = {}
    current: str | None = None
    head = ""
    body: list[str] = []

    def close() -> None:
        if current is not None:
            sections[current] = (head, "\n".join(body).strip())

    for line in source.splitlines():
        if line.startswith("# ") and not title and current is None:
            title = line[2:].strip()
            continue
        m = HEADING.match(line)
        if m:
            close()
            current, head, body = m["id"], m["title"], []
            continue
        if current is not None:
            body.append(line)
    close()
    return Text(title=title, sections=sections)


def covers(prefix: str, rule: str) -> bool:
    """Whether a section listing ``prefix`` covers ``rule`` (see the module docstring)."""
    if rule == prefix:
        return True
    if prefix[-1].isdigit():
        return rule.startswith(prefix + ".")
    return rule.startswith(prefix)


def section_of(game: str, rule: str) -> str | None:
    """The id of the section that explains ``rule`` to players: the one whose listed id covers it most
    narrowly (the longest), first in guide order on a tie; ``None`` when no section covers it."""
    m = meta(game)
    if m is None:
        return None
    best: tuple[int, str] | None = None
    for s in m.sections:
        for p in s.rules:
            if covers(p, rule) and (best is None or len(p) > best[0]):
                best = (len(p), s.id)
    return best[1] if best else None


_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


@functools.cache
def diagram_view(game: str, section: str) -> dict[str, Any] | None:
    """The view the game's renderer draws for a section's diagram: the game played from ``config`` and ``seed``
    through ``actions`` (each ``[seat, action]``), seen by ``seat``."""
    m = meta(game)
    spec = next((s.diagram for s in m.sections if s.id == section), None) if m else None
    if not spec:
        return None
    from spacetable.games import get_game

    g = get_game(game)
    config = g.normalize_config(dict(spec.get("config", {})))
    state = g.initial_state(config, int(spec.get("seed", 1)))
    for seat, action in spec.get("actions", []):
        state = g.apply(state, int(seat), g.normalize_action(action))
    seat = spec.get("seat", 0)
    return {"view": g.view(state, seat), "seat": seat, "focus": spec.get("focus")}


def guide_json(game: str, lang: str) -> dict[str, Any] | None:
    """A guide for the browser: title, sections (id, title, HTML, rules, house, whether it has a diagram) and the
    phase map. A section missing in ``lang`` falls back to English (the i18n test keeps none missing)."""
    m = meta(game)
    if m is None:
        return None
    mine = text(game, lang) or text(game, "en")
    english = text(game, "en")
    if mine is None or english is None:
        return None
    out = []
    for s in m.sections:
        title, body = mine.sections.get(s.id) or english.sections.get(s.id) or (s.id, "")
        out.append({"id": s.id, "title": title, "html": _MD.render(body), "rules": list(s.rules), "house": s.house,
                    "diagram": s.diagram is not None})
    return {"game": game, "lang": lang if text(game, lang) else "en", "title": mine.title, "sections": out,
            "phases": m.phases}


def rule_title(game: str, rule: str, lang: str) -> str | None:
    """The title of the guide section that explains ``rule``, in ``lang``."""
    sid = section_of(game, rule)
    if sid is None:
        return None
    mine = text(game, lang) or text(game, "en")
    got = mine.sections.get(sid) if mine else None
    return got[0] if got else None


# ------------------------------------------------------------------------------------------------ terminal
def _plain(markdown: str) -> str:
    out = re.sub(r"\*\*([^*]+)\*\*", r"\1", markdown)
    out = re.sub(r"(?<![\w*])\*([^*\n]+)\*(?!\w)", r"\1", out)
    out = re.sub(r"`([^`]*)`", r"\1", out)
    return re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", out)


HOUSE_LABEL = {"en": "House content", "fr": "Contenu maison", "nl": "Huisregel", "ru": "Домашнее правило"}
DIAGRAM_NOTE = {"en": "(The guide in the browser draws this position: spacetable serve, then Rules on the game's card.)",
                "fr": "(Le guide dans le navigateur dessine cette position : spacetable serve, puis Règles sur la carte du jeu.)",
                "nl": "(De gids in de browser tekent deze stelling: spacetable serve, dan Regels op de kaart van het spel.)",
                "ru": "(Руководство в браузере рисует эту позицию: spacetable serve, затем «Правила» на карточке игры.)"}


def guide_text(game: str, lang: str, section: str | None = None) -> str | None:
    """The guide as plain text for a terminal (one section when ``section`` names one)."""
    m = meta(game)
    t = text(game, lang) or text(game, "en")
    if m is None or t is None:
        return None
    lines = [t.title, "=" * len(t.title), ""]
    for s in m.sections:
        if section and s.id != section:
            continue
        title, body = t.sections.get(s.id, (s.id, ""))
        if s.house:
            title += f"  [{HOUSE_LABEL.get(lang, HOUSE_LABEL['en'])}]"
        lines += [title, "-" * len(title), _plain(body), ""]
        if s.diagram:
            lines += [DIAGRAM_NOTE.get(lang, DIAGRAM_NOTE["en"]), ""]
    return "\n".join(lines).rstrip() + "\n"
