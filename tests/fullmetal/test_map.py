"""Map, .fmp format, terrain and tides (FM-1, FM-2, FM-3, FM-7.1, FM-7.2 writing)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.games.fullmetal.cli import state_map
from spacetable.games.fullmetal.fmp import FmpError, FmpMap, bundled_map, parse_fmp, write_fmp
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.mapgen import generate_map, landing_sites
from spacetable.games.fullmetal.terrain import MOUNTAIN, PLAIN, REEF, SEA, SWAMP, get_board, land_at
from spacetable.games.fullmetal.tides import DECK, draw_tide, forecast


@pytest.mark.rule("FM-1.6", "FM-D1")
def test_fm_1_6_bundled_map_counts() -> None:
    """FM-1.6: 36x23 = 828 cells: plain 381, sea 231, swamp 100, mountain 71, reef 45."""
    m = bundled_map()
    assert (m.width, m.height) == (36, 23)
    assert m.counts() == {"$": 381, ".": 231, "%": 100, "#": 71, "*": 45}


def test_fm_7_2_round_trip_and_header() -> None:
    """Map files, writing: CRLF, cp1252, Format=4 Version 2.3.7 spacetable, French month; exact round trip."""
    m = bundled_map()
    m.ore = ["." * m.width for _ in range(m.height)]
    m.ore[3] = "2" + "." * (m.width - 1)
    m.zones = ["A" * m.width for _ in range(m.height)]
    data = write_fmp(m, (2010, 10, 26, 16, 27, 39))
    assert data.startswith(b'<FMP Format=4 Version="2.3.7 spacetable" Date="26 Octobre 2010" Heure="16:27:39">\r\n')
    back = parse_fmp(data)
    assert back.terrain == m.terrain and back.ore == m.ore and back.zones == m.zones
    assert write_fmp(back, (2010, 10, 26, 16, 27, 39)) == data
    assert "Février".encode("cp1252") in write_fmp(m, (2020, 2, 1, 0, 0, 0))


def test_fm_7_1_parser_errors_and_padding() -> None:
    """Map files, reading: bad characters and wrong row counts are errors; short rows are padded with a warning;
    long sizes parse."""
    with pytest.raises(FmpError):
        parse_fmp("<FMP Format=4>\n<CARTE Lignes=2 Colonnes=3>\n$$x\n$$$\n</CARTE>\n</FMP>\n")
    with pytest.raises(FmpError):
        parse_fmp("<FMP Format=4>\n<CARTE Lignes=3 Colonnes=3>\n$$$\n$$$\n</CARTE>\n</FMP>\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = parse_fmp("<FMP Format=4>\n<CARTE Lignes=2 Colonnes=3>\n$$\n$$$\n</CARTE>\n<FOO>\nbar\n</FOO>\n</FMP>\n")
    assert m.terrain[0] == "$$?"
    assert len(caught) >= 2
    big = "<FMP Format=4>\r\n<CARTE Lignes=1 Colonnes=120>\r\n" + "$" * 120 + "\r\n</CARTE>\r\n</FMP>\r\n"
    assert parse_fmp(big.encode("cp1252")).width == 120
    assert isinstance(m, FmpMap)


@pytest.mark.rule("FM-2.1")
def test_fm_2_1_tide_table() -> None:
    """FM-2.1: reef is land only at low tide; swamp is sea only at high tide."""
    assert [land_at(REEF, t) for t in ("low", "normal", "high")] == [True, False, False]
    assert [land_at(SWAMP, t) for t in ("low", "normal", "high")] == [True, True, False]
    assert all(land_at(PLAIN, t) and land_at(MOUNTAIN, t) and not land_at(SEA, t) for t in ("low", "normal", "high"))


@pytest.mark.rule("FM-1.1")
def test_fm_1_2_off_map_cells_have_no_neighbours() -> None:
    """FM-1.1: '?' cells do not exist."""
    b = get_board(3, 3, "$?$" + "$$$" + "$$$")
    assert b.index(1, 0) == -1
    assert all(n != 1 for c in b.cells for n in b.neigh[c])


@pytest.mark.rule("FM-3.1", "FM-D6")
def test_fm_3_1_lattice_ore_count() -> None:
    """FM-3.1: a spacing-3 lattice gives 62-75 ore on original.fmp, never on sea."""
    counts = set()
    for seed in range(12):
        s = GAME.initial_state(GAME.normalize_config({}), seed)
        ores = [u for u in s.units.values() if u.kind == "ore"]
        assert all(s.board.terrain[u.cells[0]] != 0 for u in ores)
        counts.add(len(ores))
    assert min(counts) >= 62 and max(counts) <= 75


@pytest.mark.rule("FM-2.3")
def test_fm_2_3_deck_reshuffles_at_turns_11_and_19() -> None:
    """FM-2.3 / S-35: 9 cards for turns 3-11, then 8 after reshuffles at 11 and 19."""
    s = GAME.initial_state(GAME.normalize_config({}), 3)
    assert len(s.pile) == 9 and len(s.aside) == 6
    assert sorted(s.pile + s.aside) == sorted(DECK)
    sizes = {}
    for turn in range(3, 21):
        s.turn = turn
        draw_tide(s)
        sizes[turn] = len(s.pile)
    assert sizes[10] == 1 and sizes[11] == 8 and sizes[18] == 1 and sizes[19] == 8
    assert len(s.aside) == 6


@pytest.mark.rule("FM-2.6")
def test_fm_2_6_random_walk_forecasts_are_right() -> None:
    """FM-2.6: random-walk tides are fixed when first forecast, so forecasts come true."""
    s = GAME.initial_state(GAME.normalize_config({"tide_generator": "random_walk", "forecast": "max2"}), 5)
    ship = s.units[s.ships[0]]
    ship.cells = [s.board.index(5, 10)]
    wl = next(u for u in s.units.values() if u.kind == "wl" and u.colour == 0)
    ship.cargo.remove(wl.id)
    wl.carrier = -1
    wl.cells = [s.board.index(1, 1)]
    s.order = [0, 1]
    s.turn = 5
    forecast(s)
    seen = dict(s.forecasts[0])
    assert seen
    draw_tide(s)
    assert s.tide == seen[6]


def test_mapgen_deterministic_mix_and_playable() -> None:
    """Generated maps (rules doc): same seed, same map; terrain mix within ±5 points; landing sites for 2-4 players."""
    target = {".": 0.28, "*": 0.054, "%": 0.12, "$": 0.46, "#": 0.086}
    for players in (2, 3, 4):
        m = generate_map(11, players)
        assert m.terrain == generate_map(11, players).terrain
        n = m.width * m.height
        assert abs(n / players - 213) < 25
        for ch, share in target.items():
            assert abs(m.counts().get(ch, 0) / n - share) <= 0.05
        assert landing_sites(m, players) is not None
    s = GAME.initial_state(GAME.normalize_config({"map": "generated", "map_seed": 5}), 1)
    assert s.map_name == "generated:5"
    assert any(u.kind == "ore" for u in s.units.values())


def test_fmp_export_and_play_from_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Map export of a game's map with its ore layer; `map=custom` plays its text; REPARTITION overrides FM-3.1."""
    s = GAME.initial_state(GAME.normalize_config({}), 4)
    path = tmp_path / "m.fmp"
    path.write_bytes(write_fmp(state_map(s)))
    s2 = GAME.initial_state(GAME.normalize_config({"map": "custom", "map_content": path.read_bytes().decode("cp1252")}), 99)
    ore1 = sorted(u.cells[0] for u in s.units.values() if u.kind == "ore")
    ore2 = sorted(u.cells[0] for u in s2.units.values() if u.kind == "ore")
    assert ore1 == ore2 and s2.terrain == s.terrain


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(1, 30), st.data())
def test_fmp_round_trip_property(width: int, height: int, data: st.DataObject) -> None:
    """Map files: any terrain, ore and zone layers survive write + parse exactly (any size, any digits)."""
    def grid(alphabet: str) -> st.SearchStrategy[list[str]]:
        return st.lists(st.text(alphabet=alphabet, min_size=width, max_size=width), min_size=height, max_size=height)

    terrain = data.draw(grid(".*%$#?"))
    ore = data.draw(st.none() | grid(".0235"))
    zones = data.draw(st.none() | grid(".ABab"))
    m = FmpMap(width, height, terrain, ore, zones)
    back = parse_fmp(write_fmp(m, (2024, 12, 31, 23, 59, 1)))
    assert (back.width, back.height, back.terrain, back.ore, back.zones) == (width, height, terrain, ore, zones)
