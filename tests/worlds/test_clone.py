"""The written-out state copy (``state.clone``, used by ``apply`` and ``determinize``) against ``copy.deepcopy``:
the same state, and no mutable part shared with the original (cards and systems, never changed after setup,
excepted)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from spacetable.core.match import state_fingerprint
from spacetable.core.rng import Rng
from spacetable.games.worlds import GAME
from spacetable.games.worlds.pieces import Card, System
from spacetable.games.worlds.scenario import shipped_names
from spacetable.games.worlds.state import WorldsState, clone


def _shared(a: Any, b: Any, path: str = "") -> list[str]:
    """Paths of mutable objects (lists, dicts, dataclass instances) that ``a`` and ``b`` share."""
    if isinstance(a, (Card, System)):
        return []
    out: list[str] = []
    if (isinstance(a, (list, dict)) or dataclasses.is_dataclass(a)) and a is b:
        return [path or "state"]
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _shared(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        for k in a:
            out += _shared(a[k], b[k], f"{path}.{k}")
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            out += _shared(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    return out


def _states(scenario: str, seed: int) -> list[WorldsState]:
    state = GAME.initial_state(GAME.normalize_config({"scenario": scenario}), seed)
    rng = Rng.from_seed(seed)
    out = [state]
    while GAME.to_act(state):
        seats = GAME.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        before = state_fingerprint(GAME, state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        assert state_fingerprint(GAME, out[-1]) == before  # apply never changes its input
        out.append(state)
    return out


@pytest.mark.parametrize("scenario", shipped_names())
def test_clone_equals_deepcopy_and_shares_nothing_mutable(scenario: str) -> None:
    for seed in range(4):
        for s in _states(scenario, seed):
            c = clone(s)
            assert GAME.state_to_json(c) == GAME.state_to_json(copy.deepcopy(s))
            assert _shared(s, c) == []
            assert c.rng.state == s.rng.state and c.rng is not s.rng
