"""Planning (TH-6) and the plan reveal (TH-7.1).

A plan ``{"type": "plan", "groups": [{"slot", "ships"}], "fuel_cards": [card],
"stations": [{"station", "slot"?}]}`` names 1-based slots. Validation follows TH-6.2
(groups), TH-6.3 (fuel) and TH-6.4 (stations); the enumerator lists every legal
ship-to-slot-or-home assignment (≤ 7⁵) with a canonical choice of fuel resources.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.rng import Rng

from .cards import CardSet
from .state import TState

PLAN_STATION_OPS = ("extra_fuel", "city_support")


def fuel_limit(s: TState) -> int:
    return s.fuel[s.turn - 1]


def check_plan(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """Validate a plan (TH-6, TH-A27). Raises :class:`RuleError`."""
    p = s.players[seat]
    groups = action.get("groups", [])
    fuel_cards = action.get("fuel_cards", [])
    stations = action.get("stations", [])
    if not isinstance(groups, list) or not isinstance(fuel_cards, list) or not isinstance(stations, list):
        raise RuleError("CORE-ACTION", "plan needs groups:[{slot, ships}], fuel_cards:[card], stations:[{station, slot?}]")
    nslots = len(s.slots)
    seen_slots: set[int] = set()
    seen_ships: set[str] = set()
    fuel = 0
    for g in groups:
        if not isinstance(g, dict) or not isinstance(g.get("slot"), int) or not isinstance(g.get("ships"), list):
            raise RuleError("CORE-ACTION", "a group is {slot:int, ships:[ship]}")
        slot = g["slot"]
        if not 1 <= slot <= nslots:
            raise RuleError("TH-6.1", f"slot {slot} does not exist (slots 1..{nslots})")
        if slot in seen_slots:
            raise RuleError("TH-D21", f"two groups on slot {slot}")
        seen_slots.add(slot)
        if not g["ships"]:
            raise RuleError("TH-D10", "an empty group is illegal")
        for sh in g["ships"]:
            if sh in cards.stations:
                raise RuleError("TH-11.1", f"{sh} is a station; stations never join groups")
            if sh not in p.hand:
                raise RuleError("TH-6.1", f"{sh} is not a ship in your hand")
            if sh in seen_ships:
                raise RuleError("TH-6.2", f"{sh} is in two groups")
            seen_ships.add(sh)
            fuel += cards.ships[sh].fuel
    bonus = 0
    usable = p.usable_comps(s.turn)
    if len(set(fuel_cards)) != len(fuel_cards):
        raise RuleError("TH-6.3", "a fuel card is listed twice")
    for c in fuel_cards:
        if c not in usable or cards.comps[c].op != "extra_fuel":
            raise RuleError("TH-6.3", f"{c} is not a usable extra_fuel compensation card of yours")
        bonus += cards.comps[c].effect["n"]
    used: set[str] = set()
    for st in stations:
        if not isinstance(st, dict) or not isinstance(st.get("station"), str):
            raise RuleError("CORE-ACTION", "a station use is {station, slot?}")
        sid = st["station"]
        if sid not in p.stations or sid in p.tapped or sid in used:
            raise RuleError("TH-11.2", f"{sid} is not an untapped station of yours")
        used.add(sid)
        op = cards.stations[sid].op
        if op not in PLAN_STATION_OPS:
            raise RuleError("TH-6.4", f"{sid} cannot be used while planning")
        if op == "extra_fuel":
            bonus += cards.stations[sid].effect["n"]
        else:
            slot = st.get("slot")
            if not isinstance(slot, int) or not 1 <= slot <= nslots:
                raise RuleError("TH-6.4", f"{sid} must name a slot 1..{nslots}")
    limit = fuel_limit(s)
    if fuel > limit + bonus:
        raise RuleError("TH-6.3", f"the plan needs {fuel} fuel; the limit is {limit} + {bonus} bonus")


def reveal_plans(s: TState, cards: CardSet, plans: dict[int, dict[str, Any]]) -> None:
    """TH-7.1: all plans revealed together; spent fuel cards to the compensation discard,
    used stations tapped, city_support tokens placed, ships become public (TH-D26)."""
    n = len(s.slots)
    s.groups = [{} for _ in range(n)]
    s.support = [{} for _ in range(n)]
    for seat in sorted(plans):
        plan = plans[seat]
        p = s.players[seat]
        for g in plan.get("groups", []):
            s.groups[g["slot"] - 1][seat] = list(g["ships"])
            for sh in g["ships"]:
                if sh not in p.known:
                    p.known.append(sh)
        for c in plan.get("fuel_cards", []):
            i = p.comps.index(c)
            del p.comps[i]
            del p.comp_turns[i]
            s.comp_discard.append(c)
        for st in plan.get("stations", []):
            sid = st["station"]
            p.tapped.append(sid)
            if cards.stations[sid].op == "city_support":
                slot = st["slot"] - 1
                s.support[slot][seat] = s.support[slot].get(seat, 0) + cards.stations[sid].effect["n"]
        if s.log_events:
            desc = "; ".join(
                f"slot {g['slot']}: " + ", ".join(cards.card_name(x) for x in g["ships"]) for g in plan.get("groups", [])
            )
            s.note(f"seat {seat} plan: {desc or 'no attack'}")


def _resources(s: TState, cards: CardSet, seat: int) -> list[tuple[str, str, int]]:
    p = s.players[seat]
    res: list[tuple[str, str, int]] = []
    if p.stations:
        fuel = cards.station_fuel
        for st in p.stations:
            if st in fuel and st not in p.tapped:
                res.append(("station", st, fuel[st]))
    if p.comps:
        fuel = cards.comp_fuel
        if any(c in fuel for c in p.comps):  # most hands hold no extra_fuel card at all
            for c in sorted(p.usable_comps(s.turn)):
                if c in fuel:
                    res.append(("comp", c, fuel[c]))
    return res


def _fuel_choice(res: list[tuple[str, str, int]], need: int) -> tuple[list[str], list[dict[str, Any]]] | None:
    """The canonical (shortest prefix) set of fuel resources covering ``need`` extra fuel."""
    if need <= 0:
        return [], []
    got = 0
    fuel_cards: list[str] = []
    stations: list[dict[str, Any]] = []
    for kind, cid, n in res:
        if kind == "station":
            stations.append({"station": cid})
        else:
            fuel_cards.append(cid)
        got += n
        if got >= need:
            return fuel_cards, stations
    return None


def enumerate_plans(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """Every ship-to-slot-or-home assignment within fuel (TH §5), with canonical fuel resources
    and every placement of untapped ``city_support`` tokens on a slot the player attacks."""
    p = s.players[seat]
    hand = sorted(p.hand)
    nslots = len(s.slots)
    limit = fuel_limit(s)
    res = _resources(s, cards, seat)
    max_fuel = limit + sum(r[2] for r in res)
    fuels = [cards.ships[h].fuel for h in hand]
    supports = sorted(st for st in p.stations if st not in p.tapped and cards.stations[st].op == "city_support")
    out: list[dict[str, Any]] = []
    for assign in product(range(nslots + 1), repeat=len(hand)):
        total = 0
        for a, f in zip(assign, fuels, strict=True):
            if a:
                total += f
        if total > max_fuel:
            continue
        choice = _fuel_choice(res, total - limit)
        if choice is None:
            continue
        groups: dict[int, list[str]] = {}
        for a, h in zip(assign, hand, strict=True):
            if a:
                groups.setdefault(a, []).append(h)
        glist = [{"slot": k, "ships": groups[k]} for k in sorted(groups)]
        fuel_cards, st_uses = choice
        sup_opts: list[list[dict[str, Any]]] = [[]]
        for sup in supports:
            sup_opts = [o + extra for o in sup_opts for extra in ([[]] + [[{"station": sup, "slot": k}] for k in sorted(groups)])]
        for sopt in sup_opts:
            out.append({"type": "plan", "groups": glist, "fuel_cards": fuel_cards, "stations": st_uses + sopt})
    return out


def random_plan(s: TState, cards: CardSet, seat: int, rng: Rng) -> dict[str, Any]:
    """A random legal plan drawn without enumerating (fast path for random captains): each ship
    goes home or to a uniform slot, then random ships go home until the fuel fits."""
    p = s.players[seat]
    hand = sorted(p.hand)
    below = rng.randbelow
    k = len(s.slots) + 1
    limit = s.fuel[s.turn - 1]
    res = _resources(s, cards, seat) if p.stations or p.comps else []
    max_fuel = limit + sum(r[2] for r in res) if res else limit
    fuel_of = cards.ship_fuel
    many = getattr(rng, "randbelow_many", None)  # the random captain's batched draw (same values)
    assign = many(k, len(hand)) if many is not None else [below(k) for _ in hand]
    total = 0
    groups: dict[int, list[str]] = {}
    for a, h in zip(assign, hand, strict=False):
        if a:
            total += fuel_of[h]
            if a in groups:
                groups[a].append(h)
            else:
                groups[a] = [h]
    if total > max_fuel:
        active = [i for i, a in enumerate(assign) if a]
        while total > max_fuel:  # the ships still out, kept in seat order as they go home
            i = active.pop(below(len(active)))
            assign[i] = 0
            total -= fuel_of[hand[i]]
        groups = {}  # regrouped after the trim (the same order as without one)
        for a, h in zip(assign, hand, strict=False):
            if a:
                if a in groups:
                    groups[a].append(h)
                else:
                    groups[a] = [h]
    if res:
        choice = _fuel_choice(res, total - limit)
        assert choice is not None
        fuel_cards, stations = choice[0], list(choice[1])
    else:  # _fuel_choice with no resources: the plan fits the limit (the loop above made sure)
        fuel_cards, stations = [], []
    keys = sorted(groups)
    if p.stations:
        support = cards.support_stations
        for sup in sorted(st for st in p.stations if st in support and st not in p.tapped):
            if groups and below(2):
                stations.append({"station": sup, "slot": keys[below(len(keys))]})
    return {
        "type": "plan",
        "groups": [{"slot": g, "ships": groups[g]} for g in keys],
        "fuel_cards": fuel_cards,
        "stations": stations,
    }
