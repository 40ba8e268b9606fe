"""What the play server tells people, in their language: action sentences, log entries, refusals, rules.

This module only formats; it never changes a match. The service calls it at three points:

* when an action is logged: ``render.log_texts`` writes its sentence (:func:`action_text_in`:
  ``game.describe_action(state_before, seat, action, lang)``; the notation ``game.action_text`` when
  the game has no sentence for it) in the languages the match's clients read; another language is
  written when first asked, from the match's history (``render.entry_text``);
* when a message is built for a client (``render.py`` decides when and for whom): :func:`entry_json` (one
  log entry as that viewer may see it, in the client's language) and :func:`action_text_in` (the sentence
  of one action, e.g. each legal action of a seat that asked for texts);
* when something is refused: :func:`error_json` adds ``explain`` (plain words in the client's
  language) and, for a rule of a game, ``rule_url`` (``/rules/<game>#<ID>``: the browser shows the players'
  guide there, at the section explaining that rule) and ``rule_text`` (that section's title in the language).

Translations come from the core catalogues (:mod:`spacetable.core.i18n`), looked up in the game's
package first (``spacetable/games/<id>/i18n/<lang>.json``), then in the web client's catalogue
(``spacetable/web/static/i18n/<lang>.json``, the same files the browser loads), then in core's.
Keys used here: ``error.<code>`` for server refusals, ``rule.<ID>`` for the plain-words explanation
of a rule (``rule.AR-5.2``), ``log.sealed`` for a sealed decision seen by another seat.

Rules documents: ``spacetable/web/rules/<game>.md`` (copies of ``docs/rules/<game>.md`` kept equal by
``tests/browser/test_rules_docs.py``; ``python -m spacetable.server.presentation sync-rules`` refreshes
them) are rendered to HTML with an anchor per rule id (:func:`rules_document`), and the first block
that states a rule gives its one-line statement (:func:`rule_statement`), the fallback explanation of
a refusal when no translation names the rule.

Contract for game authors: ``describe_action`` and the move's ``args`` may read the state before the
action, but the sentence must only say what the action's viewers may know (it is shown to every seat
that sees the action itself; a sealed action is shown to others as "sealed decision" only).
"""

from __future__ import annotations

import functools
import html
import re
import shutil
import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from spacetable import guide
from spacetable.core import i18n
from spacetable.core.game import Action, Game
from spacetable.core.serial import action_key

if TYPE_CHECKING:
    from .live import Entry

LANGUAGES: tuple[str, ...] = i18n.LANGUAGES
WEB_CATALOG = "spacetable.web.static"
RULES_PACKAGE = "spacetable.web.rules"
#: A rule id as the games write it: ``AR-4.3``, ``AR-A13``, ``FM-10.2``, ``TH-IM-1``, ``SRV-A1``, ``CORE-TURN``.
RULE_ID = re.compile(r"\b(?:AR|FM|BG|TH|WS|SRV|CORE)-[A-Z]{0,3}-?\d+(?:\.\d+)*[a-z]?\b|\bCORE-[A-Z]+\b")


def pick_lang(value: str | None) -> str:
    """A supported language from a query value or an ``Accept-Language`` header (English otherwise)."""
    for part in (value or "").replace(" ", "").split(","):
        code = part.split(";")[0][:2].lower()
        if code in LANGUAGES:
            return code
    return i18n.DEFAULT


def packages(game: Game[Any] | None) -> tuple[str, ...]:
    """Catalogue packages for a game's texts, most specific first (the game's package as core's
    ``describe_action`` finds it)."""
    if game is not None:
        return (type(game).__module__.rsplit(".", 1)[0], WEB_CATALOG, "spacetable.core")
    return (WEB_CATALOG, "spacetable.core")


def game_catalogue(game: Game[Any], lang: str) -> dict[str, str]:
    """The game package's own catalogue in ``lang`` (empty when the game has none), as the browser loads it beside
    the client's catalogue (``GET /api/i18n/<game>/<lang>``)."""
    return i18n.catalog(packages(game)[0], lang)


def translate(game: Game[Any] | None, key: str, lang: str, **args: Any) -> str | None:
    """The template ``key`` rendered in ``lang`` (English when that language lacks it), or ``None``."""
    pkgs = packages(game)
    if i18n.template(pkgs, key, lang) is None:
        return None
    return i18n.render(pkgs, key, args, lang)


# ------------------------------------------------------------------------------------------ action texts
def _no_sentences(game: Game[Any]) -> bool:
    """The game has neither a move table nor its own ``describe_action``: its sentence is its notation."""
    return game.moves is None and type(game).describe_action is Game.describe_action


def _sentence(game: Game[Any], state: Any, seat: int, action: Action, lang: str) -> str | None:
    """The game's sentence for ``action`` in ``lang``, or ``None`` where its notation stands instead."""
    if _no_sentences(game):
        return None
    try:
        text = str(game.describe_action(state, seat, action, lang))
    except Exception:  # a presentation helper must never break play
        return None
    # the core's fallback for a key missing from every catalogue is "<game>.move.<type> k=v": show the notation
    if not text or text.startswith(f"{game.id}.move.") or text.startswith("core.move."):
        return None
    return text


def notation_of(game: Game[Any], state: Any, seat: int, action: Action) -> str:
    try:
        return str(game.action_text(state, seat, action))
    except Exception:  # a presentation helper must never break play
        return action_key(action)


def action_text_in(game: Game[Any], state: Any, seat: int, action: Action, lang: str) -> str:
    """The action's sentence in one language (its notation, written only then, when the game has no sentence for
    it)."""
    text = _sentence(game, state, seat, action, lang)
    return notation_of(game, state, seat, action) if text is None else text


def action_texts(game: Game[Any], state: Any, seat: int, action: Action) -> dict[str, str]:
    """The action's sentence in every language, from the state before it (see the module docstring)."""
    notation = notation_of(game, state, seat, action)
    if _no_sentences(game):
        return dict.fromkeys(LANGUAGES, notation)
    return {lang: _sentence(game, state, seat, action, lang) or notation for lang in LANGUAGES}


def entry_json(game: Game[Any], index: int, e: Entry, viewer: int | None, lang: str, reveal: bool = False,
               sentence: str | None = None) -> dict[str, Any]:
    """One log entry as ``viewer`` may see it: the action (or its sealed form, or ``None``), the notation and
    the sentence (``sentence``, written by ``render.entry_text``; else the one logged in ``lang``, else the
    notation). ``reveal`` shows everything (replays of finished matches)."""
    shown = e.action if reveal else e.views.get(viewer, e.action)
    sealed = shown is not None and shown != e.action
    if shown is None:
        text = notation = None
    elif sealed:
        notation = None
        text = translate(game, "log.sealed", lang) or "sealed decision"
    else:
        notation = e.text
        text = sentence or e.texts.get(lang) or e.text
    return {"index": index, "seat": e.seat, "action": shown, "text": text, "notation": notation,
            "sealed": sealed, "source": e.source}


# ---------------------------------------------------------------------------------------------- refusals
def error_json(err: dict[str, Any], game: Game[Any] | None, lang: str) -> dict[str, Any]:
    """A server error (``ServiceError.to_json()``) with ``explain``: what went wrong in plain words, in
    ``lang``; for a game rule also ``rule_url`` and ``rule_text`` (the rule's statement from its document)."""
    out = dict(err)
    rule = out.get("rule")
    code = str(out.get("code", "error"))
    explain = None
    if rule:
        explain = translate(game, f"rule.{rule}", lang)
        doc_game = _rules_game(str(rule), game)
        if doc_game:
            anchor = rule_anchor(doc_game, str(rule))
            out["rule_url"] = f"/rules/{doc_game}" + (f"#{anchor}" if anchor else "")
            # the players' guide names the rule in the player's language (the developers' statement never shows)
            statement = guide.rule_title(doc_game, str(rule), lang)
            if statement:
                out["rule_text"] = statement
        if explain is None:
            explain = translate(game, "error.rule_broken", lang, rule=rule)
    if explain is None:  # server rules are cited in the message: "... (SRV-U2)"
        srv = re.search(r"\((SRV-[A-Z0-9]+)\)", str(out.get("message", "")))
        explain = translate(game, f"error.{srv.group(1)}", lang) if srv else None
    if explain is None:
        explain = translate(game, f"error.{code}", lang) or translate(game, "error.generic", lang)
    out["explain"] = explain or str(out.get("message", ""))
    return out


def _rules_game(rule: str, game: Game[Any] | None) -> str | None:
    """Which rules document states ``rule``: the match's game for its own ids (not CORE-/SRV- ids)."""
    if rule.startswith(("CORE-", "SRV-")) or game is None:
        return None
    return game.id if rules_source(game.id) is not None else None


# ------------------------------------------------------------------------------------------ rules documents
def rules_source(game_id: str) -> str | None:
    """The packaged rules document of a game (Markdown), or ``None``."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,31}", game_id):
        return None
    try:
        return resources.files(RULES_PACKAGE).joinpath(f"{game_id}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return None


@functools.cache
def has_rules(game_id: str) -> bool:
    """Whether the game has a packaged rules document (the lobby's ``rules`` flag: checked once, not read each time)."""
    return rules_source(game_id) is not None


@functools.cache
def rules_document(game_id: str) -> dict[str, Any] | None:
    """``{"game", "title", "html", "rules": {id: statement}}``: the rules document rendered to HTML. The block
    (list item, table row, paragraph or heading) that first names a rule id carries ``id="<ID>"`` and the class
    ``rule-anchor``; further ids first named in the same block get an empty ``<span id>`` at its start, so every
    ``/rules/<game>#<ID>`` link lands on the rule's statement."""
    source = rules_source(game_id)
    if source is None:
        return None
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(source)
    seen: dict[str, str] = {}
    title = game_id
    stack: list[int] = []
    for i, tok in enumerate(tokens):
        if tok.nesting == 1:
            stack.append(i)
            continue
        if tok.nesting == -1:
            if stack:
                stack.pop()
            continue
        if tok.type != "inline" or not stack:
            continue
        if tokens[stack[-1]].tag == "h1" and title == game_id:
            title = _plain(tok.content)
        ids = [r for r in dict.fromkeys(RULE_ID.findall(tok.content)) if r not in seen]
        if not ids:
            continue
        plain = _plain(tok.content)
        for r in ids:
            seen[r] = plain
        block = tokens[_anchor_block(tokens, stack)]
        if block.attrGet("id") is None:
            block.attrSet("id", ids[0])
            block.attrSet("class", "rule-anchor")
            ids = ids[1:]
        spans = [Token("html_inline", "", 0, content=f'<span id="{r}" class="rule-anchor-extra"></span>') for r in ids]
        tok.children = [*spans, *(tok.children or [])]
    body = md.renderer.render(tokens, md.options, {})
    return {"game": game_id, "title": title, "html": body, "rules": seen}


def _anchor_block(tokens: list[Any], stack: list[int]) -> int:
    """The block to carry an anchor: the enclosing list item or table row if any, else the innermost block."""
    for idx in reversed(stack):
        if tokens[idx].type in ("list_item_open", "tr_open"):
            return idx
    return stack[-1]


def _plain(markdown: str) -> str:
    text = re.sub(r"`([^`]*)`", r"\1", markdown)
    text = re.sub(r"[*_]{1,2}([^*_]+)[*_]{1,2}", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    return html.unescape(" ".join(text.split()))


def rule_anchor(game_id: str, rule: str) -> str | None:
    """The id to link for ``rule`` in the game's document: the rule itself, else its nearest stated parent
    (``AR-4.1`` -> ``AR-4``), else ``None``."""
    doc = rules_document(game_id)
    if doc is None:
        return None
    probe = rule
    while probe:
        if probe in doc["rules"]:
            return probe
        if "." not in probe:
            return None
        probe = probe.rsplit(".", 1)[0]
    return None


def rule_statement(game_id: str, rule: str) -> str | None:
    """The plain text of the first block of the game's rules document that names ``rule``."""
    doc = rules_document(game_id)
    if doc is None:
        return None
    text = doc["rules"].get(rule)
    return None if text is None else str(text)[:400]


def sync_rules(repo: Path) -> list[str]:
    """Copy ``docs/rules/*.md`` of a checkout into the package (``spacetable/web/rules``); returns what changed."""
    src, dst = repo / "docs" / "rules", repo / "spacetable" / "web" / "rules"
    changed = []
    for path in sorted(src.glob("*.md")):
        if path.name == "index.md":
            continue
        target = dst / path.name
        if not target.exists() or target.read_bytes() != path.read_bytes():
            shutil.copyfile(path, target)
            changed.append(path.name)
    for target in sorted(dst.glob("*.md")):
        if not (src / target.name).exists():
            target.unlink()
            changed.append(f"-{target.name}")
    return changed


def main(argv: list[str] | None = None) -> int:
    """``python -m spacetable.server.presentation sync-rules``: refresh the packaged rules documents."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["sync-rules"]:
        print("usage: python -m spacetable.server.presentation sync-rules")
        return 2
    repo = Path(__file__).resolve().parents[2]
    changed = sync_rules(repo)
    print("rules documents: " + (", ".join(changed) if changed else "already in sync"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
