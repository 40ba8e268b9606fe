"""The 32 acceptance scenarios of the spec (§7) ship as scenario files and pass (forced dice)."""

from __future__ import annotations

import copy
import json
import re

import pytest

from spacetable.cli import main
from spacetable.games.galaxies.scenario import bundled, run_scenario

FILES = bundled()
SPECS = [spec for path in FILES for spec in json.loads(path.read_text(encoding="utf-8"))["scenarios"]]


def test_every_acceptance_scenario_is_present() -> None:
    """S1..S32 (spec §7) each have at least one scenario."""
    numbers = {int(re.match(r"S(\d+)", s["id"]).group(1)) for s in SPECS}  # type: ignore[union-attr]
    assert numbers == set(range(1, 33))
    assert len(FILES) == 32
    assert all(s.get("rules") for s in SPECS)


@pytest.mark.parametrize("spec", [pytest.param(s, marks=pytest.mark.rule(*s["rules"]), id=s["id"]) for s in SPECS])
def test_scenario(spec: dict, capsys: pytest.CaptureFixture[str]) -> None:
    """Each step gives the verdict and the state the spec states."""
    failed = run_scenario(spec)
    out = capsys.readouterr().out
    assert failed == 0, out
    assert out.count(": ok") == len(spec["steps"])


def test_runner_reports_a_wrong_expectation(capsys: pytest.CaptureFixture[str]) -> None:
    spec = copy.deepcopy(next(s for s in SPECS if s["id"] == "S1"))
    spec["steps"][0]["expect"]["energy"]["A"] = 13
    assert run_scenario(spec) == 1
    assert "energy A: got 12, expected 13" in capsys.readouterr().out


def test_runner_reports_an_accepted_illegal_action(capsys: pytest.CaptureFixture[str]) -> None:
    spec = copy.deepcopy(next(s for s in SPECS if s["id"] == "S10"))
    spec["steps"][1]["expect_error"] = "BG-8.2"
    assert run_scenario(spec) == 1
    assert "expected rejection BG-8.2" in capsys.readouterr().out


def test_spacetable_check_runs_every_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *map(str, FILES)]) == 0
    assert "all scenarios passed" in capsys.readouterr().out
