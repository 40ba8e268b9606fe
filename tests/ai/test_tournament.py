"""Tournaments (spacetable.ai.tournament, the `spacetable tournament` command): tables and rotations,
paired seeds, reproducible games, resuming from the results file, process pools, multi-seat ranking."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from spacetable.ai.tournament import (
    default_tables,
    deterministic,
    load_results,
    make_tournament,
    play_task,
    run,
    summary,
)
from spacetable.cli import main
from spacetable.core.errors import ConfigError


def test_default_tables_round_robin_and_mixes() -> None:
    assert default_tables(["a", "b", "c"], 2) == [["a", "b"], ["a", "c"], ["b", "c"]]
    assert default_tables(["a", "b"], 4) == [["a", "a", "a", "b"], ["a", "a", "b", "b"], ["a", "b", "b", "b"]]
    with pytest.raises(ConfigError):
        default_tables(["a", "a"], 2)


def test_blocks_share_a_seed_and_rotate_every_agent_through_every_seat() -> None:
    tour = make_tournament("tremble", ["heuristic", "random"], config={"players": 3}, seed=40)
    tasks = tour.tasks(3 * len(tour.tables) * 2)
    for block in range(len(tasks) // 3):
        games = [t for t in tasks if t.block == block]
        assert len({t.seed for t in games}) == 1 and games[0].seed == 40 + block
        for seat in range(3):  # the table's agents each sit in this seat once per block
            assert Counter(t.seats[seat] for t in games) == Counter(games[0].seats)
    assert tour.task(7) == tasks[7] and make_tournament("tremble", ["heuristic", "random"],
                                                        config={"players": 3}, seed=40).tasks(100)[7] == tasks[7]


def test_a_game_is_a_pure_function_of_its_task() -> None:
    tour = make_tournament("arena", ["random", "mcts"], seed=5, seconds=0.01)
    task = tour.task(0)
    tour_det = make_tournament("tremble", ["random", "heuristic"], config={"players": 4}, seed=5)
    for t in (tour_det.task(0), tour_det.task(5)):
        assert deterministic(play_task(t)) == deterministic(play_task(t))
    rec = play_task(task)
    assert rec["seats"] == ["random", "mcts"] and rec["kind"] and sum(rec["decisions"]) == rec["steps"]
    assert sorted(rec["places"]) in ([0, 1], [0, 0])


def test_results_file_resumes_and_extends(tmp_path: Path) -> None:
    tour = make_tournament("tremble", ["random", "heuristic"], config={"players": 2}, seed=3)
    path = tmp_path / "r.jsonl"
    first = run(tour, 4, results=path)
    played: list[int] = []
    again = run(tour, 4, results=path, on_result=lambda r: played.append(r["index"]))
    assert played == [] and [deterministic(r) for r in again] == [deterministic(r) for r in first]
    # a run cut short in the middle of a line: that game is played again, the others are kept
    text = path.read_text()
    path.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + '{"index": 3, "blo')
    more = run(tour, 6, results=path, on_result=lambda r: played.append(r["index"]))
    assert sorted(played) == [3, 4, 5] and [r["index"] for r in more] == list(range(6))
    assert len(load_results(path, tour)) == 6
    other = make_tournament("tremble", ["random", "heuristic"], config={"players": 2}, seed=4)
    with pytest.raises(ConfigError, match="another tournament"):
        run(other, 2, results=path)


def test_process_pool_gives_the_same_games() -> None:
    tour = make_tournament("tremble", ["random", "heuristic"], config={"players": 3}, seed=9)
    one = sorted((deterministic(r) for r in run(tour, 6, jobs=1)), key=lambda r: r["index"])
    two = sorted((deterministic(r) for r in run(tour, 6, jobs=2)), key=lambda r: r["index"])
    assert one == two


def test_summary_rates_multi_seat_games_by_rank() -> None:
    tour = make_tournament("tremble", ["random", "heuristic"], config={"players": 4}, seed=1)
    recs = run(tour, 12)
    summ = summary(tour, recs, anchor=("random", 1000.0), bootstrap=20)
    assert set(summ["ratings"]) == {"random", "heuristic"} and summ["ratings"]["random"] == 1000.0
    assert summ["ratings"]["heuristic"] > 1000.0  # the rule-of-thumb captain outranks random play
    h2h = summ["head_to_head"]["heuristic vs random"]
    assert h2h["wins"] + h2h["draws"] + h2h["losses"] == sum(
        sum(1 for i in range(4) for j in range(i + 1, 4) if r["seats"][i] != r["seats"][j]) for r in recs)


def test_tournament_command_writes_summary_plot_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "arena.json"
    argv = ["tournament", "arena", "--agents", "random,mcts", "--seconds", "0.01", "--games", "4", "--seed", "2",
            "--json", str(out), "--quiet", "--anchor", "random=1000", "--bootstrap", "10"]
    assert main(argv) == 0
    summ = json.loads(out.read_text())
    assert set(summ["ratings"]) == {"random", "mcts"} and summ["games"] == 4
    assert out.with_suffix(".png").stat().st_size > 1000 and len(out.with_suffix(".jsonl").read_text().splitlines()) == 5
    assert "rating" in capsys.readouterr().out
    assert main(argv) == 0
    assert "resuming: 4 of 4 games" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["tournament", "arena", "--agents", "random"], "at least two different agents"),
    (["tournament", "arena", "--agents", "random,deep-blue"], "unknown AI 'deep-blue'"),
    (["tournament", "tremble", "--agents", "random,heuristic", "--players", "3", "--table", "random,heuristic"],
     "one agent per seat"),
    (["tournament", "arena", "--agents", "random,mcts", "--anchor", "alphabeta=1000"], "--anchor names"),
    (["tournament", "chess", "--agents", "a,b"], "unknown game 'chess'"),
])
def test_tournament_command_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
