"""What-if odds for the players' tools (WS-9): the browser's battle composer asks them while a player
drafts an allocation, weighs an event card or sets an energy stepper.

``POST /api/games/worlds/calc/odds`` (a :class:`~spacetable.core.hooks.Calculator`) takes battles
seen from one side S, each group as its pieces, its event card and its energy::

    {"battles": [{"s": {"P": 2, "F": 1, "event": "MG", "energy": 1}, "o": {"P": 1, "F": 0}}],
     "offsets": [0, 1]}

and answers each battle's powers (WS-5.2, WS-5.3, the event's effect from the house deck, WS-7.2)
and win / tie / loss counts out of 36 (WS-9.2), plus the exact law of the whole combat from
:func:`.odds.combat_odds` (WS-9.3, WS-9.4) with the losses already suffered as ``offsets``. It
sees no match: only what the query says, so it reveals nothing hidden. Event cards are taken as
played (their legality is the engine's business, WS-7).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from spacetable.core.hooks import Calculator
from spacetable.core.moves import Params, bounded_list

from .events import card, house_deck
from .odds import BattleInput, Group, combat_odds

#: A count of pieces or energy in a what-if (a combat has at most a few dozen pieces a side).
Small = Annotated[int, Field(ge=0, le=99)]


class SideQuery(Params):
    """One side's group in one battle: Populations, Factories, its event card (or none), its energy."""

    P: Small = 0
    F: Small = 0
    event: Annotated[str, Field(max_length=8)] | None = None
    energy: Small = 0


class BattleQuery(Params):
    s: SideQuery
    o: SideQuery


class OddsQuery(Params):
    battles: bounded_list(BattleQuery, 24, 1)
    offsets: Annotated[list[Small], Field(min_length=2, max_length=2, default_factory=lambda: [0, 0])]


def _group(q: SideQuery) -> Group:
    if q.event is not None and q.event not in house_deck():
        raise ValueError(f"unknown event card {q.event!r}")
    ec = card(q.event) if q.event is not None else None
    return Group(pops=q.P, facs=q.F, natives=ec.natives if ec else 0, pop_bonus=ec.pop_bonus if ec else 0, energy=q.energy)


def odds(query: dict[str, Any]) -> dict[str, Any]:
    """The answer to an :class:`OddsQuery` (see the module docstring)."""
    q = OddsQuery.model_validate(query)
    battles = [BattleInput(_group(b.s), _group(b.o)) for b in q.battles]
    result = combat_odds(battles, offsets=(q.offsets[0], q.offsets[1]))
    out = result.to_json()
    out["battles"] = [
        {"s_power": b.s.power, "o_power": b.o.power, "win": w, "tie": t, "loss": lo, "of": 36}
        for b, (w, t, lo) in zip(battles, result.per_battle, strict=True)
    ]
    return out


CALCULATORS = (Calculator("odds", odds, "exact odds of battles and of the combat they form (WS-9)"),)
