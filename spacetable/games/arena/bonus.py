"""The bonus teleport (AR-8).

A one-step move (AR-4.4) that arrives on the opponent's back row may be followed, in the
same turn, by one permutation or rotation in which the moved ship takes part (AR-8.1,
AR-8.2); captures, sideways steps along that row and corvette steps count (AR-D5). The
bonus is optional (AR-8.3); it is a teleport and only moves trigger one, so there is never
a second (AR-8.4); a move that captured the enemy corvette ended the game and takes none
(AR-8.5). The legal list holds each triggering move once without a bonus and once per
available bonus teleport (AR-8.6). Scenarios AR-A12, AR-A13, AR-A14, AR-A15, AR-A21.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacetable.core.errors import RuleError

from .board import CODES, CORVETTE, Face
from .movement import is_one_step
from .teleports import available, members


def triggers(face: Face, colour: int, origin: int, dest: int, captured: int) -> bool:
    """AR-8.1, AR-8.5: a one-step arrival on the opponent's back row that did not end the game."""
    return captured != CORVETTE and dest in face.target_row(colour) and is_one_step(face, origin, dest)


def check(face: Face, colour: int, ship: int, origin: int, dest: int, captured: int, name: str) -> None:
    """Raise the rule a bonus ``name`` after the move ``origin``–``dest`` of ``ship`` breaks, if any."""
    if captured == CORVETTE:
        raise RuleError("AR-8.5", "the game ended with the corvette capture; no bonus")
    if not is_one_step(face, origin, dest):
        raise RuleError("AR-8.1", "a two-step move never triggers a bonus")
    if dest not in face.target_row(colour):
        raise RuleError("AR-8.1", "a bonus needs a one-step arrival on the opponent's back row")
    if ship not in members(name):
        raise RuleError("AR-8.2", f"the moved ship {CODES[ship]} must take part in the bonus teleport")


def variants(own_after: Sequence[int], ship: int, banished: int) -> list[str]:
    """The bonus teleports open after the moved ``ship`` arrived, in canonical order (AR-8.2, AR-8.6)."""
    return [name for name in available(own_after, banished) if ship in members(name)]
