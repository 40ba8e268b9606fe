"""City reveal (TH-5), planning (TH-6) and the plan reveal (TH-7.1).

A plan ``{"type": "plan", "groups": [{"slot", "ships"}], "fuel_cards": [card],
"stations": [{"station", "slot"?}]}`` names 1-based slots. Validation follows TH-6.2
(groups), TH-6.3 (fuel) and TH-6.4 (stations); the enumerator lists every legal
ship-to-slot-or-home assignment (at most 7⁵) with a canonical choice of fuel resources.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .cards import CardSet
from .state import TState

PLAN_STATION_OPS = ("extra_fuel", "city_support")


def deal_cities(s: TState, cards: CardSet) -> None:
    """TH-5.1: C(P) = P+1 cities from the top of the city deck into slots 1..C(P), left to right."""
    n = int(cards.rules["cities_per_turn"][str(s.num_players)])
    s.slots = [s.city_deck.pop() for _ in range(n)]
    s.groups = [{} for _ in range(n)]
    s.support = [{} for _ in range(n)]
    s.log_events and s.note("cities: " + ", ".join(f"{i + 1}. {cards.card_name(c)}" for i, c in enumerate(s.slots)))


def fuel_limit(s: TState) -> int:
    """TH-6.3, TH-D1: the fuel limit F[t] of the current turn."""
    return s.fuel[s.turn - 1]


def empty_plan() -> dict[str, Any]:
    """The plan that attacks nothing (TH-6.2: always legal; the timeout default)."""
    return {"type": "plan", "groups": [], "fuel_cards": [], "stations": []}


def full_plan(action: dict[str, Any]) -> dict[str, Any]:
    """A plan with every field present (the stored form, TH-6.1; absent fields are empty)."""
    get = action.get
    return {"type": "plan", "groups": get("groups", []), "fuel_cards": get("fuel_cards", []), "stations": get("stations", [])}


def check_plan(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """Validate a plan (TH-6.1, TH-6.2, TH-6.3, TH-6.4, TH-11.1, TH-11.2, TH-12.2, TH-D10, TH-D21; scenario
    TH-A27). Raises :class:`RuleError`. The action's JSON shape was checked by the move schema."""
    p = s.players[seat]
    groups = action.get("groups", [])
    fuel_cards = action.get("fuel_cards", [])
    stations = action.get("stations", [])
    nslots = len(s.slots)
    seen_slots: set[int] = set()
    seen_ships: set[str] = set()
    fuel = 0
    for g in groups:
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


def fuel_resources(s: TState, cards: CardSet, seat: int) -> list[tuple[str, str, int]]:
    """The seat's bonus-fuel sources usable now (TH-6.3): untapped ``extra_fuel`` stations, then usable
    ``extra_fuel`` compensation cards, as ``(kind, card, n)`` in a canonical order."""
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


def fuel_choice(res: list[tuple[str, str, int]], need: int) -> tuple[list[str], list[dict[str, Any]]] | None:
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
    """Every ship-to-slot-or-home assignment within fuel (TH-6.1, TH-6.2, TH-6.3), with canonical fuel
    resources and every placement of untapped ``city_support`` tokens on a slot the player attacks (TH-6.4).

    The order is canonical: assignments as counted by the hand's ships (sorted, the first one the most
    significant), each one home (0) first and then slots 1, 2, ...; then the support placements. The search
    walks the hand ship by ship and leaves an assignment as soon as its fuel is beyond the most the seat can
    burn: every ship costs at least 1 fuel (TH-C5), so no later ship brings it back. A fuel choice depends
    only on the plan's total fuel, so it is worked out once per total (each plan gets its own lists). Nothing of a
    call is left in a reference cycle (the recursive walk's cycle is broken before returning)."""
    p = s.players[seat]
    hand = sorted(p.hand)
    nslots = len(s.slots)
    limit = fuel_limit(s)
    res = fuel_resources(s, cards, seat)
    max_fuel = limit + sum(r[2] for r in res)
    fuels = [cards.ships[h].fuel for h in hand]
    supports = sorted(st for st in p.stations if st not in p.tapped and cards.stations[st].op == "city_support")
    choices = [fuel_choice(res, total - limit) for total in range(max_fuel + 1)]
    out: list[dict[str, Any]] = []
    count = len(hand)
    at: list[list[str]] = [[] for _ in range(nslots + 1)]  # the ships sent to each slot so far, in hand order
    slots = range(1, nslots + 1)

    def leaf(total: int) -> None:
        choice = choices[total]
        if choice is None:
            return
        glist = [{"slot": k, "ships": list(at[k])} for k in slots if at[k]]
        fuel_cards, st_uses = choice
        sup_opts: list[list[dict[str, Any]]] = [[]]
        for sup in supports:
            sup_opts = [o + extra for o in sup_opts
                        for extra in ([[]] + [[{"station": sup, "slot": g["slot"]}] for g in glist])]
        fuel_cards = list(fuel_cards)
        st_uses = [dict(x) for x in st_uses]
        for sopt in sup_opts:
            out.append({"type": "plan", "groups": glist, "fuel_cards": fuel_cards, "stations": st_uses + sopt})

    def walk(i: int, total: int) -> None:
        if i == count:
            leaf(total)
            return
        walk(i + 1, total)  # this ship stays home
        more = total + fuels[i]
        if more > max_fuel:
            return
        ship = hand[i]
        for k in slots:
            at[k].append(ship)
            walk(i + 1, more)
            at[k].pop()

    try:
        walk(0, 0)
    finally:
        # ``walk`` refers to itself through its closure: a cycle that would keep this call's frame alive until a
        # full garbage collection, which the server avoids under load (docs/architecture.md); break it here
        walk = leaf = None  # type: ignore[assignment]
    return out
