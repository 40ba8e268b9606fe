"""``spacetable analyse MATCH.json``: the table and the chart PNG."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from spacetable.cli import main
from spacetable.example_matches import example_path

pytestmark = pytest.mark.learn


def test_analyse_prints_the_table_and_writes_the_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "chart.png"
    rc = main(["analyse", str(example_path("worlds")), "--seat", "0", "--samples", "1", "--max-steps", "20",
               "--plot", str(png)])
    assert rc == 0
    out = capsys.readouterr()
    assert "judged from what this seat knew" in out.out
    assert len([line for line in out.out.splitlines() if line[:4].strip().isdigit()]) == 22
    assert "100%" in out.err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_analyse_refuses_a_running_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = example_path("fullmetal").read_text(encoding="utf-8")  # recorded before its end
    path = tmp_path / "running.json"
    path.write_text(data, encoding="utf-8")
    assert main(["analyse", str(path), "--quiet"]) == 2
    assert "running match cannot be analysed" in capsys.readouterr().err


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main(argv) == 0
    return str(capsys.readouterr().out)


def test_hint_at_the_prompt_against_the_computer_is_counted(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    out = play(monkeypatch, capsys, ["play", "arena", "--vs", "random", "--seed", "1", "--seconds", "0.05"],
               f"hint\nhint\nsave {save}\nquit\n")
    assert out.count("hint: ") == 2 and "(hints used: 2)" in out
    assert json.loads(save.read_text())["meta"]["hints"] == {"0": 2}


def test_hint_refused_between_people(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = play(monkeypatch, capsys, ["play", "arena", "--seats", "human,human", "--seed", "1"], "hint\nquit\n")
    assert "no hint: hints are given only in casual games against the computer" in out and "\nhint: " not in out
