"""``spacetable play|simulate|odds galaxies``, the odds command hook and owner packs from files."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from spacetable.cli import main
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.cli import odds_report
from spacetable.games.galaxies.packs import bundled_pack
from spacetable.games.galaxies.scenario import house_files


@pytest.mark.rule("BG-12.5")
def test_odds_report_is_exact() -> None:
    rep = odds_report(bundled_pack(), "f47", "barrage")
    assert rep["one_attack"]["p_hit_exact"] == "13/40" and rep["one_attack"]["expected_damage"] == pytest.approx(0.65)
    rep = odds_report(bundled_pack(), "everest", "teskio", shields=1, hull_pegs=4)
    assert rep["all_attacks"]["attacks"] == 2 and rep["all_attacks"]["p_destroy"] == pytest.approx(1 - 0.65**2)


def test_odds_command_is_declared_and_runs(capsys: pytest.CaptureFixture[str]) -> None:
    cmd = next(c for c in GAME.commands() if c.name == "odds")
    assert cmd.help
    assert main(["odds", "galaxies", "--attacker", "vapor", "--target", "f47", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["weapon"] == "maw-cannon" and data["label"].startswith("House set")


def test_play_runs_in_the_shared_terminal_loop(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nfleet everest f47\nnonsense\nauto\nquit\n"))
    assert main(["play", "galaxies", "--vs", "greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Battleship Galaxies notation" in out and "House set" in out and "illegal: [CORE-ACTION]" in out


def test_a_person_plays_a_short_mission_to_the_end_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The First Contact mission against the greedy AI, typed as a person would: notation for the
    first turn (an illegal try included), then numbered picks from the legal list until the game ends."""
    typed = ["view", "launch everest 9,1 cargo barrage", "launch f47 5,0 6,0 5,1", "end", "activate everest",
             "move everest SE", "end", "end", "end turn"]
    lines = typed + ["1"] * 800 + ["quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", "galaxies", "--vs", "greedy", "--seed", "5", "--mission", "m1-first-contact"]) == 0
    out = capsys.readouterr().out
    assert "played: launch everest 9,1 cargo barrage" in out and "played: move everest SE" in out
    assert "illegal: [BG-6.2]" in out  # the squadron costs more than the energy left
    assert "Game over" in out and ("You win." in out or "You lose." in out or "draw" in out.lower())


def test_simulate_reports_wins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "galaxies", "--games", "1", "--seats", "policy,random"]) == 0
    assert "wins:" in capsys.readouterr().out


def test_a_bad_owner_pack_file_is_refused_with_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = house_files()
    files["tactics"][4]["copies_max"] = 9
    bad = tmp_path / "my-pack.json"
    bad.write_text(json.dumps({"pack_id": "mine", **files}), encoding="utf-8")
    assert main(["simulate", "galaxies", "--pack-file", str(bad), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "my-pack.json" in err and "isn-missile-pod" in err and "copies_max" in err
    assert main(["play", "galaxies", "--pack-content", str(bad), "--vs", "random"]) == 2  # the terminal reads the file
    err = capsys.readouterr().err
    assert "mine" in err and "isn-missile-pod" in err and "copies_max" in err
