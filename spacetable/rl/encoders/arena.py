"""Cosmic Arena encoding (AR-*): board planes in the seat's own orientation, one token per turn action.

Cells are embedded in a 6 × 5 grid (rows = ranks, columns = files) *seen from the seat*: Red
keeps the board as printed, Blue sees it turned by 180°, so row 0 is always the seat's own
back row (AR-1.2) on both faces (6x4: 6 ranks × 4 files; 5x5). Cell index ``row * 5 + col``.

Tokens (``n_actions`` = 2410):

* ``move[(ship * 30 + dest) * 9 + bonus]``: the own ship ``ship`` (ship order of AR-1.4)
  moves to ``dest``; ``bonus`` 0 = none, ``1 + t`` = bonus teleport ``t`` (AR-8);
* ``teleport[t]``: teleports in the canonical order P111, P112, P121, P122, RF+, RF-, RD+, RD-
  (AR-6, AR-7);
* ``accept_end``: accept the opponent's pending offer (AR-10.4);
* ``place[ship * 30 + cell]``: alternate placement of one ship (AR-2.7); a sealed ``layout``
  (simultaneous placement) is the series of the eight ``place`` tokens of ships 0..7.

Offering the end (``offer_end``) and resigning are not offered to agents.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spacetable.games.arena.board import CODES
from spacetable.games.arena.teleports import TELEPORTS

from .base import Action, Block, Encoder, Segment, View

ROWS, COLS = 6, 5
CELLS = ROWS * COLS
MOVE_TOKENS = 8 * CELLS * 9
PLIES_SCALE = 600.0  # AR-A26: games end within 600 plies

#: Offsets inside the game part of the observation (shared with the compiled batch API).
OBS_SHIPS = 0
OBS_CELLS = 16 * CELLS
OBS_OFF = OBS_CELLS + 3 * CELLS
OBS_SCALARS = OBS_OFF + 32
N_SCALARS = 15
GAME_SIZE = OBS_SCALARS + N_SCALARS


def persp(name: str, width: int, height: int, blue: bool) -> int:
    """Grid index of a cell name as seen by the seat (Blue turned by 180°)."""
    f, r = ord(name[0]) - ord("a"), int(name[1:]) - 1
    if blue:
        f, r = width - 1 - f, height - 1 - r
    return r * COLS + f


class ArenaEncoder(Encoder):
    game_id = "arena"
    max_depth = 8

    def action_segments(self) -> list[Segment]:
        return [
            Segment("move", MOVE_TOKENS, "(ship * 30 + destination cell) * 9 + bonus (0 none, 1 + teleport)"),
            Segment("teleport", 8, "P111, P112, P121, P122, RF+, RF-, RD+, RD-"),
            Segment("accept_end", 1, "accept the opponent's offer to end (AR-10.4)"),
            Segment("place", 8 * CELLS, "ship * 30 + cell: place one ship (AR-2.7); a layout is 8 of them, ships 0..7"),
        ]

    def game_blocks(self) -> list[Block]:
        return [
            Block("ships", (16, ROWS, COLS), "planes 0-7: own ship i on the cell; 8-15: the opponent's ship i"),
            Block("cells", (3, ROWS, COLS), "cells of this face; own home area; opponent's home area (AR-2.4)"),
            Block("off_board", (4, 8), "own banished, opponent banished (AR-1.7), own unplaced, opponent unplaced (AR-2.7)"),
            Block("scalars", (N_SCALARS,),
                  "my turn, I am Red, quiet/40, last capturer me, last capturer opponent, offer by me, offer by opponent, "
                  "phase place, play, over, plies/600, 5x5 face, sealed placement, my layout sealed, opponent's sealed"),
        ]

    # ----------------------------------------------------------------- tokens
    def sequences(self, view: View, seat: int, actions: Sequence[Action]) -> list[tuple[int, ...]]:
        w, h = view["width"], view["height"]
        me = view["you"]
        blue = me == "blue"
        own = {s["cell"]: CODES.index(s["code"]) for s in view["ships"] if s["colour"] == me}
        move0, tele0, place0 = self.offsets["move"], self.offsets["teleport"], self.offsets["place"]
        out: list[tuple[int, ...]] = []
        for a in actions:
            kind = a["type"]
            if kind == "move":
                ship = own[a["from"]]
                dest = persp(a["to"], w, h, blue)
                bonus = 0 if a.get("bonus") is None else 1 + TELEPORTS.index(_teleport_name(a["bonus"]))
                out.append((move0 + (ship * CELLS + dest) * 9 + bonus,))
            elif kind in ("permute", "rotate"):
                out.append((tele0 + TELEPORTS.index(_teleport_name(a)),))
            elif kind == "accept_end":
                out.append((self.offsets["accept_end"],))
            elif kind == "place":
                out.append((place0 + CODES.index(a["ship"]) * CELLS + persp(a["cell"], w, h, blue),))
            elif kind == "layout":
                by_ship = {CODES.index(code): cell for cell, code in a["cells"].items()}
                out.append(tuple(place0 + s * CELLS + persp(by_ship[s], w, h, blue) for s in range(8)))
            else:
                raise ValueError(f"arena encoder: unknown action type {kind!r}")
        return out

    # ------------------------------------------------------------ observation
    def observe_view(self, view: View, seat: int, out: np.ndarray) -> None:
        w, h = view["width"], view["height"]
        me = view["you"]
        blue = me == "blue"
        for s in view["ships"]:
            plane = CODES.index(s["code"]) + (0 if s["colour"] == me else 8)
            out[OBS_SHIPS + plane * CELLS + persp(s["cell"], w, h, blue)] = 1.0
        for r in range(h):
            for f in range(w):
                out[OBS_CELLS + r * COLS + f] = 1.0  # the face is symmetric under the 180° turn
        opp = "red" if blue else "blue"
        for k, colour in ((1, me), (2, opp)):
            for name in view["home_cells"][colour]:
                out[OBS_CELLS + k * CELLS + persp(name, w, h, blue)] = 1.0
        for k, (key, colour) in enumerate((("reserve", me), ("reserve", opp), ("unplaced", me), ("unplaced", opp))):
            for code in view[key][colour]:
                out[OBS_OFF + k * 8 + CODES.index(code)] = 1.0
        sc = OBS_SCALARS
        out[sc + 0] = 1.0 if view["to_move"] == me else 0.0
        out[sc + 1] = 0.0 if blue else 1.0
        out[sc + 2] = view["quiet"] / 40.0
        out[sc + 3] = 1.0 if view["last_capturer"] == me else 0.0
        out[sc + 4] = 1.0 if view["last_capturer"] == opp else 0.0
        out[sc + 5] = 1.0 if view["offer"] == me else 0.0
        out[sc + 6] = 1.0 if view["offer"] == opp else 0.0
        out[sc + 7 + ("place", "play", "over").index(view["phase"])] = 1.0
        out[sc + 10] = min(view["plies"], PLIES_SCALE) / PLIES_SCALE
        out[sc + 11] = 1.0 if view["board"] == "5x5" else 0.0
        placement = view.get("placement")
        if placement is not None:
            out[sc + 12] = 1.0
            committed = placement["committed"]
            seats = view["seat_colours"]
            for s, done in committed.items():
                if done:
                    out[sc + (13 if seats[s] == me else 14)] = 1.0


def _teleport_name(action: Any) -> str:
    if action["type"] == "permute":
        return str(action["pair"])
    return f"R{action['cls']}{action['dir']}"
