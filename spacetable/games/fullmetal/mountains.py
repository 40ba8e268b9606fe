"""Two tanks on adjacent mountains (FM-19.1, FM-19.2, FM-D18).

A player's tanks may stand on two adjacent mountain cells during a turn, but ``end_turn`` is refused
while one of them could still move one cell away with the AP left (``end_of_turn`` and ``no_zone``).
If none can, the turn ends anyway (the FM-D18 fallback) and the pair's higher-id tank projects no fire
zone until the pair breaks (:meth:`FMState.projects`).
"""

from __future__ import annotations

from spacetable.core.errors import RuleError

from .movement import move
from .state import TANK, FMState
from .terrain import MOUNTAIN


def mountain_pairs(state: FMState, player: int) -> list[tuple[int, int]]:
    """FM-19.1 / FM-D18: pairs ``(lower id, higher id)`` of ``player``'s tanks on adjacent mountain cells."""
    out = []
    for u in state.units.values():
        if u.kind == TANK and state.on_board(u) and state.ctl(u) == player and state.board.terrain[u.cells[0]] == MOUNTAIN:
            for o in state.mountain_partners(u):
                if o > u.id:
                    out.append((u.id, o))
    return out


def can_separate(state: FMState, player: int, pairs: list[tuple[int, int]]) -> bool:
    """FM-19.1: could one tank of a pair legally move one cell now (on a scratch copy)?"""
    for pair in pairs:
        for uid in pair:
            u = state.units[uid]
            for n in state.board.neigh[u.cells[0]]:
                try:
                    move(state.copy(), player, {"unit": uid, "path": [state.xy(n)]})
                except RuleError:
                    continue
                return True
    return False


def end_turn_ok(state: FMState, player: int) -> bool:
    """FM-19.1 / FM-19.2: may ``player`` end the turn as far as mountain pairs go? (``penalty``: always)"""
    if state.config["mountain_tanks"] == "penalty":
        return True
    pairs = mountain_pairs(state, player)
    return not pairs or not can_separate(state, player, pairs)
