"""Rendering translated sentences (core i18n): the merged catalogue lookup and the remembered sentences give the
same words as rendering afresh."""

from __future__ import annotations

from spacetable.core import i18n
from spacetable.core.i18n import phrase, render, render_cached

ARENA = ("spacetable.games.arena", "spacetable.core")


def test_a_language_falls_back_to_english_then_to_the_key() -> None:
    en = i18n.catalog("spacetable.games.arena", "en")
    key = next(iter(en))
    for lang in i18n.LANGUAGES:
        own = i18n.catalog("spacetable.games.arena", lang).get(key)
        assert i18n.template(ARENA, key, lang) == (own if own is not None else en[key])
    assert i18n.template(ARENA, "no.such.key", "fr") is None
    assert render(ARENA, "no.such.key", {"n": 2}, "fr") == "no.such.key n=2"


def test_remembered_sentences_equal_fresh_ones_and_tell_arguments_apart() -> None:
    args = {"ship": phrase("arena.ship", kind=phrase("arena.class.frigate"), code="112"), "from": "b2", "to": "b3",
            "capture": "", "bonus": "", "offer": ""}
    for lang in i18n.LANGUAGES:
        fresh = render(ARENA, "arena.move.move", args, lang)
        assert "112" in fresh and "b3" in fresh and not fresh.startswith("arena.")
        assert render_cached(ARENA, "arena.move.move", args, lang) == fresh
        assert render_cached(ARENA, "arena.move.move", args, lang) == fresh  # remembered
    assert render_cached(ARENA, "x.k", {"n": 1}, "en") == "x.k n=1"
    assert render_cached(ARENA, "x.k", {"n": True}, "en") == "x.k n=True"


def test_the_remembered_sentences_stay_bounded() -> None:
    i18n._RENDERED.clear()
    for n in range(i18n.RENDERED_BOUND + 10):
        render_cached(ARENA, "x.k", {"n": n}, "en")
    assert len(i18n._RENDERED) <= i18n.RENDERED_BOUND
    assert render_cached(ARENA, "x.k", {"n": 3}, "en") == "x.k n=3"
