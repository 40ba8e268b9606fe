"""The advisor's plan space and its value (WS-10.1, WS-10.2, WS-10.4, WS-10.5, WS-10.6).

A plan of side S for one allocation is, per battle, an option ``(event, energy)`` under the shared
pool and hand (WS-10.2). Its value comes from the law of ``D = L_O - L_S`` (losses of the other side
minus ours), kept as integer counts over ``36^k`` and built battle by battle (WS-9.2, WS-9.3), so
every comparison is exact: :class:`LawSpace` holds such a law as a vector of counts indexed by D and
adds a battle with one matrix-vector product (:class:`OptionLaw` carries the battle's matrix).
:class:`Evaluator` turns a law into the integer key the advisor ranks plans by (the chosen objective,
then P(win), E[L_S], E[L_O]; WS-10.4, WS-10.5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from .battle import dice_counts, group_power
from .events import card as event_card
from .events import event_number
from .odds import Group, Odds

OBJECTIVES = ("win", "no_loss", "losses", "net")
FIXED = "fixed"
WORST_CASE = "worst_case"


@dataclass(frozen=True)
class Slot:
    """One battle as the advisor sees it: the anchor and both sides' pieces (S = our side)."""

    anchor_id: str
    anchor_kind: str
    s_pops: int
    s_facs: int
    o_pops: int
    o_facs: int


@dataclass
class Situation:
    """WS-10.1 input. ``anchors`` are (id, kind) in WS-10.6 order; ``allocator`` is "S" or "O".
    ``allocation`` (mode ``given``) lists per anchor the allocator's (pops, facs)."""

    s_is_attacker: bool
    on_world: bool
    s_pieces: tuple[int, int]
    o_pieces: tuple[int, int]
    anchors: list[tuple[str, str]]
    allocator: str
    energy_s: int = 0
    energy_o: int = 0
    hand_s: list[str] = field(default_factory=list)
    hand_o: list[str] | None = None
    mode: str = "ours"
    allocation: list[tuple[int, int]] | None = None
    opponent: str = FIXED
    fixed_response: list[tuple[str | None, int]] | None = None
    objective: str = "win"
    offsets: tuple[int, int] = (0, 0)
    #: battle index -> event already revealed (re-planning between the event and energy steps, WS-10.9)
    s_events_fixed: dict[int, str | None] = field(default_factory=dict)
    o_events_fixed: dict[int, str | None] = field(default_factory=dict)


@dataclass
class Advice:
    """WS-10.8 output."""

    slots: list[Slot]
    events: list[str | None]
    energy: list[int]
    value: dict[str, Fraction]
    odds: Odds
    co_optimal: int
    co_optimal_plans: list[tuple[tuple[int, int, int, int], ...]]
    encoding: tuple[tuple[int, int, int, int], ...]
    response: list[tuple[str | None, int]] | None
    leaves: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "battles": [
                {"anchor": s.anchor_id, "S": {"P": s.s_pops, "F": s.s_facs}, "O": {"P": s.o_pops, "F": s.o_facs},
                 "event": ev, "energy": e}
                for s, ev, e in zip(self.slots, self.events, self.energy, strict=True)
            ],
            "value": {k: str(v) for k, v in self.value.items()},
            "odds": self.odds.to_json(),
            "co_optimal": self.co_optimal,
            "co_optimal_plans": [list(map(list, p)) for p in self.co_optimal_plans],
            "encoding": [list(x) for x in self.encoding],
            "opponent_response": None if self.response is None else [{"event": ev, "energy": e} for ev, e in self.response],
        }



Reply = list[tuple[str | None, int]]
Key4 = tuple[int, int, int, int]


def battle_options(pops: int, is_defender: bool, on_world: bool, hand: list[str], fixed: Any,
                   cap: int) -> list[tuple[str | None, int]]:
    """Per-battle options (event, energy), sorted by (energy, event code) = encoding order."""
    if fixed is not FREE:
        evs: list[str | None] = [fixed]
    else:
        evs = [None, *sorted({c for c in hand if event_card(c).legal(pops, is_defender, on_world)}, key=event_number)]
    return sorted(((ev, e) for ev in evs for e in range(cap + 1)), key=lambda o: (o[1], event_number(o[0])))


#: The battle's event is still to choose (as opposed to a card already revealed, WS-10.9).
FREE = object()


def side_power(pops: int, facs: int, ev: str | None, e: int) -> int:
    """A group's power with an optional event card and energy (WS-5.2, WS-5.3)."""
    bonus = event_card(ev).bonus(pops) if ev else 0
    return group_power(pops, facs) + bonus + e


def max_event_bonus(pops: int, is_defender: bool, on_world: bool, hand: list[str] | None, fixed: Any) -> int:
    """The largest bonus a legal card of ``hand`` (or the revealed card ``fixed``) adds to the group (WS-7)."""
    if fixed is not FREE:
        return event_card(fixed).bonus(pops) if fixed else 0
    best = 0
    for c in set(hand or []):
        ec = event_card(c)
        if ec.legal(pops, is_defender, on_world):
            best = max(best, ec.bonus(pops))
    return best


@cache
def battle_law(d: int, n_s: int, n_o: int) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """Per-battle law of D = L_O - L_S as ((shift, count), ...) plus E[L_S]*36 and E[L_O]*36."""
    w, t, lo = dice_counts(max(-7, min(7, d)))
    law = tuple(x for x in ((n_o, w), (0, t), (-n_s, lo)) if x[1])
    return law, t + lo * n_s, w * n_o + t


class OptionLaw(NamedTuple):
    """One battle option seen from S: its law of D as ((shift, count), ...) out of 36, E[L_S]*36, E[L_O]*36, and
    ``step``, the matrix adding the battle to a law of D of :class:`LawSpace` (``dist @ step``, WS-9.3)."""

    law: tuple[tuple[int, int], ...]
    els: int
    elo: int
    step: Any


class LawSpace:
    """Laws of D = L_O - L_S for one allocation as vectors of integer counts (WS-9.3).

    Entry x counts the outcomes with D = x - ``low``; D lies in [-(S's pieces), O's pieces] whatever the
    battles' results, so the vector has a fixed length. Adding an independent battle is a matrix-vector
    product with the battle's ``step`` matrix (counts multiply). Counts are int64 while 36^k < 2^62 and Python
    integers (numpy object arrays) beyond, so every count is exact."""

    #: the most battles whose counts (up to 36^k, sums and products included) fit int64: 36^11 < 2^62 < 36^12
    int64_battles = 11

    def __init__(self, n_s: list[int], n_o: list[int]) -> None:
        """``n_s[i]`` / ``n_o[i]``: S's / the opponent's pieces in battle i."""
        self.low = sum(n_s)
        self.size = sum(n_s) + sum(n_o) + 1
        self.dtype: Any = np.int64 if len(n_s) <= self.int64_battles else object
        self._options: dict[tuple[int, int, int], OptionLaw] = {}
        #: option-law rows of whole battles, memoised by their users (keys of their choosing)
        self.rows: dict[Any, list[OptionLaw]] = {}
        self._stacks: dict[Any, tuple[Any, Any, Any]] = {}

    def origin(self) -> Any:
        """The law of D before any battle: D = 0 for sure."""
        out = np.zeros(self.size, dtype=self.dtype)
        out[self.low] = 1
        return out

    def stacked(self, key: Any) -> tuple[Any, Any, Any]:
        """The row ``rows[key]`` as arrays, for many plans at once: its step matrices (options x size x size), E[L_S]*36
        and E[L_O]*36 per option."""
        hit = self._stacks.get(key)
        if hit is None:
            row = self.rows[key]
            hit = self._stacks[key] = (np.stack([ol.step for ol in row]), np.array([ol.els for ol in row], dtype=self.dtype),
                                       np.array([ol.elo for ol in row], dtype=self.dtype))
        return hit

    def option(self, d: int, n_s: int, n_o: int) -> OptionLaw:
        """The option law of a battle of ``n_s`` against ``n_o`` pieces where S's power exceeds the other's by ``d``."""
        key = (max(-7, min(7, d)), n_s, n_o)
        hit = self._options.get(key)
        if hit is None:
            law, els, elo = battle_law(*key)
            step = np.zeros((self.size, self.size), dtype=self.dtype)
            for sh, n in law:
                for x in range(max(0, -sh), min(self.size, self.size - sh)):
                    step[x, x + sh] += n
            hit = self._options[key] = OptionLaw(law, els, elo, step)
        return hit


class Evaluator:
    """Turns a D-law (a vector of :class:`LawSpace`) and expectation numerators into comparable integer value
    vectors."""

    def __init__(self, objective: str, k: int, offsets: tuple[int, int], space: LawSpace) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}")
        self.objective = objective
        self.k = k
        self.den = 36**k
        self.shift = offsets[1] - offsets[0]
        self.offsets = offsets
        self.space = space
        # a win is D + shift > 0, no loss D + shift >= 0: the entries of the law from these indices on
        self.win_from = max(0, min(space.size, space.low + 1 - self.shift))
        self.no_loss_from = max(0, min(space.size, space.low - self.shift))

    def key(self, dist: Any, els: int, elo: int) -> tuple[int, int, int, int]:
        """(objective, P(win), -E[L_S], E[L_O]) as integers: probabilities over 36^k, expectations over 36."""
        win = int(dist[self.win_from:].sum())
        els_t = els + 36 * self.offsets[0]
        elo_t = elo + 36 * self.offsets[1]
        obj = self._objective(win, lambda: int(dist[self.no_loss_from:].sum()), els_t, elo_t)
        return (obj, win, -els_t, elo_t)

    def _objective(self, win: Any, no_loss: Callable[[], Any], els_t: Any, elo_t: Any) -> Any:
        """The objective (WS-10.4) from P(win), P(no loss) (computed only when asked), E[L_S] and E[L_O], for one
        law (integers) or many (arrays)."""
        if self.objective == "win":
            return win
        if self.objective == "no_loss":
            return no_loss()
        if self.objective == "losses":
            return -els_t
        return elo_t - els_t

    def keys(self, dists: Any, els: Any, elo: Any) -> list[tuple[int, int, int, int]]:
        """:meth:`key` of many laws at once: ``dists`` one law per row, ``els`` / ``elo`` arrays."""
        win = dists[:, self.win_from:].sum(axis=1)
        els_t = els + 36 * self.offsets[0]
        elo_t = elo + 36 * self.offsets[1]
        obj = self._objective(win, lambda: dists[:, self.no_loss_from:].sum(axis=1), els_t, elo_t)
        return [(int(a), int(b), int(c), int(d)) for a, b, c, d in zip(obj.tolist(), win.tolist(), (-els_t).tolist(),
                                                                        elo_t.tolist(), strict=True)]

    def fraction_value(self, key: tuple[int, int, int, int], energy: int, cards: int) -> dict[str, Fraction]:
        """The WS-10.8 value vector of a key as exact fractions."""
        obj = Fraction(key[0], 36 if self.objective in ("losses", "net") else self.den)
        if self.objective == "losses":
            obj = -obj
        return {
            "objective": obj,
            "p_win": Fraction(key[1], self.den),
            "e_ls": Fraction(-key[2], 36),
            "e_lo": Fraction(key[3], 36),
            "energy": Fraction(energy),
            "cards": Fraction(cards),
        }



def slot_tail(sl: Slot) -> tuple[str, int, int, int, int]:
    """What makes two battles interchangeable: the anchor's kind and both groups (not the anchor's id)."""
    return (sl.anchor_kind, sl.s_pops, sl.s_facs, sl.o_pops, sl.o_facs)


def group(pops: int, facs: int, ev: str | None, e: int) -> Group:
    """The calculator's group (WS-9.1) for pieces with an optional event card and energy."""
    if ev is None:
        return Group(pops=pops, facs=facs, energy=e)
    c = event_card(ev)
    return Group(pops=pops, facs=facs, natives=c.natives, pop_bonus=c.pop_bonus, energy=e)
