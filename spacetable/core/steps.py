"""Scenario step files run by ``spacetable check``.

A step file lists steps, each optionally playing one action and then checking
expectations::

    {"game": ID, ..., "steps": [{"seat": 0, "action": {...} | "notation",
                                 "dice": [4, 6], "expect_error": "RULE-ID",
                                 "expect": {...}}]}

The game builds the starting state and checks its own ``expect`` keys; this
module plays the steps the same way for every game: ``dice`` are scripted
through the state's ``Rng.forced``, a string action is read with
``game.parse_action``, ``expect_error`` names the rule the action must break
(the state is then left as it was), and ``over``/``winners``/``to_act`` are
checked here. One line per step is printed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import RuleError
from .game import Game
from .rng import Rng

SeatOf = Callable[[Any, dict[str, Any]], int]
Expectations = Callable[[Any, dict[str, Any]], list[str]]


def default_seat(game: Game[Any]) -> SeatOf:
    """The step's ``seat`` if given, else the first seat to act."""

    def seat_of(state: Any, step: dict[str, Any]) -> int:
        if "seat" in step:
            return int(step["seat"])
        seats = game.to_act(state)
        return seats[0] if seats else 0

    return seat_of


def common_expectations(game: Game[Any], state: Any, exp: dict[str, Any]) -> list[str]:
    """Checks every game shares: ``over``, ``winners``, ``to_act``, ``legal_count``."""
    problems: list[str] = []
    out = game.outcome(state)
    if "over" in exp and (out is not None) != bool(exp["over"]):
        problems.append(f"over {out is not None} != {exp['over']}")
    if "winners" in exp:
        got = list(out.winners) if out else None
        if got != exp["winners"]:
            problems.append(f"winners {got} != {exp['winners']}")
    if "to_act" in exp and list(game.to_act(state)) != list(exp["to_act"]):
        problems.append(f"to_act {list(game.to_act(state))} != {exp['to_act']}")
    return problems


def run_steps(
    game: Game[Any],
    state: Any,
    steps: list[dict[str, Any]],
    name: str,
    expectations: Expectations,
    seat_of: SeatOf | None = None,
    common: bool = False,
) -> int:
    """Play and check every step; return 1 if any failed, else 0.

    ``expectations(state, expect)`` returns the game-specific problems; with
    ``common`` the shared keys of :func:`common_expectations` are checked too."""
    seat_of = seat_of or default_seat(game)
    failed = 0
    for n, step in enumerate(steps, 1):
        problems: list[str] = []
        if "dice" in step:
            rng = getattr(state, "rng", None)
            if not isinstance(rng, Rng):
                problems.append("this game has no dice to script")
            else:
                state = game.clone(state)
                state.rng.forced.extend(int(x) for x in step["dice"])
        if "action" in step:
            seat = seat_of(state, step)
            try:
                act = step["action"]
                action = game.parse_action(state, seat, act) if isinstance(act, str) else act
                new = game.apply(state, seat, action)
                if step.get("expect_error"):
                    problems.append(f"expected rejection {step['expect_error']}, but the action was accepted")
                else:
                    state = new
            except RuleError as exc:
                if step.get("expect_error") != exc.rule:
                    problems.append(f"rejected: [{exc.rule}] {exc.message}")
        exp = step.get("expect") or {}
        if common:
            problems += common_expectations(game, state, exp)
        problems += expectations(state, exp)
        print(f"{name} step {n}: {'ok' if not problems else 'FAIL: ' + '; '.join(problems)}")
        failed += bool(problems)
    return 1 if failed else 0
