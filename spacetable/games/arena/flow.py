"""Phases and turn order of Cosmic Arena: placement, play and the end.

The move table asks :func:`window` which actions are open now and calls :func:`after`
once an action's ``exec`` has succeeded:

* ``place`` (free placement, mode ``alternate``): Red, Blue, Red, ... until all 16 ships
  stand (AR-2.7, AR-D8); ``layout`` (mode ``simultaneous``): both sealed layouts are
  revealed together once both are in (AR-2.7, IM-1). Play then starts with Red, ``quiet``
  0 and nobody as last capturer (AR-2.2, AR-3.1); placement is not a ply (AR-2.7).
* ``play``: every action is one ply (AR-3.1); an ``offer_end`` attached to it is pending
  until the opponent's next action, which accepts it or lets it lapse (AR-10.4); after the
  checks (1) and (2) of AR-10.6 done by the action itself, the turn passes and (3) the
  next player without a legal action loses (AR-9.2).
* ``over``: nothing but the core's refusal.
"""

from __future__ import annotations

from spacetable.core.game import Action
from spacetable.core.moves import Move

from .endings import check_no_action
from .state import OVER, PLACE, PLAY, ArenaState

#: The windows of the move table: ``place`` and ``layout`` are the two placement modes.
PLACE_ALTERNATE, PLACE_SEALED = "place", "layout"
#: The rule cited when an action is played outside its window.
WINDOW_RULES = {PLACE_ALTERNATE: "AR-2.7", PLACE_SEALED: "AR-2.7", PLAY: "AR-2.7"}


def window(st: ArenaState) -> str:
    """The current window: ``place`` / ``layout`` while placing, ``play``, ``over``."""
    if st.phase == PLACE:
        return PLACE_SEALED if st.sealed is not None else PLACE_ALTERNATE
    return st.phase


def to_act(st: ArenaState) -> tuple[int, ...]:
    """Seats that must act: both while sealed layouts are missing, else the side to move."""
    if st.phase == OVER:
        return ()
    if st.phase == PLACE and st.sealed is not None:
        return st.sealed.waiting()
    return (st.seat_of(st.to_move),)


def start_play(st: ArenaState) -> None:
    """Play begins: Red to move, ``quiet`` 0, no capture yet, no ply played (AR-2.7, AR-3.1, AR-10.2)."""
    st.phase, st.to_move, st.quiet, st.last_capturer, st.plies = PLAY, 0, 0, -1, 0


def after(st: ArenaState, seat: int, move: Move, action: Action) -> None:
    """Turn bookkeeping after a successful action (see the module docstring)."""
    colour = st.colour_of(seat)
    kind = move.type
    if kind == "place":
        if all(c >= 0 for row in st.loc for c in row):
            start_play(st)
        else:
            st.to_move = 1 - colour  # AR-2.7: R, B, R, B ...
        return
    if kind == "layout":
        sealed = st.sealed
        assert sealed is not None
        if sealed.complete():
            for placer, slots in sealed.revealed().items():
                st.loc[st.colour_of(placer)] = list(slots)
            st.sealed = None
            start_play(st)
        return
    st.plies += 1  # AR-3.1: one action, one ply
    st.offer = colour if action.get("offer_end") else -1  # AR-10.4: any other action lets an offer lapse
    if st.phase == OVER:
        return
    st.to_move = 1 - colour
    check_no_action(st)  # AR-10.6 (3)


__all__ = ["PLACE_ALTERNATE", "PLACE_SEALED", "WINDOW_RULES", "after", "start_play", "to_act", "window"]

