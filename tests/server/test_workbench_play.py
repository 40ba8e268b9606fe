"""The editors' "play with this set" (issue 25): a Battleship Galaxies card set and a Worlds & Suns scenario,
edited as the form edits them, validated, turned into a match configuration by the kind's declaration and played;
invalid content is refused with its problems and starts nothing; a saved set runs a balance test by its id."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.server.app import create_app
from tests.server.test_accounts import Inbox, inbox, make_client, signup  # noqa: F401 - fixture

from .conftest import browser, lenient_limits

pytestmark = [pytest.mark.workbench, pytest.mark.timeout(300)]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", ai_workers=0, limits=lenient_limits())) as c:
        yield c


def bundled(c: TestClient, key: str, name: str) -> Any:
    r = c.get(f"/api/workbench/kinds/{key}/bundled/{name}")
    assert r.status_code == 200, r.text
    return r.json()["content"]


def play(c: TestClient, key: str, content: Any) -> dict[str, Any]:
    """What the editor's "play with this set" does: the config, a match with seat 0, the computer on the others."""
    v = c.post(f"/api/workbench/validate/{key}", json={"content": content}).json()
    assert v == {"ok": True, "problems": []}
    r = c.post(f"/api/workbench/play/{key}", json={"content": content})
    assert r.status_code == 200, r.text
    config = r.json()["config"]
    game = key.split("/")[0]
    m = c.post("/api/matches", json={"game": game, "config": config, "join_seat": 0, "ai_seconds": 0.05})
    assert m.status_code == 201, m.text
    data: dict[str, Any] = m.json()
    for seat in data["match"]["seats"]:
        if seat["seat"] != 0 and seat["kind"] == "open":
            r = c.post(f"/api/matches/{data['match']['id']}/seats/{seat['seat']}/ai",
                       json={"token": data["token"], "by_seat": 0})
            assert r.status_code == 200, r.text
    state = c.get(f"/api/matches/{data['match']['id']}/state", headers={"X-Seat-Token": data["token"]})
    assert state.status_code == 200, state.text
    return {"config": config, "match": data["match"], "state": state.json()}


def test_a_galaxies_card_set_edited_and_played(client: TestClient) -> None:
    pack = bundled(client, "galaxies/packs", "house")
    ship = pack["ships"][0]
    ship["name"] = "ISN Everest Refit"
    ship["versions"]["standard"]["hull"] += 1
    out = play(client, "galaxies/packs", pack)
    assert out["config"]["pack_content"]["ships"][0]["name"] == "ISN Everest Refit"
    assert out["match"]["status"] in ("open", "running")


def test_a_worlds_scenario_edited_and_played(client: TestClient) -> None:
    scenario = bundled(client, "worlds/scenarios", "s1-example")
    scenario["label"] = "A border skirmish, edited"
    out = play(client, "worlds/scenarios", scenario)
    assert out["config"]["scenario_json"]["label"] == "A border skirmish, edited"


def test_invalid_content_starts_nothing(client: TestClient) -> None:
    before = len(client.get("/api/matches").json())
    pack = bundled(client, "galaxies/packs", "house")
    bad = copy.deepcopy(pack)
    bad["ships"][0]["versions"]["standard"]["hull"] = -3
    r = client.post("/api/workbench/play/galaxies/packs", json={"content": bad})
    assert r.status_code == 422 and r.json()["error"]["problems"]
    assert client.post("/api/workbench/play/nope/nothing", json={"content": {}}).status_code == 404
    assert client.post("/api/workbench/play/galaxies/packs", json={"content": "x" * 2_000_000}).status_code == 413
    assert len(client.get("/api/matches").json()) == before


def test_a_saved_set_is_balance_tested_by_its_id_and_a_private_one_is_hidden(sqlite_url: str,
                                                                              inbox: tuple[Inbox, int]) -> None:  # noqa: F811
    with make_client(sqlite_url, inbox[1]) as c:
        h = {"X-CSRF-Token": signup(c, inbox[0], 0, "designer@example.org", "designer")}
        doc = c.get("/api/workbench/kinds/tremble/card_sets/bundled/house").json()["content"]
        doc["ships"][1]["price"] = 10000
        r = c.post("/api/workbench/sets", json={"game": "tremble", "kind": "card_sets", "name": "cheap-watch",
                                                "content": doc}, headers=h)
        assert r.status_code == 201, r.text
        set_id = r.json()["id"]
        body = {"game": "tremble", "kind": "card_sets", "set_id": set_id, "games": 2, "players": 2, "ai": "random"}
        # signed in: a state-changing request without the page's CSRF token is refused
        assert c.post("/api/workbench/runs", json=body).status_code == 403
        r = c.post("/api/workbench/runs", json=body, headers=h)
        assert r.status_code == 202, r.text
        run_id = r.json()["id"]
        c.portal.call(c.app.state.workbench_runs.wait, run_id)  # type: ignore[union-attr]
        assert c.get(f"/api/workbench/runs/{run_id}").json()["state"] == "done"
        # somebody else (signed out): the private set is not found, nothing runs
        other = browser(c)
        r = other.post("/api/workbench/runs", json=body)
        assert r.status_code == 404
        # and the run is its starter's to cancel
        mine = c.post("/api/workbench/runs", json={**body, "games": 500, "seed": 7}, headers=h).json()["id"]
        assert other.delete(f"/api/workbench/runs/{mine}").status_code == 403
        assert c.delete(f"/api/workbench/runs/{mine}", headers=h).json()["state"] == "cancelled"
