"""The declared moves of Full Metal Planète: schemas, windows, notation, sentences, options and module order."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path
from typing import Any

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.i18n import LANGUAGES, catalog
from spacetable.core.rng import Rng, mix_seed
from spacetable.games.fullmetal.ai import AGENTS
from spacetable.games.fullmetal.game import GAME, MOVES
from spacetable.games.fullmetal.scenario import Scenario, bundled_scenarios, load

TYPES = ["land", "deploy", "decide_departure", "move", "retreat", "load", "unload", "transfer", "enter", "exit",
         "build", "fire", "assault", "capture", "capture_ship", "repair", "take_off", "end_turn", "resign"]


def sample_positions() -> list[tuple[Any, int]]:
    """(state, seat to act) of a short seeded 3-player game and of every scenario set-up."""
    out = []
    s = GAME.initial_state(GAME.normalize_config({"players": 3}), 5)
    agents = [AGENTS["greedy"](i, 1.0) for i in range(3)]
    for k in range(260):
        seats = GAME.to_act(s)
        if not seats:
            break
        if k % 5 == 0:
            out.append((s, seats[0]))
        s = GAME.apply(s, seats[0], agents[seats[0]].choose(GAME, s, seats[0]))
    for path in bundled_scenarios():
        for spec in load(path).get("scenarios", []):
            st = Scenario(spec).state
            if GAME.to_act(st):
                out.append((st, GAME.to_act(st)[0]))
    return out


SAMPLES = sample_positions()


@pytest.mark.rule("FM-6.1")
def test_every_action_type_is_declared_once_with_its_rule() -> None:
    assert MOVES.types() == TYPES
    rules = MOVES.rules()
    assert all(rules[t].startswith("FM-") for t in TYPES if t != "resign")
    assert rules["resign"] == "CORE-RESIGN"
    for t in TYPES[:-1]:  # resign is the core's
        assert MOVES[t].notation is not None and MOVES[t].args is not None, t


def test_listed_actions_are_in_normal_form_and_read_back_from_their_notation() -> None:
    """Every listed action passes its schema unchanged (what a server stores), and its notation parses back."""
    checked = 0
    for state, seat in SAMPLES:
        for a in GAME.legal_actions(state, seat):
            assert GAME.normalize_action(a) == a
            if a["type"] != "resign":
                assert GAME.parse_action(state, seat, GAME.action_text(state, seat, a)) == a
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("bad", [
    {"type": "move", "unit": 3, "path": [[1, 2]], "pad": "x"},
    {"type": "move", "unit": 3, "path": [[1.5, 2]]},
    {"type": "move", "unit": 3, "path": [[math.nan, 2]]},
    {"type": "move", "unit": True, "path": [[1, 2]]},
    {"type": "move", "unit": 3, "path": []},
    {"type": "move", "unit": 3, "path": [[1, 2]] * 65},
    {"type": "move", "unit": 3, "path": [[1, 2, 3]]},
    {"type": "unload", "carrier": 3, "item": 4, "to": "5,5"},
    {"type": "build", "wl": 3, "kind": "gt", "to": [1, 1]},
    {"type": "build", "wl": 3, "unit_type": "tank", "to": [1, 1]},
    {"type": "capture", "a": 1, "b": 2, "target": 3, "colour": 7},
    {"type": "assault", "mover": 1, "path": [[1, 1]], "shots": []},
    {"type": "decide_departure", "choices": {"3": "fly"}},
    {"type": "land", "dome": [5, 10], "orientation": "east"},
    {"type": "deploy", "units": [{"unit": 3}]},
    {"type": "end_turn", "now": True},
    {"type": "fly"},
])
def test_malformed_actions_are_core_action_errors(bad: dict[str, Any]) -> None:
    state, seat = SAMPLES[0]
    with pytest.raises(RuleError) as err:
        GAME.apply(state, seat, bad)
    assert err.value.rule == "CORE-ACTION"


@pytest.mark.rule("FM-6.1", "FM-7.1", "FM-8.1")
def test_a_move_outside_its_phase_names_the_phase_rule() -> None:
    s = GAME.initial_state(GAME.normalize_config({}), 3)
    seat = GAME.to_act(s)[0]
    with pytest.raises(RuleError) as err:
        GAME.apply(s, seat, {"type": "end_turn"})
    assert err.value.rule == "FM-7.1"
    s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    s = GAME.apply(s, GAME.to_act(s)[0], GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    with pytest.raises(RuleError) as err:
        GAME.apply(s, 0, {"type": "land", "dome": [5, 10]})
    assert err.value.rule == "FM-8.1"
    play = Scenario({"board": {"width": 10, "height": 9, "fill": "$"}}).state
    with pytest.raises(RuleError) as err:
        GAME.apply(play, 0, {"type": "land", "dome": [5, 5]})
    assert err.value.rule == "FM-6.1"


def test_the_published_schema_covers_every_action() -> None:
    schema = GAME.action_schema()
    variants = {v["title"]: v for v in schema["oneOf"]}
    assert list(variants) == TYPES
    assert all(v["additionalProperties"] is False for v in variants.values())
    assert variants["transfer"]["required"] == ["type", "from", "item", "to"]
    assert variants["move"]["properties"]["path"]["maxItems"] == 64
    json.dumps(schema)


def test_catalogues_have_the_same_keys_in_every_language() -> None:
    keys = set(catalog("spacetable.games.fullmetal", "en"))
    assert {f"fullmetal.move.{t}" for t in TYPES if t != "resign"} <= keys
    for name in ("land", "deploy", "play", "depart", "over"):
        assert f"fullmetal.phase.{name}" in keys
    for kind in ("ship", "turret", "tank", "gt", "mb", "barge", "crab", "wl", "pontoon", "ore"):
        assert f"fullmetal.kind.{kind}" in keys
    for lang in LANGUAGES:
        assert set(catalog("spacetable.games.fullmetal", lang)) == keys, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_listed_action_reads_as_a_sentence(lang: str) -> None:
    """Every listed action, and what other seats see of a sealed one, renders without a leftover field or key."""
    seen = set()
    for state, seat in SAMPLES:
        actions = GAME.legal_actions(state, seat)
        actions += [GAME.action_view(state, seat, a, None) for a in actions if a["type"] in ("deploy", "decide_departure")]
        for a in actions:
            text = GAME.describe_action(state, seat, a, lang)
            assert "{" not in text and "fullmetal." not in text and "core." not in text, (a, text)
            seen.add(a["type"])
    assert {"land", "deploy", "move", "load", "exit", "end_turn", "resign", "fire", "unload", "transfer"} <= seen


def test_sentences_name_units_by_kind_and_id() -> None:
    sc = Scenario({"board": {"width": 10, "height": 9, "fill": "$"},
                   "units": [{"label": "T", "kind": "T", "player": 0, "at": [2, 2]}]})
    action = {"type": "move", "unit": sc.uid("T"), "path": [[2, 3]]}
    assert GAME.describe_action(sc.state, 0, action, "en") == f"moves tank {sc.uid('T')}: 2,3"
    assert GAME.describe_action(sc.state, 0, action, "fr") == f"déplace char {sc.uid('T')} : 2,3"


def test_every_numeric_option_is_bounded() -> None:
    """Issue 9 item 9: each numeric option declares a minimum and a maximum, and normalize_config enforces them."""
    for opt in GAME.options():
        numeric = opt.kind in ("int", "float") or any(isinstance(c, int) and not isinstance(c, bool)
                                                       for c in opt.choices or ())
        if numeric:
            assert opt.minimum is not None and opt.maximum is not None, opt.name
    with pytest.raises(Exception, match="landing_min_distance"):
        GAME.normalize_config({"landing_min_distance": 31})
    with pytest.raises(Exception, match="map_seed"):
        GAME.normalize_config({"map_seed": 2**31})


@pytest.mark.rule("FM-D4")
def test_sub_seeds_come_from_seed_for_and_keep_their_values() -> None:
    """FM-D4: one seeded generator; the state's and the generated map's seeds are derived as before."""
    for seed in (0, 1, 26, 10**9):
        assert GAME.rng_for(seed, "state") == Rng.from_seed(mix_seed(seed, "fullmetal"))
        assert GAME.seed_for(seed, "map") == mix_seed(seed, "fullmetal", "map")
        assert GAME.initial_state(GAME.normalize_config({}), seed).rng.state != 0


#: The package's modules in import order: each imports only modules listed before it.
ORDER = ["terrain", "fmp", "mapgen", "variants", "state", "ap", "tides", "firezones", "pontoons", "movement",
         "mountains", "transport", "building", "fire", "capture", "endgame", "spaceship", "setup", "mapcheck", "flow", "legal",
         "clock", "notation", "render", "game", "scenario", "commander", "planner", "analysis", "ai", "cli", "mapeditor",
         "__init__"]


def test_modules_import_only_earlier_modules_and_at_the_top() -> None:
    pkg = Path(GAME.__module__.replace(".", "/")).parent
    root = Path(__file__).resolve().parents[2]
    files = sorted((root / pkg).glob("*.py"))
    assert sorted(p.stem for p in files) == sorted(ORDER)
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                assert node in tree.body, f"{path.name}:{node.lineno}: import inside a function"
                targets = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                for t in targets:
                    assert ORDER.index(t) < ORDER.index(path.stem), f"{path.name} imports the later module {t}"
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                assert node in tree.body or (isinstance(node, ast.ImportFrom) and node.module == "__future__"), \
                    f"{path.name}:{node.lineno}: import inside a function"
