"""Tremble's translated text (``spacetable/games/tremble/i18n/{en,fr,nl,ru}.json``): a sentence for every
action type, a name for every window, the card-set terms and every house card, in four languages."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from spacetable.core.i18n import LANGUAGES, catalog, render
from spacetable.core.rng import Rng
from spacetable.games.tremble import GAME
from spacetable.games.tremble.ai import HeuristicAgent
from spacetable.games.tremble.cards import HOUSE_DIR, get_set
from spacetable.games.tremble.effects import CITY_TYPES, KINDS, OPS, REGIONS
from spacetable.games.tremble.flow import WINDOWS
from spacetable.games.tremble.notation import card_term, effect_term

from .tremble_helpers import sample

PKG = "spacetable.games.tremble"
H = get_set("house")


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


def test_every_action_window_and_card_set_term_has_a_text() -> None:
    en = catalog(PKG, "en")
    for move in GAME.moves:
        if move.type != "resign":  # the core's own key
            assert f"tremble.move.{move.type}" in en, move.type
    for phase in [*WINDOWS, "over"]:
        assert f"tremble.phase.{phase}" in en, phase
    for op in OPS:
        assert f"tremble.op.{op}" in en, op
    for group, values in (("kind", KINDS), ("region", REGIONS), ("city_type", CITY_TYPES), ("deck", ("blue", "red", "training"))):
        for v in values:
            assert f"tremble.{group}.{v}" in en, (group, v)
    assert en["tremble.card_set.house"] == H.label


def test_house_card_names_match_the_data_in_english_and_russian() -> None:
    """English and Russian names come from the house data; French and Dutch exist for every card."""
    en, ru = catalog(PKG, "en"), catalog(PKG, "ru")
    for part in ("ships", "stations", "compensations", "missions", "cities"):
        for rec in json.loads((Path(HOUSE_DIR) / f"{part}.json").read_text(encoding="utf-8")):
            key = f"tremble.card.{rec['id']}"
            assert en[key] == rec["name"] and ru[key] == rec.get("name_ru", rec["name"]), key
            for lang in ("fr", "nl"):
                assert catalog(PKG, lang)[key], (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_effect_and_window_reads_without_raw_keys(lang: str) -> None:
    packages = (PKG, "spacetable.core")
    for cid in [*H.ships, *H.stations, *H.comps, *H.armies, *H.missions, *H.cities]:
        text = render(packages, "tremble.card.with_effect", {"card": card_term(H, cid), "effect": ""}, lang)
        assert text and "tremble." not in text, (cid, text)
    effects = [e for sh in H.ships.values() for e in sh.abilities] + [c.effect for c in [*H.stations.values(), *H.comps.values()]]
    for op, (params, _, _) in OPS.items():
        sample_effect = next((e for e in effects if e["op"] == op), None)
        if sample_effect is None:  # an op the house set does not use: any parameters
            values = {"kind": KINDS[0], "city_type": CITY_TYPES[0], "region": REGIONS[0]}
            sample_effect = {"op": op, **{k: values.get(k, 2) for k in params}}
        term = effect_term(sample_effect)
        text = render(packages, term["key"], term["args"], lang)
        assert "tremble." not in text and "{" not in text, (op, text)
    for phase in [*WINDOWS, "over"]:
        assert "tremble." not in render(packages, f"tremble.phase.{phase}", {}, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_action_of_played_games_is_described(lang: str) -> None:
    """``describe_action`` renders every action a game meets as a sentence in the language (no raw keys)."""
    seen: set[str] = set()
    for players, seed in ((2, 3), (4, 5), (5, 8)):
        s = GAME.initial_state({"players": players}, seed)
        rng = Rng.from_seed(seed)
        captains = [HeuristicAgent(i) for i in range(players)]
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            a = captains[seat].choose(GAME, s, seat) if rng.randbelow(2) else sample(s, seat, rng)
            text = GAME.describe_action(s, seat, a, lang)
            assert text and "tremble." not in text and not re.search(r"[{}]", text), (a, text)
            seen.add(a["type"])
            s = GAME.apply(s, seat, a)
        assert GAME.describe_action(s, 0, {"type": "resign"}, lang)
    assert {"buy", "plan", "declare", "reward", "army", "pass"} <= seen


def test_sentences_name_the_cards_in_the_language() -> None:
    s = GAME.initial_state({"players": 2}, 1)
    a = {"type": "buy", "credits": 1, "buy": ["reaper_tripod#2"], "discard": [], "repay": 0, "comp": []}
    assert GAME.describe_action(s, 0, a, "en") == "commits a purchase: takes 1 credit(s), buys Reaper Tripod"
    assert GAME.describe_action(s, 0, a, "fr") == "remet ses achats en secret : prend 1 crédit(s), achète Tripode-faucheur"
    plan = {"type": "plan", "groups": [{"slot": 2, "ships": ["training#1", "reaper_tripod#2"]}], "fuel_cards": [],
            "stations": [{"station": "beacon#1", "slot": 2}]}
    assert GAME.describe_action(s, 0, plan, "nl") == (
        "dient in het geheim zijn plan in: vak 2 (Oefenschotel, Maaierdriepoot); met Orbitaal baken op vak 2"
    )
    assert GAME.describe_action(s, 0, {"type": "declare", "choice": "flee"}, "ru") == "бежит"
