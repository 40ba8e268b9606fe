"""``spacetable analyse MATCH.json``: the table and the chart PNG."""

from __future__ import annotations

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
