"""Time limits (FM-22.1, FM-22.2, FM-D27): the action a server plays when a seat's clock runs out.

The engine keeps no wall clock (FM-D27); the server measures time and asks :func:`timeout_action` for one
legal action per expiry instead of resigning the seat.
"""

from __future__ import annotations

from spacetable.core.game import Action

from .flow import to_act
from .legal import landing_actions, legal_actions
from .mountains import end_turn_ok, mountain_pairs
from .movement import move
from .state import FMState


def timeout_action(state: FMState, seat: int) -> Action | None:
    """FM-22.1 as one legal action: landing at a uniformly random legal site (the state's ``auto-landing``
    sub-stream, read from a copy so the live generator never advances), an empty deployment (units stay
    aboard), ``stay`` for every ship on turn 21, and ``end_turn`` in play. When FM-19.1 refuses ``end_turn``
    (a mountain pair that could still separate), the first move that separates a pair; the next expiry then
    ends the turn. ``None`` when ``seat`` is not to act."""
    if seat not in to_act(state):
        return None
    if state.phase == "land":
        options = landing_actions(state, seat)
        if not options:
            return None
        return options[state.rng.copy().split("auto-landing").randbelow(len(options))]
    if state.phase == "deploy":
        return {"type": "deploy", "units": []}
    if state.phase == "depart":
        return {"type": "decide_departure", "choices": {str(s.id): "stay" for s in state.ships_of(seat)}}
    if state.phase != "play":
        return None
    if end_turn_ok(state, seat):
        return {"type": "end_turn"}
    pairs = mountain_pairs(state, seat)
    paired = {uid for pair in pairs for uid in pair}
    moves = [a for a in legal_actions(state, seat) if a["type"] == "move" and a["unit"] in paired]
    for action in moves:
        after = state.copy()
        move(after, seat, action)
        if len(mountain_pairs(after, seat)) < len(pairs):
            return action
    return moves[0] if moves else None
