"""Where and when combat can happen, and declaring it (WS-2, WS-3).

A combat takes place on one card, a World or a Sun (WS-2.1), between the pieces on that card
only (WS-2.2). The attacker names an eligible card (WS-2.3, WS-3.1) and the engine fixes the
participants: every piece of both sides on it (WS-2.5, WS-D8).
"""

from __future__ import annotations

from spacetable.core.errors import RuleError
from spacetable.core.game import Action
from spacetable.core.moves import Name, Params

from .pieces import Card, Piece, piece_sort_key
from .state import Combat, WorldsState


def card_by_id(state: WorldsState, card_id: str) -> Card | None:
    """The Sun or World card with this id (WS-1.2), or None."""
    return next((c for c in state.cards if c.id == card_id), None)


def pieces_on(state: WorldsState, card_id: str, seat: int | None = None) -> list[Piece]:
    """Pieces on a card (WS-2.2), optionally of one seat, in id order."""
    out = [p for p in state.pieces if p.card == card_id and (seat is None or p.owner == seat)]
    return sorted(out, key=lambda p: piece_sort_key(p.id))


def piece_by_id(state: WorldsState, pid: str) -> Piece:
    """The piece in play with this id; an unknown id is a malformed action."""
    for p in state.pieces:
        if p.id == pid:
            return p
    raise RuleError("CORE-ACTION", f"no piece {pid!r}")


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


class DeclareParams(Params):
    """Declare a combat on a card (WS-3.1)."""

    card: Name


def declare_combat(s: WorldsState, seat: int, action: Action) -> None:
    """WS-2.3, WS-3.1: the side whose turn it is, the attacker (WS-1.1), names an eligible card; the engine fixes
    the participants (WS-2.5). The side with
    more pieces allocates, the attacker when counts are equal (WS-4.2, WS-4.3, WS-D1)."""
    card_id = action["card"]
    err = eligibility_error(s, seat, card_id)
    if err is not None:
        raise err
    parts = [[p.id for p in pieces_on(s, card_id, x)] for x in (0, 1)]
    n_a, n_d = len(parts[seat]), len(parts[1 - seat])
    allocator = seat if n_a >= n_d else 1 - seat
    s.combat = Combat(card=card_id, attacker=seat, allocator=allocator, participants=parts)
    s.fought.append(card_id)
    s.combats_this_turn += 1
    s.log.append(
        f"{s.sides[seat]} declares a combat on {card_id}: {n_a} against {n_d} pieces, "
        f"{min(n_a, n_d)} battle(s); {s.sides[allocator]} allocates"
    )


def legal_declares(s: WorldsState, seat: int) -> list[Action]:
    """One ``declare_combat`` per eligible card (WS-2.3)."""
    return [{"type": "declare_combat", "card": cid} for cid in eligible_cards(s, seat)]
