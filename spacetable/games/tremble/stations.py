"""Stations (TH-11) and the relocation step (TH-7.2, TH-7.3): station moves before self moves.

Station moves: owners of an untapped ``relocate_enemy_ship`` seal ``pass`` or
``{"type": "relocate_enemy", "station", "ship", "to_slot"}``; several on one ship roll
1d6 each, the highest applies (ties rerolled), the others stay untapped. Self moves:
owners of attacking ``relocate_self`` ships seal ``{"type": "relocate_self", "moves":
[{"ship", "to_slot" | "stay"}]}``; all are applied together.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .cards import CardSet
from .state import TState


def ship_location(s: TState, ship: str) -> tuple[int, int] | None:
    for slot, groups in enumerate(s.groups):
        for seat, ships in groups.items():
            if ship in ships:
                return slot, seat
    return None


def move_ship(s: TState, ship: str, to_slot: int) -> None:
    """TH-7.3: the ship joins its owner's group at the destination (or starts one); an emptied group dissolves."""
    loc = ship_location(s, ship)
    if loc is None:
        return
    slot, seat = loc
    s.groups[slot][seat].remove(ship)
    if not s.groups[slot][seat]:
        del s.groups[slot][seat]
    s.groups[to_slot].setdefault(seat, []).append(ship)


def station_movers(s: TState, cards: CardSet) -> list[int]:
    """TH-7.2 (a): owners of an untapped ``relocate_enemy_ship`` station while an enemy attacks somewhere."""
    out = []
    for seat, p in enumerate(s.players):
        if not p.stations:
            continue
        has = any(st not in p.tapped and cards.stations[st].op == "relocate_enemy_ship" for st in p.stations)
        if has and any(other != seat for g in s.groups for other in g):
            out.append(seat)
    return out


def self_movers(s: TState, cards: CardSet) -> list[int]:
    """TH-7.2 (b): owners of an attacking ``relocate_self`` ship."""
    movers = cards.self_movers  # ids of the ships with relocate_self, read once per set
    seats = {seat for g in s.groups for seat, ships in g.items() if not movers.isdisjoint(ships)}
    return sorted(seats)


def station_move_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """The legal station-move commits (TH-7.2 (a)): pass first, then every station, enemy ship and other slot."""
    p = s.players[seat]
    out: list[dict[str, Any]] = [{"type": "pass"}]
    for st in sorted(x for x in p.stations if x not in p.tapped and cards.stations[x].op == "relocate_enemy_ship"):
        for slot, groups in enumerate(s.groups):
            for other in sorted(groups):
                if other == seat:
                    continue
                for ship in groups[other]:
                    for to in range(len(s.slots)):
                        if to != slot:
                            out.append({"type": "relocate_enemy", "station": st, "ship": ship, "to_slot": to + 1})
    return out


def check_relocate_enemy(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-7.2 (a), TH-11.2, TH-D24: an untapped ``relocate_enemy_ship`` station of the seat moves an attacking
    enemy ship to another slot."""
    p = s.players[seat]
    st = action.get("station")
    if st not in p.stations or st in p.tapped or cards.stations[st].op != "relocate_enemy_ship":
        raise RuleError("TH-11.2", f"{st} is not an untapped relocate_enemy_ship station of yours")
    loc = ship_location(s, action["ship"])
    if loc is None or loc[1] == seat:
        raise RuleError("TH-7.2", "the target must be an attacking enemy ship")
    to = action["to_slot"]
    if not 1 <= to <= len(s.slots) or to - 1 == loc[0]:
        raise RuleError("TH-D24", f"destination must be another slot 1..{len(s.slots)}")


def resolve_station_moves(s: TState, cards: CardSet, commits: dict[int, dict[str, Any]]) -> None:
    """TH-7.2 (a): revealed together; several stations on one ship roll 1d6 each, the highest applies
    (ties rerolled) and the others stay untapped; the winner's station taps (TH-11.2)."""
    by_ship: dict[str, list[int]] = {}
    for seat in sorted(commits):
        a = commits[seat]
        if a.get("type") == "relocate_enemy":
            by_ship.setdefault(a["ship"], []).append(seat)
    for ship, seats in sorted(by_ship.items()):
        contenders = seats
        while len(contenders) > 1:
            rolls = {x: s.rng.die() for x in contenders}
            s.log_events and s.note("station-move d6: " + ", ".join(f"seat {x} {r}" for x, r in rolls.items()))
            top = max(rolls.values())
            contenders = [x for x in contenders if rolls[x] == top]
        seat = contenders[0]
        a = commits[seat]
        s.players[seat].tapped.append(a["station"])
        move_ship(s, ship, a["to_slot"] - 1)
        s.log_events and s.note(
            f"seat {seat}'s {cards.card_name(a['station'])} moves {cards.card_name(ship)} to slot {a['to_slot']}"
        )


def self_move_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """The legal self-move commits (TH-7.2 (b)): for each attacking ``relocate_self`` ship, stay or another
    slot; every combination, the first ship varying slowest."""
    mine = sorted(x for g in s.groups for x in g.get(seat, []) if cards.ships[x].relocate_self)
    options: list[list[dict[str, Any]]] = [[]]
    for ship in mine:
        loc = ship_location(s, ship)
        assert loc is not None
        choices: list[Any] = ["stay", *[k + 1 for k in range(len(s.slots)) if k != loc[0]]]
        options = [[*o, {"ship": ship, "to_slot": c}] for o in options for c in choices]
    return [{"type": "relocate_self", "moves": o} for o in options]


def check_self_move(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-7.2 (b), TH-D24: each named ship is an attacking ``relocate_self`` ship of the seat, named once,
    going to a slot or staying."""
    seen = set()
    for m in action["moves"]:
        ship = m["ship"]
        loc = ship_location(s, ship)
        if loc is None or loc[1] != seat or not cards.ships[ship].relocate_self or ship in seen:
            raise RuleError("TH-7.2", f"{ship} is not an attacking relocate_self ship of yours")
        seen.add(ship)
        to = m["to_slot"]
        if to != "stay" and not 1 <= to <= len(s.slots):
            raise RuleError("TH-D24", f"destination must be a slot 1..{len(s.slots)} or stay")


def resolve_self_moves(s: TState, cards: CardSet, commits: dict[int, dict[str, Any]]) -> None:
    """TH-7.2 (b), TH-7.3: all self moves revealed and applied together."""
    for seat in sorted(commits):
        for m in commits[seat]["moves"]:
            if m["to_slot"] != "stay":
                move_ship(s, m["ship"], m["to_slot"] - 1)
                s.log_events and s.note(f"seat {seat}'s {cards.card_name(m['ship'])} relocates to slot {m['to_slot']}")
