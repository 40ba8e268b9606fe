"""Combat result, retreat and Factory conversion (WS-6).

When every battle is fought, the side that lost strictly fewer pieces wins the combat (WS-6.1,
WS-6.2); with equal losses nobody wins and nothing else happens. On a World the loser may then move
any of its surviving Populations to the system's Sun (WS-6.3, WS-D9), and after that the winner may
take one of the loser's remaining Factories on the card (WS-6.4, WS-D10). The combat is then over
and the attacker may declare another one or end its turn (WS-6.5).
"""

from __future__ import annotations

from spacetable.core.errors import RuleError
from spacetable.core.game import Action
from spacetable.core.moves import Name, Params, bounded_list

from .declare import card_by_id, piece_by_id, pieces_on
from .pairing import MAX_GROUP
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
    """The Sun of the card's system (WS-1.2), where a retreat goes (WS-6.3)."""
    card = card_by_id(state, card_id)
    assert card is not None
    return next(s.sun for s in state.systems if s.id == card.system)


def _combat(s: WorldsState) -> Combat:
    c = s.combat
    assert c is not None and c.winner is not None
    return c


class RetreatParams(Params):
    """The loser's Populations that retreat to the Sun (possibly none)."""

    pieces: bounded_list(Name, MAX_GROUP)  # type: ignore[valid-type]


def retreat(s: WorldsState, seat: int, action: Action) -> None:
    """WS-6.3: any subset of the loser's surviving Populations moves to the system's Sun, at no cost."""
    c = _combat(s)
    ids = list(action["pieces"])
    allowed = {p.id for p in retreat_candidates(s, c, seat)}
    if len(set(ids)) != len(ids) or not set(ids) <= allowed:
        raise RuleError("WS-6.3", "only your surviving Populations on this World may retreat")
    sun = sun_of(s, c.card)
    for p in s.pieces:
        if p.id in ids:
            p.card = sun
    who = s.sides[seat]
    s.log.append(f"{who} retreats {len(ids)} Population(s) to {sun}" if ids else f"{who} does not retreat")


def legal_retreats(s: WorldsState, seat: int) -> list[Action]:
    """The first n Populations for each n (any subset is accepted, WS-6.3, WS-D15)."""
    pops = [p.id for p in retreat_candidates(s, _combat(s), seat)]
    return [{"type": "retreat", "pieces": pops[:n]} for n in range(len(pops) + 1)]


class ConvertParams(Params):
    """The loser's Factory the winner takes, or none (``null``)."""

    factory: Name | None = None


def convert(s: WorldsState, seat: int, action: Action) -> None:
    """WS-6.4: the winner may take exactly one of the loser's remaining Factories (optional, WS-D10);
    it changes owner, keeps its id (WS-D16) and stays on the World."""
    c = _combat(s)
    fid = action.get("factory")
    if fid is None:
        s.log.append(f"{s.sides[seat]} declines to convert")
        return
    if fid not in {p.id for p in convertible(s, c, 1 - seat)}:
        raise RuleError("WS-6.4", f"{fid!r} is not a Factory of the loser on {c.card}")
    piece_by_id(s, fid).owner = seat
    c.converted = fid
    s.converted[seat] += 1
    s.log.append(f"{s.sides[seat]} converts Factory {fid}")


def legal_conversions(s: WorldsState, seat: int) -> list[Action]:
    """No conversion, then each of the loser's Factories on the card (WS-6.4)."""
    c = _combat(s)
    return [{"type": "convert", "factory": None}] + [
        {"type": "convert", "factory": p.id} for p in convertible(s, c, 1 - seat)
    ]
