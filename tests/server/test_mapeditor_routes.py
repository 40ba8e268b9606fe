"""The map editor's API (/api/workbench/fullmetal/map/*, issue 25): starting maps, live checks with rule ids, ore spreading,
.fmp import and export (the same map back), bounded and schema-checked bodies, and a match played on the map."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spacetable.games.fullmetal.fmp import bundled_map
from spacetable.games.fullmetal.mapcheck import map_layers
from spacetable.server.app import create_app

from .conftest import lenient_limits
from .test_accounts import Inbox, inbox, make_client, signup  # noqa: F401 - fixture

pytestmark = pytest.mark.workbench


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 's.sqlite3'}", ai_workers=0, limits=lenient_limits())
    with TestClient(app) as client:
        yield client


def test_page_and_start_maps(c: TestClient) -> None:
    assert c.get("/workbench/map").status_code == 200
    original = c.post("/api/workbench/fullmetal/map/new", json={"source": "original"}).json()["map"]
    assert original == map_layers(bundled_map())
    seeded = {"source": "generated", "seed": 4, "players": 3, "size": "small"}
    gen = c.post("/api/workbench/fullmetal/map/new", json=seeded).json()
    assert gen == c.post("/api/workbench/fullmetal/map/new", json=seeded).json()
    shaped = {"source": "empty", "width": 20, "height": 12, "shape": "hexagon"}
    empty = c.post("/api/workbench/fullmetal/map/new", json=shaped).json()["map"]
    assert (empty["width"], empty["height"], empty["ore"]) == (20, 12, None)
    for bad in ({"source": "empty", "width": 65}, {"source": "/etc/passwd"}, {"source": "original", "extra": 1},
                {"source": "generated", "players": 9}):
        r = c.post("/api/workbench/fullmetal/map/new", json=bad)
        assert r.status_code == 422 and "error" in r.json()


def test_check_names_problems_with_rules(c: TestClient) -> None:
    m = map_layers(bundled_map())
    ok = c.post("/api/workbench/fullmetal/map/check", json={"map": m, "players": 4}).json()
    assert ok["ok"] and ok["problems"] == [] and ok["stats"]["terrain"]["plain"] == 381
    tiny = {"width": 8, "height": 8, "terrain": ["$" * 8] * 8, "ore": None, "zones": None}
    bad = c.post("/api/workbench/fullmetal/map/check", json={"map": tiny}).json()
    assert not bad["ok"] and [(p["code"], p["rule"]) for p in bad["problems"]] == [("landing_sites", "FM-7.2")]
    zones = c.post("/api/workbench/fullmetal/map/check", json={"map": m, "landing_rule": "zones"}).json()
    assert [p["rule"] for p in zones["problems"]] == ["FM-D47"]
    ragged = {**tiny, "terrain": ["$" * 8] * 7 + ["$" * 7]}
    assert c.post("/api/workbench/fullmetal/map/check", json={"map": ragged}).status_code == 422
    letters = {**tiny, "terrain": ["$" * 7 + "x"] + ["$" * 8] * 7}
    assert c.post("/api/workbench/fullmetal/map/check", json={"map": letters}).status_code == 422
    huge = {"width": 65, "height": 1, "terrain": ["$" * 65]}
    assert c.post("/api/workbench/fullmetal/map/check", json={"map": huge}).status_code == 422


def test_spread_export_import_identical(c: TestClient) -> None:
    m = map_layers(bundled_map())
    ore = c.post("/api/workbench/fullmetal/map/spread", json={"map": m, "seed": 3}).json()["ore"]
    assert len(ore) == 23 and sum(row.count("2") for row in ore) in range(62, 76)
    m = {**m, "ore": ore}
    m["terrain"][5] = "." * 36  # a painted row of sea: the ore there is the editor's to clear
    text = c.post("/api/workbench/fullmetal/map/write", json={"map": m}).json()["fmp"]
    assert text.startswith('<FMP Format=4 Version="2.3.7 spacetable"') and "\r\n<REPARTITION" in text
    assert c.post("/api/workbench/fullmetal/map/read", json={"fmp": text}).json()["map"] == m
    r = c.post("/api/workbench/fullmetal/map/read", json={"fmp": "<FMP>\n<CARTE Lignes=1 Colonnes=1>\nZ\n</CARTE>\n</FMP>"})
    assert r.status_code == 422 and "bad character" in r.json()["error"]["message"]
    assert c.post("/api/workbench/fullmetal/map/read", json={"fmp": "x" * (129 * 1024)}).status_code == 422
    wide = "<FMP>\n<CARTE Lignes=1 Colonnes=100>\n" + "$" * 100 + "\n</CARTE>\n</FMP>"
    r = c.post("/api/workbench/fullmetal/map/read", json={"fmp": wide})
    assert r.status_code == 422 and "at most 64" in r.json()["error"]["message"]


def test_play_the_map_against_the_computer(c: TestClient) -> None:
    m = {**map_layers(bundled_map())}
    m["terrain"] = [row.replace("#", "$") for row in m["terrain"]]  # a painted map: no mountains left
    text = c.post("/api/workbench/fullmetal/map/write", json={"map": m}).json()["fmp"]
    r = c.post("/api/matches", json={"game": "fullmetal", "config": {"map": "custom", "map_content": text, "players": 2},
                                     "ai_seats": {"1": "greedy"}, "join_seat": 0})
    assert r.status_code == 201, r.text
    mid, token = r.json()["match"]["id"], r.json()["token"]
    snap = c.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": token}).json()
    assert "#" not in "".join(snap["view"]["terrain"])
    # a map the configured game cannot be played on is refused with the rule, and no match is made
    tiny = {"width": 8, "height": 8, "terrain": ["$" * 8] * 8}
    text = c.post("/api/workbench/fullmetal/map/write", json={"map": tiny}).json()["fmp"]
    r = c.post("/api/matches", json={"game": "fullmetal", "config": {"map": "custom", "map_content": text}})
    assert r.status_code == 422 and "(FM-7.2)" in r.json()["error"]["message"]
    assert len(c.get("/api/matches").json()) == 1


def test_a_map_whose_landing_zone_holds_no_ship_is_not_stored(sqlite_url: str, inbox: tuple[Inbox, int]) -> None:  # noqa: F811
    """The fullmetal/maps kind checks the map rules: a set whose zone B holds no ship (FM-D47) or on which no two
    ships can land (FM-7.2) is refused with the reasons and nothing is stored."""
    with make_client(sqlite_url, inbox[1]) as web:
        h = {"X-CSRF-Token": signup(web, inbox[0], 0, "maps@example.org", "maps")}
        doc = {k: v for k, v in map_layers(bundled_map()).items() if v is not None}
        zones = ["." * 36 for _ in range(23)]
        for y in (10, 11, 12):
            zones[y] = "." * 4 + "AAA" + "." * 29
        zones[4] = "." * 10 + "B" + "." * 25  # sea: no ship lands there
        r = web.post("/api/workbench/sets", headers=h,
                     json={"game": "fullmetal", "kind": "maps", "name": "zoned", "content": {**doc, "zones": zones},
                           "public": False})
        assert r.status_code == 422, r.text
        assert ("zones/B", "FM-D47") in {(p["path"], p["rule"]) for p in r.json()["error"]["problems"]}
        tiny = {"width": 8, "height": 8, "terrain": ["$" * 8] * 8}
        r = web.post("/api/workbench/sets", headers=h,
                     json={"game": "fullmetal", "kind": "maps", "name": "tiny", "content": tiny, "public": False})
        assert r.status_code == 422 and [p["rule"] for p in r.json()["error"]["problems"]] == ["FM-7.2"]
        assert web.get("/api/workbench/sets", headers=h).json()["mine"] == []
        ok = web.post("/api/workbench/sets", headers=h,
                      json={"game": "fullmetal", "kind": "maps", "name": "fine", "content": doc, "public": False})
        assert ok.status_code == 201
        fmp = web.get(f"/api/workbench/sets/{ok.json()['id']}/export", params={"format": "fmp"}, headers=h).text
        assert web.post("/api/workbench/fullmetal/map/read", json={"fmp": fmp}).json()["map"] == map_layers(bundled_map())


def test_the_editor_is_the_games_own_and_a_game_without_one_is_refused(c: TestClient) -> None:
    from spacetable.games import get_game

    hooks = get_game("fullmetal").map_hooks()
    assert hooks is not None and [t.name for t in hooks.tools] == ["new", "check", "spread", "read", "write"]
    assert get_game("tremble").map_hooks() is None
    for path, code in (("/api/workbench/tremble/map/new", "wb_no_map_editor"),
                       ("/api/workbench/fullmetal/map/erase", "wb_no_map_tool"),
                       ("/api/workbench/nogame/map/new", "unknown_game")):
        r = c.post(path, json={"source": "original"})
        assert r.status_code == 404 and r.json()["error"]["code"] == code, r.text
    assert "Tremble" in c.post("/api/workbench/tremble/map/new", json={}).json()["error"]["message"]
    assert c.post("/api/workbench/fullmetal/map/new", json=[1]).status_code == 422  # a body that is no object


def test_the_server_names_no_game() -> None:
    import re

    import spacetable.server

    root = Path(spacetable.server.__file__).parent
    named = [f"{p.relative_to(root)}:{n}" for p in sorted(root.rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"games\.(fullmetal|tremble|galaxies|worlds|arena)", line)]
    assert named == []
