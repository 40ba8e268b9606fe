"""Text notations (docs/rules/arena.md: actions, JSON and notation; position notation).

* **Action notation**: ``c5-c6``, capture ``c5xc6``, bonus suffix ``/P112`` or ``/RD+``,
  teleports ``P111 P112 P121 P122 RF+ RF- RD+ RD-``; ``accept``, ``resign``; a trailing
  ``=`` attaches ``offer_end`` (AR-10.4); placement ``212@d2``; JSON is accepted too.
* **Position notation** (house format, one line, six or seven fields)::

      <face> <red ships> <blue ships> <side> <quiet> <last> [<offer>]
      6x4 112a1,111b1,122c1,121d1,211a2,222b2,221c2,212d2 112a6,... r 0 - -

  Ships on the board are ``<code><cell>`` joined by commas (``-`` for none); every
  unlisted ship is banished. ``side`` is ``r``/``b`` (to move), ``quiet`` the AR-10.2
  counter, ``last`` the last capturer ``r``/``b``/``-``, ``offer`` who has a pending
  agreement offer (``-`` if none; optional).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from spacetable.core.errors import MalformedAction, RuleError
from spacetable.core.i18n import phrase

from .board import BLUE, CLASS_NAMES, CODES, CORVETTE, RED, Face, complement, get_face, ship_class, ship_index
from .setup import layout_label
from .state import ArenaState
from .teleports import PAIRS, teleport_action

_SIDE = {"r": RED, "b": BLUE, "-": -1}
_SIDE_TEXT = {RED: "r", BLUE: "b", -1: "-"}
_MOVE_RE = re.compile(r"^([a-z]\d+)\s*([-x])\s*([a-z]\d+)(?:\s*/\s*(P\d{3}|R[FD][+-]))?$", re.IGNORECASE)
_TELEPORT_RE = re.compile(r"^(P111|P112|P121|P122|R[FD][+-])$", re.IGNORECASE)


@dataclass
class Position:
    """A position of play: face, ``loc[colour][ship]`` (N = banished), side, counters."""

    board: str
    loc: list[list[int]]
    to_move: int = RED
    quiet: int = 0
    last_capturer: int = -1
    offer: int = -1


def _ships_text(face: Face, slots: Sequence[int]) -> str:
    parts = [f"{CODES[s]}{face.cell_name(c)}" for s, c in enumerate(slots) if 0 <= c < face.size]
    return ",".join(parts) if parts else "-"


def format_position(state: ArenaState | Position) -> str:
    """The position notation of a state in play (or over). Every seat's view of a state writes it, so the last
    positions' texts are kept (:func:`_position_text`)."""
    return _position_text(state.board, tuple(state.loc[RED]), tuple(state.loc[BLUE]), state.to_move, state.quiet,
                          state.last_capturer, state.offer)


@lru_cache(maxsize=256)
def _position_text(board: str, red: tuple[int, ...], blue: tuple[int, ...], to_move: int, quiet: int, last: int,
                   offer: int) -> str:
    face = get_face(board)
    return " ".join([board, _ships_text(face, red), _ships_text(face, blue), _SIDE_TEXT[to_move], str(quiet),
                     _SIDE_TEXT[last], _SIDE_TEXT[offer]])


def parse_position(text: str) -> Position:
    """Read the position notation; ``ValueError`` explains what is wrong."""
    fields = text.split()
    if len(fields) not in (6, 7):
        raise ValueError("a position has 6 or 7 fields: face red blue side quiet last [offer]")
    board = fields[0]
    face = get_face(board)
    loc = [[face.banished] * 8, [face.banished] * 8]
    seen: set[int] = set()
    for colour, part in ((RED, fields[1]), (BLUE, fields[2])):
        if part == "-":
            continue
        for item in part.split(","):
            item = item.strip()
            if len(item) < 5:
                raise ValueError(f"bad ship entry {item!r} (want e.g. 112a1)")
            ship, cell = ship_index(item[:3]), face.parse_cell(item[3:])
            if cell < 0:
                raise ValueError(f"cell {item[3:]!r} is not on the {board} face")
            if loc[colour][ship] != face.banished:
                raise ValueError(f"ship {item[:3]} listed twice")
            if cell in seen:
                raise ValueError(f"two ships on {item[3:]}")
            seen.add(cell)
            loc[colour][ship] = cell
    for colour in (RED, BLUE):
        if loc[colour][CORVETTE] == face.banished:
            raise ValueError("both corvettes must be on the board (AR-10.1)")
    side = fields[3].lower()
    if side not in ("r", "b"):
        raise ValueError("side to move is r or b")
    quiet = int(fields[4])
    if not 0 <= quiet < 40:
        raise ValueError("quiet must be in 0..39 (AR-10.2)")
    last = fields[5].lower()
    offer = fields[6].lower() if len(fields) == 7 else "-"
    if last not in _SIDE or offer not in _SIDE:
        raise ValueError("last capturer and offer are r, b or -")
    if _SIDE[offer] == _SIDE[side]:
        raise ValueError("a pending offer belongs to the side that just moved")
    return Position(board, loc, _SIDE[side], quiet, _SIDE[last], _SIDE[offer])


def teleport_text(action: dict[str, Any]) -> str:
    if action.get("type") == "permute":
        return str(action.get("pair"))
    return f"R{action.get('cls')}{action.get('dir')}"


def _offer(action: dict[str, Any]) -> str:
    return "=" if action.get("offer_end") else ""


def move_text(state: ArenaState, seat: int, action: dict[str, Any]) -> str:
    """``c5-c6``, ``c5xc6`` when the destination holds a ship, ``/P112`` for a bonus, ``=`` for an offer."""
    dest = state.face.parse_cell(str(action.get("to")))
    capture = dest >= 0 and any(row[s] == dest for row in state.loc for s in range(8))
    text = f"{action.get('from')}{'x' if capture else '-'}{action.get('to')}"
    if action.get("bonus"):
        text += "/" + teleport_text(action["bonus"])
    return text + _offer(action)


def teleport_move_text(state: ArenaState, seat: int, action: dict[str, Any]) -> str:
    """``P111`` ... ``RD-``, ``=`` for an offer."""
    return teleport_text(action) + _offer(action)


def accept_text(state: ArenaState, seat: int, action: dict[str, Any]) -> str:
    return "accept"


def place_text(state: ArenaState, seat: int, action: dict[str, Any]) -> str:
    """``212@d2``."""
    return f"{action.get('ship')}@{action.get('cell')}"


def layout_text(state: ArenaState, seat: int, action: dict[str, Any]) -> str:
    """``layout 112a1,...``, or ``layout (sealed)`` for the hidden form others see."""
    cells = action.get("cells")
    if not isinstance(cells, dict):
        return "layout (sealed)"
    return "layout " + ",".join(f"{code}{cell}" for cell, code in cells.items())


def resign_text(state: ArenaState, seat: int, action: dict[str, Any]) -> str:
    return "resign"


#: The notation of each action type, as declared in the move table.
TEXT: dict[str, Callable[[ArenaState, int, dict[str, Any]], str]] = {
    "move": move_text, "permute": teleport_move_text, "rotate": teleport_move_text, "accept_end": accept_text,
    "resign": resign_text, "place": place_text, "layout": layout_text,
}


def action_to_text(state: ArenaState, action: dict[str, Any]) -> str:
    """Notation of an action played in ``state`` (docs/rules/arena.md), for callers without the game object."""
    text = TEXT.get(str(action.get("type")))
    if text is None:
        return json.dumps(action, sort_keys=True)
    return text(state, state.seat_of(state.to_move), action)


# ------------------------------------------------------------------ sentences (i18n arguments)
def ship_phrase(ship: int) -> dict[str, Any]:
    """A ship by class and code, translated (``the frigate 112``)."""
    return phrase("arena.ship", kind=phrase(f"arena.class.{CLASS_NAMES[ship_class(ship)]}"), code=CODES[ship])


def teleport_phrase(action: dict[str, Any]) -> dict[str, Any]:
    """A permutation or rotation as a translated phrase (also used for bonuses)."""
    if action.get("type") == "permute":
        low = PAIRS[str(action["pair"])]
        return phrase("arena.teleport.permute", a=ship_phrase(low), b=ship_phrase(complement(low)), pair=action["pair"])
    group = "frigates" if action.get("cls") == "F" else "destroyers"
    way = "forward" if action.get("dir") == "+" else "backward"
    return phrase("arena.teleport.rotate", group=phrase(f"arena.group.{group}"), way=phrase(f"arena.way.{way}"),
                  name=teleport_text(action))


def _offer_phrase(action: dict[str, Any]) -> Any:
    return phrase("arena.part.offer") if action.get("offer_end") else ""


def _ship_at(state: ArenaState, cell: int) -> tuple[int, int] | None:
    """``(colour, ship)`` on the board cell ``cell`` (``-1``: none), or ``None``."""
    if cell < 0:
        return None
    for colour in (RED, BLUE):
        row = state.loc[colour]
        if cell in row:
            return colour, row.index(cell)
    return None


def move_args(state: ArenaState, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Arguments of ``arena.move.move``: the ship, both cells, the captured ship, the bonus, the offer."""
    face = state.face
    mover = _ship_at(state, face.parse_cell(str(action.get("from"))))
    target = _ship_at(state, face.parse_cell(str(action.get("to"))))
    bonus = action.get("bonus")
    return {
        "ship": ship_phrase(mover[1]) if mover else phrase("arena.ship.unknown"),
        "from": action.get("from"), "to": action.get("to"),
        "capture": phrase("arena.part.capture", ship=ship_phrase(target[1])) if target else "",
        "bonus": phrase("arena.part.bonus", teleport=teleport_phrase(bonus)) if bonus else "",
        "offer": _offer_phrase(action),
    }


def move_text_key(state: ArenaState, seat: int, action: dict[str, Any]) -> tuple[Any, ...]:
    """What the sentence of a move depends on (:func:`move_args`): both cells, the ships on them, the bonus and
    the offer."""
    face = state.face
    bonus = action.get("bonus")
    return (action.get("from"), action.get("to"), _ship_at(state, face.parse_cell(str(action.get("from")))),
            _ship_at(state, face.parse_cell(str(action.get("to")))),
            tuple(sorted(bonus.items())) if isinstance(bonus, dict) else bonus, bool(action.get("offer_end")))


def teleport_args(state: ArenaState, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Arguments of ``arena.move.permute`` / ``arena.move.rotate``."""
    return {"teleport": teleport_phrase(action), "offer": _offer_phrase(action)}


def place_args(state: ArenaState, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    return {"ship": ship_phrase(CODES.index(str(action.get("ship")))) if action.get("ship") in CODES
            else action.get("ship"), "cell": action.get("cell")}


def layout_args(state: ArenaState, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    return {}


def parse_action_text(state: ArenaState, player: int, text: str) -> dict[str, Any]:
    """Parse the action notation (or JSON) into an action object."""
    text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MalformedAction(f"cannot read JSON action {text!r}") from exc
        if not isinstance(data, dict):
            raise MalformedAction("an action is a JSON object")
        return data
    offer = text.endswith("=")
    if offer:
        text = text[:-1].strip()
    low = text.lower()
    action: dict[str, Any]
    if low in ("accept", "accept_end"):
        return {"type": "accept_end"}
    if low == "resign":
        return {"type": "resign"}
    m = _MOVE_RE.match(text)
    if m:
        bonus = teleport_action(m.group(4).upper()) if m.group(4) else None
        if m.group(4) and m.group(4).upper() not in ("P111", "P112", "P121", "P122", "RF+", "RF-", "RD+", "RD-"):
            raise MalformedAction(f"unknown teleport {m.group(4)!r}")
        action = {"type": "move", "from": m.group(1).lower(), "to": m.group(3).lower(), "bonus": bonus}
    elif _TELEPORT_RE.match(text):
        action = teleport_action(text.upper())
    elif "@" in text:
        code, _, cell = text.partition("@")
        action = {"type": "place", "ship": code.strip(), "cell": cell.strip().lower()}
    elif low.startswith("layout "):
        cells: dict[str, str] = {}
        for item in text[7:].replace(" ", "").split(","):
            if len(item) < 5:
                raise MalformedAction(f"bad layout entry {item!r} (want e.g. 112a1)")
            cells[item[3:].lower()] = item[:3]
        action = {"type": "layout", "cells": cells}
    else:
        raise RuleError("CORE-ACTION", f"cannot read {text!r}: try c5-c6, c5xc6/P112, P121, RD+, accept or resign")
    if offer:
        action["offer_end"] = True
    return action


def render_board(state: ArenaState, marks: set[int] | None = None, viewer: int | None = None) -> str:
    """Plain-text board: ranks top-down, ``R112``/``B112`` ships, ``.`` empty cells, ``:`` empty home
    cells while placing (AR-2.4); the house layout's label (AR-0.3), the viewer's colour and the
    result (AR-10.5)."""
    face = state.face
    cells: dict[int, str] = {}
    for colour, letter in ((RED, "R"), (BLUE, "B")):
        for ship, cell in enumerate(state.loc[colour]):
            if 0 <= cell < face.size:
                cells[cell] = letter + CODES[ship]
    homes = {c for col in (RED, BLUE) for c in face.home(col, state.home == "wide")} if state.phase == "place" else set()
    lines = []
    if state.setup == "default":
        lines.append(f"Layout: {layout_label(state.board)}")
    for rank in range(face.height - 1, -1, -1):
        row = []
        for f in range(face.width):
            c = rank * face.width + f
            empty = " *  " if marks and c in marks else (" :  " if c in homes else " .  ")
            row.append(cells.get(c, empty))
        lines.append(f"{rank + 1} | {' '.join(row)} |")
    lines.append("    " + " ".join(f" {chr(ord('a') + f)}  " for f in range(face.width)))
    n = face.banished
    for colour, name in ((RED, "Red"), (BLUE, "Blue")):
        reserve = [CODES[s] for s in range(8) if state.loc[colour][s] == n]
        unplaced = [CODES[s] for s in range(8) if state.loc[colour][s] == -1]
        extra = f"  unplaced: {' '.join(unplaced)}" if unplaced else ""
        lines.append(f"{name} reserve: {' '.join(reserve) or '-'}{extra}")
    if homes:
        how = ("seal all 8 ships at once: layout CODEcell,CODEcell,... (AR-2.7)" if state.sealed is not None
               else "place with CODE@CELL, e.g. 212@d2")
        lines.append(f"':' = empty home cell (AR-2.4); {how}")
    if state.phase == "over":
        pts = "1–0" if state.points == 1.0 else "½–0"
        who = "Red" if state.winner == RED else "Blue"
        plies = "1 ply" if state.plies == 1 else f"{state.plies} plies"
        lines.append(f"Result: {who} wins {pts} ({state.kind}) after {plies}")
    else:
        side = "Red" if state.to_move == RED else "Blue"
        if state.sealed is not None:
            side = "Both sides"  # AR-2.7 simultaneous placement: each seals its own layout
        last = {RED: "Red", BLUE: "Blue", -1: "none"}[state.last_capturer]
        what = "to place" if state.phase == "place" else "to move"
        offer = f"  offer pending from {'Red' if state.offer == RED else 'Blue'}" if state.offer >= 0 else ""
        lines.append(f"{side} {what}  ply {state.plies}  quiet {state.quiet}/40  last capturer: {last}{offer}")
    if state.phase != "place":
        lines.append(f"Position: {format_position(state)}")
    if viewer in (0, 1):
        lines.append(f"You play {'Red' if state.colour_of(viewer) == RED else 'Blue'}.")
    return "\n".join(lines)
