"""How actions are written: the notation of each action type, the terminal plan notation, and the
named arguments of each action's translated sentence (``i18n/<lang>.json``, keys ``tremble.move.*``).

The notation is what logs, the terminal and the replays print (``buy Reaper Tripod; discard Watch
Saucer``); the sentences are what :meth:`Game.describe_action` renders in English, French, Dutch or
Russian. Card names in sentences come from the catalogues for the house set (``tremble.card.<id>``)
and from the set's own (English) names for owner sets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.i18n import catalog, phrase

from .cards import CardSet
from .flow import cards_of
from .state import TState

Action = dict[str, Any]
PACKAGE = "spacetable.games.tremble"


# ------------------------------------------------------------------------- notation
Text = Callable[[TState, int, Action], str]


def written(fn: Callable[[CardSet, Action], str]) -> Text:
    """A notation over the card set, as a move declaration asks for it ``(state, seat, action)``."""
    return lambda s, seat, a: fn(cards_of(s), a)


def buy_text(cards: CardSet, a: Action) -> str:
    n = cards.card_name
    parts = []
    if a.get("comp"):
        parts.append("play " + ", ".join(n(c) for c in a["comp"]))
    if a.get("credits"):
        parts.append(f"credit x{a['credits']}")
    parts.append("buy " + (", ".join(n(c) for c in a.get("buy", [])) or "nothing"))
    if a.get("discard"):
        parts.append("discard " + ", ".join(n(c) for c in a["discard"]))
    if a.get("repay"):
        parts.append(f"repay x{a['repay']}")
    return "; ".join(parts)


def plan_text(cards: CardSet, a: Action) -> str:
    n = cards.card_name
    gs = [f"slot {g['slot']}: " + "+".join(n(x) for x in g["ships"]) for g in a.get("groups", [])]
    extra = [n(c) for c in a.get("fuel_cards", [])] + [
        n(x["station"]) + (f"@{x['slot']}" if "slot" in x else "") for x in a.get("stations", [])
    ]
    return ("; ".join(gs) or "stay home") + (f" (using {', '.join(extra)})" if extra else "")


def choice_text(cards: CardSet, a: Action) -> str:
    return f"{a['type']} {a.get('choice')}"


def use_text(cards: CardSet, a: Action) -> str:
    n = cards.card_name
    cid = a.get("station") or a.get("card") or ""
    return f"use {n(cid)}" + (f" on {n(a['target'])}" if a.get("target") else "")


def loss_text(cards: CardSet, a: Action) -> str:
    return f"lose {cards.card_name(a['ship'])}"


def relocate_enemy_text(cards: CardSet, a: Action) -> str:
    return f"{cards.card_name(a['station'])}: move {cards.card_name(a['ship'])} to slot {a['to_slot']}"


def relocate_self_text(cards: CardSet, a: Action) -> str:
    return "; ".join(f"{cards.card_name(m['ship'])} → {m['to_slot']}" for m in a.get("moves", [])) or "stay"


def claim_text(cards: CardSet, a: Action) -> str:
    return f"claim the city with {cards.card_name(a['card'])}"


def ignore_text(cards: CardSet, a: Action) -> str:
    return f"{cards.card_name(a['card'])} against army #{a['army_index'] + 1}"


def type_text(cards: CardSet, a: Action) -> str:
    """Actions without parameters are written as their type (``pass``, ``keep``...)."""
    return str(a["type"])


def parse_plan(s: TState, seat: int, text: str) -> Action:
    """The terminal plan notation ``2=1,3 4=reaper_tripod#2 fuel=spare_tank#1 station=beacon#1@2``
    (slot=ships, ships by card id or by their 1-based position in the sorted hand) as a plan (TH-6.1)."""
    hand = sorted(s.players[seat].hand)
    groups: list[dict[str, Any]] = []
    fuel: list[str] = []
    stations: list[dict[str, Any]] = []
    for tok in text.split():
        key, _, value = tok.partition("=")
        if not value:
            raise RuleError("CORE-ACTION", f"cannot read {tok!r}; use slot=ships, fuel=cards, station=id@slot")
        if key == "fuel":
            fuel.extend(value.split(","))
        elif key == "station":
            sid, _, slot = value.partition("@")
            stations.append({"station": sid, **({"slot": int(slot)} if slot.isdigit() else {})})
        elif key.isdigit():
            ships = []
            for ref in value.split(","):
                if ref.isdigit() and 1 <= int(ref) <= len(hand):
                    ships.append(hand[int(ref) - 1])
                else:
                    ships.append(ref)
            groups.append({"slot": int(key), "ships": ships})
        else:
            raise RuleError("CORE-ACTION", f"cannot read {tok!r}")
    return {"type": "plan", "groups": groups, "fuel_cards": fuel, "stations": stations}


# ------------------------------------------------------------------------- translated terms
def card_term(cards: CardSet, cid: str) -> Any:
    """A card's name as a sentence argument: a translated phrase for the house set (and for every army
    card), else the set's own name."""
    army = cards.armies.get(cid)
    if army is not None:
        return phrase("tremble.army_card.army", n=army.strength) if army.strength else phrase("tremble.army_card.no_army")
    base = cards.base_id(cid)
    if cards.source == "house" and f"tremble.card.{base}" in catalog(PACKAGE, "en"):
        return phrase(f"tremble.card.{base}")
    return cards.card_name(cid)


def effect_term(effect: dict[str, Any]) -> Any:
    """An effect of the TH-C3 vocabulary as a translatable phrase (kinds, city types and regions translated)."""
    args: dict[str, Any] = {k: v for k, v in effect.items() if k != "op"}
    for key in ("kind", "city_type", "region"):
        if key in args:
            args[key] = phrase(f"tremble.{key}.{args[key]}")
    return phrase(f"tremble.op.{effect['op']}", **args)


# ------------------------------------------------------------------------- sentence arguments

def _cards(s: TState, ids: list[str]) -> list[Any]:
    cards = cards_of(s)
    return [card_term(cards, c) for c in ids]


def buy_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    parts: list[Any] = []
    if a.get("comp"):
        parts.append(phrase("tremble.buy.comp", cards=_cards(s, a["comp"])))
    if a.get("credits"):
        parts.append(phrase("tremble.buy.credits", n=a["credits"]))
    buy = a.get("buy") or []
    parts.append(phrase("tremble.buy.cards", cards=_cards(s, buy)) if buy else phrase("tremble.buy.nothing"))
    if a.get("discard"):
        parts.append(phrase("tremble.buy.discard", cards=_cards(s, a["discard"])))
    if a.get("repay"):
        parts.append(phrase("tremble.buy.repay", n=a["repay"]))
    return {"parts": parts}


def plan_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    cards = cards_of(s)
    groups = [phrase("tremble.plan.group", slot=g["slot"], ships=_cards(s, g["ships"])) for g in a.get("groups", [])]
    using: list[Any] = [card_term(cards, c) for c in a.get("fuel_cards", [])]
    for x in a.get("stations", []):
        name = card_term(cards, x["station"])
        using.append(phrase("tremble.plan.support", station=name, slot=x["slot"]) if "slot" in x else name)
    return {
        "groups": groups or [phrase("tremble.plan.home")],
        "using": phrase("tremble.plan.using", cards=using) if using else "",
    }


def choice_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    return {"choice": phrase(f"tremble.{a['type']}.{a['choice']}")}


def use_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    """A station or compensation card named with its effect (TH-C3)."""
    cards = cards_of(s)
    target = a.get("target")
    cid = a.get("station") or a.get("card") or ""
    card = cards.stations.get(cid) or cards.comps.get(cid)
    name = card_term(cards, cid)
    return {
        "card": phrase("tremble.card.with_effect", card=name, effect=effect_term(card.effect)) if card else name,
        "target": phrase("tremble.target", ship=card_term(cards, target)) if target else "",
    }


def relocate_enemy_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    cards = cards_of(s)
    return {"station": card_term(cards, a["station"]), "ship": card_term(cards, a["ship"]), "slot": a["to_slot"]}


def relocate_self_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    cards = cards_of(s)
    moves = [
        phrase("tremble.relocate.stay", ship=card_term(cards, m["ship"]))
        if m["to_slot"] == "stay"
        else phrase("tremble.relocate.to", ship=card_term(cards, m["ship"]), slot=m["to_slot"])
        for m in a.get("moves", [])
    ]
    return {"moves": moves or [phrase("tremble.relocate.none")]}


def ship_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    return {"ship": card_term(cards_of(s), a["ship"])}


def card_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    return {"card": card_term(cards_of(s), a["card"])}


def ignore_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    return {"card": card_term(cards_of(s), a["card"]), "index": a["army_index"] + 1}


def no_args(s: TState, seat: int, a: Action) -> dict[str, Any]:
    return {}
