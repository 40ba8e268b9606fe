"""Setup (AR-2): default house layouts and free placement checks.

The default layouts are house content (AR-0.3, AR-D1) stored as data in
``layouts/<board>.json``; Blue's layout is Red's reflected across the middle rank.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from spacetable.core.errors import RuleError

from .board import BLUE, CODES, RED, Face, get_face, ship_index

LAYOUT_LABEL = "house default layout (the original setup is unknown)"


@cache
def _layout_file(board: str) -> dict[str, Any]:
    """The layout data file of a face, read once per process."""
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath("layouts", f"{board}.json").read_text("utf-8"))
    return data


@cache
def default_layout(board: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(red_slots, blue_slots)`` of the default layout of a face (AR-2.5)."""
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
    """AR-2.7: one own unplaced ship onto an empty cell of the own home area (AR-2.4)."""
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


__all__ = ["BLUE", "LAYOUT_LABEL", "RED", "check_place", "default_layout", "layout_action", "layout_label", "parse_layout"]
