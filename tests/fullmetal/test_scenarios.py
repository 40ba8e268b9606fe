"""Every acceptance scenario (S-1 to S-38, and their extensions) ships as a scenario file and passes."""

from __future__ import annotations

import re

import pytest

from spacetable.cli import main
from spacetable.core.serial import action_key
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.scenario import Scenario, bundled_scenarios, load, run_scenario

FILES = bundled_scenarios()


def _all_specs() -> list[dict]:
    out = []
    for path in FILES:
        data = load(path)
        out.extend(data.get("scenarios", [data]))
    return out


SPECS = _all_specs()


def test_every_acceptance_scenario_is_present() -> None:
    """S-1 to S-38 are all shipped; further scenarios extend one of them (``S-32b``)."""
    ids = [s["id"] for s in SPECS]
    assert len(ids) == len(set(ids))
    base = {f"S-{i}" for i in range(1, 39)}
    assert base <= set(ids)
    assert all(re.fullmatch(r"S-\d+[a-z]", i) and i[:-1] in base for i in set(ids) - base)


#: Every scenario with the rule ids its steps check (the same as the file's ``rules``; a test compares them).
SCENARIOS = [
    pytest.param("S-1", marks=pytest.mark.rule("FM-1.1", "FM-1.3", "FM-1.4"), id="S-1"),
    pytest.param("S-2", marks=pytest.mark.rule("FM-2.1", "FM-2.2", "FM-2.5", "FM-21"), id="S-2"),
    pytest.param("S-3", marks=pytest.mark.rule("FM-2.2", "FM-14.1"), id="S-3"),
    pytest.param("S-4", marks=pytest.mark.rule("FM-10.3"), id="S-4"),
    pytest.param("S-5", marks=pytest.mark.rule("FM-3.3", "FM-11.1"), id="S-5"),
    pytest.param("S-6", marks=pytest.mark.rule("FM-16.1", "FM-16.2", "FM-16.3", "FM-D15"), id="S-6"),
    pytest.param("S-7", marks=pytest.mark.rule("FM-16.1"), id="S-7"),
    pytest.param("S-8", marks=pytest.mark.rule("FM-15.2", "FM-10.1"), id="S-8"),
    pytest.param("S-9", marks=pytest.mark.rule("FM-16.5", "FM-15.4", "FM-15.5", "FM-D8"), id="S-9"),
    pytest.param("S-10", marks=pytest.mark.rule("FM-16.5", "FM-D8"), id="S-10"),
    pytest.param("S-11", marks=pytest.mark.rule("FM-16.4", "FM-11.2"), id="S-11"),
    pytest.param("S-12", marks=pytest.mark.rule("FM-15.4", "FM-15.5", "FM-10.1", "FM-D7"), id="S-12"),
    pytest.param("S-13", marks=pytest.mark.rule("FM-15.6", "FM-15.3", "FM-D9", "FM-D29"), id="S-13"),
    pytest.param("S-14", marks=pytest.mark.rule("FM-15.4", "FM-15.5", "FM-15.1", "FM-D7"), id="S-14"),
    pytest.param("S-15", marks=pytest.mark.rule("FM-17.1", "FM-17.2", "FM-5.3"), id="S-15"),
    pytest.param("S-16", marks=pytest.mark.rule("FM-17.2", "FM-5.3", "FM-D28"), id="S-16"),
    pytest.param("S-17", marks=pytest.mark.rule("FM-19.1", "FM-D18"), id="S-17"),
    pytest.param("S-18", marks=pytest.mark.rule("FM-10.4", "FM-10.2", "FM-D11"), id="S-18"),
    pytest.param("S-19", marks=pytest.mark.rule("FM-11.3", "FM-D12", "FM-D32"), id="S-19"),
    pytest.param("S-20", marks=pytest.mark.rule("FM-2.2"), id="S-20"),
    pytest.param("S-21", marks=pytest.mark.rule("FM-13.1", "FM-13.2", "FM-D13"), id="S-21"),
    pytest.param("S-22", marks=pytest.mark.rule("FM-13.1", "FM-15.3"), id="S-22"),
    pytest.param("S-23", marks=pytest.mark.rule("FM-14.2", "FM-14.3", "FM-16.3"), id="S-23"),
    pytest.param("S-24", marks=pytest.mark.rule("FM-2.4", "FM-14.3"), id="S-24"),
    pytest.param("S-25", marks=pytest.mark.rule("FM-14.1", "FM-14.2"), id="S-25"),
    pytest.param("S-26", marks=pytest.mark.rule("FM-12.1", "FM-12.2", "FM-12.3"), id="S-26"),
    pytest.param("S-27", marks=pytest.mark.rule("FM-12.3", "FM-15.4", "FM-16.4"), id="S-27"),
    pytest.param("S-28", marks=pytest.mark.rule("FM-12.2", "FM-12.4", "FM-D17", "FM-D30"), id="S-28"),
    pytest.param("S-28b", marks=pytest.mark.rule("FM-11.2", "FM-12.2", "FM-12.3", "FM-12.4", "FM-D17", "FM-D31"), id="S-28b"),
    pytest.param("S-29", marks=pytest.mark.rule("FM-18.1", "FM-18.2", "FM-9.4", "FM-20.6"), id="S-29"),
    pytest.param("S-30", marks=pytest.mark.rule("FM-18.2", "FM-15.6", "FM-D29"), id="S-30"),
    pytest.param("S-31", marks=pytest.mark.rule("FM-18.4"), id="S-31"),
    pytest.param("S-32", marks=pytest.mark.rule("FM-20.2", "FM-20.3", "FM-D20"), id="S-32"),
    pytest.param("S-32b", marks=pytest.mark.rule("FM-14.2", "FM-14.3", "FM-20.2", "FM-20.3", "FM-D48"), id="S-32b"),
    pytest.param("S-33", marks=pytest.mark.rule("FM-20.4", "FM-20.5", "FM-D22"), id="S-33"),
    pytest.param("S-34", marks=pytest.mark.rule("FM-9.1", "FM-9.2", "FM-9.3", "FM-9.4", "FM-D25"), id="S-34"),
    pytest.param("S-35", marks=pytest.mark.rule("FM-13.3", "FM-2.3", "FM-D23"), id="S-35"),
    pytest.param("S-36", marks=pytest.mark.rule("FM-20.1", "FM-5.2", "FM-D19", "FM-D28"), id="S-36"),
    pytest.param("S-36b", marks=pytest.mark.rule("FM-20.1", "FM-14.2", "FM-14.3", "FM-D19", "FM-D48"), id="S-36b"),
    pytest.param("S-37", marks=pytest.mark.rule("FM-7.1", "FM-7.2", "FM-7.3", "FM-3.1", "FM-D3"), id="S-37"),
    pytest.param("S-38", marks=pytest.mark.rule("FM-8.2", "FM-14.2"), id="S-38"),
]
BY_ID = {s["id"]: s for s in SPECS}


def test_every_scenario_is_marked_with_its_rules() -> None:
    marked = {p.values[0]: p.marks[0].args for p in SCENARIOS}
    assert set(marked) == set(BY_ID)
    for sid, spec in BY_ID.items():
        assert tuple(spec["rules"]) == marked[sid], sid


@pytest.mark.parametrize("sid", SCENARIOS)
def test_scenario(sid: str) -> None:
    """Each scenario step gives the verdict it states (the rules are listed in the file and marked above)."""
    lines: list[str] = []
    failures = run_scenario(BY_ID[sid], lines)
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
    """`spacetable check FILE...` prints pass/fail per step (the scenario runner)."""
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


@pytest.mark.rule("FM-D50")
def test_scenario_actions_are_enumerated() -> None:
    """FM-D50: every single-step action a scenario plays legally appears in legal_actions."""
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
