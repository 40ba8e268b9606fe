"""Setup (AR-2): the starting state, default house layouts and free placement.

The players choose the face (AR-2.1); colours come from the match seed unless the host
fixes them (AR-2.2). ``setup: default`` uses the default layouts, ``setup: free`` lets
each side place its ships (AR-2.3). The default layouts are house content (AR-0.3, AR-D1)
stored as data in ``layouts/<board>.json``; Blue's layout is Red's reflected across the
middle rank (AR-2.5), and the layouts have the properties of AR-2.6. Free placement puts
every ship on its own cell of the home area (AR-2.4, AR-2.7), one ship at a time (``place``,
Red first, AR-D8) or as one sealed layout per side (``layout``). This module holds the
``exec`` and the legal list of both placement actions; :mod:`.flow` passes the turn.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import Field

from spacetable.core.errors import RuleError
from spacetable.core.game import Action
from spacetable.core.moves import Name, Params
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .board import BLUE, CODES, RED, Face, get_face, ship_index
from .state import PLACE, ArenaState

ShipCode = Literal["111", "112", "121", "122", "211", "212", "221", "222"]


class PlaceParams(Params):
    """Put one own unplaced ship on an empty cell of the home area (AR-2.7, mode ``alternate``)."""

    ship: ShipCode
    cell: Name
    offer_end: bool = False


class LayoutParams(Params):
    """Seal a full layout, cell -> ship code (AR-2.7, mode ``simultaneous``)."""

    cells: Annotated[dict[Name, ShipCode], Field(max_length=16)]
    offer_end: bool = False

LAYOUT_LABEL = "house default layout (the original setup is unknown)"


@cache
def _layout_file(board: str) -> dict[str, Any]:
    """The layout data file of a face, read once per process."""
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath("layouts", f"{board}.json").read_text("utf-8"))
    return data


@cache
def default_layout(board: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(red_slots, blue_slots)`` of the default layout of a face (AR-2.5, checked by AR-A23)."""
    face = get_face(board)
    data = _layout_file(board)
    red = [-1] * 8
    for cell, code in data["red"].items():
        red[ship_index(code)] = face.parse_cell(cell)
    if min(red) < 0:
        raise ValueError(f"layout {board} does not place every ship")
    blue = [face.mirror_rank(c) for c in red]
    return tuple(red), tuple(blue)


def layout_label(board: str) -> str:
    return str(_layout_file(board).get("label", LAYOUT_LABEL))


def check_place(face: Face, loc: list[list[int]], colour: int, ship: int, cell: int, wide: bool) -> None:
    """AR-2.7: one own unplaced ship onto an empty cell of the own home area (AR-2.4); a ship
    stands on one cell and a cell holds one ship (AR-1.7)."""
    if loc[colour][ship] != -1:
        raise RuleError("AR-2.7", f"ship {CODES[ship]} is already placed")
    if cell not in face.home(colour, wide):
        raise RuleError("AR-2.4", f"{face.cell_name(cell) if cell >= 0 else '?'} is outside the home area")
    if any(cell in row for row in loc):
        raise RuleError("AR-2.7", f"{face.cell_name(cell)} is occupied")


def parse_layout(face: Face, colour: int, cells: Any, wide: bool) -> list[int]:
    """Validate a full layout ``{"a1": "112", ...}`` (cell → code) for ``layout`` actions (AR-2.7)."""
    if not isinstance(cells, dict) or len(cells) != 8:
        raise RuleError("AR-2.7", "a layout places all 8 ships")
    slots = [-1] * 8
    home = face.home(colour, wide)
    for name, code in cells.items():
        cell = face.parse_cell(str(name))
        if code not in CODES:
            raise RuleError("CORE-ACTION", f"not a ship code: {code!r}")
        if cell not in home:
            raise RuleError("AR-2.4", f"{name} is outside the home area")
        ship = ship_index(code)
        if slots[ship] != -1:
            raise RuleError("AR-2.7", f"ship {code} placed twice")
        if cell in slots:  # "a1" and "A1" name one cell
            raise RuleError("AR-2.7", f"two ships on {face.cell_name(cell)}")
        slots[ship] = cell
    return slots


def layout_action(face: Face, slots: list[int] | tuple[int, ...]) -> dict[str, Any]:
    """The ``layout`` action for given slots (cells sorted by index)."""
    pairs = sorted((cell, ship) for ship, cell in enumerate(slots))
    return {"type": "layout", "cells": {face.cell_name(c): CODES[s] for c, s in pairs}}


def new_state(board: str, setup: str, placement: str, home: str, red_seat: int, rng: Rng) -> ArenaState:
    """The state before the first action: the default layouts in play (AR-2.5), or an empty
    board in the placement phase (AR-2.7), sealed when the placement is ``simultaneous``."""
    st = ArenaState(board=board, setup=setup, placement=placement, home=home, red_seat=red_seat, rng=rng)
    if setup == "default":
        red, blue = default_layout(board)
        st.loc = [list(red), list(blue)]
        return st
    st.phase = PLACE
    if placement == "simultaneous":
        st.sealed = SealedCommits.open([0, 1])
    return st


def _no_offer(action: Action) -> None:
    if action.get("offer_end"):
        raise RuleError("AR-10.4", "offers belong to play, not to placement")


def place(st: ArenaState, seat: int, action: Action) -> None:
    """``place`` (AR-2.7): one own unplaced ship onto an empty cell of the own home area."""
    _no_offer(action)
    face = st.face
    colour = st.colour_of(seat)
    ship, cell = ship_index(action["ship"]), face.parse_cell(action["cell"])
    check_place(face, st.loc, colour, ship, cell, st.wide)
    st.loc[colour][ship] = cell


def layout(st: ArenaState, seat: int, action: Action) -> None:
    """``layout`` (AR-2.7): seal a full layout; the flow reveals both once both are in (IM-1)."""
    _no_offer(action)
    slots = parse_layout(st.face, st.colour_of(seat), action["cells"], st.wide)
    assert st.sealed is not None  # the "layout" window exists only while placement is sealed
    st.sealed.submit(seat, slots, rule="AR-2.7")


def legal_place(st: ArenaState, seat: int) -> list[Action]:
    """Every ``place`` action of the seat: unplaced ships by index, then free home cells by index."""
    face = st.face
    colour = st.colour_of(seat)
    occupied = {c for row in st.loc for c in row}
    return [{"type": "place", "ship": CODES[s], "cell": face.cell_name(c)}
            for s in range(8) if st.loc[colour][s] == -1
            for c in face.home(colour, st.wide) if c not in occupied]


def legal_layout(st: ArenaState, seat: int) -> list[Action]:
    """Two suggestions, the default layout and its file mirror: any valid layout is accepted
    (AR-2.7), but all 40,320 of them would be useless in a list."""
    face = st.face
    red, blue = default_layout(st.board)
    slots = list(red if st.colour_of(seat) == RED else blue)
    return [layout_action(face, slots), layout_action(face, [face.mirror_file(c) for c in slots])]


__all__ = ["BLUE", "LAYOUT_LABEL", "RED", "LayoutParams", "PlaceParams", "check_place", "default_layout", "layout",
           "layout_action", "layout_label", "legal_layout", "legal_place", "new_state", "parse_layout", "place"]
