"""Balance runs of Battleship Galaxies packs through the API (issue 25, goal 3): an edited pack's games beside the
house pack's with the same seeds, the records those of :func:`spacetable.games.galaxies.balance.play_one`, the
figures in the shape the browser's panel reads; an invalid pack refused with its reason."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.games.galaxies import balance
from spacetable.games.galaxies.packs import HOUSE_LABEL, _bundled_document

from .test_workbench_runs import make_client, runs_stored, wait

pytestmark = [pytest.mark.workbench, pytest.mark.timeout(300)]


def edited() -> dict[str, Any]:
    doc = copy.deepcopy(_bundled_document("house"))
    ship = next(s for s in doc["ships"] if s["key"] == "f47")
    ship["versions"]["standard"]["hull"] += 3
    doc["pack_id"] = "tough-f47"
    return doc


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "gx.sqlite3", per_user=2, max_games=200) as c:
        yield c


def test_a_galaxies_pack_run_from_the_api_finishes_with_figures(client: TestClient) -> None:
    spec = next(k for k in client.get("/api/workbench/runs/kinds").json() if k["key"] == "galaxies/packs")
    assert spec["default_ai"] == "greedy" and spec["players"] == [2, 4, 2] and spec["bundled"] == "house"
    r = client.post("/api/workbench/runs", json={"game": "galaxies", "kind": "packs", "content": edited(), "games": 3,
                                               "seed": 4})
    assert r.status_code == 202, r.text
    run = r.json()
    assert run["total"] == 6 and run["params"]["ai"] == "greedy" and run["params"]["players"] == 2
    done = wait(client, run["id"])
    assert done["state"] == "done" and done["done"] == 6
    games = client.get(f"/api/workbench/runs/{run['id']}/games").json()
    key = balance.content_key(edited())
    assert games["games"] == [balance.play_one(t) for t in balance.tasks(2, 3, 4, "greedy", key)]
    assert [g["seed"] for g in games["bundled"]] == [g["seed"] for g in games["games"]]
    res, bun = done["result"], done["bundled"]
    assert res["card_set"] == "tough-f47 (owner pack)" and bun["card_set"] == HOUSE_LABEL
    assert res == balance.summarize(games["games"], res["card_set"])
    for s in (res, bun):
        assert s["games"] == 3 and len(s["seat_win_rate"]) == len(s["seat_win_ci"]) == 2
        assert "f47" in s["purchase_rate"] and all(0 < v <= 1 for v in s["purchase_rate"].values())
        assert set(s["win_when_bought_ci"]) == set(s["purchase_rate"])
        assert sum(s["length_histogram"]["counts"]) == 3 and s["actions_per_game"] > 0


def test_an_invalid_pack_is_refused_with_its_reason_and_nothing_is_stored(client: TestClient) -> None:
    bad = edited()
    bad["ships"][0]["versions"]["standard"]["hull"] = -1
    r = client.post("/api/workbench/runs", json={"game": "galaxies", "kind": "packs", "content": bad, "games": 3})
    assert r.status_code == 422 and "hull" in r.text
    r = client.post("/api/workbench/runs", json={"game": "galaxies", "kind": "packs", "content": edited(), "games": 3,
                                               "ai": "tactician-hard"})
    assert r.status_code == 422 and "greedy" in r.json()["error"]["message"]
    assert runs_stored(client) == 0
