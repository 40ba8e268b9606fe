"""Every checked-in golden playthrough is reproduced exactly (see ``recorder.py``)."""

from __future__ import annotations

import json

import pytest

from .recorder import HERE, cases, first_difference, path_of, record

GAMES = sorted(p.stem[: -len("_cases")] for p in HERE.glob("*_cases.py"))
PARAMS = [(gid, case) for gid in GAMES for case in cases(gid)]


@pytest.mark.parametrize(("game_id", "case"), PARAMS, ids=[f"{g}-{c.name}" for g, c in PARAMS])
def test_golden_playthrough(game_id, case):
    path = path_of(game_id, case)
    assert path.exists(), f"missing {path}: record it with python -m tests.golden.recorder {game_id}"
    expected = json.loads(path.read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(record(game_id, case), sort_keys=True, ensure_ascii=False))
    assert actual == expected, first_difference(expected, actual)
