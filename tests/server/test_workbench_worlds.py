"""Worlds & Suns scenarios in the designer's workbench (issue 25): balance runs of a scenario (the game's
:class:`~spacetable.core.hooks.BalanceHooks`: seeded records, ``spacetable simulate worlds``, figures in the shape the
browser's balance panel draws), and scenarios of the operator's data folder chosen by name."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable.cli import main
from spacetable.core import catalog
from spacetable.core.errors import ConfigError
from spacetable.games import get_game
from spacetable.games.worlds import balance
from spacetable.games.worlds import scenario as scen
from spacetable.server.app import create_app

from .conftest import create, lenient_limits

pytestmark = [pytest.mark.workbench, pytest.mark.timeout(300)]


def edited() -> dict[str, Any]:
    """The bundled scenario with grey's Population on X.w1 tripled and white's energy raised."""
    doc = copy.deepcopy(scen.named(balance.BUNDLED))
    doc["systems"][0]["worlds"][0]["pieces"]["grey"]["P"] = 3
    doc["energy"]["white"] = 2
    return doc


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    data = tmp_path / "data"
    (data / "worlds" / "scenarios").mkdir(parents=True)
    doc = edited()
    doc["id"], doc["label"] = "grey-holds", "Grey holds the world"
    (data / "worlds" / "scenarios" / "grey-holds.json").write_text(json.dumps(doc), encoding="utf-8")
    (data / "worlds" / "scenarios" / "broken.json").write_text(json.dumps({**doc, "max_rounds": 0}), encoding="utf-8")
    yield data
    catalog.configure(None)


@pytest.mark.hotpath
def test_a_scenario_rewritten_in_place_is_read_and_validated_again_and_each_lookup_returns_its_own_document(
        data_dir: Path) -> None:
    """Set-ups validate a scenario's content once (issue 26) but read its file each time: an entry the operator
    rewrites under the same name is what the next match gets, and a broken one is refused until it is mended."""
    catalog.configure(data_dir)
    first = scen.named("grey-holds")
    first["label"] = "changed by a caller"
    assert scen.named("grey-holds")["label"] == "Grey holds the world"
    path = data_dir / "worlds" / "scenarios" / "grey-holds.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**doc, "max_rounds": 0}), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ConfigError, match="max_rounds"):
            scen.named("grey-holds")
    path.write_text(json.dumps({**doc, "label": "Grey holds on"}), encoding="utf-8")
    assert scen.named("grey-holds")["label"] == "Grey holds on"
    game = get_game("worlds")
    assert game.initial_state(game.normalize_config({"scenario": "grey-holds"}), 1).label == "Grey holds on"


def test_the_same_task_gives_the_same_record_and_the_records_say_who_won_and_what_was_lost() -> None:
    tasks = balance.make_tasks(3, 7, ["advisor", "random"], "border-worlds")
    first = [balance.play_one(t) for t in tasks]
    assert [balance.play_one(t) for t in tasks] == first
    assert [r["ai"] for r in first] == [["advisor", "random"], ["random", "advisor"], ["advisor", "random"]]
    assert len({t[1] for t in tasks}) == 3  # a seed per game
    start = scen.named("border-worlds")
    for r in first:
        assert r["sides"] == start["sides"] and len(r["scores"]) == 2
        assert set(r["winners"]) <= {0, 1} and r["actions"] > 0
        # the pieces at the start are the scenario's; material (the score) is 2 per Population and 1 per Factory
        for i, side in enumerate(r["sides"]):
            p, f = r["pieces"].get(f"{side} Population", [0, 0]), r["pieces"].get(f"{side} Factory", [0, 0])
            assert r["scores"][i] == 2 * p[1] + f[1]
            assert p[0] == sum(c.get("pieces", {}).get(side, {}).get("P", 0)
                               for s in start["systems"] for c in [s["sun"], *s["worlds"]])
    # the advisor fights: at least one combat declared in these games, pieces lost
    assert sum(r["battles"] for r in first) > 0
    assert sum(a - b for r in first for a, b in r["pieces"].values()) == sum(sum(r["lost"]) for r in first) > 0


def test_worlds_lends_balance_runs_of_its_scenarios() -> None:
    hooks = get_game("worlds").balance_hooks()
    assert hooks is balance.HOOKS and hooks.kind == "scenarios" and hooks.bundled == "s1-example"
    assert hooks.players == (2, 2, 2) and hooks.default_ai in hooks.ais
    assert hooks.content_key(scen.named("s1-example")) == "s1-example"  # the bundled one sent as content
    key = hooks.content_key(edited())
    assert json.loads(key) == edited() and hooks.label(key) == edited()["label"]
    with pytest.raises(ValueError, match="max_rounds"):
        hooks.content_key({**edited(), "max_rounds": 0})
    records = [hooks.play(t) for t in hooks.tasks(2, 4, 11, "advisor", key)]
    s = hooks.summarize(records, hooks.label(key))
    # what the browser's panel reads of a summary (workbench-charts.js), in Tremble's shape
    for field in ("games", "players", "seat_win_rate", "seat_win_ci", "max_seat_deviation", "battles_per_game",
                  "actions_per_game", "score_p50", "score_histogram", "battles_histogram", "length_histogram",
                  "purchase_rate", "win_when_bought", "win_when_bought_ci"):
        assert field in s, field
    assert s["games"] == 4 and len(s["seat_win_rate"]) == 2 == len(s["seat_win_ci"])
    assert sum(s["seat_win_rate"]) + s["draw_rate"] == pytest.approx(1)
    assert all(lo <= r <= hi for r, (lo, hi) in zip(s["seat_win_rate"], s["seat_win_ci"], strict=True))
    assert set(s["purchase_rate"]) == {"white Population", "white Factory", "grey Population", "grey Factory"}
    assert sum(s["length_histogram"]["counts"]) == 4


def test_simulate_worlds_prints_the_records_of_the_balance_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "worlds", "--scenario", "border-worlds", "--games", "2", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == [balance.play_one(t) for t in balance.make_tasks(2, 3, ["advisor"], "border-worlds")]
    assert out["summary"]["games"] == 2 and out["summary"]["sides"] == ["red", "blue"]


def wait(c: TestClient, run_id: str, limit: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while True:
        run: dict[str, Any] = c.get(f"/api/workbench/runs/{run_id}").json()
        if run["state"] in ("done", "cancelled", "failed") and (run["state"] != "done" or "bundled" in run):
            return run
        assert time.monotonic() < deadline, run
        time.sleep(0.05)


def test_an_edited_scenario_runs_from_the_api_beside_the_bundled_one(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", ai_workers=0, limits=lenient_limits())
    with TestClient(app) as c:
        kinds = {k["key"]: k for k in c.get("/api/workbench/runs/kinds").json()}
        assert kinds["worlds/scenarios"]["bundled"] == "s1-example"
        r = c.post("/api/workbench/runs", json={"game": "worlds", "kind": "scenarios", "content": edited(),
                                                "games": 4, "seed": 9})
        assert r.status_code == 202, r.text
        run = wait(c, r.json()["id"])
        assert run["state"] == "done" and run["done"] == 8, run  # its games and the bundled scenario's
        mine, bundled = run["result"], run["bundled"]
        assert mine["games"] == bundled["games"] == 4 and mine["scenario"] == edited()["label"]
        assert mine["purchase_rate"] and len(mine["seat_win_ci"]) == 2
        games = c.get(f"/api/workbench/runs/{r.json()['id']}/games").json()
        key = balance.content_key(edited())
        assert games["games"] == [balance.play_one(t) for t in balance.make_tasks(4, 9, ["advisor"], key)]
        assert games["bundled"] == [balance.play_one(t) for t in balance.make_tasks(4, 9, ["advisor"])]
        # an invalid scenario is refused with the reason, and nothing runs
        bad = c.post("/api/workbench/runs", json={"game": "worlds", "kind": "scenarios", "games": 4,
                                                  "content": {**edited(), "sides": ["white", "white"]}})
        assert bad.status_code == 422 and "distinct" in bad.text
        assert c.post("/api/workbench/runs", json={"game": "worlds", "kind": "scenarios", "content": edited(),
                                                   "games": 4, "players": 3}).status_code == 422


def test_a_scenario_of_the_data_folder_is_chosen_by_name(tmp_path: Path, data_dir: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}", ai_workers=0, limits=lenient_limits(), data_dir=data_dir)
    with TestClient(app) as c:
        assert "grey-holds" in c.get("/api/catalog").json()["worlds"]["scenarios"]
        option = next(o for o in {g["id"]: g for g in c.get("/api/games").json()}["worlds"]["options"]
                      if o["name"] == "scenario")
        assert {"grey-holds", "s1-example", "border-worlds"} <= set(option["choices"])
        match = create(c, "worlds", config={"scenario": "grey-holds"})["match"]
        assert match["config"]["scenario"] == "grey-holds"
        state = get_game("worlds").initial_state(get_game("worlds").normalize_config({"scenario": "grey-holds"}), 1)
        assert state.label == "Grey holds the world"
        assert sum(1 for p in state.pieces if state.sides[p.owner] == "grey" and p.kind == "P") == 3
        # an invalid scenario of the folder is refused by the scenario model when chosen, naming no path
        r = c.post("/api/matches", json={"game": "worlds", "config": {"scenario": "broken"}})
        assert r.status_code == 422 and "max_rounds" in r.text and str(data_dir) not in r.text
        # a name is never a path
        r = c.post("/api/matches", json={"game": "worlds", "config": {"scenario": "../data/worlds/scenarios/grey-holds"}})
        assert r.status_code == 422 and str(data_dir) not in r.text
    with pytest.raises(ConfigError, match="no scenario named 'grey-holds'"):
        catalog.configure(None)
        scen.named("grey-holds")
