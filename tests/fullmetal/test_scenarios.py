"""Every FM acceptance scenario (spec §6, S-1..S-38) ships as a scenario file and passes."""

from __future__ import annotations

import re

import pytest

from spacetable.games.fullmetal.scenario import bundled_scenarios, load, run_scenario

FILES = bundled_scenarios()


def _all_specs() -> list[dict]:
    out = []
    for path in FILES:
        data = load(path)
        out.extend(data.get("scenarios", [data]))
    return out


SPECS = _all_specs()


def test_every_acceptance_scenario_is_present() -> None:
    """S-1 .. S-38 are all shipped (spec §6); further scenarios extend one of them (``S-32b``)."""
    ids = [s["id"] for s in SPECS]
    assert len(ids) == len(set(ids))
    base = {f"S-{i}" for i in range(1, 39)}
    assert base <= set(ids)
    assert all(re.fullmatch(r"S-\d+[a-z]", i) and i[:-1] in base for i in set(ids) - base)


@pytest.mark.parametrize("spec", SPECS, ids=[s["id"] for s in SPECS])
def test_scenario(spec: dict) -> None:
    """Each scenario step gives the verdict the spec states (rules cited in the file)."""
    lines: list[str] = []
    failures = run_scenario(spec, lines)
    assert failures == 0, "\n".join(lines)
    assert all(re.search(r"step \d+: pass", line) for line in lines)


def test_runner_reports_failures() -> None:
    """A wrong expectation is reported as FAIL, so the runner itself can fail."""
    spec = dict(SPECS[0])
    spec["steps"] = [{"query": "distance", "a": [0, 0], "b": [3, 1], "expect": 4}]
    lines: list[str] = []
    assert run_scenario(spec, lines) == 1
    assert "FAIL" in lines[0]


def test_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    """`spacetable check FILE...` prints pass/fail per step (FM §6 runner)."""
    from spacetable.cli import main

    rc = main(["check", *map(str, FILES)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "S-29 step 2: pass" in out
    assert "all scenarios passed" in out


def _enumerable(action: dict) -> bool:
    if action["type"] == "exit" and isinstance(action.get("to"), int):
        return False  # an alias: the list spells it unload(ship, item, carrier)
    if action["type"] in ("move", "assault"):
        return len(action["path"]) == 1
    return action["type"] not in ("deploy", "decide_departure", "land")


def test_scenario_actions_are_enumerated() -> None:
    """Spec §5: every single-step action a scenario plays legally appears in legal_actions."""
    from spacetable.core.serial import action_key
    from spacetable.games.fullmetal.game import GAME
    from spacetable.games.fullmetal.scenario import Scenario

    checked = 0
    for spec in SPECS:
        sc = Scenario(spec)
        for step in spec.get("steps", []):
            if "reset" in step:
                sc = Scenario({**spec, **step["reset"]})
                continue
            if "action" in step and step.get("expect", "ok") == "ok":
                action = sc.resolve(step["action"])
                player = int(step.get("player", sc.state.active_player()))
                if step.get("as_turn_player", True) and player in sc.state.order:
                    sc.state.current = sc.state.order.index(player)
                if _enumerable(action) and sc.state.phase == "play":
                    keys = set()
                    for a in GAME.legal_actions(sc.state, player):
                        keys.add(action_key(a))
                        if a["type"] == "capture":
                            keys.add(action_key({k: v for k, v in a.items() if k != "colour"}))
                    assert action_key(action) in keys, f"{spec['id']}: {action} not enumerated"
                    checked += 1
            sc.run_step(step)
    assert checked > 40
