"""No legal action (AR-9.2) and the end of the game (AR-10).

A game ends by the capture of a corvette (AR-10.1, full victory), by a player without a
legal action (AR-9.2, full victory for the other), by the quiet limit (AR-10.2,
semi-victory for the last capturer, Blue if nobody captured), by agreement (AR-10.4, the
same result) or by resignation (AR-10.5, full victory for the other). Only a capture by a
move counts as the "last banishment" (AR-10.3, AR-D3). There are no draws and no
repetition rule (AR-10.7, AR-D9): the quiet limit alone bounds every game.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import Action, Outcome

from .board import BLUE, COLOUR_NAMES, CORVETTE, Face
from .movement import destinations, occupancy
from .state import OVER, PLAY, QUIET_LIMIT, ArenaState
from .teleports import any_available


def finish(st: ArenaState, winner: int, kind: str, points: float) -> None:
    """End the game: ``winner`` is a colour, ``points`` 1 (full) or ½ (semi-victory) (AR-10.5)."""
    st.phase, st.winner, st.kind, st.points = OVER, winner, kind, points


def semi_winner(st: ArenaState) -> int:
    """The colour that wins the AR-10.2 / AR-10.4 result: the last capturer, else Blue."""
    return st.last_capturer if st.last_capturer >= 0 else BLUE


def count_ply(st: ArenaState, colour: int, captured: int) -> None:
    """The checks of AR-10.6 (1) and (2) after a ply of ``colour`` that captured ``captured``
    (a ship index, −1 for none): the enemy corvette taken ends the game (AR-10.1, AR-5.4);
    otherwise ``quiet`` and ``last_capturer`` are updated (AR-10.2, AR-10.3) and the quiet
    limit may end it. Scenarios AR-A16, AR-A17, AR-A18, AR-A19."""
    if captured == CORVETTE:
        finish(st, colour, "corvette", 1.0)
        return
    if captured >= 0:
        st.quiet, st.last_capturer = 0, colour
    else:
        st.quiet += 1
    if st.quiet >= QUIET_LIMIT:
        finish(st, semi_winner(st), "quiet_limit", 0.5)


def has_turn_action(face: Face, loc: list[list[int]], colour: int) -> bool:
    """Whether ``colour`` has any legal action (AR-9.2)."""
    if any_available(loc[colour], face.banished):
        return True
    cells = occupancy(face, loc)
    return any(destinations(face, loc, colour, s, cells) for s in range(8))


def check_no_action(st: ArenaState) -> None:
    """AR-10.6 (3), AR-9.2: the player to move without a legal action loses at once, and a
    pending offer lapses (scenario AR-A11)."""
    if st.phase == PLAY and not has_turn_action(st.face, st.loc, st.to_move):
        st.offer = -1
        finish(st, 1 - st.to_move, "no_action", 1.0)


def accept(st: ArenaState, seat: int, action: Action) -> None:
    """``accept_end`` (AR-10.4, AR-D7): end the game with the AR-10.2 result, if the opponent offered
    (scenario AR-A20)."""
    colour = st.colour_of(seat)
    if st.offer != 1 - colour:
        raise RuleError("AR-10.4", "there is no pending offer to accept")
    st.offer = -1
    finish(st, semi_winner(st), "agreement", 0.5)


def legal_accept(st: ArenaState, seat: int) -> list[Action]:
    """``accept_end`` is listed (last) while the opponent's offer is pending (AR-10.4)."""
    return [{"type": "accept_end"}] if st.offer == 1 - st.colour_of(seat) else []


def resign(st: ArenaState, seat: int, action: Action) -> None:
    """Resignation, a platform feature allowed to either seat while the game runs (AR-10.5):
    the opponent wins outright."""
    finish(st, 1 - st.colour_of(seat), "resignation", 1.0)


def points_text(st: ArenaState) -> str:
    return "1–0" if st.points == 1.0 else "½–0"


def outcome(st: ArenaState) -> Outcome | None:
    """The AR-10.5 result: winner, kind, points and plies (``None`` while the game runs)."""
    if st.phase != OVER:
        return None
    w = st.seat_of(st.winner)
    scores = [0.0, 0.0]
    scores[w] = st.points
    details: dict[str, Any] = {"winner_colour": COLOUR_NAMES[st.winner], "points": points_text(st), "plies": st.plies,
                               "semi_victory": st.points < 1.0}
    return Outcome(scores=tuple(scores), winners=(w,), kind=st.kind, ranking=(w, 1 - w), details=details)


def returns(st: ArenaState) -> list[float]:
    """+1/−1 for a full victory, +½/−½ for a semi-victory (AR-10.5)."""
    if st.phase != OVER:
        return [0.0, 0.0]
    w = st.seat_of(st.winner)
    out = [-st.points, -st.points]
    out[w] = st.points
    return out
