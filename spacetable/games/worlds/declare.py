"""Where and when combat can happen, and declaring (WS-2, WS-3)."""

from __future__ import annotations

from spacetable.core.errors import RuleError

from .pieces import Card, Piece, piece_sort_key
from .state import WorldsState


def card_by_id(state: WorldsState, card_id: str) -> Card | None:
    return next((c for c in state.cards if c.id == card_id), None)


def pieces_on(state: WorldsState, card_id: str, seat: int | None = None) -> list[Piece]:
    """Pieces on a card (WS-2.2), optionally of one seat, in id order."""
    out = [p for p in state.pieces if p.card == card_id and (seat is None or p.owner == seat)]
    return sorted(out, key=lambda p: piece_sort_key(p.id))


def in_starting_system(state: WorldsState, card: Card) -> bool:
    """WS-D7: no combat in any side's starting system."""
    system = next(s for s in state.systems if s.id == card.system)
    return system.starting_system_of is not None


def eligibility_error(state: WorldsState, attacker: int, card_id: str) -> RuleError | None:
    """WS-2.3: why ``card_id`` is not eligible for ``attacker`` now, or None."""
    card = card_by_id(state, card_id)
    if card is None:
        return RuleError("WS-2.1", f"there is no card {card_id!r}")
    if in_starting_system(state, card):
        return RuleError("WS-2.3", f"{card_id} is in a starting system: combat is forbidden there (WS-D7)")
    if not pieces_on(state, card_id, attacker):
        return RuleError("WS-2.3", f"the attacker has no piece on {card_id}")
    if not pieces_on(state, card_id, 1 - attacker):
        return RuleError("WS-2.3", f"the defender has no piece on {card_id}")
    if card_id in state.fought:
        return RuleError("WS-2.3", f"{card_id} has already been fought over this turn (WS-D8)")
    return None


def eligible_cards(state: WorldsState, attacker: int) -> list[str]:
    """Cards the attacker may declare a combat on, in card order (WS-2.3)."""
    return [c.id for c in state.cards if eligibility_error(state, attacker, c.id) is None]


def any_contested(state: WorldsState) -> bool:
    """WS-8.3(a): some card outside starting systems holds pieces of both sides."""
    return any(
        not in_starting_system(state, c) and pieces_on(state, c.id, 0) and pieces_on(state, c.id, 1) for c in state.cards
    )
