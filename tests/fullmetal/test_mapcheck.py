"""The map rules a map editor checks (spacetable/games/fullmetal/mapcheck.py, issue 25): every kind of problem with
its rule id, the editor's starting maps, ore laid as a game lays it, and ``.fmp`` export then import giving the same
map."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.core import catalog
from spacetable.games.fullmetal import GAME
from spacetable.games.fullmetal import mapcheck as mc
from spacetable.games.fullmetal.fmp import FmpMap, bundled_map, content_map, write_fmp
from spacetable.games.fullmetal.setup import lattice_cells
from spacetable.games.fullmetal.terrain import get_board

pytestmark = pytest.mark.workbench
I18N = Path(__file__).resolve().parents[2] / "spacetable" / "web" / "static" / "i18n"


def codes(problems: list[mc.MapProblem]) -> dict[str, str | None]:
    return {p.code: p.rule for p in problems}


def plain(width: int, height: int) -> list[str]:
    return ["$" * width for _ in range(height)]


def test_original_map_is_playable_for_every_count() -> None:
    original = bundled_map()
    for players in (2, 3, 4):
        assert mc.validate_map(original, players=players) == []
    stats = mc.map_stats(original)
    assert stats["terrain"] == {"sea": 231, "reef": 45, "swamp": 100, "plain": 381, "mountain": 71}  # FM-1.6
    assert stats["lattice"] == [62, 75] and stats["ore"] is None and stats["landings"] == 4  # FM-3.1


def test_content_forms_are_the_same_map() -> None:
    text = write_fmp(bundled_map()).decode("cp1252")
    for content in (text, text.encode("cp1252"), {"fmp": text}, mc.map_layers(bundled_map())):
        assert mc.as_map(content).terrain == bundled_map().terrain
        assert mc.validate_map(content) == []


def test_format_problem_has_no_rule() -> None:
    for bad in ("hello", {"fmp": "<FMP>\n<CARTE Lignes=2 Colonnes=2>\n$x\n$$\n</CARTE>\n</FMP>"}, 12, "x" * 200_000):
        (p,) = mc.validate_map(bad)
        assert p.code == "format" and p.rule is None and p.path == "fmp"


def test_no_cells() -> None:
    assert codes(mc.validate_map(FmpMap(3, 2, ["???", "???"]))) == {"no_cells": "FM-1.1"}


def test_landing_sites_counted_under_the_distance_rule() -> None:
    small = FmpMap(8, 8, plain(8, 8))
    (p,) = mc.validate_map(small)
    assert (p.code, p.rule, p.params) == ("landing_sites", "FM-7.2", {"found": 1, "players": 2, "distance": 10})
    assert len(p.cells) == 1
    # the variant of the PC preset (8 apart) fits two ships where the original's 10 does not
    wide = FmpMap(12, 9, plain(12, 9))
    assert codes(mc.validate_map(wide)) == {"landing_sites": "FM-7.2"}
    assert mc.validate_map(wide, landing_min_distance=8) == []
    # mountains and sea do not hold a ship (FM-7.2 a)
    rocky = FmpMap(30, 12, ["#" * 30 for _ in range(12)])
    assert mc.validate_map(rocky)[0].params["found"] == 0


def test_four_ships_on_the_original_but_not_far_apart() -> None:
    (p,) = mc.validate_map(bundled_map(), players=4, landing_min_distance=25)
    assert p.code == "landing_sites" and p.params["found"] < 4


def test_two_ships_found_exactly() -> None:
    """Two domes: the farthest pair (by the cube coordinates' extremes) is the true largest distance (FM-1.4)."""
    for fmap in (bundled_map(), mc.new_map("generated", seed=11, players=2, size="small"),
                 mc.new_map("empty", width=20, height=16, shape="round")):
        board = get_board(fmap.width, fmap.height, "".join(fmap.terrain))
        domes = mc.landing_domes(board)
        widest = max(board.dist(a, b) for a in domes for b in domes)
        pair = mc.most_landings(board, domes, 2, 2)
        assert board.dist(*pair) == widest
        assert len(mc.most_landings(board, domes, widest + 1, 2)) == 1


def test_ore_problems() -> None:
    terrain = ["?$$$$", "$$$..", "$$$$$"]
    ore = ["2....", "...2.", "....."]
    problems = mc.validate_map(FmpMap(5, 3, terrain, ore), landing_min_distance=2)
    got = {p.code: p for p in problems}
    assert got["ore_offmap"].rule == "FM-1.1" and got["ore_offmap"].cells == ((0, 0),)
    assert got["ore_sea"].rule == "FM-3.3" and got["ore_sea"].cells == ((3, 1),)
    empty = mc.validate_map(FmpMap(5, 3, terrain, ["....."] * 3), landing_min_distance=2)
    assert codes(empty)["ore_empty"] == "FM-3.1"


def zoned(zones: list[str]) -> FmpMap:
    return FmpMap(20, 10, plain(20, 10), None, zones)


def test_zone_problems() -> None:
    zones = ["." * 20 for _ in range(10)]
    zones[2] = "..AAA" + "." * 15
    zones[3] = "..AAA" + "." * 15
    zones[4] = "..AAA" + "." * 15
    zones[5] = "." * 15 + "B" + "." * 4  # one cell: no ship fits
    problems = mc.validate_map(zoned(zones), landing_rule="zones")
    got = {p.code: p for p in problems}
    assert got["zone_no_site"].rule == "FM-D47" and got["zone_no_site"].params == {"zone": "B"}
    assert got["zone_no_site"].path == "zones/B"
    assert got["zones_too_few"].params == {"found": 1, "players": 2}
    assert "landing_sites" not in got  # the zones rule does not use the distance rule
    # a second zone where a ship fits makes the map playable with zones
    for y in (4, 5, 6):
        zones[y] = "." * 14 + "BBB" + "..."
    assert mc.validate_map(zoned(zones), landing_rule="zones") == []
    assert codes(mc.validate_map(zoned(["!" * 20] * 10))) == {"zone_char": "FM-D47"}
    off = FmpMap(20, 10, ["?" + "$" * 19, *plain(20, 9)], None, ["A" + "." * 19] + ["." * 20] * 9)
    assert codes(mc.validate_map(off))["zone_offmap"] == "FM-1.1"
    assert codes(mc.validate_map(bundled_map(), landing_rule="zones")) == {"zones_missing": "FM-D47"}


def test_problems_name_path_message_rule() -> None:
    """The content model turns each problem into the workbench's Problem(path, message, rule)."""
    (p,) = mc.validate_map(FmpMap(8, 8, plain(8, 8)))
    d = p.as_dict()
    assert set(d) == {"code", "path", "message", "rule", "params", "cells"} and "ships can land" in d["message"]


def test_new_maps() -> None:
    assert mc.new_map("original").terrain == bundled_map().terrain
    gen = mc.new_map("generated", seed=7, players=3, size="small")
    assert gen.terrain == mc.new_map("generated", seed=7, players=3, size="small").terrain
    assert mc.validate_map(gen, players=3) == [] and gen.ore is None
    for shape in mc.SHAPES:
        m = mc.new_map("empty", width=30, height=20, shape=shape)
        assert (m.width, m.height) == (30, 20) and set("".join(m.terrain)) <= {"$", "?"}
        assert mc.validate_map(m) == []
    assert "?" in "".join(mc.new_map("empty", width=30, height=20, shape="round").terrain)
    with pytest.raises(ValueError):
        mc.new_map("empty", width=65, height=20)
    with pytest.raises(ValueError):
        mc.new_map("generated", players=5)
    with pytest.raises(ValueError):
        mc.new_map("../etc")


def test_spread_ore_is_the_games_lattice() -> None:
    original = bundled_map()
    board = get_board(original.width, original.height, "".join(original.terrain))
    layer = mc.spread_ore(original, 5)
    cells = {(x, y) for y, row in enumerate(layer) for x, ch in enumerate(row) if ch == "2"}
    lattices = [{board.xy(c) for c in lattice_cells(board, a, b)} for a in range(3) for b in range(3)]
    assert cells in lattices and mc.spread_ore(original, 5) == layer
    scattered = mc.spread_ore(original, 5, "random")
    spots = [(x, y) for y, row in enumerate(scattered) for x, ch in enumerate(row) if ch == "2"]
    assert len(spots) == len(cells)
    idx = {board.index(x, y) for x, y in spots}
    assert all(n not in idx for c in idx for n in board.neigh[c])  # FM-D46: never two side by side
    assert all(original.terrain[y][x] != "." for x, y in spots)
    # a game on the map with that layer has exactly that ore
    fmap = FmpMap(original.width, original.height, original.terrain, layer)
    state = GAME.initial_state(GAME.normalize_config({"map": "custom", "map_content": write_fmp(fmap).decode("cp1252")}), 3)
    assert {tuple(state.xy(u.cells[0])) for u in state.units.values() if u.kind == "ore"} == cells


def test_content_with_ore_off_the_map_is_refused() -> None:
    fmap = FmpMap(3, 2, ["?$$", "$$$"], ["2..", "..."])
    with pytest.raises(catalog.CatalogError, match="off the map"):
        content_map(write_fmp(fmap).decode("cp1252"))


def test_every_problem_is_said_in_every_language() -> None:
    """The editor shows a problem as ``wb.map.problem.<code>`` with its params, in the four languages."""
    source = Path(mc.__file__).read_text(encoding="utf-8")
    found = set(re.findall(r'MapProblem\(\s*"(\w+)"', source))
    assert found >= {"format", "no_cells", "ore_offmap", "ore_sea", "ore_empty", "landing_sites", "zones_missing",
                     "zone_char", "zone_offmap", "zone_no_site", "zones_too_few"}
    for lang in ("en", "fr", "nl", "ru"):
        texts = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        for code in found:
            assert f"wb.map.problem.{code}" in texts, (lang, code)


TERRAIN = st.sampled_from(".*%$#?")
ORE = st.sampled_from(".0235")
ZONE = st.sampled_from(".ABab")


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.integers(1, 20), st.data())
def test_export_then_import_is_identical(width: int, height: int, data: st.DataObject) -> None:
    """What the editor exports (its layers written as .fmp) reads back as the same layers, and writes the same
    text again."""
    def grid(alphabet: st.SearchStrategy[str]) -> list[str]:
        return ["".join(data.draw(st.lists(alphabet, min_size=width, max_size=width))) for _ in range(height)]

    layers = {"width": width, "height": height, "terrain": grid(TERRAIN),
              "ore": data.draw(st.none() | st.just(grid(ORE))), "zones": data.draw(st.none() | st.just(grid(ZONE)))}
    text = write_fmp(mc.as_map(layers), (2026, 11, 28, 17, 5, 0))
    back = mc.as_map(text.decode("cp1252"))
    assert mc.map_layers(back) == layers
    assert write_fmp(back, (2026, 11, 28, 17, 5, 0)) == text
