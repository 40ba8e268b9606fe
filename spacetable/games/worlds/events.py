"""Event cards (WS-7): the house deck, legality and effects.

Every card except the +1 of Mobilisation Générale is **house content** (WS-0.4);
the data file ``data/events.json`` is labelled ``source: house``. Effects use only
the vocabulary ``pop_bonus(n)`` and ``add_native(n)`` (WS-7.2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .pieces import NATIVE_POWER

HOUSE_LABEL = "house rule"


@dataclass(frozen=True)
class EventCard:
    code: str
    name: str
    number: int  # WS-10.6 event code (0 = none)
    copies: int
    pop_bonus: int
    natives: int
    conditions: tuple[str, ...]
    status: str
    text: str

    def legal(self, own_pops: int, is_defender: bool, on_world: bool) -> bool:
        """WS-7 legality from the card's conditions: MG needs an own Population in the battle (WS-7.3), CET is
        legal anywhere (WS-7.4), RI only for the defender in a battle on a World (WS-7.5)."""
        if "own_population" in self.conditions and own_pops < 1:
            return False
        if "defender" in self.conditions and not is_defender:
            return False
        return not ("world" in self.conditions and not on_world)

    def bonus(self, own_pops: int) -> int:
        """Power added by the card in a battle where the player has ``own_pops`` Populations (WS-5.2): MG's +1
        per Population (WS-7.3), a native's 4 (WS-7.4, WS-7.5)."""
        return self.pop_bonus * own_pops + NATIVE_POWER * self.natives

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "name": self.name, "status": self.status, "text": self.text, "label": HOUSE_LABEL}


@cache
def house_deck() -> dict[str, EventCard]:
    """The house deck by card code, in deck order (WS-7: 4 MG, 3 CET, 3 RI)."""
    raw = json.loads(resources.files(__package__).joinpath("data/events.json").read_text(encoding="utf-8"))
    out: dict[str, EventCard] = {}
    for c in raw["cards"]:
        eff = c["effect"]
        out[c["code"]] = EventCard(
            code=c["code"], name=c["name"], number=int(c["number"]), copies=int(c["copies"]),
            pop_bonus=int(eff.get("pop_bonus", 0)), natives=int(eff.get("add_native", 0)),
            conditions=tuple(c["conditions"]), status=c["status"], text=c["text"],
        )
    return out


def card(code: str) -> EventCard:
    return house_deck()[code]


def deck_list() -> list[str]:
    """Every card of the house deck (10 cards), in a fixed order before shuffling."""
    return [c.code for c in house_deck().values() for _ in range(c.copies)]


def event_number(code: str | None) -> int:
    """WS-10.6 event code: 0 none, 1 MG, 2 CET, 3 RI."""
    return 0 if code is None else card(code).number
