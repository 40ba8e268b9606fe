"""The workbench API (issue 25): kinds, schemas, bundled entries, validation; sets stored per account (owner,
visibility, 404), export and import (identical round trip, size caps, names never paths), a match started with a
set, a player's public sets on their profile."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import browser
from tests.server.test_accounts import Inbox, inbox, make_client, signup  # noqa: F401 - fixture

pytestmark = pytest.mark.workbench


@pytest.fixture
def web(sqlite_url: str, inbox: tuple[Inbox, int]) -> Iterator[TestClient]:  # noqa: F811
    with make_client(sqlite_url, inbox[1]) as c:
        yield c


def second(c: TestClient, box: Inbox, n: int, name: str) -> tuple[TestClient, dict[str, str]]:
    other = browser(c)
    return other, {"X-CSRF-Token": signup(other, box, n, f"{name}@example.org", name)}


def tremble_house(c: TestClient) -> dict[str, Any]:
    r = c.get("/api/workbench/kinds/tremble/card_sets/bundled/house")
    assert r.status_code == 200, r.text
    return dict(r.json()["content"])


def stored(c: TestClient, h: dict[str, str]) -> int:
    return len(c.get("/api/workbench/sets", headers=h).json()["mine"])


def test_kinds_schema_bundled_validate(web: TestClient) -> None:
    kinds = {k["key"]: k for k in web.get("/api/workbench/kinds").json()}
    assert set(kinds) >= {"tremble/card_sets", "galaxies/packs", "worlds/scenarios", "fullmetal/maps"}
    for key in kinds:
        game, kind = key.split("/")
        schema = web.get(f"/api/workbench/kinds/{game}/{kind}/schema").json()
        assert schema["type"] == "object" and schema["properties"] and schema["x-kind"] == key
        names = [e["name"] for e in web.get(f"/api/workbench/kinds/{game}/{kind}/bundled").json()]
        assert names
        doc = web.get(f"/api/workbench/kinds/{game}/{kind}/bundled/{names[0]}").json()["content"]
        assert web.post(f"/api/workbench/validate/{game}/{kind}", json={"content": doc}).json() == {"ok": True,
                                                                                                  "problems": []}
    assert web.get("/api/workbench/kinds/tremble/nope/schema").status_code == 404
    assert web.get("/api/workbench/kinds/fullmetal/maps/bundled/..%2F..%2Fetc").status_code in (404, 422)
    doc = tremble_house(web)
    doc["ships"][1]["price"] = -10000
    doc["ships"][2]["laser"] = True
    out = web.post("/api/workbench/validate/tremble/card_sets", json={"content": doc}).json()
    assert not out["ok"]
    paths = {p["path"]: p for p in out["problems"]}
    assert paths["ships[1].price"]["rule"] == "TH-C2" and "multiple of 10,000" in paths["ships[1].price"]["message"]
    assert "ships[2].laser" in paths


def test_sets_owner_visibility_export_import(web: TestClient, inbox: tuple[Inbox, int]) -> None:  # noqa: F811
    box = inbox[0]
    h = {"X-CSRF-Token": signup(web, box, 0, "ana@example.org", "ana")}
    doc = tremble_house(web)
    doc["ships"][1]["price"] = 30000
    r = web.post("/api/workbench/sets", json={"game": "tremble", "kind": "card_sets", "name": "dear_watch",
                                              "content": doc}, headers=h)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    assert web.post("/api/workbench/sets", json={"game": "tremble", "kind": "card_sets", "name": "dear_watch",
                                                 "content": doc}, headers=h).status_code == 409
    assert web.post("/api/workbench/sets", json={"game": "tremble", "kind": "card_sets", "name": "x",
                                                 "content": doc}).status_code in (401, 403)
    mine = web.get("/api/workbench/sets", headers=h).json()["mine"]
    assert [s["id"] for s in mine] == [sid] and mine[0]["public"] is False
    assert web.get(f"/api/workbench/sets/{sid}").json()["content"] == doc

    bob, hb = second(web, box, 1, "bob")
    assert bob.get(f"/api/workbench/sets/{sid}").status_code == 404
    assert bob.get("/api/workbench/sets").json() == {"mine": [], "public": []}
    assert bob.put(f"/api/workbench/sets/{sid}", json={"public": True}, headers=hb).status_code == 404
    assert bob.delete(f"/api/workbench/sets/{sid}", headers=hb).status_code == 404
    assert bob.get(f"/api/workbench/sets/{sid}/export").status_code == 404
    assert web.get("/api/workbench/players/ana/sets").json() == []

    assert web.put(f"/api/workbench/sets/{sid}", json={"public": True}, headers=h).status_code == 200
    assert [s["id"] for s in bob.get("/api/workbench/sets").json()["public"]] == [sid]
    assert [s["name"] for s in bob.get("/api/workbench/players/ana/sets").json()] == ["dear_watch"]
    assert bob.put(f"/api/workbench/sets/{sid}", json={"name": "mine_now"}, headers=hb).status_code == 404

    exported = bob.get(f"/api/workbench/sets/{sid}/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    env = exported.json()
    assert env == {"spacetable": "set", "game": "tremble", "kind": "card_sets", "name": "dear_watch", "content": doc}
    r = bob.post("/api/workbench/import", content=exported.content, headers={**hb, "Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    again = bob.get(f"/api/workbench/sets/{r.json()['id']}/export")
    assert again.content == exported.content  # the round trip is identical, byte for byte

    # a path in a name, invalid content, a 10 MB upload: refused with the reason, nothing stored
    before = stored(bob, hb)
    for bad in ("../../etc/passwd", "a/b", "..", "x" * 65):
        r = bob.post("/api/workbench/import", json={**env, "name": bad}, headers=hb)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name", r.text
    broken = copy.deepcopy(doc)
    broken["stations"][0]["price"] = -20000
    broken["armies"][0]["colour"] = "green"
    r = bob.post("/api/workbench/import", json={**env, "content": broken}, headers=hb)
    assert r.status_code == 422
    problems = {p["path"] for p in r.json()["error"]["problems"]}
    assert problems >= {"stations[0].price", "armies[0].colour"}
    big = b'{"spacetable": "set", "game": "tremble", "kind": "card_sets", "name": "big", "content": "' + \
        b"x" * (10 * 1024 * 1024) + b'"}'
    r = bob.post("/api/workbench/import", content=big, headers={**hb, "Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    r = bob.post("/api/workbench/sets", json={"game": "tremble", "kind": "card_sets", "name": "big",
                                              "content": {"set": "y" * (600 * 1024)}}, headers=hb)
    assert r.status_code == 413
    assert stored(bob, hb) == before

    assert web.delete(f"/api/workbench/sets/{sid}", headers=h).status_code == 200
    assert bob.get(f"/api/workbench/sets/{sid}").status_code == 404


def test_map_exports_as_fmp_and_imports_identical(web: TestClient, inbox: tuple[Inbox, int]) -> None:  # noqa: F811
    h = {"X-CSRF-Token": signup(web, inbox[0], 0, "cyd@example.org", "cyd")}
    doc = web.get("/api/workbench/kinds/fullmetal/maps/bundled/original").json()["content"]
    doc["terrain"][0] = "#" + doc["terrain"][0][1:]
    sid = web.post("/api/workbench/sets", json={"game": "fullmetal", "kind": "maps", "name": "peak", "content": doc},
                   headers=h).json()["id"]
    fmp = web.get(f"/api/workbench/sets/{sid}/export?format=fmp")
    assert fmp.status_code == 200 and fmp.content.startswith(b"<FMP") and 'peak.fmp' in fmp.headers["content-disposition"]
    r = web.post("/api/workbench/import?game=fullmetal&kind=maps&name=peak_again", content=fmp.content,
                 headers={**h, "Content-Type": "application/octet-stream"})
    assert r.status_code == 201, r.text
    assert web.get(f"/api/workbench/sets/{r.json()['id']}").json()["content"] == doc
    check = web.post("/api/workbench/import/check?game=fullmetal&kind=maps&name=look", content=b"<FMP>\r\nnonsense",
                     headers={"Content-Type": "text/plain"})
    assert check.status_code == 422 and check.json()["error"]["problems"]
    assert web.get(f"/api/workbench/sets/{sid}/export?format=fmp").content == fmp.content
    tremble = web.post("/api/workbench/sets", json={"game": "tremble", "kind": "card_sets", "name": "t",
                                                    "content": tremble_house(web)}, headers=h).json()["id"]
    assert web.get(f"/api/workbench/sets/{tremble}/export?format=fmp").status_code == 422


def test_match_started_with_a_set(web: TestClient, inbox: tuple[Inbox, int]) -> None:  # noqa: F811
    box = inbox[0]
    h = {"X-CSRF-Token": signup(web, box, 0, "dina@example.org", "dina")}
    doc = tremble_house(web)
    watch = next(i for i, s in enumerate(doc["ships"]) if s["id"] == "watch_saucer")
    doc["ships"][watch]["strength"] = 9
    sid = web.post("/api/workbench/sets", json={"game": "tremble", "kind": "card_sets", "name": "strong_watch",
                                                "content": doc}, headers=h).json()["id"]
    r = web.post("/api/matches", json={"game": "tremble", "config": {"players": 2}, "content_set": sid,
                                       "ai_seats": {"1": None}, "join_seat": 0})
    assert r.status_code == 201, r.text
    mid = r.json()["match"]["id"]
    cfg = web.get(f"/api/matches/{mid}/config").json()
    assert cfg["card_set"] == "custom" and cfg["card_set_content"]["ships"][watch]["strength"] == 9
    # somebody else's private set is not found; a set of another game is refused
    bob, _hb = second(web, box, 1, "eve")
    r = bob.post("/api/matches", json={"game": "tremble", "config": {"players": 2}, "content_set": sid})
    assert r.status_code == 404
    r = web.post("/api/matches", json={"game": "fullmetal", "content_set": sid})
    assert r.status_code == 422
    assert web.post("/api/matches", json={"game": "tremble", "content_set": "../x"}).status_code == 404
    # the account's own creation route takes it too
    r = web.post("/api/account/matches", json={"game": "tremble", "config": {"players": 2}, "content_set": sid},
                 headers=h)
    assert r.status_code == 201, r.text
    json.dumps(r.json())


def test_migration_0009_up_down_up_and_sets_on_both_databases(db_url: str, inbox: tuple[Inbox, int]) -> None:  # noqa: F811
    """The table of migration 0009 on SQLite and PostgreSQL: a set stored, listed and gone with its account."""
    import sqlalchemy as sa

    from spacetable.server.db import make_engine
    from tests.server.test_accounts_migration import alembic

    engine = make_engine(db_url)
    try:
        alembic(engine, "upgrade", "head")
        assert "workbench_sets" in sa.inspect(engine).get_table_names()
        alembic(engine, "downgrade", "0005")
        assert "workbench_sets" not in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
    with make_client(db_url, inbox[1]) as c:
        h = {"X-CSRF-Token": signup(c, inbox[0], 0, "gil@example.org", "gil")}
        doc = c.get("/api/workbench/kinds/worlds/scenarios/bundled/s1-example").json()["content"]
        doc["max_rounds"] = 4
        sid = c.post("/api/workbench/sets", json={"game": "worlds", "kind": "scenarios", "name": "short",
                                                  "content": doc, "public": True}, headers=h).json()["id"]
        assert [s["id"] for s in browser(c).get("/api/workbench/sets?game=worlds").json()["public"]] == [sid]
        assert c.get("/api/workbench/sets?game=tremble").json()["mine"] == []
        exported = c.get("/api/account/export").json()["workbench_sets"]
        assert [(s["name"], s["public"], s["content"]) for s in exported] == [("short", True, doc)]
        r = c.post("/api/account/delete", json={"confirm": "gil"}, headers=h)
        assert r.status_code == 200, r.text
        assert browser(c).get(f"/api/workbench/sets/{sid}").status_code == 404


def test_checks_are_rate_limited(sqlite_url: str) -> None:
    """The workbench's checks (validate, reading a file) count against the checks' rate limit, like the legal
    list's: a flood gets 429 with Retry-After, not the server's time."""
    with make_client(sqlite_url, None, rate_check="3/minute") as c:
        doc = tremble_house(c)
        codes = [c.post("/api/workbench/validate/tremble/card_sets", json={"content": doc}).status_code
                 for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = c.post("/api/workbench/import/check", content=b"{}")
        assert r.status_code == 429 and r.headers.get("retry-after")
