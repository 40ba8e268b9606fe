"""The shared scenario-step runner behind ``spacetable check``."""

from typing import Any

import pytest

from spacetable.core.steps import run_steps

from .toygames import SealedDuel

DUEL = SealedDuel()


def _no_extra(state: Any, exp: dict[str, Any]) -> list[str]:
    return [f"points {state.points} != {exp['points']}"] if "points" in exp and state.points != exp["points"] else []


def _start() -> Any:
    return DUEL.initial_state(DUEL.normalize_config({"rounds": 1, "budget": 3}), 1)


def test_steps_pass_with_scripted_dice_and_expected_rejection(capsys: pytest.CaptureFixture[str]) -> None:
    steps = [
        {"seat": 0, "action": {"type": "bid", "amount": 9}, "expect_error": "DUEL-1", "expect": {"to_act": [0, 1]}},
        {"seat": 0, "action": {"type": "bid", "amount": 2}},
        {
            "seat": 1,
            "dice": [5],
            "action": {"type": "bid", "amount": 2},
            "expect": {"over": True, "winners": [1], "points": [0, 1]},
        },
    ]
    assert run_steps(DUEL, _start(), steps, "duel", _no_extra, common=True) == 0
    assert capsys.readouterr().out.count(": ok") == 3


def test_steps_report_failures(capsys: pytest.CaptureFixture[str]) -> None:
    steps = [
        {"seat": 0, "action": {"type": "bid", "amount": 1}, "expect_error": "DUEL-1"},
        {"seat": 1, "action": {"type": "bid", "amount": 7}},
        {"expect": {"over": True, "points": [1, 0]}},
    ]
    assert run_steps(DUEL, _start(), steps, "duel", _no_extra, common=True) == 1
    out = capsys.readouterr().out
    assert "expected rejection DUEL-1" in out and "rejected: [DUEL-1]" in out and "over False != True" in out
