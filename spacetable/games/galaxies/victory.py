"""Victory, elimination, concession and the round-limit score (BG-17, D-15, D-22).

The mission sets the victory conditions (BG-17.1); the default is to destroy all enemy ships.
A side's ships include those on the board, behind its screen and in holds (BG-17.2, D-15): a side left with
no ships loses at once (checked after every action, hence after every damage, destruction and
take-over); both at zero together is a draw (D-22). Mission conditions: ``destroy_named`` (the named
enemy ship card is destroyed), ``hold_tile`` (a side's ship is on the tile and no enemy ship is, at
the start of that side's energy phase, ``rounds`` times in a row), ``ships_in_hexes`` (at the end of
the side's turn at least ``n`` of its ships, optionally of some sizes, cover a hex of the area).

The round limit (BG-17.3, D-15): after round ``max_rounds`` each side scores ``fleet_cost ÷ squadron_size``
(exact fractions) for every ship of the opposing fleet that is destroyed (any cause, cargo
included) or under its control; the higher score wins, a tie is a draw. A side may concede at any
decision point (BG-17.4; the core ``resign`` move). The sides may agree to a draw with the core draw offer
(D-23, house rule: BG-17.3 knows a draw): :func:`agree_draw`.
"""

from __future__ import annotations

from fractions import Fraction

from .state import SIDES, GState
from .stats import size_of


def ships_left(s: GState, side: int) -> int:
    """D-15 living ships of cards the side controls on the board, behind its screen or in holds."""
    n = 0
    for c in s.cards.values():
        if c.side == side and c.zone in ("play", "screen", "hold"):
            n += sum(1 for pid in c.pieces if s.pieces[pid].alive)
    return n


def score(s: GState, side: int) -> Fraction:
    """D-15 the value of the opposing fleet destroyed or controlled by ``side``."""
    total = Fraction(0)
    for c in s.cards.values():
        if c.owner == side:
            continue
        data = s.shipdata(c.id)
        each = Fraction(s.vdata(c.id).cost, data.squadron_size)
        for pid in c.pieces:
            p = s.pieces[pid]
            if not p.alive or (c.side == side and c.zone == "play"):
                total += each
    return total


def finish(s: GState, winner: int | None, kind: str, **details: object) -> None:
    s.result = {"winner": winner, "kind": kind, "scores": [str(score(s, 0)), str(score(s, 1))], **details}
    s.phase = "over"
    s.window = None
    s.roll = None


def agree_draw(s: GState, seat: int, a: dict) -> None:
    """D-23 (house rule): every seat agreed to a draw (the core draw offer); the game ends drawn at once, the
    round-limit scores of BG-17.3 reported as they stand."""
    finish(s, None, "agreement")


def check(s: GState) -> None:
    """Conditions checked after every action: concession, elimination, destroyed named ships."""
    if s.result is not None or s.phase in ("fleet", "deck", "over"):
        return
    for sd in s.sides:
        if sd.conceded:
            finish(s, 1 - sd.index, "concession")
            return
    left = [ships_left(s, i) for i in (0, 1)]
    if left[0] == 0 and left[1] == 0:
        finish(s, None, "mutual_destruction")
        return
    for i in (0, 1):
        if left[i] == 0:
            finish(s, 1 - i, "destroy_all")
            return
    for cond in s.missiondata.victory:
        if cond.type != "destroy_named" or cond.ship is None:
            continue
        for i in _sides(cond.side):
            if any(c.owner == 1 - i and c.key == cond.ship and c.zone == "destroyed" for c in s.cards.values()):
                finish(s, i, "destroy_named", ship=cond.ship)
                return


def _sides(letter: str | None) -> list[int]:
    return [0, 1] if letter is None else [SIDES.index(letter)]


def on_energy_phase(s: GState, side: int) -> None:
    """``hold_tile``: count the side's energy phases in a row holding the tile alone."""
    for cond in s.missiondata.victory:
        if cond.type != "hold_tile" or cond.tile is None or side not in _sides(cond.side):
            continue
        hexs = tuple(cond.tile)
        mine = any(hexs in map(tuple, p.hexes) for p in s.on_board(side))
        theirs = any(hexs in map(tuple, p.hexes) for p in s.on_board(1 - side))
        key = f"{hexs[0]},{hexs[1]}"
        sd = s.sides[side]
        sd.hold_streak[key] = sd.hold_streak.get(key, 0) + 1 if mine and not theirs else 0
        if sd.hold_streak[key] >= (cond.rounds or 1):
            finish(s, side, "hold_tile", tile=list(hexs))
            return


def on_turn_end(s: GState, side: int) -> None:
    """``ships_in_hexes`` at the end of the side's turn."""
    for cond in s.missiondata.victory:
        if cond.type != "ships_in_hexes" or not cond.hexes or side not in _sides(cond.side):
            continue
        area = {tuple(h) for h in cond.hexes}
        n = sum(1 for p in s.on_board(side)
                if any(tuple(h) in area for h in p.hexes) and (not cond.sizes or size_of(s, p.card) in cond.sizes))
        if n >= (cond.n or 1):
            finish(s, side, "ships_in_hexes", ships=n)
            return


def round_limit(s: GState) -> None:
    """D-15 after round ``max_rounds`` the destroyed-or-taken fleet value decides."""
    a, b = score(s, 0), score(s, 1)
    finish(s, 0 if a > b else 1 if b > a else None, "round_limit")
