"""State of a Worlds & Suns combat skirmish (JSON-able dataclasses, WS-8).

The windows of the move table are the values of :data:`WINDOWS`: ``turn`` while no combat is open
(the active side declares a combat or ends its turn, WS-2.4, WS-8.2), then the steps of an open
combat (:attr:`Combat.step`), and ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spacetable.core.moves import DrawOffer
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .pieces import Card, Piece, System

#: No combat is open: the active side declares one or ends its turn (WS-2.4, WS-8.2).
TURN = "turn"
#: The steps of an open combat (:attr:`Combat.step`): pairing (WS-4), the sealed event and energy steps of the
#: current battle (WS-5.1, WS-5.3), the tie choices (WS-5.6), the loser's retreat (WS-6.3), the conversion (WS-6.4).
ALLOCATE, EVENT, ENERGY, TIE, RETREAT, CONVERT = "allocate", "event", "energy", "tie", "retreat", "convert"
#: The skirmish is over (WS-8.3), a side resigned, or the sides agreed to a draw (WS-D25).
OVER = "over"
WINDOWS = (TURN, ALLOCATE, EVENT, ENERGY, TIE, RETREAT, CONVERT, OVER)


@dataclass
class Battle:
    """One battle of a combat (WS-5). ``pieces`` belong to the allocator, ``anchor`` to the other side.
    Events and energy are written only when revealed (WS-5.1, WS-5.3)."""

    anchor: str
    pieces: list[str]
    events: list[str | None] = field(default_factory=lambda: [None, None])
    natives: list[int] = field(default_factory=lambda: [0, 0])
    pop_bonus: list[int] = field(default_factory=lambda: [0, 0])
    energy: list[int] = field(default_factory=lambda: [0, 0])
    power: list[int] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    result: str = ""  # "" unresolved, "0"/"1" winning seat, "tie"
    lost: list[list[str]] = field(default_factory=lambda: [[], []])
    done: bool = False


@dataclass
class Combat:
    """A combat in progress (WS-3, WS-4, WS-5, WS-6). ``step``: allocate, event, energy, tie, retreat, convert."""

    card: str
    attacker: int
    allocator: int
    participants: list[list[str]]
    battles: list[Battle] = field(default_factory=list)
    current: int = 0
    step: str = ALLOCATE
    sealed: SealedCommits = field(default_factory=SealedCommits)
    tie_pending: list[int] = field(default_factory=list)
    losses: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None
    converted: str | None = None


@dataclass
class WorldsState:
    num_players: int = 2
    scenario_id: str = ""
    label: str = ""
    sides: list[str] = field(default_factory=list)
    systems: list[System] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    energy: list[int] = field(default_factory=lambda: [0, 0])
    income: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    discards: list[list[str]] = field(default_factory=lambda: [[], []])
    deck: list[str] = field(default_factory=list)
    first_player: int = 0
    active: int = 0
    round: int = 1
    max_rounds: int = 10
    fought: list[str] = field(default_factory=list)
    combats_this_turn: int = 0
    quiet_turns: int = 0
    combat: Combat | None = None
    last_combat: Combat | None = None
    over: bool = False
    end_reason: str = ""
    #: the seat that resigned (the core resign move), if any
    resigned: int | None = None
    #: the core draw agreement: a pending offer, declined seats, an agreed draw (WS-D25)
    draw: DrawOffer = field(default_factory=DrawOffer)
    lost: list[int] = field(default_factory=lambda: [0, 0])
    combats_won: list[int] = field(default_factory=lambda: [0, 0])
    converted: list[int] = field(default_factory=lambda: [0, 0])
    log: list[str] = field(default_factory=list)
    dice_script: list[list[int]] | None = None
    dice_used: int = 0
    rng: Rng = field(default_factory=Rng)


def _clone_battle(b: Battle) -> Battle:
    return replace(b, pieces=list(b.pieces), events=list(b.events), natives=list(b.natives), pop_bonus=list(b.pop_bonus),
                   energy=list(b.energy), power=list(b.power), dice=list(b.dice), totals=list(b.totals),
                   lost=[list(b.lost[0]), list(b.lost[1])])


def _clone_combat(c: Combat | None) -> Combat | None:
    if c is None:
        return None
    return replace(c, participants=[list(p) for p in c.participants], battles=[_clone_battle(b) for b in c.battles],
                   sealed=SealedCommits(list(c.sealed.required), dict(c.sealed.commits)),
                   tie_pending=list(c.tie_pending), losses=list(c.losses))


def clone(s: WorldsState) -> WorldsState:
    """A copy of ``s`` sharing nothing that play changes: the generic deep copy written out, because the pure
    ``apply`` copies the state once per action (search plays thousands). Cards and systems never change after
    setup, so the copy shares them; sealed values are strings, integers or None. ``tests/worlds/test_clone.py``
    checks it against ``copy.deepcopy``."""
    return replace(
        s, pieces=[replace(p) for p in s.pieces], energy=list(s.energy), income=list(s.income),
        hands=[list(h) for h in s.hands], discards=[list(d) for d in s.discards], deck=list(s.deck),
        fought=list(s.fought), combat=_clone_combat(s.combat), last_combat=_clone_combat(s.last_combat),
        lost=list(s.lost), combats_won=list(s.combats_won), converted=list(s.converted), log=list(s.log),
        dice_script=None if s.dice_script is None else [list(p) for p in s.dice_script], rng=s.rng.copy(),
        cards=list(s.cards), systems=list(s.systems), sides=list(s.sides), draw=s.draw.copy(),
    )
