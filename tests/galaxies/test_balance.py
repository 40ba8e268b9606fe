"""Battleship Galaxies' balance runs (issue 25, goal 3): one seeded game of a pack is one record, the same for the
same task; ``simulate`` and the workbench's hooks play the same function; the summary has the figures the
browser's balance panel draws."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from spacetable.cli import main
from spacetable.games import get_game
from spacetable.games.galaxies import balance
from spacetable.games.galaxies.packs import HOUSE_LABEL, _bundled_document, _canonical

pytestmark = [pytest.mark.workbench, pytest.mark.timeout(300)]


def edited() -> dict[str, Any]:
    """The house pack with the ISN Everest's launch cost halved."""
    doc = copy.deepcopy(_bundled_document("house"))
    ship = next(s for s in doc["ships"] if s["key"] == "everest")
    ship["versions"]["standard"]["launch_cost"] = max(1, ship["versions"]["standard"]["launch_cost"] // 2)
    doc["pack_id"] = "cheap-everest"
    return doc


def test_galaxies_lends_its_packs_balance_hooks() -> None:
    hooks = get_game("galaxies").balance_hooks()
    assert hooks is balance.HOOKS and hooks.kind == "packs" and hooks.bundled == "house"
    assert hooks.default_ai in hooks.ais and hooks.players == (2, 4, 2)


def test_the_same_task_gives_the_same_record_and_the_record_says_what_happened() -> None:
    task = balance.tasks(2, 3, 7, "greedy", "house")[1]
    assert task[1] == balance.tasks(2, 3, 7, "greedy", "house")[1][1]  # the seed is the task's second item
    rec = balance.play_one(task)
    assert balance.play_one(task) == rec
    assert json.loads(json.dumps(rec)) == rec  # JSON-ready
    assert rec["seed"] == task[1] and rec["players"] == 2 and rec["ai"] == ["greedy", "greedy"]
    assert rec["winners"] in ([0], [1], []) and rec["end"] and rec["rounds"] >= 1
    assert rec["actions"] > rec["attacks"] > 0
    assert all(rec["launched"]) and rec["played"] == [[], []]  # greedy launches ships and plays no tactic cards
    ships = {s["key"] for s in _bundled_document("house")["ships"]}
    assert {k for seat in rec["launched"] for k in seat} <= ships
    # another seed, another game
    assert balance.play_one(balance.tasks(2, 3, 7, "greedy", "house")[2]) != rec


def test_the_policy_plays_tactic_cards_and_the_summary_has_the_panels_figures() -> None:
    records = [balance.play_one(t) for t in balance.make_tasks(2, 2, 3, ["policy", "greedy"])]
    assert [r["ai"] for r in records] == [["policy", "greedy"], ["greedy", "policy"]]  # rotated over the seats
    tactics = {t["id"] for t in _bundled_document("house")["tactics"]}
    played = {k for r in records for seat in r["played"] for k in seat}
    assert played and played <= tactics
    s = balance.HOOKS.summarize(records, HOUSE_LABEL)
    assert s["games"] == 2 and s["players"] == 2 and s["card_set"] == HOUSE_LABEL
    for rate, (lo, hi) in zip(s["seat_win_rate"], s["seat_win_ci"], strict=True):
        assert 0 <= lo <= rate <= hi <= 1
    assert sum(s["seat_win_rate"]) + s["draw_rate"] == pytest.approx(1)
    assert played <= set(s["purchase_rate"]) and set(s["win_when_bought_ci"]) == set(s["purchase_rate"])
    assert set(s["win_when_bought"]) == set(s["purchase_rate"])
    assert sum(s["length_histogram"]["counts"]) == 2 and sum(s["battles_histogram"]["counts"]) == 2
    assert sum(s["score_histogram"]["counts"]) == 4
    assert s["actions_per_game"] == sum(r["actions"] for r in records) / 2
    assert s["battles_per_game"] == sum(r["attacks"] for r in records) / 2
    for key in ("max_seat_deviation", "score_p50", "rounds_per_game", "ends"):
        assert key in s
    assert s["fair_share"] == pytest.approx((1 - s["draw_rate"]) / 2) and s["terms"] == balance.TERMS
    assert json.loads(json.dumps(s)) == s


def test_content_keys_and_labels() -> None:
    assert balance.content_key(_bundled_document("house")) == "house"
    key = balance.content_key(edited())
    assert key == _canonical(edited()) and balance.label(key) == "cheap-everest (owner pack)"
    assert balance.label("house") == HOUSE_LABEL
    bad = edited()
    bad["ships"][0]["versions"]["standard"]["launch_cost"] = -3
    with pytest.raises(ValueError, match="launch_cost"):
        balance.content_key(bad)
    # the edited pack's games: the same seeds as the bundled pack's, played with its content
    task = balance.tasks(2, 1, 11, "greedy", key)[0]
    assert task[1] == balance.tasks(2, 1, 11, "greedy", "house")[0][1]
    assert json.loads(balance._config(key, 2, ""))["pack_content"] == edited()
    assert json.loads(balance._config("house", 2, ""))["pack_content"] is None
    assert balance.play_one(task)["seed"] == task[1]


def test_the_panels_words_for_galaxies_exist_in_every_language() -> None:
    root = Path(__file__).resolve().parents[2] / "spacetable" / "web" / "static" / "i18n"
    for lang in ("en", "fr", "nl", "ru"):
        catalogue = json.loads((root / f"{lang}.json").read_text(encoding="utf-8"))
        for name, suffix in balance.TERMS.items():
            assert f"wb.run.{name}" in catalogue and catalogue[f"wb.run.{suffix}"], (lang, suffix)
        for ai in balance.HOOKS.ais:
            assert catalogue[f"wb.run.ai.{ai}"], (lang, ai)


def test_simulate_plays_the_same_games_and_writes_their_records(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.json"
    assert main(["simulate", "galaxies", "--games", "1", "--seed", "3", "--seats", "greedy", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    rec = balance.play_one(("house", 3, ("greedy", "greedy"), (3, 4), 2, "m2-skirmish"))
    assert data["games"] == [rec] and data["summary"] == balance.summarize([rec], HOUSE_LABEL)
    assert f"round {rec['rounds']}, {rec['actions']} actions, {rec['attacks']} attacks" in capsys.readouterr().out
