"""Scenario builders for the Worlds & Suns tests."""

from __future__ import annotations

import copy
from typing import Any

from spacetable.core.moves import agent_actions
from spacetable.games.worlds import GAME
from spacetable.games.worlds.scenario import load
from spacetable.games.worlds.state import WorldsState


def s1(**over: Any) -> dict[str, Any]:
    data = copy.deepcopy(load("s1-example"))
    data.update(over)
    return data


def world_scenario(
    a: dict[str, int],
    d: dict[str, int],
    *,
    sun: bool = False,
    dice: list[list[int]] | None = None,
    hands: dict[str, Any] | None = None,
    energy: dict[str, int] | None = None,
    extra_worlds: list[dict[str, Any]] | None = None,
    start: str | None = None,
) -> dict[str, Any]:
    """One system X; side A (first player) and D on X.w1 (or X.sun when ``sun``)."""
    pieces = {"A": a, "D": d}
    sun_pieces = pieces if sun else {}
    worlds = [{"id": "X.w1", "pieces": {} if sun else pieces}, *(extra_worlds or [])]
    return {
        "format": "worlds-skirmish/1",
        "id": "test",
        "sides": ["A", "D"],
        "first_player": "A",
        "systems": [{"id": "X", "starting_system_of": start, "sun": {"id": "X.sun", "pieces": sun_pieces}, "worlds": worlds}],
        "energy": energy or {},
        "hands": hands or {},
        "max_rounds": 10,
        "seed": 1,
        "dice_script": dice,
    }


def start(data: dict[str, Any], seed: int | None = None) -> WorldsState:
    return GAME.from_scenario(data, seed)


def act(state: WorldsState, seat: int, action: dict[str, Any]) -> WorldsState:
    return GAME.apply(state, seat, action)


def ids(state: WorldsState, card: str, seat: int, kind: str | None = None) -> list[str]:
    return sorted(p.id for p in state.pieces if p.card == card and p.owner == seat and (kind is None or p.kind == kind))


def legal(state: WorldsState, seat: int) -> list[dict[str, Any]]:
    """The seat's legal moves of the skirmish, without the core draw moves (WS-D25, tested in test_draw.py)."""
    return agent_actions(GAME.legal_actions(state, seat))
