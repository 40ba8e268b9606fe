"""Content kinds declared once (issue 25, spacetable/core/content.py): every kind validates its bundled entries,
names every problem of invalid content (path, message, rule), has a JSON Schema for the editors' forms and a start
configuration the game accepts; docs/content.md is what the models generate."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.core import content
from spacetable.games import get_game
from spacetable.games.kinds import load_all

pytestmark = pytest.mark.workbench

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("fullmetal/maps", "galaxies/packs", "tremble/card_sets", "worlds/scenarios")


def house(key: str) -> Any:
    return copy.deepcopy(content.bundled(key, content.names(key)[0]))


def by_path(problems: list[content.Problem]) -> dict[str, content.Problem]:
    return {p.path: p for p in problems}


def test_every_kind_is_declared_with_schema_bundled_and_config() -> None:
    kinds = {k.key: k for k in load_all()}
    assert set(KEYS) <= set(kinds)
    for key in KEYS:
        schema = content.json_schema(key)
        assert schema["type"] == "object" and schema["properties"] and schema["x-max-bytes"] == kinds[key].max_bytes
        assert schema.get("description"), key  # the root model says what the content is
        for name in content.names(key):
            doc = content.bundled(key, name)
            assert content.validate(key, doc) == [], (key, name)
        config = content.config_for(key, house(key))
        game = get_game(kinds[key].game)
        normalized = game.normalize_config({**config, "players": 2} if key != "worlds/scenarios" else config)
        assert all(normalized[k] == v or k == "map_content" for k, v in config.items())
    assert content.json_schema("tremble/card_sets")["$defs"]["Ship"]["properties"]["fuel"]["minimum"] == 1


def test_tremble_every_problem_named_with_rules() -> None:
    doc = house("tremble/card_sets")
    doc["ships"][1]["price"] = -20000          # a negative cost
    doc["ships"][2]["warp"] = 3                # an unknown field
    doc["stations"][0]["effect"] = {"op": "laser_eyes"}
    doc["cities"][0]["catch"] = doc["cities"][0]["raid"]
    problems = by_path(content.validate("tremble/card_sets", doc))
    assert problems["ships[1].price"].rule == "TH-C2" and "multiple of 10,000" in problems["ships[1].price"].message
    assert "ships[2].warp" in problems and "Extra inputs" in problems["ships[2].warp"].message
    assert problems["stations[0].effect"].rule == "TH-C3" and "laser_eyes" in problems["stations[0].effect"].message
    assert problems["cities[0]"].message == "catch must exceed raid" and problems["cities[0]"].rule == "TH-C5"
    doc = house("tremble/card_sets")
    doc["cities"] = doc["cities"][:-1]
    doc["ships"].append(dict(doc["ships"][1]))
    found = content.validate("tremble/card_sets", doc)
    assert any(p.rule == "TH-1.1" and p.message.startswith("cities: 59") for p in found)
    assert any("duplicate id" in p.message and p.path.startswith("ships[") for p in found)
    with pytest.raises(content.ContentError) as err:
        content.parse("tremble/card_sets", {"set": {"set_id": "x"}})
    assert {p.path for p in err.value.problems} >= {"set.name", "set.source", "cities", "ships"}


def test_galaxies_worlds_fullmetal_problems() -> None:
    pack = house("galaxies/packs")
    pack["tactics"][0]["cost"] = -1
    pack["ships"][3]["versions"]["standard"]["capacity"] = 2
    found = by_path(content.validate("galaxies/packs", pack))
    assert "tactics[0].cost" in found and "greater than or equal to 0" in found["tactics[0].cost"].message
    assert "small ships have capacity 0" in found["ships[3]"].message and found["ships[3]"].rule == "BG-8.8"
    pack = house("galaxies/packs")
    pack["missions"][0]["fleets"]["A"]["list"][0]["ship"] = "vapor"
    found = by_path(content.validate("galaxies/packs", pack))
    assert found["missions[0].fleets.A.list"].rule == "D-21" and len(found) == 1
    pack["missions"][0]["fleets"]["A"]["list"][0]["ship"] = "no_such_ship"
    assert [p.message for p in content.validate("galaxies/packs", pack)] == ["unknown ship 'no_such_ship'"]

    scen = house("worlds/scenarios")
    scen["systems"][0]["sun"]["pieces"] = {scen["sides"][0]: {"P": 1, "F": 1}}
    scen["teleporter"] = True
    scen["max_rounds"] = 0
    found = by_path(content.validate("worlds/scenarios", scen))
    assert {"teleporter", "max_rounds"} <= set(found)
    scen.pop("teleporter")
    scen["max_rounds"] = 5
    found = by_path(content.validate("worlds/scenarios", scen))
    assert found[f"systems[0].sun.pieces.{scen['sides'][0]}.F"].rule == "WS-1.3"

    fmap = house("fullmetal/maps")
    fmap["terrain"][2] = "x" + fmap["terrain"][2][1:]
    fmap["terrain"][3] = fmap["terrain"][3][:-1]
    found = by_path(content.validate("fullmetal/maps", fmap))
    assert found["terrain[2]"].rule == "FM-1.1" and "pattern" in found["terrain[2]"].message
    fmap["terrain"][2] = "." + fmap["terrain"][2][1:]
    found = by_path(content.validate("fullmetal/maps", fmap))
    assert found["terrain[3]"].message == "row 3 has 35 cells, not 36" and found["terrain[3]"].rule == "FM-1.1"
    text = content.to_text("fullmetal/maps", house("fullmetal/maps"))
    assert text is not None and content.from_text("fullmetal/maps", text) == house("fullmetal/maps")


def test_too_large_content_is_one_problem() -> None:
    found = content.validate("fullmetal/maps", {"terrain": ["." * 100] * 2000})
    assert len(found) == 1 and "bytes" in found[0].message


def test_docs_content_md_is_generated_from_the_models() -> None:
    """docs/content.md is what `python -m spacetable.games.kinds docs/content.md` writes (run it after a change)."""
    assert (ROOT / "docs" / "content.md").read_text(encoding="utf-8") == content.document(load_all())


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(KEYS), data=JSON)
def test_any_json_gets_problems_never_an_exception(key: str, data: Any) -> None:
    """Whatever a client sends, validation answers with named problems (the server never fails on content)."""
    found = content.validate(key, data)
    assert found and all(isinstance(p, content.Problem) and p.message for p in found)


@settings(max_examples=25, deadline=None)
@given(field=st.sampled_from(["price", "strength", "fuel"]), value=st.integers(-10**7, -1))
def test_a_negative_number_on_a_ship_is_named(field: str, value: int) -> None:
    doc = house("tremble/card_sets")
    doc["ships"][1][field] = value
    assert f"ships[1].{field}" in by_path(content.validate("tremble/card_sets", doc))
