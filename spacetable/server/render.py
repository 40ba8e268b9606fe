"""Render per seat: the messages a match's clients get, each computed once per state version and seat.

This is the step between *store* and *send* (``docs/architecture.md``, "One way through the server"): it reads a
live match (``live.py``) and builds what each viewer may see (SRV-V1), with legal actions (``legal.py``) and texts
(``presentation.py``, formatting only); it changes no match state and sends nothing (``clients.py`` sends).

What is computed once, and for whom:

* a seat's **view** and **legal actions**: once per state and seat, whoever asks (``LiveMatch.view`` /
  ``LiveMatch.legal``), shared by every socket of that seat;
* the **JSON text** of an event or a snapshot: once per version, seat, language and texts choice
  (:func:`event_text`, :func:`snapshot_text`), however many sockets that seat has;
* **texts** (sentences of legal actions and of log entries): only for a socket that asked for them (``texts``:
  the web page does, a program playing over the API need not), once per state, seat and language
  (:func:`legal_texts`); a log entry's sentence once per language, when it is first needed (:func:`entry_text`);
  never for spectators' legal actions (they have none) nor for computer seats (they have no socket).

Without texts an entry's ``text`` is its notation and ``legal_text`` is ``[]``.
"""

from __future__ import annotations

from typing import Any

from spacetable.core import i18n
from spacetable.core.game import Action

from . import presentation
from .jsonio import dumps
from .legal import legal_fields
from .live import Entry, LiveMatch
from .meter import METER, clock


# ------------------------------------------------------------------------------------------------ texts
def log_texts(m: LiveMatch, e: Entry, before: Any, langs: set[str]) -> None:
    """When ``e`` is logged (``before``: the state it was played on): its sentence in the languages the match's
    clients read now; other languages are written when first needed (:func:`entry_text`)."""
    if not langs:
        return
    t = clock()
    for lang in langs:
        if lang not in e.texts:
            text = _listed(m, e, before, lang)
            if text is None:
                text = presentation.action_text_in(m.game, before, e.seat, e.action, lang)
                METER.count("entry_texts")
            e.texts[lang] = text
    METER.add("texts", t)


def _listed(m: LiveMatch, e: Entry, before: Any, lang: str) -> str | None:
    """The sentence of ``e`` as already written for its seat's list of legal actions on ``before``, if it was."""
    if m.state is not before or m._cached_for is not before:
        return None
    texts, sent = m._legal_texts.get((e.seat, lang)), m.legal_sent.get(e.seat)
    if not texts or sent is None or len(texts) != len(sent["legal"]):
        return None
    for action, text in zip(sent["legal"], texts, strict=True):
        if action == e.action:
            return text
    return None


def entry_text(m: LiveMatch, index: int, e: Entry, lang: str) -> str:
    """The sentence of the logged action ``index`` in ``lang``, written once (from the match's history when it was
    not written when the action was logged: a reloaded match, a language nobody read then)."""
    text = e.texts.get(lang)
    if text is None:
        t = clock()
        before = m.state_at(index) if 0 <= index < len(m.log) and m.log[index] is e else None
        if before is None:
            text = e.text
        else:
            text = e.texts[lang] = presentation.action_text_in(m.game, before, e.seat, e.action, lang)
            METER.count("entry_texts")
        METER.add("texts", t)
    return text


def entry_json(m: LiveMatch, index: int, e: Entry, viewer: int | None, lang: str | None,
               reveal: bool = False) -> dict[str, Any]:
    """One log entry as ``viewer`` may see it (SRV-V1); its sentence in ``lang`` (``None``: no texts, the notation
    stands for it)."""
    shown = e.action if reveal else e.views.get(viewer, e.action)
    sealed = shown is not None and shown != e.action
    sentence = None
    if lang is not None and shown is not None and not sealed:
        sentence = entry_text(m, index, e, lang)
    return presentation.entry_json(m.game, index, e, viewer, lang or i18n.DEFAULT, reveal, sentence)


def legal_texts(m: LiveMatch, viewer: int, legal: list[Action], lang: str) -> list[str]:
    """The sentence of each of ``legal`` (the list sent to ``viewer``), written once per state, seat and language."""
    m.fresh()
    got = m._legal_texts.get((viewer, lang))
    if got is None or len(got) != len(legal):
        t = clock()
        state, game = m.state, m.game
        got = [presentation.action_text_in(game, state, viewer, a, lang) for a in legal]
        m._legal_texts[(viewer, lang)] = got
        METER.count("texts")
        METER.add("texts", t)
    return got


# ------------------------------------------------------------------------------------------------ parts
def legal_part(m: LiveMatch, viewer: int | None, to_act: tuple[int, ...], lang: str | None) -> dict[str, Any]:
    """The ``legal`` fields and ``legal_text`` of a message for ``viewer`` (texts only with ``lang``)."""
    t = clock()
    legal = legal_fields(m, viewer, to_act)  # listing, selecting (SRV-L1), draw moves (SRV-L5)
    METER.add("legal", t)
    texts = legal_texts(m, viewer, legal["legal"], lang) if lang is not None and viewer is not None and legal["legal"] \
        else []
    return {**legal, "legal_text": texts}


def seat_fields(m: LiveMatch, viewer: int | None, to_act: tuple[int, ...], lang: str | None) -> dict[str, Any]:
    """``view``, the ``legal`` fields and ``legal_text`` of a message for ``viewer`` (texts only with ``lang``)."""
    return {"view": m.view(viewer), **legal_part(m, viewer, to_act, lang)}


# --------------------------------------------------------------------------------------------- messages
def snapshot(m: LiveMatch, viewer: int | None, kind: str = "snapshot", lang: str | None = "en") -> dict[str, Any]:
    """Everything a client shows, filtered for ``viewer`` (SRV-V1); legal actions only for a seat to act (SRV-L1);
    texts in ``lang`` (``None``: none)."""
    to_act = m.to_act()
    fields = seat_fields(m, viewer, to_act, lang)
    log = [entry_json(m, i, e, viewer, lang) for i, e in enumerate(m.log)]
    return {"type": kind, "match": m.summary(), "seat": viewer, "version": m.version, "view": fields.pop("view"),
            "to_act": list(to_act), **fields, "log": log}


def snapshot_text(m: LiveMatch, viewer: int | None, lang: str | None, reason: str | None = None) -> str:
    """The JSON text of :func:`snapshot`, encoded once per revision, version, seat, language and reason."""
    cache = m.messages()
    key = ("snapshot", viewer, lang, reason)
    text = cache.get(key)
    if text is None:
        snap = snapshot(m, viewer, lang=lang)
        if reason is not None:
            snap["reason"] = reason
        t = clock()
        text = cache[key] = dumps(snap)
        METER.add("views", t)
        METER.count("message")
    return text


def event_text(m: LiveMatch, viewer: int | None, lang: str | None) -> str:
    """The JSON text of the event of the last action for ``viewer`` (SRV-V1), encoded once per version, seat,
    language; the parts every client shares (summary, ``to_act``) once per version."""
    cache = m.messages()
    key = ("event", viewer, lang, None)
    text = cache.get(key)
    if text is not None:
        return text
    to_act = m.to_act()
    index = m.version - 1
    body = {"last": entry_json(m, index, m.log[index], viewer, lang), **legal_part(m, viewer, to_act, lang)}
    view = m.view_json(viewer)  # the public part of the view written once for every viewer (``LiveMatch.view_json``)
    t = clock()
    head = cache.get(("event-head", None, None, None))
    if head is None:
        head = cache["event-head", None, None, None] = (
            f'{{"type":"event","match":{dumps(m.summary())},"version":{m.version},"to_act":{dumps(list(to_act))},"seat":')
    text = cache[key] = f"{head}{'null' if viewer is None else viewer},\"view\":{view},{dumps(body)[1:]}"
    METER.add("views", t)
    METER.count("message")
    return text
