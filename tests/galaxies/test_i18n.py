"""Every user-facing string of galaxies exists in English, French, Dutch and Russian."""

from __future__ import annotations

import pytest

from spacetable.core.i18n import LANGUAGES, catalog
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.packs import TILE_KINDS, TIMINGS, bundled_pack

from .helpers import play_random

PKG = "spacetable.games.galaxies"


def test_catalogues_have_the_same_keys_in_every_language() -> None:
    keys = set(catalog(PKG, "en"))
    assert keys
    for lang in LANGUAGES:
        assert set(catalog(PKG, lang)) == keys, lang
    for move in GAME.moves:  # type: ignore[union-attr]
        assert move.key.startswith("core.") or f"galaxies.move.{move.type}" in keys  # resign, the draw moves
    for t in bundled_pack().tactics:
        assert f"galaxies.tactic.{t}.name" in keys and f"galaxies.tactic.{t}.text" in keys
    assert {f"galaxies.tile.{k}" for k in TILE_KINDS} <= keys and {f"galaxies.timing.{k}" for k in TIMINGS} <= keys
    assert catalog(PKG, "en")["galaxies.label.house"] == "House set, not official Battleship Galaxies card data"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_action_reads_as_a_sentence(lang: str) -> None:
    seen = set()
    for s in play_random(21, steps=300)[::3]:
        for seat in GAME.to_act(s):
            for a in GAME.legal_actions(s, seat)[:30]:
                text = GAME.describe_action(s, seat, a, lang)
                assert "galaxies.move" not in text and "{" not in text, text
                seen.add(a["type"])
    assert len(seen) >= 10
