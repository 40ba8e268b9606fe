"""Shared helpers for the arena tests (docs/rules/arena.md, AR-*)."""

from __future__ import annotations

from typing import Any

from spacetable.games.arena import GAME
from spacetable.games.arena.state import ArenaState


def make(position: str, red_seat: int = 0) -> ArenaState:
    """State from the arena position notation; Red is seat ``red_seat``."""
    return GAME.initial_state(GAME.normalize_config({"position": position, "red_seat": red_seat}), 7)


def texts(state: ArenaState, actions: list[dict[str, Any]] | None = None) -> list[str]:
    seat = state.seat_of(state.to_move)
    if actions is None:
        actions = GAME.legal_actions(state, seat)
    return [GAME.action_text(state, seat, a) for a in actions]


def play(state: ArenaState, text: str) -> ArenaState:
    seat = state.seat_of(state.to_move)
    return GAME.apply(state, seat, GAME.parse_action(state, seat, text))


def ships_on(state: ArenaState, colour: int) -> dict[str, str]:
    """code -> cell name of one colour's ships on the board."""
    face = state.face
    return {["111", "112", "121", "122", "211", "212", "221", "222"][s]: face.cell_name(c)
            for s, c in enumerate(state.loc[colour]) if c < face.size}
