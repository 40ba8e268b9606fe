"""Departure, take-off, scoring and ranking (FM-20.1, FM-20.2, FM-20.3, FM-20.4, FM-20.5, FM-20.6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Name, Params

from .firezones import settle
from .pontoons import remove_unit, sink
from .state import ORE, FMState, Unit

#: Actions the ``fmg`` endgame refuses on turn 21 (FM-D41).
AGGRESSIVE = ("fire", "assault", "capture", "capture_ship")

Exec = Callable[[FMState, int, dict[str, Any]], None]


class TakeOffParams(Params):
    """FM-20.2: the ship that takes off."""

    ship: Count


class DepartureParams(Params):
    """FM-20.1: ``{ship id: "stay" | "leave"}`` for the player's ships; a ship left out stays."""

    choices: Annotated[dict[Name, Literal["stay", "leave"]], Field(max_length=8)] = Field(default_factory=dict)


def peaceful_on_fmg_turn_21(kind: str, fn: Exec) -> Exec:
    """FM-D41 (``endgame=fmg``): turn 21 brings no income and its saved AP serve only non-aggressive actions,
    so ``fn`` (fire, assault, capture or ship capture) is refused then."""

    def run(state: FMState, player: int, action: dict[str, Any]) -> None:
        if state.config["endgame"] == "fmg" and state.turn == 21:
            raise RuleError("FM-20.1", f"fmg turn 21: saved AP serve only non-aggressive actions, not {kind}")
        fn(state, player, action)

    run.__doc__ = fn.__doc__
    return run


def decide_departure(state: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-20.1 / FM-D19: the player's secret turn-21 choice per controlled ship (a sealed commit)."""
    choices = action.get("choices", {})
    own = {str(x.id) for x in state.ships_of(player)}
    if any(k not in own for k in choices):
        raise RuleError("FM-20.1", "decide only for ships you control")
    state.sealed.submit(player, {k: choices[k] for k in sorted(choices)}, "FM-20.1")


def ship_score(state: FMState, ship: Unit) -> tuple[int, int]:
    """FM-20.4: (score, ore pieces) of a ship: 2 per ore (``multi``: its value), 1 per unit, 1 per intact turret;
    cargo inside carried carriers counts too (FM-D22)."""
    score = ore = 0
    for u in state.all_cargo(ship):
        if u.kind == ORE:
            ore += 1
            score += u.value if state.config["ore_values"] == "multi" else 2
        else:
            score += 1
    score += sum(1 for t in ship.turrets if t >= 0)
    return score, ore


def takeoff_cost(state: FMState, ship: Unit) -> int:
    if state.config["takeoff_cost"] == "free":
        return 0
    return 1 + sum(1 for t in ship.turrets if t < 0)


def lift_off(state: FMState, ship: Unit, player: int) -> None:
    """The ship leaves with its hold and intact turrets; its colour is deactivated (seed §9.5). Its cells no
    longer anchor pontoons: a group that hung on them alone sinks with its load (FM-14.2, FM-14.3, FM-D48)."""
    score, ore = ship_score(state, ship)
    state.departed.append(
        {"ship": ship.id, "colour": ship.colour, "player": player, "score": score, "ore": ore, "turn": state.turn}
    )
    for t in list(ship.turrets):
        if t >= 0:
            remove_unit(state, state.units[t])
            state.graveyard.pop()
    for c in ship.cells:
        state.occ.pop(c, None)
    for u in state.all_cargo(ship):
        u.cells = []
    ship.cells = []
    state.controller[ship.colour] = -1
    sink(state)


def take_off(state: FMState, player: int, action: dict[str, Any]) -> None:
    """``take_off(ship)`` on the player's own turn 25 (``fmg``: turns 21 and 26)."""
    ship = state.unit(action.get("ship"))
    if ship.kind != "ship" or not ship.cells or state.controller[ship.colour] != player:
        raise RuleError("FM-20.2", "take off one of your landed ships")
    turns = (21, 26) if state.config["endgame"] == "fmg" else (25,)
    if state.turn not in turns:
        raise RuleError("FM-20.2", f"take-off only on turn {' or '.join(map(str, turns))}")
    state.spend(player, takeoff_cost(state, ship), "FM-20.2")
    lift_off(state, ship, player)
    settle(state, player)


def auto_takeoff(state: FMState, player: int) -> None:
    """FM-20.3 / FM-D20: at the end of the last turn every payable ship leaves, most valuable first."""
    ships = sorted(state.ships_of(player), key=lambda s: (-ship_score(state, s)[0], s.id))
    for s in ships:
        cost = takeoff_cost(state, s)
        if cost <= state.pool[player]:
            state.pool[player] -= cost
            lift_off(state, s, player)


def ranking(state: FMState) -> tuple[list[float], list[int], list[int]]:
    """FM-20.5 / FM-20.6: scores, ranking (best first) and rank numbers (1 = first; ties share)."""
    n = state.num_players
    scores = [0.0] * n
    ships = [0] * n
    ore = [0] * n
    for d in state.departed:
        p = d["player"]
        if state.eliminated[p] < 0:
            scores[p] += d["score"]
            ships[p] += 1
            ore[p] += d["ore"]

    def key(p: int) -> tuple[int, float, int, int, int]:
        elim = state.eliminated[p]
        if elim >= 0:
            return (0, 0.0, 0, 0, elim)
        return (1, scores[p], ships[p], ore[p], 0)

    order = sorted(range(n), key=key, reverse=True)
    ranks = [0] * n
    for i, p in enumerate(order):
        ranks[p] = ranks[order[i - 1]] if i and key(order[i - 1]) == key(p) else i + 1
    return scores, order, ranks
