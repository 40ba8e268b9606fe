"""Combat result, retreat and Factory conversion (WS-6)."""

from __future__ import annotations

from .declare import card_by_id, pieces_on
from .pieces import FACTORY, POPULATION, WORLD, Piece
from .state import Combat, WorldsState


def combat_winner(losses: list[int]) -> int | None:
    """WS-6.2: the seat with strictly fewer losses, or None on equal losses."""
    if losses[0] < losses[1]:
        return 0
    if losses[1] < losses[0]:
        return 1
    return None


def retreat_candidates(state: WorldsState, combat: Combat, loser: int) -> list[Piece]:
    """WS-6.3: the loser's surviving Populations on the combat's World (none on a Sun, WS-D9)."""
    card = card_by_id(state, combat.card)
    if card is None or card.kind != WORLD:
        return []
    return [p for p in pieces_on(state, combat.card, loser) if p.kind == POPULATION]


def convertible(state: WorldsState, combat: Combat, loser: int) -> list[Piece]:
    """WS-6.4: the loser's Factories still on the card."""
    return [p for p in pieces_on(state, combat.card, loser) if p.kind == FACTORY]


def sun_of(state: WorldsState, card_id: str) -> str:
    card = card_by_id(state, card_id)
    assert card is not None
    return next(s.sun for s in state.systems if s.id == card.system)
