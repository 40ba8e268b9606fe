"""Activating ship cards (BG-9, D-14, D-17).

During the action phase a side activates in-play cards one at a time, as many as it can pay for,
**each at most once per turn** [S] (BG-9.1); cards launched this turn may activate (D-14), a card
taken over this turn may not (D-17). An activation runs three steps in order and finishes before
another card activates (BG-9.2): (1) choose a card that has not yet activated and pay its
activation cost, once per card even for a squadron; (2) movement (BG-10); (3) attacks (BG-12).
``end_movement`` ends step 2 for the whole card (BG-9.3) and ``end_activation`` closes it; unused
attacks lapse. After the cost is paid the enemy may react (``enemy_activation``, D-20) and the
card's ``activation_start`` powers act.
"""

from __future__ import annotations

from spacetable.core.errors import RuleError

from .effects import fire_powers
from .energy import pay
from .movement import gate_under, require_activation
from .state import Activation, GState
from .windows import open_window


def activate(s: GState, seat: int, a: dict) -> None:
    """BG-9.2 step 1: choose an in-play card and pay its activation cost."""
    side = s.side_of(seat)
    cid = a["card"]
    card = s.cards.get(cid)
    if card is None or card.side != side or card.zone != "play":
        raise RuleError("BG-9.2", f"{cid} is not one of your ship cards in play")
    if card.seat != seat:
        raise RuleError("BG-18.1", f"{cid} is commanded by seat {card.seat}")
    if card.activated:
        raise RuleError("BG-9.1", f"{cid} has already been activated this turn")
    pay(s.sides[side], s.vdata(cid).activation_cost, f"activating {cid}")
    card.activated = True
    on_gate = [pid for pid in card.pieces if s.pieces[pid].alive and gate_under(s, pid) is not None]
    s.activation = Activation(cid, "start", [], on_gate, {})
    s.log({"t": "activate", "card": cid})
    fire_powers(s, cid, "activation_start")
    open_window(s, "enemy_activation", 1 - side)


def end_activation(s: GState, seat: int, a: dict) -> None:
    """BG-12.6 unused attacks lapse; end-of-activation effects expire."""
    require_activation(s, seat)
    close_activation(s)


def close_activation(s: GState) -> None:
    s.activation = None
    s.mods = [m for m in s.mods if m.until != "activation"]
