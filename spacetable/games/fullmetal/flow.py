"""Turn flow of Full Metal Planète: phases, who acts, turn starts and ends (FM-6, FM-7, FM-8, FM-9, FM-20).

The phases (the move table's windows) are ``land`` (turn 1), ``deploy`` (turn 2), ``play`` (turns 3 to
25, or 26 with the ``fmg`` endgame), ``depart`` (the secret turn-21 decision) and ``over``. The rule
modules perform actions; this module decides what happens next: :func:`after` is the move table's hook
run after every successful action, :func:`end_turn` and :func:`resign` are the flow's own moves.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.moves import Move
from spacetable.core.simultaneous import SealedCommits

from .ap import income, saved_after
from .endgame import auto_takeoff, lift_off
from .firezones import settle, sync_cover
from .mountains import can_separate, mountain_pairs
from .pontoons import sink
from .spaceship import reveal_deploy, seat_order
from .state import WL, FMState
from .tides import draw_tide, ensure_walk, forecast

#: The rule cited when a move is played outside its phase.
PHASE_RULES = {"land": "FM-7.1", "deploy": "FM-8.1", "depart": "FM-20.1", "play": "FM-6.1"}


def phase_of(state: FMState) -> str:
    """The move table's window: the state's phase."""
    return state.phase


def last_turn(state: FMState) -> int:
    """FM-6.1: 25 game turns (``endgame=fmg``: 26)."""
    return 26 if state.config["endgame"] == "fmg" else 25


def to_land(state: FMState) -> list[int]:
    """FM-7.1: players still to land, in lot order (resigned players are skipped)."""
    return [p for p in state.land_order if state.eliminated[p] < 0 and not state.units[state.ships[p]].cells]


def to_act(state: FMState) -> tuple[int, ...]:
    """FM-6.1: the next lander; every player still to commit (deployment, turn-21 decision); the active
    player in play; nobody once the game is over."""
    if state.phase == "land":
        waiting = to_land(state)
        return (waiting[0],) if waiting else ()
    if state.phase in ("deploy", "depart"):
        return state.sealed.waiting()
    if state.phase == "play":
        return (state.active_player(),)
    return ()


def may_resign(state: FMState, player: int) -> bool:
    """FM-D21 / FM-D40: ``resign`` is open at any time, also out of turn, to a player still in the game (not
    eliminated, not already gone with all their ships)."""
    if state.phase == "over" or not 0 <= player < state.num_players or state.eliminated[player] >= 0:
        return False
    return state.phase in ("land", "deploy") or state.is_active(player) or player in to_act(state)


# ----------------------------------------------------------------------------- phases
def after_landing(s: FMState) -> None:
    """FM-7 then FM-8.1: once every ship has landed, turn 2 opens the secret deployment."""
    if to_land(s):
        return
    players = [p for p in range(s.num_players) if s.eliminated[p] < 0]
    if not players:
        s.phase = "over"
        return
    s.phase, s.turn = "deploy", 2
    s.sealed = SealedCommits.open(players)
    if s.config["deploy_forecast"]:
        # FM-D45 (the pc preset): a weather layer sees the turn-3 tide while deploying (all are still aboard)
        if s.config["tide_generator"] == "random_walk":
            ensure_walk(s, 1)
        for p in players:
            if s.pile and any(u.kind == WL and s.ctl(u) == p for u in s.units.values()):
                s.forecasts[p][3] = s.pile[0]


def finish_deploy(s: FMState) -> None:
    """FM-8.3: reveal, draw the turn-3 first player, seat order (FM-D4), settle, then turn 3."""
    commits = s.sealed.revealed()
    s.sealed = SealedCommits()
    reveal_deploy(s, commits)
    order = seat_order(s)
    first = s.lot % s.num_players
    k = order.index(first) if first in order else s.lot % len(order)
    s.order = order[k:] + order[:k]
    s.current = 0
    s.phase = "play"
    settle(s, s.order[0], lock=False)
    start_game_turn(s, 3)


def start_game_turn(s: FMState, turn: int) -> None:
    """FM-6.2 / FM-2.4: tide, sinking, settle, forecasts; on turn 21 the departure decision (FM-20.1)."""
    s.turn = turn
    s.current = 0
    if turn > last_turn(s) or not any(s.is_active(p) for p in range(s.num_players)):
        s.phase = "over"
        return
    draw_tide(s)
    sink(s)
    settle(s, s.order[0], lock=False)
    forecast(s)
    if turn == 21 and s.config["endgame"] == "original":
        active = [p for p in range(s.num_players) if s.is_active(p)]
        s.phase = "depart"
        s.sealed = SealedCommits.open(active)
        return
    s.phase = "play"
    start_player_turn(s)


def start_player_turn(s: FMState) -> None:
    """FM-6.3: skip players who cannot play; reset shots, locks and build counters; the AP pool (FM-9.2);
    the retreat window opens for every neutralized unit (FM-15.6)."""
    while s.current < len(s.order) and not s.is_active(s.order[s.current]):
        s.current += 1
    if s.current >= len(s.order):
        start_game_turn(s, s.turn + 1)
        return
    p = s.order[s.current]
    for u in s.units.values():
        u.locked = False
        u.builds = []
        if u.kind in ("tank", "gt", "mb", "turret") and s.ctl(u) == p:
            u.shots = 2
    s.pool[p] = income(s, p) + s.saved[p]
    s.saved[p] = 0
    s.retreat_window = True
    s.retreat_only = None
    sync_cover(s)


def close_turn(s: FMState, player: int, forced: bool = False) -> None:
    """FM-6.4: mountain pairs (FM-19.1, FM-19.2), saving (FM-9.3), turn-25 take-off (FM-20.3), next player.
    ``forced`` skips the FM-19.1 refusal (a clock that ran out, FM-22.1)."""
    mode = s.config["mountain_tanks"]
    pairs = mountain_pairs(s, player)
    if not forced and pairs and mode in ("end_of_turn", "no_zone") and can_separate(s, player, pairs):
        raise RuleError("FM-19.1", "two of your tanks stand on adjacent mountains; separate them first")
    if pairs and mode == "end_of_turn":
        s.disq = sorted(set(s.disq) | {b for _, b in pairs})
    if pairs and mode == "penalty":
        s.penalty[player] = 1
    if s.turn == last_turn(s):
        auto_takeoff(s, player)
    s.saved[player] = saved_after(s.pool[player])
    s.pool[player] = 0
    sync_cover(s)
    settle(s, player, lock=False)
    s.current += 1
    start_player_turn(s)


def end_turn(s: FMState, player: int, action: dict[str, Any]) -> None:
    """``end_turn`` (FM-6.4)."""
    close_turn(s, player)


def finish_departure(s: FMState) -> None:
    """FM-20.1 / FM-D19: leaving ships take off at once, free, and are scored; then turn 21 is played."""
    commits = s.sealed.revealed()
    s.sealed = SealedCommits()
    for p in sorted(commits):
        for sid, choice in commits[p].items():
            if choice == "leave":
                lift_off(s, s.units[int(sid)], p)
    settle(s, s.order[0], lock=False)
    s.phase = "play"
    s.current = 0
    start_player_turn(s)


def resign(s: FMState, player: int, action: dict[str, Any]) -> None:
    """FM-D21: all the player's colours are deactivated and the player is eliminated; a sealed phase goes on
    without them, and a player who resigns during their own turn passes it on."""
    was_current = s.phase == "play" and s.active_player() == player
    for c in range(len(s.controller)):
        if s.controller[c] == player:
            s.controller[c] = -1
    s.eliminated[player] = s.lot_counter_next()
    s.resigned[player] = True
    s.saved[player] = s.pool[player] = 0
    if all(e >= 0 for e in s.eliminated):  # the last player still in resigned: nobody is left to play (FM-D21)
        s.sealed = SealedCommits()
        s.phase = "over"
        return
    if s.phase in ("deploy", "depart") and player in s.sealed.required:
        s.sealed.required.remove(player)
        s.sealed.commits.pop(player, None)
        if s.sealed.complete():
            if s.phase == "deploy":
                finish_deploy(s)
            else:
                finish_departure(s)
            return
    if s.phase == "land":
        after_landing(s)
        return
    sync_cover(s)
    if s.order:
        settle(s, s.order[min(s.current, len(s.order) - 1)], lock=False)
    if was_current:
        s.current += 1
        start_player_turn(s)
    elif s.phase == "play" and not any(s.is_active(p) for p in range(s.num_players)):
        s.phase = "over"


# ------------------------------------------------------------------------ the table's hook
def after(s: FMState, player: int, move: Move, action: dict[str, Any]) -> None:
    """Run after every successful move (not ``resign``): phase changes once a sealed phase is complete, and
    the retreat window (FM-15.6, FM-D29), which the first action other than a retreat closes. ``capture_ship``
    manages the window itself (FM-18.2) and ``end_turn`` has already opened the next player's."""
    kind = move.type
    if kind == "land":
        after_landing(s)
    elif kind == "deploy":
        if s.sealed.complete():
            finish_deploy(s)
    elif kind == "decide_departure":
        if s.sealed.complete():
            finish_departure(s)
    elif kind not in ("retreat", "capture_ship", "end_turn"):
        s.retreat_window = False
        s.retreat_only = None
