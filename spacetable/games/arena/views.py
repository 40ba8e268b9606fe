"""What each seat sees (IM-1): everything is public except a sealed layout not yet revealed.

The view JSON carries the ships, both reserves (AR-1.7), the unplaced ships and home
areas during placement (AR-2.4), the counters of AR-10.2, a pending offer (AR-10.4), the
house-layout label (AR-0.3), the position notation and, at the end, the result (AR-10.5).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from spacetable.core.game import Action

from .board import CODES, COLOUR_NAMES, get_face
from .endings import points_text
from .notation import format_position
from .setup import layout_action, layout_label
from .state import OVER, PLACE, QUIET_LIMIT, ArenaState


@cache
def home_names(board: str, wide: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The cells of Red's and Blue's home areas (AR-2.4) by name: the same for every view of a face."""
    face = get_face(board)
    red, blue = (tuple(face.cell_name(x) for x in face.home(c, wide)) for c in (0, 1))
    return red, blue


def view(state: ArenaState, player: int | None) -> dict[str, Any]:
    """The JSON view of ``player`` (``None``: spectator): the public fields with the viewer's own."""
    return {**public_view(state), **own_view(state, player)}


def public_view(state: ArenaState) -> dict[str, Any]:
    """The fields every viewer sees alike (IM-1): all but ``you`` and the placement's sealed layouts
    (:func:`own_view`); the server writes them once per state for both seats and the spectators."""
    face = state.face
    names, banished = face.names, face.banished  # the board in one pass
    ships: list[dict[str, Any]] = []
    reserve: dict[str, list[str]] = {}
    unplaced: dict[str, list[str]] = {}
    for c, row in enumerate(state.loc):
        colour, gone, waiting = COLOUR_NAMES[c], [], []
        for s, cell in enumerate(row):
            if 0 <= cell < banished:
                ships.append({"colour": colour, "code": CODES[s], "cell": names[cell]})
            elif cell == banished:
                gone.append(CODES[s])
            elif cell == -1:
                waiting.append(CODES[s])
        reserve[colour], unplaced[colour] = gone, waiting
    out: dict[str, Any] = {
        "game": "arena", "board": state.board, "width": face.width, "height": face.height,
        "phase": state.phase, "setup": state.setup, "home": state.home,
        "seat_colours": {str(state.red_seat): "red", str(1 - state.red_seat): "blue"},
        "to_move": COLOUR_NAMES[state.to_move] if state.phase != OVER else None,
        "ships": ships,
        "reserve": reserve,
        "unplaced": unplaced,
        "home_cells": {COLOUR_NAMES[c]: list(names) for c, names in enumerate(home_names(state.board, state.wide))},
        "quiet": state.quiet, "quiet_limit": QUIET_LIMIT,
        "last_capturer": COLOUR_NAMES[state.last_capturer] if state.last_capturer >= 0 else None,
        "offer": COLOUR_NAMES[state.offer] if state.offer >= 0 else None,
        "plies": state.plies,
    }
    if state.setup == "default":
        out["layout_label"] = layout_label(state.board)  # AR-0.3
    if state.phase != PLACE:
        out["position"] = format_position(state)
    if state.phase == OVER:
        out["result"] = {"winner": COLOUR_NAMES[state.winner], "kind": state.kind, "points": points_text(state),
                         "plies": state.plies}
    return out


def own_view(state: ArenaState, player: int | None) -> dict[str, Any]:
    """The viewer's own fields: its colour (``you``), and while placing, which layouts are in and its own sealed
    layout (AR-2.7: the other side's stays hidden)."""
    out: dict[str, Any] = {"you": COLOUR_NAMES[state.colour_of(player)] if player in (0, 1) else None}
    if state.sealed is not None:
        placement: dict[str, Any] = {"committed": {str(s): d for s, d in state.sealed.public().items()}, "own": None}
        own = state.sealed.own(player)
        if own is not None and player is not None:
            placement["own"] = layout_action(state.face, own)["cells"]
        out["placement"] = placement
    return out


def action_view(state: ArenaState, player: int, action: Action, viewer: int | None) -> Action | None:
    """A sealed layout stays hidden from the others until both are in (AR-A24, AR-2.7)."""
    if action.get("type") == "layout" and viewer != player:
        return {"type": "layout", "cells": "hidden"}
    return action
