"""The Cosmic Arena state (AR-1.7, AR-2.2, AR-10.2, AR-10.4, IM-1).

A position is ``loc[colour][ship]``: a cell index, ``face.banished`` for a ship in the
parallel universe (AR-1.7) or −1 for a ship not yet placed (AR-2.7). Colours: 0 = Red,
1 = Blue; ``red_seat`` is the seat playing Red (AR-2.2). ``phase`` is ``place``, ``play``
or ``over``; the counters ``quiet`` and ``last_capturer`` are those of AR-10.2 and ``offer``
the colour whose offer to end is pending (AR-10.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .board import BLUE, RED, Face, get_face

QUIET_LIMIT = 40  # AR-10.2
KINDS = ("corvette", "no_action", "quiet_limit", "agreement", "resignation")  # AR-10.5
PLACE, PLAY, OVER = "place", "play", "over"


@dataclass
class ArenaState:
    """Full state. ``loc[colour][ship]``: cell, ``N`` = banished (AR-1.7), −1 = not yet placed (AR-2.7).

    Colours: 0 = Red, 1 = Blue; ``red_seat`` is the seat playing Red (AR-2.2)."""

    board: str = "6x4"
    setup: str = "default"
    placement: str = "alternate"
    home: str = "standard"
    red_seat: int = 0
    loc: list[list[int]] = field(default_factory=lambda: [[-1] * 8, [-1] * 8])
    phase: str = PLAY  # PLACE | PLAY | OVER
    to_move: int = RED
    quiet: int = 0
    last_capturer: int = -1
    offer: int = -1  # colour whose agreement offer is pending (AR-10.4)
    plies: int = 0
    sealed: SealedCommits | None = None
    winner: int = -1  # colour
    kind: str = ""
    points: float = 0.0
    num_players: int = 2
    rng: Rng = field(default_factory=Rng)

    @property
    def face(self) -> Face:
        return get_face(self.board)

    @property
    def wide(self) -> bool:
        """Whether the home areas are the full home ranks (AR-2.4, option ``home: wide``)."""
        return self.home == "wide"

    def seat_of(self, colour: int) -> int:
        return self.red_seat if colour == RED else 1 - self.red_seat

    def colour_of(self, seat: int) -> int:
        return RED if seat == self.red_seat else BLUE
