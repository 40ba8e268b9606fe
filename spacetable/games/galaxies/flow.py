"""Turn flow: set-up commits → roll-off → turns of Energy, Deploy and Action → round limit
(BG-5.4, BG-5.5, BG-6.1, BG-6.5, BG-7, BG-8.12, BG-9.4, BG-17, BG-18).

A turn is Energy, Deploy, Action, in that order; there is no end phase (BG-6.1). A round is one turn
per side. The **energy phase** (BG-7.1) runs by itself: +10 energy (+5 in the first player's first
turn, BG-5.5; a mission may set another income), draw 1, +2 if a ship of the side is on an energy
source, ``energy_phase`` powers; it then waits only when there is something to decide: the optional
orbital-market draw, shield regenerators, a hand over the limit (D-9, BG-6.5), or a playable
``own_energy`` card. ``end_deploy`` ends the deploy phase (BG-8.12) and ``end_turn`` the action
phase and the turn (BG-9.4: end-of-turn effects expire, activation flags reset). In teams the helm
passes through the side's seats (:mod:`.teams`).

``phase_of`` names the windows the move table checks: ``fleet``, ``deck``, ``first``, ``energy``,
``deploy``, ``action`` (no activation open), ``activation``, ``roll`` (the attacker's after-roll
window), ``reaction`` (a reaction window of the other side) and ``over``.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.moves import Move

from . import victory
from .activation import close_activation
from .attacks import after_own_window, resolve_roll
from .damage import repair_shields
from .effects import fire_powers
from .energy import draw, gain, over_limit
from .state import SIDES, EnergyChoice, GState
from .tactics import tactic_actions
from .teams import next_seat
from .tiles import pieces_on

FIRST_TURN_INCOME = 5  # BG-5.5
INCOME = 10  # BG-7.1
ENERGY_SOURCE = 2  # BG-15.3


def phase_of(s: GState) -> str:
    if s.phase == "over":
        return "over"
    if s.window is not None:
        return "roll" if s.window.kind == "after_attack_roll" else "reaction"
    if s.phase == "action" and s.activation is not None:
        return "activation"
    return s.phase


def to_act(s: GState) -> tuple[int, ...]:
    if s.phase == "over":
        return ()
    if s.phase in ("fleet", "deck"):
        return s.sealed.waiting()
    if s.phase == "first":
        return (s.lead(0 if s.rolloff[0] > s.rolloff[1] else 1),)
    if s.window is not None:
        return (s.window.seat,)
    return (s.helm,)


def choose_first(s: GState, seat: int, a: dict) -> None:
    """BG-5.4 the high roller chooses who starts."""
    s.first = SIDES.index(a["side"])
    s.log({"t": "first", "side": s.first})
    start_turn(s, s.first)


def start_turn(s: GState, side: int) -> None:
    """BG-7.1 the automatic part of the energy phase."""
    sd = s.sides[side]
    s.active, s.helm, s.phase = side, s.lead(side), "energy"
    s.turn += 1
    sd.turns += 1
    if side == s.first:
        s.round += 1
    income = s.missiondata.energy_income.get(SIDES[side], INCOME)
    if side == s.first and sd.turns == 1:
        income = FIRST_TURN_INCOME
    got = gain(sd, income)
    s.log({"t": "turn", "side": side, "round": s.round, "energy": got})
    draw(s, side, 1)
    if pieces_on(s, side, "energy_source"):
        gain(sd, ENERGY_SOURCE)
        s.log({"t": "energy_source", "side": side})
    for c in list(s.cards.values()):
        if c.side == side and c.zone == "play":
            fire_powers(s, c.id, "energy_phase")
    victory.on_energy_phase(s, side)
    market = bool(pieces_on(s, side, "orbital_market"))
    regen: list[str] = []
    seen: set[tuple[int, int]] = set()
    for t, p in pieces_on(s, side, "shield_regenerator"):
        if t.hex not in seen and p.shields < s.vdata(p.card).shields:
            seen.add(t.hex)
            regen.append(p.id)
    s.energy_choice = EnergyChoice(market, regen)
    settle_energy(s)


def _waits(s: GState) -> bool:
    ec = s.energy_choice
    if ec is not None and (ec.market or ec.regen):
        return True
    if over_limit(s, s.active):
        return True
    return any(s.tdata(a["card"]).timing == "own_energy" for a in tactic_actions(s, s.helm, False))


def settle_energy(s: GState) -> None:
    """Leave the energy phase as soon as nothing is left to decide there."""
    if s.phase == "energy" and s.result is None and s.window is None and not _waits(s):
        enter_deploy(s)


def enter_deploy(s: GState) -> None:
    s.energy_choice = None
    s.phase = "deploy"
    s.helm = s.lead(s.active)


def market_draw(s: GState, seat: int, a: dict) -> None:
    """BG-7.1 (c) the orbital market's optional extra draw."""
    ec = s.energy_choice
    if ec is None or not ec.market:
        raise RuleError("BG-15.3", "no orbital market draw is open")
    ec.market = False
    if a["take"]:
        draw(s, s.active, 1)


def regen_shield(s: GState, seat: int, a: dict) -> None:
    """BG-7.1 (c) a shield regenerator's optional +1 peg (``ship: null`` declines them all)."""
    ec = s.energy_choice
    if ec is None or not ec.regen:
        raise RuleError("BG-15.3", "no shield regenerator is waiting")
    ship = a.get("ship")
    if ship is None:
        ec.regen = []
        return
    if ship not in ec.regen:
        raise RuleError("BG-15.3", f"{ship} is not on a shield regenerator")
    ec.regen.remove(ship)
    repair_shields(s, ship, 1)
    s.log({"t": "regen", "ship": ship})


def end_energy(s: GState, seat: int, a: dict) -> None:
    """End the energy phase (declining open optional choices) once the hand is within the limit."""
    if over_limit(s, s.active):
        raise RuleError("BG-6.5", f"discard {over_limit(s, s.active)} card(s) first: the hand limit is 10")
    enter_deploy(s)


def end_deploy(s: GState, seat: int, a: dict) -> None:
    """BG-8.12 (teams: hand the helm to the next seat of the side)."""
    nxt = next_seat(s)
    if nxt is not None:
        s.helm = nxt
        return
    s.phase = "action"
    s.helm = s.lead(s.active)


def end_turn(s: GState, seat: int, a: dict) -> None:
    """BG-9.4 end the turn (no activation open; hand within the limit, BG-6.5)."""
    if s.activation is not None:
        raise RuleError("BG-9.4", "end the open activation first")
    if over_limit(s, s.active):
        raise RuleError("BG-6.5", f"discard {over_limit(s, s.active)} card(s) first: the hand limit is 10")
    nxt = next_seat(s)
    if nxt is not None:
        s.helm = nxt
        return
    side = s.active
    victory.on_turn_end(s, side)
    if s.result is not None:
        return
    s.mods = [m for m in s.mods if m.until not in ("turn", "activation")]
    for c in s.cards.values():
        c.activated = False
    if side != s.first and s.round >= s.missiondata.max_rounds:
        victory.round_limit(s)
        return
    start_turn(s, 1 - side)


def pass_window(s: GState, seat: int, a: dict) -> None:
    """Close the open window without (more) cards (D-20)."""
    w = s.window
    if w is None:  # pragma: no cover - the move table only offers pass in windows
        raise RuleError("BG-14.4", "no window is open")
    if w.kind == "after_attack_roll":
        after_own_window(s)
    elif w.kind == "enemy_hit":
        resolve_roll(s)
    else:
        s.window = None


def resign(s: GState, seat: int, a: dict) -> None:
    """BG-17.4 a side concedes (any seat of a team concedes for the side)."""
    s.sides[s.side_of(seat)].conceded = True
    victory.check(s)


def may_resign(s: GState, seat: int) -> bool:
    return s.phase != "over" and 0 <= seat < s.num_players


def after(s: GState, seat: int, move: Move, a: dict[str, Any]) -> None:
    """The move table's flow hook: victory after every action, then leave a finished energy phase."""
    if s.activation is not None and s.activation.card in s.cards and s.cards[s.activation.card].zone != "play" \
            and s.window is None and s.roll is None:
        close_activation(s)
    victory.check(s)
    settle_energy(s)
