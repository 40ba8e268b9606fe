"""Golden seeded playthroughs: record a game step by step, compare it with a checked-in file.

Each game contributes ``tests/golden/<game>_cases.py`` with ``CASES``: a list of
:class:`Case` (a name, a config, a seed and a ``chooser`` that plays every seat). A golden
file ``tests/golden/<game>/<name>.json`` holds, for every step, the seat, the action, its
notation, the acting seat's legal-action count and digest, and a digest of every seat's
view (and the spectator's) after the step; the final views are stored in full. Any change
of behaviour (a different legal list, a view that shows more or less, a different AI
choice) changes the file, so it shows up in review.

Record again after an intended change::

    .venv/bin/python -m tests.golden.recorder arena        # or: all
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spacetable.core.game import Action, Game
from spacetable.core.serial import action_key
from spacetable.games import get_game

HERE = Path(__file__).resolve().parent
Chooser = Callable[[Game[Any], Any, int], Action]


@dataclass(frozen=True)
class Case:
    name: str
    config: dict[str, Any]
    seed: int
    #: ``make()`` returns a chooser ``(game, state, seat) -> action`` for the whole game
    #: (fresh per recording, so seeded agents start from the same point each time).
    make: Callable[[], Chooser]
    max_steps: int = 2000
    note: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)


def digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()[:16]


def record(game_id: str, case: Case) -> dict[str, Any]:
    game = get_game(game_id)
    config = game.normalize_config(case.config)
    state = game.initial_state(config, case.seed)
    choose = case.make()
    n = game.seats(state)
    viewers: list[int | None] = [*range(n), None]
    steps: list[dict[str, Any]] = []
    for _ in range(case.max_steps):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        action = choose(game, state, seat)
        text = game.action_text(state, seat, action)
        seen = [game.action_view(state, seat, action, v) for v in viewers]
        state = game.apply(state, seat, action)
        steps.append({
            "seat": seat, "action": action, "text": text,
            "legal": [len(legal), digest(sorted(action_key(a) for a in legal))],
            "seen": digest(seen),
            "views": [digest(game.view(state, v)) for v in viewers],
        })
    out = game.outcome(state)
    return {
        "game": game_id, "case": case.name, "note": case.note, "config": config, "seed": case.seed,
        "steps": steps,
        "final_views": {("spectator" if v is None else str(v)): game.view(state, v) for v in viewers},
        "outcome": out.to_json() if out else None,
    }


def cases(game_id: str) -> list[Case]:
    mod = importlib.import_module(f"tests.golden.{game_id}_cases")
    return list(mod.CASES)


def path_of(game_id: str, case: Case) -> Path:
    return HERE / game_id / f"{case.name}.json"


def write(game_id: str) -> None:
    for case in cases(game_id):
        data = record(game_id, case)
        p = path_of(game_id, case)
        p.parent.mkdir(exist_ok=True)
        p.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{p.relative_to(HERE.parent.parent)}: {len(data['steps'])} steps")


def first_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str:
    for i, (a, b) in enumerate(zip(expected["steps"], actual["steps"], strict=False)):
        if a != b:
            keys = [k for k in a if a.get(k) != b.get(k)]
            return f"step {i}: {keys} differ: expected {json.dumps(a)[:300]} got {json.dumps(b)[:300]}"
    if len(expected["steps"]) != len(actual["steps"]):
        return f"step count {len(expected['steps'])} != {len(actual['steps'])}"
    for k in ("final_views", "outcome", "config"):
        if expected[k] != actual[k]:
            return f"{k} differ"
    return "identical"


if __name__ == "__main__":
    names = sys.argv[1:] or ["all"]
    if names == ["all"]:
        names = sorted(p.stem[: -len("_cases")] for p in HERE.glob("*_cases.py"))
    for gid in names:
        write(gid)
