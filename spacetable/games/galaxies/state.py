"""The Battleship Galaxies state (BG-1 terms) and its static context (pack, mission, board).

Everything in :class:`GState` is JSON data: sides (BG-1.1), ship cards (BG-1.2) with their zone
(screen, hold, play, destroyed; BG-1.4), ships on the board (BG-1.3) with shield and hull pegs,
tactic card instances, tiles, the open activation, a pending attack roll, an open reaction window,
sealed set-up commits and the seeded :class:`~spacetable.core.rng.Rng` (BG-1.5).

The static context (the validated :class:`~.packs.Pack`, the mission and the built
:class:`~.board.Board`) is found from ``config`` and cached, so a state rebuilt from JSON finds it
again. :meth:`GState.copy` is a hand-written copy (the engine copies a state on every action).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spacetable.core.moves import DrawOffer
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .board import Board, Hex, make_board
from .packs import PACKS, MissionData, Pack, ShipData, TacticData, VersionData, pack_of_config

SIDES = ("A", "B")
HAND_LIMIT = 10  # D-9
ENERGY_CAP = 40  # BG-6.2
EVENTS_KEPT = 40


@dataclass
class Piece:
    """BG-1.3 one ship on the board (or waiting to be placed): pegs and footprint."""

    id: str
    card: str
    hexes: list[Hex] = field(default_factory=list)
    shields: int = 0
    hull: int = 0
    alive: bool = True

    def copy(self) -> Piece:
        return Piece(self.id, self.card, list(self.hexes), self.shields, self.hull, self.alive)


@dataclass
class Mod:
    """A temporary modifier from an event or effect: ``stat`` += ``delta`` on a card (or one
    piece), for ``weapon`` (``primary``, ``secondary``, a weapon id, or all), until ``until``
    (``activation``, ``turn``, ``permanent``). ``stat`` ``ecm_immunity`` marks ECM immunity."""

    card: str
    stat: str
    delta: int = 0
    piece: str = ""
    weapon: str = ""
    until: str = "turn"

    def copy(self) -> Mod:
        return Mod(self.card, self.stat, self.delta, self.piece, self.weapon, self.until)


@dataclass
class ShipCard:
    """BG-1.2 a ship card of a side's fleet. ``owner`` fielded it, ``side`` controls it now,
    ``seat`` commands it (BG-18.1). ``zone``: screen, hold, play, destroyed."""

    id: str
    key: str
    version: str
    owner: int
    side: int
    seat: int
    zone: str = "screen"
    holder: str = ""
    cargo: list[str] = field(default_factory=list)
    pieces: list[str] = field(default_factory=list)
    launched_turn: int = -1
    activated: bool = False
    from_hold: bool = False
    attachments: list[str] = field(default_factory=list)
    revealed_to: list[int] = field(default_factory=list)
    public: bool = False

    def copy(self) -> ShipCard:
        return ShipCard(self.id, self.key, self.version, self.owner, self.side, self.seat, self.zone, self.holder,
                        list(self.cargo), list(self.pieces), self.launched_turn, self.activated, self.from_hold,
                        list(self.attachments), list(self.revealed_to), self.public)


@dataclass
class Tactic:
    """A tactic card instance. ``zone``: deck, hand, prepped, discard, attached, out."""

    id: str
    key: str
    owner: int
    zone: str = "deck"
    on: str = ""

    def copy(self) -> Tactic:
        return Tactic(self.id, self.key, self.owner, self.zone, self.on)


@dataclass
class Side:
    """BG-1.1 a side: one faction, energy, deck, hand, prepped area, discards, fleet."""

    index: int
    faction: str
    seats: list[int] = field(default_factory=list)
    energy: int = 15
    deck: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    prepped: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    fleet: list[str] = field(default_factory=list)
    turns: int = 0
    hold_streak: dict[str, int] = field(default_factory=dict)
    conceded: bool = False

    def copy(self) -> Side:
        return Side(self.index, self.faction, list(self.seats), self.energy, list(self.deck), list(self.hand),
                    list(self.prepped), list(self.discard), list(self.destroyed), list(self.fleet), self.turns,
                    dict(self.hold_streak), self.conceded)


@dataclass
class Tile:
    """BG-15 a discovery tile: kind and face (``up`` power side, ``down`` black side)."""

    hex: Hex
    kind: str
    face: str = "up"

    def copy(self) -> Tile:
        return Tile(self.hex, self.kind, self.face)


@dataclass
class Activation:
    """BG-9.2 the open activation: its card, step (``start``, ``move``, ``attack``), the ships
    that have moved (D-4), the ships that began on a warp gate (BG-15.4), the attacks left
    per ship and weapon, and the ``ship/weapon`` pairs already charged (D-7)."""

    card: str
    step: str = "start"
    moved: list[str] = field(default_factory=list)
    on_gate: list[str] = field(default_factory=list)
    charged: dict[str, dict[str, int]] = field(default_factory=dict)
    charges: list[str] = field(default_factory=list)

    def copy(self) -> Activation:
        return Activation(self.card, self.step, list(self.moved), list(self.on_gate),
                          {k: dict(v) for k, v in self.charged.items()}, list(self.charges))


@dataclass
class Roll:
    """A pending attack (BG-12.5): the coordinate rolled, whether it hits, and who reacts."""

    piece: str
    weapon: str
    target: str
    letter: int
    number: int
    hit: bool
    strength: int
    tag: str
    cancelled: bool = False

    def copy(self) -> Roll:
        return Roll(self.piece, self.weapon, self.target, self.letter, self.number, self.hit, self.strength,
                    self.tag, self.cancelled)


@dataclass
class Window:
    """An open timing window waiting for a seat: ``after_attack_roll`` (the attacker) or a
    reaction (``enemy_activation``, ``enemy_hit``) of the other side (BG-14.4, D-20)."""

    kind: str
    side: int
    seat: int

    def copy(self) -> Window:
        return Window(self.kind, self.side, self.seat)


@dataclass
class EnergyChoice:
    """BG-7.1 (c) choices still open in the energy phase: the orbital market draw and the
    shield regenerators holding a controlled ship."""

    market: bool = False
    regen: list[str] = field(default_factory=list)

    def copy(self) -> EnergyChoice:
        return EnergyChoice(self.market, list(self.regen))


@dataclass
class GState:
    num_players: int
    config: dict[str, Any]
    mission: str
    board: str
    seat_side: list[int]
    sides: list[Side]
    phase: str = "fleet"
    round: int = 0
    turn: int = 0
    active: int = 0
    helm: int = 0
    first: int = -1
    cards: dict[str, ShipCard] = field(default_factory=dict)
    pieces: dict[str, Piece] = field(default_factory=dict)
    tactics: dict[str, Tactic] = field(default_factory=dict)
    tiles: list[Tile] = field(default_factory=list)
    mods: list[Mod] = field(default_factory=list)
    activation: Activation | None = None
    roll: Roll | None = None
    window: Window | None = None
    energy_choice: EnergyChoice | None = None
    sealed: SealedCommits = field(default_factory=SealedCommits)
    rolloff: list[int] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    reveals: int = 0
    nlog: int = 0
    result: dict[str, Any] | None = None
    digest: str = ""
    #: the core draw agreement: a pending offer, declined seats, an agreed draw (D-23)
    draw: DrawOffer = field(default_factory=DrawOffer)
    rng: Rng = field(default_factory=Rng)

    # ---------------------------------------------------------------- context
    @property
    def pack(self) -> Pack:
        found: Pack | None = self.__dict__.get("_pack")
        if found is None:
            found = PACKS.get(self.digest)
            if found is None:
                found = pack_of_config(self.config)
                self.digest = found.digest
            self.__dict__["_pack"] = found
        return found

    @property
    def missiondata(self) -> MissionData:
        return self.pack.missions[self.mission]

    @property
    def geo(self) -> Board:
        return board_of(self.pack, self.mission, self.board)

    def shipdata(self, card: str) -> ShipData:
        return self.pack.ships[self.cards[card].key]

    def vdata(self, card: str) -> VersionData:
        c = self.cards[card]
        return self.pack.ships[c.key].versions[c.version]  # type: ignore[index]

    def tdata(self, tactic: str) -> TacticData:
        return self.pack.tactics[self.tactics[tactic].key]

    # ----------------------------------------------------------------- lookups
    def side_of(self, seat: int) -> int:
        return self.seat_side[seat]

    def lead(self, side: int) -> int:
        """BG-18.1 seat 1 of a side: the lowest seat."""
        return self.sides[side].seats[0]

    def enemy(self, side: int) -> int:
        return 1 - side

    def piece_card(self, piece: str) -> ShipCard:
        return self.cards[self.pieces[piece].card]

    def on_board(self, side: int | None = None) -> list[Piece]:
        """Ships on the board, in card then ship order; of one controlling side if given."""
        out = []
        for c in self.cards.values():
            if c.zone != "play" or (side is not None and c.side != side):
                continue
            for pid in c.pieces:
                p = self.pieces[pid]
                if p.alive and p.hexes:
                    out.append(p)
        return out

    def occupied(self, exclude: str = "") -> dict[Hex, str]:
        """Hex -> piece id of every ship on the board (BG-2.4), optionally without one ship."""
        occ: dict[Hex, str] = {}
        for c in self.cards.values():
            if c.zone != "play":
                continue
            for pid in c.pieces:
                if pid == exclude:
                    continue
                p = self.pieces[pid]
                if p.alive:
                    for h in p.hexes:
                        occ[h] = pid
        return occ

    def log(self, event: dict[str, Any], to: list[int] | None = None) -> None:
        """Record an event; ``to`` lists the sides that may see it (``None``: everybody)."""
        self.nlog += 1
        event = {**event, "n": self.nlog}
        if to is not None:
            event["to"] = list(to)
        self.events.append(event)
        if len(self.events) > EVENTS_KEPT:
            del self.events[: len(self.events) - EVENTS_KEPT]

    def copy(self) -> GState:
        new = self._copy()
        if "_pack" in self.__dict__:
            new.__dict__["_pack"] = self.__dict__["_pack"]
        return new

    def _copy(self) -> GState:
        return GState(
            num_players=self.num_players, config=self.config, mission=self.mission, board=self.board,
            seat_side=list(self.seat_side), sides=[s.copy() for s in self.sides], phase=self.phase, round=self.round,
            turn=self.turn, active=self.active, helm=self.helm, first=self.first,
            cards={k: v.copy() for k, v in self.cards.items()},
            pieces={k: v.copy() for k, v in self.pieces.items()},
            tactics={k: v.copy() for k, v in self.tactics.items()},
            tiles=[t.copy() for t in self.tiles], mods=[m.copy() for m in self.mods],
            activation=self.activation.copy() if self.activation else None,
            roll=self.roll.copy() if self.roll else None,
            window=self.window.copy() if self.window else None,
            energy_choice=self.energy_choice.copy() if self.energy_choice else None,
            sealed=SealedCommits(list(self.sealed.required), dict(self.sealed.commits)),
            rolloff=list(self.rolloff), events=list(self.events), reveals=self.reveals, nlog=self.nlog,
            result=dict(self.result) if self.result is not None else None,
            digest=self.digest, rng=self.rng.copy(), draw=self.draw.copy(),
        )


_BOARDS: dict[tuple[str, str, str], Board] = {}


def board_of(pack: Pack, mission: str, board: str) -> Board:
    """The built board of a mission (its obstacle and tile overrides applied), cached."""
    key = (pack.digest, mission, board)
    built = _BOARDS.get(key)
    if built is None:
        m = pack.missions[mission]
        built = _BOARDS[key] = make_board(pack.boards[board], m.overrides.obstacles, m.overrides.tiles)
    return built
