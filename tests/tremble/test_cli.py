"""Terminal play and simulation commands (issue 4: `spacetable play tremble`, `spacetable simulate tremble`)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from spacetable.cli import main


def test_play_vs_ai_with_piped_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    assert main(["play", "tremble", "--players", "2", "--vs", "ai", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "House card set — not the published cards" in out and "final scores:" in out


def test_hotseat_shows_each_private_view_only_to_its_seat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 40))
    main(["play", "tremble", "--players", "2", "--vs", "humans", "--seed", "5"])
    out = capsys.readouterr().out
    blocks = out.split("phase over")[0].split("==== seat ")[1:]
    assert blocks
    for block in blocks:
        seat = int(block.split(":", 1)[0])
        lines = block.splitlines()
        owner = None
        for line in lines:
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
