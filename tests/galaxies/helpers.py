"""Shared helpers for the galaxies tests: positions from scenario set-ups, random play."""

from __future__ import annotations

from typing import Any

from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.scenario import build
from spacetable.games.galaxies.state import GState

__all__ = ["GAME", "build", "play_random", "pos", "weighted"]


def pos(**setup: Any) -> GState:
    """A position from a scenario set-up (see spacetable/games/galaxies/scenario.py)."""
    return build(setup)


def play_random(
    seed: int, players: int = 2, steps: int = 400, weights: dict[str, float] | None = None, config: dict[str, Any] | None = None
) -> list[GState]:
    """States of a weighted random game (launches, activations and attacks favoured)."""
    w = weights or {
        "attack": 40,
        "launch": 25,
        "launch_from_hold": 30,
        "activate": 20,
        "charge": 8,
        "move": 4,
        "play_tactic": 3,
        "respond": 3,
        "discard_for_energy": 0.3,
    }
    cfg = GAME.normalize_config(config or {"players": players})
    s = GAME.initial_state(cfg, seed)
    rng = Rng.from_seed(seed)
    out = [s]
    for _ in range(steps):
        seats = GAME.to_act(s)
        if not seats:
            break
        seat = seats[0]
        legal = agent_actions(GAME.legal_actions(s, seat))  # the core draw moves (D-23) are tested apart
        a = weighted(rng, legal, w)
        s = GAME.apply(s, seat, a)
        out.append(s)
    return out


def weighted(rng: Rng, legal: list[dict[str, Any]], weights: dict[str, float]) -> dict[str, Any]:
    """A legal action drawn with probability proportional to its type's weight (default 1)."""
    ws = [weights.get(a["type"], 1.0) for a in legal]
    x = rng.random() * sum(ws)
    for k, wt in enumerate(ws):
        x -= wt
        if x <= 0:
            return legal[k]
    return legal[-1]
