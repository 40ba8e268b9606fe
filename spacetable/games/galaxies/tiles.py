"""Discovery tiles (BG-15.1, BG-15.2, BG-15.3, BG-15.4, BG-15.5, D-11).

Each tile covers one hex and blocks nothing. A ship is **on** a tile when any hex of its footprint
covers it. Tiles start power side (``up``) or black side (``down``) up; a black-side tile is inert and
hidden from everyone until a ship **ends a move on it or is placed on it**: it then flips power side
up for good (a reveal). Effects: energy source (+2 in all in the energy phase), orbital market
(optional extra draw), shield regenerator (+1 shield peg up to the card value), alien artifact
(+7 primary range for the ship on it), observation station (+2 primary range for every ship of a
side while one of its ships is on it), warp gate (BG-15.4, in :mod:`.movement`), victory point
(only in missions that define it).
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import Hex
from .state import GState, Piece, Tile


def tiles_under(s: GState, hexes: Iterable[Hex]) -> list[Tile]:
    cover = set(hexes)
    return [t for t in s.tiles if t.hex in cover]


def flip_under(s: GState, hexes: Iterable[Hex]) -> None:
    """D-11 the first ship to end a move on (or be placed on) a black-side tile turns it up."""
    for t in tiles_under(s, hexes):
        if t.face == "down":
            t.face = "up"
            s.reveals += 1
            s.log({"t": "tile_flip", "hex": list(t.hex), "kind": t.kind})


def up_tiles(s: GState, kind: str) -> list[Tile]:
    return [t for t in s.tiles if t.kind == kind and t.face == "up"]


def pieces_on(s: GState, side: int, kind: str) -> list[tuple[Tile, Piece]]:
    """(tile, ship) pairs: face-up tiles of ``kind`` with a ship of ``side`` on them."""
    out = []
    tiles = up_tiles(s, kind)
    if not tiles:
        return out
    for p in s.on_board(side):
        cover = set(p.hexes)
        for t in tiles:
            if t.hex in cover:
                out.append((t, p))
    return out


def range_bonus(s: GState, piece: Piece, side: int) -> int:
    """BG-15.3 primary-range bonuses: alien artifact (+7, the ship on it) and observation
    station (+2 for all the side's ships while any of them is on one). Bonuses stack."""
    bonus = 0
    cover = set(piece.hexes)
    for t in up_tiles(s, "alien_artifact"):
        if t.hex in cover:
            bonus += 7
    stations = up_tiles(s, "observation_station")
    if stations:
        held = {t.hex for t, _ in pieces_on(s, side, "observation_station")}
        bonus += 2 * len(held)
    return bonus
