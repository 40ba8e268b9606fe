"""Action points: income, saving and the ship bonus (FM-9, FM-D25)."""

from __future__ import annotations

from .state import FMState


def income(state: FMState, player: int) -> int:
    """FM-9.1: 0 on turns 1-2, 5 on turn 3, 10 on turn 4, then ``base_income``; +5 per ship beyond
    the first (so a ship capture is worth +5 a turn and costs the loser 5, FM-9.4); ``endgame=fmg`` gives nothing
    on turn 21 (FM-D41); ``mountain_tanks=penalty`` costs 5 once (FM-19.2)."""
    t = state.turn
    if t <= 2:
        return 0
    if state.config["endgame"] == "fmg" and t == 21:
        return 0
    base = 5 if t == 3 else 10 if t == 4 else int(state.config["base_income"])
    base += 5 * max(0, len(state.ships_of(player)) - 1)
    if state.penalty[player]:
        base -= 5
        state.penalty[player] = 0
    return max(0, base)


def saved_after(leftover: int) -> int:
    """FM-9.3: ``min(10, 5 * floor(leftover / 5))`` — 0, 5 or 10 like the cubes (FM-D25)."""
    return min(10, 5 * (max(0, leftover) // 5))
