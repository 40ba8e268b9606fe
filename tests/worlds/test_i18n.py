"""Worlds & Suns' translated text (``spacetable/games/worlds/i18n/{en,fr,nl,ru}.json``): a sentence for every
action type, a name for every window, piece kind and event card, the card texts, the title and the notice."""

from __future__ import annotations

import re
import string

import pytest

from spacetable.ai.base import RandomAgent
from spacetable.core.i18n import LANGUAGES, catalog, render
from spacetable.games.worlds import GAME
from spacetable.games.worlds.ai import AdvisorAgent
from spacetable.games.worlds.events import house_deck
from spacetable.games.worlds.game import MOVES
from spacetable.games.worlds.pieces import NOTICE, TITLE
from spacetable.games.worlds.scenario import shipped_names
from spacetable.games.worlds.state import WINDOWS

PKG = "spacetable.games.worlds"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_in_every_language_with_the_same_fields() -> None:
    en = catalog(PKG, "en")
    for lang in LANGUAGES:
        cat = catalog(PKG, lang)
        assert set(cat) == set(en), lang
        for key, text in cat.items():
            assert text.strip(), (lang, key)
            assert _fields(text) == _fields(en[key]), (lang, key)


@pytest.mark.rule("WS-0.3", "WS-7.2")
def test_every_action_window_kind_and_card_has_a_text() -> None:
    """English names the cards as the house data does; the title and notice are the ones every view carries."""
    en = catalog(PKG, "en")
    for move in MOVES:
        if not move.key.startswith("core."):  # resign and the draw moves: the core's own keys
            assert f"worlds.move.{move.type}" in en, move.type
    for window in WINDOWS:
        assert f"worlds.phase.{window}" in en, window
    for kind in ("P", "F", "native"):
        assert f"worlds.kind.{kind}" in en
    for code, card in house_deck().items():
        assert en[f"worlds.card.{code}"] == card.name and en[f"worlds.card_text.{code}"] == card.text
    assert en["worlds.title"] == TITLE and en["worlds.notice"] == NOTICE
    assert all(catalog(PKG, lang)["worlds.title"].startswith("Worlds & Suns") for lang in LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_action_of_played_games_is_described(lang: str) -> None:
    """``describe_action`` renders every action a game meets, and what the other seat sees of a sealed one, as a
    sentence in the language (no raw keys, no unfilled fields)."""
    seen: set[str] = set()
    for k, scenario in enumerate(shipped_names()):
        state = GAME.initial_state(GAME.normalize_config({"scenario": scenario}), k)
        players = [AdvisorAgent(), RandomAgent(k)]
        while GAME.to_act(state):
            seat = GAME.to_act(state)[0]
            action = players[seat].choose(GAME, state, seat)
            for shown in (action, GAME.action_view(state, seat, action, 1 - seat)):
                assert shown is not None
                text = GAME.describe_action(state, seat, shown, lang)
                assert text and "worlds." not in text and not re.search(r"[{}]", text), (shown, text)
            seen.add(action["type"])
            state = GAME.apply(state, seat, action)
    assert {"declare_combat", "allocate", "play_event", "commit_energy", "end_turn", "convert"} <= seen
    for window in WINDOWS:
        assert "worlds." not in render((PKG, "spacetable.core"), f"worlds.phase.{window}", {}, lang)


def test_sentences_in_each_language() -> None:
    st = GAME.initial_state(GAME.normalize_config({"scenario": "s1-example"}), 1)
    assert GAME.describe_action(st, 1, {"type": "play_event", "card": "MG"}, "en") == "plays Mobilisation Générale"
    assert GAME.describe_action(st, 1, {"type": "play_event", "card": "MG"}, "ru") == "играет карту «Всеобщая мобилизация»"
    alloc = {"type": "allocate", "battles": [{"anchor": "grey.X.w1.P1", "pieces": ["white.X.w1.P1", "white.X.w1.F1"]}]}
    # pieces are named as the board labels them (kind and number on the combat's card)
    assert GAME.describe_action(st, 0, alloc, "fr") == "répartit ses pions : P1+F1 contre P1"
    assert GAME.describe_action(st, 0, {"type": "choose_tie_loss", "piece": "white.X.w1.F1"}, "en") == "loses F1 in the tie"
    assert GAME.describe_action(st, 1, {"type": "retreat", "pieces": []}, "nl") == "trekt zich niet terug"
    assert GAME.describe_action(st, 1, {"type": "commit_energy", "sealed": True}, "en") == "seals an energy commitment"
