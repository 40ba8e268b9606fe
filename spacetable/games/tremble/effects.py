"""The effect vocabulary (TH-C3) and its interpreter.

Every card ability is an effect ``{"op": ..., **params}``. This module knows the
ops (their parameters, which card kinds may carry them and in which window they
act) and computes strengths from them (TH-9.1, TH-10.4, TH-D14). It never looks
at card names or ids: card-specific behaviour comes only from data files.
"""

from __future__ import annotations

from typing import Any

REGIONS = ("europe", "asia", "africa", "north_america", "south_america", "oceania")
CITY_TYPES = ("science", "culture", "industrial")
KINDS = ("saucer", "tripod", "cruiser")

#: op -> (parameter types, card kinds that may carry it, window). TH-C3; ``boost_own_ship`` adds its ``n`` (TH-D25).
OPS: dict[str, tuple[dict[str, Any], frozenset[str], str]] = {
    "str_with_kind": ({"kind": KINDS, "n": int}, frozenset({"ship"}), "passive"),
    "str_vs_city_type": ({"city_type": CITY_TYPES, "n": int}, frozenset({"ship"}), "passive"),
    "str_vs_region": ({"region": REGIONS, "n": int}, frozenset({"ship"}), "passive"),
    "str_vs_army": ({"n": int}, frozenset({"ship"}), "passive"),
    "str_vs_captains": ({"n": int}, frozenset({"ship"}), "passive"),
    "str_alone": ({"n": int}, frozenset({"ship"}), "passive"),
    "immortal": ({}, frozenset({"ship"}), "none"),
    "relocate_self": ({}, frozenset({"ship"}), "self_move"),
    "raid_bonus": ({"amount": int}, frozenset({"ship"}), "reward"),
    "boost_own_ship": ({"n": int}, frozenset({"station"}), "post_roll"),
    "cancel_enemy_bonuses": ({}, frozenset({"station", "comp"}), "post_roll_battle"),
    "relocate_enemy_ship": ({}, frozenset({"station"}), "station_move"),
    "extra_fuel": ({"n": int}, frozenset({"station", "comp"}), "plan"),
    "price_discount": ({"amount": int}, frozenset({"station"}), "buy"),
    "extra_draw": ({"n": int}, frozenset({"station"}), "draw"),
    "reroll_own": ({}, frozenset({"station", "comp"}), "post_roll"),
    "city_support": ({"n": int}, frozenset({"station"}), "plan"),
    "army_peek": ({"k": int}, frozenset({"station"}), "reward"),
    "boost_group": ({"n": int}, frozenset({"comp"}), "post_roll"),
    "take_city_after_loss": ({}, frozenset({"comp"}), "loss"),
    "ignore_army": ({}, frozenset({"comp"}), "armies"),
    "salvage": ({}, frozenset({"comp"}), "on_loss"),
    "gain_humans": ({"amount": int}, frozenset({"comp"}), "buy"),
}


class EffectError(ValueError):
    """An effect record is malformed (unknown op, missing/unknown/bad parameter)."""


def check_effect(effect: Any, carrier: str, where: str) -> dict[str, Any]:
    """Validate one effect for a carrier kind (``ship``/``station``/``comp``). TH-C2: unknown ops
    or params MUST be rejected at load time."""
    if not isinstance(effect, dict) or "op" not in effect:
        raise EffectError(f"{where}: an effect must be an object with an 'op'")
    op = effect["op"]
    if op not in OPS:
        raise EffectError(f"{where}: unknown op {op!r}; known: {', '.join(sorted(OPS))}")
    params, carriers, _ = OPS[op]
    if carrier not in carriers:
        raise EffectError(f"{where}: op {op!r} cannot be carried by a {carrier} (allowed: {', '.join(sorted(carriers))})")
    for key, value in effect.items():
        if key == "op":
            continue
        if key not in params:
            raise EffectError(f"{where}: op {op!r} has no parameter {key!r}")
        spec = params[key]
        if spec is int:
            if not isinstance(value, int) or isinstance(value, bool):
                raise EffectError(f"{where}: {op}.{key} must be an integer, got {value!r}")
        elif value not in spec:
            raise EffectError(f"{where}: {op}.{key} must be one of {list(spec)}, got {value!r}")
    for key in params:
        if key not in effect:
            raise EffectError(f"{where}: op {op!r} needs parameter {key!r}")
    if op in ("extra_fuel", "extra_draw", "army_peek") and effect[next(iter(params))] < 1:
        raise EffectError(f"{where}: {op} needs a positive amount")
    if op in ("raid_bonus", "price_discount", "gain_humans") and (effect["amount"] < 0 or effect["amount"] % 10000):
        raise EffectError(f"{where}: {op}.amount must be a non-negative multiple of 10,000")
    return dict(effect)


#: passive op -> compact code used by :func:`group_strength` (the conditions are listed in the ops table, TH-C3)
PASSIVE_CODES: dict[str, int] = {
    "str_with_kind": 0,
    "str_vs_city_type": 1,
    "str_vs_region": 2,
    "str_vs_army": 3,
    "str_vs_captains": 4,
    "str_alone": 5,
}
_PASSIVE_ARG = {"str_with_kind": "kind", "str_vs_city_type": "city_type", "str_vs_region": "region"}


def compile_passives(abilities: tuple[dict[str, Any], ...]) -> tuple[tuple[int, Any, int], ...]:
    """``(code, argument, n)`` for each passive ability, in order (TH-C3)."""
    out = []
    for ab in abilities:
        op = ab["op"]
        if op in PASSIVE_CODES:
            key = _PASSIVE_ARG.get(op)
            out.append((PASSIVE_CODES[op], ab[key] if key else None, ab["n"]))
    return tuple(out)


def group_strength(
    cards: Any,
    ships: list[str],
    city: Any,
    vs_army: bool,
    ship_mods: dict[str, int] | None = None,
    cancelled: list[str] | None = None,
    group_mod: int = 0,
) -> int:
    """Strength of a group (TH-9.1): per ship base + passives + modifiers placed on it, a ship with
    cancelled bonuses counting base only (TH-D14), plus group modifiers."""
    table = cards.ships
    recs = [table[sid] for sid in ships]
    counts: dict[str, int] | None = None  # kinds in the group, built only for str_with_kind
    total = group_mod
    for i, card in enumerate(recs):
        total += card.strength
        if cancelled and ships[i] in cancelled:
            continue
        if card.abilities:
            # the passive conditions of TH-C3 over the compiled abilities (a test keeps them equal to the table)
            for code, arg, n in card.passives:
                if code == 0:
                    if counts is None:
                        counts = {}
                        for r in recs:
                            counts[r.kind] = counts.get(r.kind, 0) + 1
                    if counts.get(arg, 0) - (card.kind == arg) > 0:  # another ship of that kind
                        total += n
                elif code == 1:
                    if city.city_type == arg:
                        total += n
                elif code == 2:
                    if city.region == arg:
                        total += n
                elif code == 3:
                    if vs_army:
                        total += n
                elif code == 4:
                    if not vs_army:
                        total += n
                elif len(recs) == 1:  # code 5, str_alone
                    total += n
        if ship_mods:
            total += ship_mods.get(ships[i], 0)
    return total
