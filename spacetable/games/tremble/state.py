"""State of a Tremble, Humans! match (TH-1.1, TH-1.2, TH-2) with a hand-written fast clone.

Everything is plain JSON-able data; card identities are instance ids of the card
set named by ``card_set`` (``house`` or an owner folder). Slots are 0-based here
and 1-based in actions and views.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits


@dataclass
class PlayerState:
    humans: int = 0  # no upper cap (TH-D28); below zero only after the final settlement (TH-D5, TH-D8)
    hand: list[str] = field(default_factory=list)
    stations: list[str] = field(default_factory=list)
    tapped: list[str] = field(default_factory=list)
    comps: list[str] = field(default_factory=list)
    comp_turns: list[int] = field(default_factory=list)
    trophies: list[str] = field(default_factory=list)
    credits: int = 0
    credits_taken: int = 0
    drawn: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    peek: list[str] = field(default_factory=list)

    def clone(self) -> PlayerState:
        new = object.__new__(PlayerState)
        d = self.__dict__.copy()
        for key in _PLAYER_LISTS:
            d[key] = d[key][:]
        new.__dict__ = d
        return new

    def usable_comps(self, turn: int) -> list[str]:
        """Compensation cards received before this turn (TH-12.2)."""
        comps = self.comps
        if not comps:
            return []
        if max(self.comp_turns) < turn:  # all received before this turn (the common case)
            return comps[:]
        return [c for c, t in zip(comps, self.comp_turns, strict=False) if t < turn]  # kept the same length


_PLAYER_LISTS = ("hand", "stations", "tapped", "comps", "comp_turns", "trophies", "drawn", "known", "peek")


@dataclass
class Contest:
    """A battle between captains (TH-9) or the army fights of a catch (TH-10)."""

    kind: str = "battle"
    order: list[int] = field(default_factory=list)
    fight: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    dice: dict[int, int] = field(default_factory=dict)
    ship_mods: dict[str, int] = field(default_factory=dict)
    cancelled: list[str] = field(default_factory=list)
    group_mods: dict[int, int] = field(default_factory=dict)
    passed: list[int] = field(default_factory=list)
    offer: int = -1
    losers: list[int] = field(default_factory=list)
    winner: int = -1
    claim: int = -1
    armies: list[str] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)
    army_pos: int = 0
    beaten: int = 0

    def clone(self) -> Contest:
        return Contest(
            self.kind,
            self.order[:],
            self.fight[:],
            self.seats[:],
            dict(self.dice),
            dict(self.ship_mods),
            self.cancelled[:],
            dict(self.group_mods),
            self.passed[:],
            self.offer,
            self.losers[:],
            self.winner,
            self.claim,
            self.armies[:],
            self.revealed[:],
            self.army_pos,
            self.beaten,
        )


def new_contest(kind: str, order: list[int], seats: list[int], winner: int = -1, claim: int = -1) -> Contest:
    """``Contest(kind=..., order=..., seats=..., winner=..., claim=...)`` without the dataclass
    constructor's default factories (built once per battle and per reward: a hot path)."""
    c = object.__new__(Contest)
    c.__dict__ = {
        "kind": kind,
        "order": order,
        "fight": [],
        "seats": seats,
        "dice": {},
        "ship_mods": {},
        "cancelled": [],
        "group_mods": {},
        "passed": [],
        "offer": -1,
        "losers": [],
        "winner": winner,
        "claim": claim,
        "armies": [],
        "revealed": [],
        "army_pos": 0,
        "beaten": 0,
    }
    return c


_STATE_LISTS = (
    "city_deck",
    "blue_deck",
    "red_deck",
    "ship_discard",
    "out",
    "army_deck",
    "army_discard",
    "comp_deck",
    "comp_discard",
    "city_discard",
    "missions",
    "hidden_missions",
    "slots",
    "queue",
    "resigned",
)


@dataclass
class TState:
    num_players: int = 2
    card_set: str = "house"
    fuel: list[int] = field(default_factory=list)
    split_unit: int = 10000
    turn: int = 1
    phase: str = "buy"
    rng: Rng = field(default_factory=Rng)
    players: list[PlayerState] = field(default_factory=list)
    city_deck: list[str] = field(default_factory=list)
    blue_deck: list[str] = field(default_factory=list)
    red_deck: list[str] = field(default_factory=list)
    ship_discard: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    army_deck: list[str] = field(default_factory=list)
    army_discard: list[str] = field(default_factory=list)
    comp_deck: list[str] = field(default_factory=list)
    comp_discard: list[str] = field(default_factory=list)
    city_discard: list[str] = field(default_factory=list)
    missions: list[str] = field(default_factory=list)
    hidden_missions: list[str] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)
    groups: list[dict[int, list[str]]] = field(default_factory=list)
    support: list[dict[int, int]] = field(default_factory=list)
    sealed: SealedCommits = field(default_factory=SealedCommits)
    queue: list[int] = field(default_factory=list)
    slot: int = 0
    contest: Contest | None = None
    events: list[str] = field(default_factory=list)
    log_events: bool = True
    final: dict[str, list[int]] = field(default_factory=dict)
    #: seats that resigned (core move), in order; their decisions are played by the timeout defaults
    resigned: list[int] = field(default_factory=list)

    @property
    def lead(self) -> int:
        """Lead seat of the turn (TH-2.8)."""
        return (self.turn - 1) % self.num_players

    def seat_order(self) -> list[int]:
        n = self.num_players
        return [(self.lead + i) % n for i in range(n)]

    def clone(self) -> TState:
        """Fast copy: lists copied one level deep; card ids, sealed actions and the fuel table are shared
        (never mutated in place)."""
        new = object.__new__(TState)
        d = self.__dict__.copy()
        for key in _STATE_LISTS:
            d[key] = d[key][:]
        d["rng"] = Rng(self.rng.state, self.rng.forced[:])
        d["players"] = [p.clone() for p in self.players]
        d["groups"] = [{k: v[:] for k, v in g.items()} for g in self.groups]
        d["support"] = [dict(x) for x in self.support]
        d["sealed"] = SealedCommits(self.sealed.required[:], dict(self.sealed.commits))
        d["contest"] = self.contest.clone() if self.contest is not None else None
        d["events"] = self.events[-30:]
        d["final"] = {k: v[:] for k, v in self.final.items()}
        new.__dict__ = d
        return new

    def note(self, text: str) -> None:
        if self.log_events:
            self.events.append(text)
            if len(self.events) > 60:
                del self.events[:-30]
