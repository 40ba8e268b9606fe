"""Terminal play and simulation commands (issue 4: `spacetable play tremble`, `spacetable simulate tremble`)."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest

import spacetable.games.tremble as tremble_pkg
from spacetable.cli import main
from spacetable.games.tremble import GAME
from spacetable.games.tremble.simulate import seat_assignment

from .tremble_helpers import position

CHECKS = Path(tremble_pkg.__file__).parent / "checks"


def test_play_vs_ai_with_piped_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    """A whole game against an AI captain by numbers from the list; saved and replayable (spacetable-match/1)."""
    save = tmp_path / "t.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n" + "1\n" * 2000))
    assert main(["play", "tremble", "--players", "2", "--vs", "heuristic", "--seed", "3", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "House card set — not the published cards" in out and "Game over (score)" in out
    assert "plan 2=1,3" in out  # help shows the plan notation
    assert main(["replay", str(save), "--final"]) == 0
    assert "result: Game over (score)" in capsys.readouterr().out


def test_hotseat_shows_each_private_view_only_to_its_seat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hot seat (IM-4, IM-5): every private view comes after a hand-over line naming its seat, and shows
    that seat's hand only."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 40))
    main(["play", "tremble", "--players", "2", "--vs", "human", "--seed", "5"])
    out = capsys.readouterr().out
    blocks = out.split("phase over")[0].split("==== seat ")[1:]  # hands are shown to all at the end
    assert len(blocks) > 4 and "a sealed decision, made in secret" in blocks[0]
    for block in blocks:
        seat = int(block.split(" ", 1)[0])
        owner = None
        for line in block.splitlines():
            if line.startswith("seat ") and "humans" in line:
                owner = int(line.split(":")[0].split()[1])
            if line.startswith("    hand:") or line.startswith("    drawn:"):
                assert owner == seat


def test_simulate_writes_results_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim"
    assert (
        main(
            [
                "simulate",
                "tremble",
                "--players",
                "3",
                "--games",
                "6",
                "--seed",
                "1",
                "--ai",
                "heuristic,random",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads((out / "tremble-results.json").read_text())
    assert data["summary"]["games"] == 6 and len(data["games"]) == 6
    assert "not the published cards" in data["summary"]["card_set"]
    assert (out / "tremble-results.csv").read_text().count("\n") == 7
    assert (out / "tremble-3p-overview.png").stat().st_size > 1000 and (out / "report.md").exists()
    assert set(data["summary"]["ai_win_rate_per_seat"]) == {"heuristic", "random"}


@pytest.mark.rule("TH-A10")
def test_check_scenario_file_TH_A10(capsys: pytest.CaptureFixture[str]) -> None:
    """`spacetable check` runs Tremble scenario files step by step (TH-A10 Seoul), bundled ones by name."""
    assert main(["check", "tremble/seoul_TH-A10"]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok") == 7 and "all scenarios passed" in out


def test_check_scenario_reports_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((CHECKS / "seoul_TH-A10.json").read_text())
    data["steps"][-1]["expect"]["humans"]["0"] = 160000
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["check", str(bad)]) == 1
    assert "FAIL: seat 0 humans 150000 != 160000" in capsys.readouterr().out


def test_simulate_rejects_unknown_captains(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "tremble", "--ai", "heuristic,nobody", "--games", "1"]) == 2
    assert "unknown AI 'nobody'" in capsys.readouterr().err


@pytest.mark.rule("TH-6.1", "TH-P1")
def test_plan_notation_parses_to_the_spec_action() -> None:
    """TH-6 plans typed in the terminal: slot=ships by hand position or card id."""
    s = position(2, {0: ["training#1", "reaper_tripod#1", "watch_saucer#1"]}, ["cairo", "london", "berlin"])
    a = GAME.parse_action(s, 0, "plan 2=1,2 3=watch_saucer#1 fuel=spare_tank#1 station=beacon#1@2")
    assert a == {
        "type": "plan",
        "groups": [{"slot": 2, "ships": ["reaper_tripod#1", "training#1"]}, {"slot": 3, "ships": ["watch_saucer#1"]}],
        "fuel_cards": ["spare_tank#1"],
        "stations": [{"station": "beacon#1", "slot": 2}],
    }
    assert GAME.parse_action(s, 0, "1") == GAME.legal_actions(s, 0)[0]


def test_simulate_rotation_gives_every_seat_every_captain_equally() -> None:
    """Balance report (issue 4): with 2 captains at 3 seats, each seat has each captain in half the games."""
    for players, ais in ((3, ["random", "heuristic"]), (4, ["a", "b", "c"]), (5, ["mcts", "heuristic"]), (2, ["x"])):
        games = len(ais) * 4
        for seat in range(players):
            seen = Counter(seat_assignment(players, ais, k)[seat] for k in range(games))
            assert all(seen[a] == games // len(ais) for a in ais), (players, ais, seat, seen)
