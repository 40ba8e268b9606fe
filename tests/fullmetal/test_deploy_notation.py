"""The deployment's notation (FM-8.1, FM-8.2): one ``unit@cell`` token per placed unit, a barge on ``x,y/x,y``, cargo in
brackets, nested as deep as the carriers are, read back to the same action; the older JSON list is still read."""

from __future__ import annotations

import pytest

from spacetable.core.errors import RuleError
from spacetable.games.fullmetal import GAME
from spacetable.games.fullmetal.notation import deploy_text, parse_action


@pytest.mark.rule("FM-8.1", "FM-8.2")
@pytest.mark.parametrize(("units", "text"), [
    ([], "deploy"),
    ([{"unit": 12, "at": [9, 10]}], "deploy 12@9,10"),
    ([{"unit": 7, "at": [[4, 4], [5, 4]], "cargo": [13, {"unit": 8, "cargo": [14, 15]}]}, {"unit": 9, "at": [10, 11]}],
     "deploy 7@4,4/5,4[13,8[14,15]] 9@10,11"),
])
def test_deploy_notation_round_trip(units: list, text: str) -> None:
    action = {"type": "deploy", "units": units}
    assert deploy_text(None, 0, action) == text  # type: ignore[arg-type]
    assert parse_action(None, 0, text) == action  # type: ignore[arg-type]
    assert GAME.normalize_action(action) == action


@pytest.mark.rule("FM-8.1")
def test_deploy_notation_reads_json_and_refuses_garbage() -> None:
    assert parse_action(None, 0, 'deploy [{"unit":12,"at":[9,10]}]') == {"type": "deploy", "units": [{"unit": 12, "at": [9, 10]}]}  # type: ignore[arg-type]
    for bad in ("deploy 12@", "deploy 12@9,10[13", "deploy x", "deploy 12@9,10]"):
        with pytest.raises(RuleError) as err:
            parse_action(None, 0, bad)  # type: ignore[arg-type]
        assert err.value.rule == "CORE-ACTION"
