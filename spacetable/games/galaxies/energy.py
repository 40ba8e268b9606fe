"""Energy, draws, discards for energy and the hand limit (BG-6, BG-7, D-9, D-12).

Energy is an integer 0–40 (BG-6.2): gains above 40 are lost, it never goes below 0, and a cost
above the current energy makes the action illegal (costs are paid in full when declared). A side
may discard hand cards for +1 energy each at any decision point of its own turn (BG-6.4), never in
the opponent's turn. The hand limit is 10 (D-9): checked at the end of the own energy phase and at
the end of the turn; excess cards must be discarded, and those discards give energy as usual.
Drawing from an empty deck draws nothing (BG-7.2, D-12). Energy pays launch, activation,
charge, tactic card and power costs (BG-6.3).
"""

from __future__ import annotations

from spacetable.core.errors import RuleError

from .state import ENERGY_CAP, HAND_LIMIT, GState, Side


def gain(side: Side, n: int) -> int:
    """BG-6.2 add ``n`` energy up to the cap; returns what was really gained."""
    before = side.energy
    side.energy = max(0, min(ENERGY_CAP, side.energy + n))
    return side.energy - before


def drain(side: Side, n: int) -> int:
    """Remove up to ``n`` energy (floor 0); returns what was removed."""
    before = side.energy
    side.energy = max(0, side.energy - n)
    return before - side.energy


def pay(side: Side, n: int, what: str) -> None:
    """BG-6.2 pay a cost in full or refuse the action."""
    if n > side.energy:
        raise RuleError("BG-6.2", f"{what} costs {n} energy; the side has {side.energy}")
    side.energy -= n


def draw(s: GState, side_i: int, n: int) -> int:
    """Draw ``n`` cards from the top of the deck (D-12: an empty deck gives nothing)."""
    side = s.sides[side_i]
    got = 0
    for _ in range(n):
        if not side.deck:
            break
        tid = side.deck.pop(0)
        side.hand.append(tid)
        s.tactics[tid].zone = "hand"
        s.log({"t": "draw", "side": side_i, "card": tid, "key": s.tactics[tid].key}, to=[side_i])
        got += 1
    if got:
        s.log({"t": "draws", "side": side_i, "n": got})
    return got


def over_limit(s: GState, side_i: int) -> int:
    """D-9 how many cards must still be discarded."""
    return max(0, len(s.sides[side_i].hand) - HAND_LIMIT)


def discard_for_energy(s: GState, seat: int, a: dict) -> None:
    """BG-6.4 discard hand cards for +1 energy each (up to the cap), in the own turn only."""
    side_i = s.side_of(seat)
    if side_i != s.active or s.window is not None:
        raise RuleError("BG-6.4", "discard for energy only at a decision point of your own turn")
    if s.roll is not None:
        raise RuleError("BG-6.4", "not while an attack roll is being resolved")
    side = s.sides[side_i]
    cards = a["cards"]
    if not cards or len(set(cards)) != len(cards):
        raise RuleError("BG-6.4", "name each discarded card once")
    for tid in cards:
        if tid not in side.hand:
            raise RuleError("BG-6.4", f"{tid} is not in your hand (prepped cards cannot be discarded for energy)")
    for tid in cards:
        side.hand.remove(tid)
        side.discard.append(tid)
        s.tactics[tid].zone = "discard"
    got = gain(side, len(cards))
    s.reveals += 1
    s.log({"t": "discard", "side": side_i, "cards": list(cards), "keys": [s.tactics[t].key for t in cards], "energy": got})
