"""The sequence of a Worlds & Suns skirmish: turns, combats, battles and their steps.

The move table asks :func:`window` which actions are open and calls :func:`after` once an
action's ``exec`` has succeeded; :func:`check_window` names the rule an action breaks when it is
played out of its window. The windows (:data:`.state.WINDOWS`):

* ``turn`` (no combat open): the active side declares a combat (WS-3.1) or ends its turn (WS-8.2).
  A combat is resolved completely before another is declared or the turn ends (WS-2.4, WS-6.5).
* ``allocate``: the allocator pairs the pieces and orders the battles (WS-4). Then each battle in
  turn (WS-5):
* ``event``: the seats holding cards seal an event choice (WS-5.1); once both are in they are
  revealed together (WS-D3);
* ``energy``: the seats with energy seal a commitment (WS-5.3, WS-D4), revealed together;
* the dice are rolled (WS-5.4); on a tie the attacker and then the defender each lose a piece,
  chosen in the ``tie`` window when the group holds both kinds (WS-5.6, WS-D5);
* after the last battle: the result (WS-6.2), then ``retreat`` for the loser on a World (WS-6.3)
  and ``convert`` for the winner while the loser keeps a Factory (WS-6.4); the combat is over.
* ``over``: the skirmish ended (WS-8.3) or a side resigned.

A seat is asked for a sealed event only if its hand is non-empty and for energy only if its pool
is non-zero: both facts are public, so skipping reveals nothing. Steps that need nobody's decision
follow each other at once (a battle without cards or energy is rolled straight away; WS-D13).
"""

from __future__ import annotations

from spacetable.core.errors import NotYourTurn, RuleError
from spacetable.core.game import Action
from spacetable.core.moves import Move
from spacetable.core.simultaneous import SealedCommits

from . import battle, skirmish
from .aftermath import combat_winner, convertible, retreat_candidates
from .declare import any_contested
from .pairing import allocation_rule, legal_allocations
from .state import ALLOCATE, CONVERT, ENERGY, EVENT, OVER, RETREAT, TIE, TURN, Combat, WorldsState

#: The window of each action type (the move table declares its moves with these).
WINDOW_OF = {
    "declare_combat": (TURN,), "end_turn": (TURN,), "allocate": (ALLOCATE,), "play_event": (EVENT,),
    "commit_energy": (ENERGY,), "choose_tie_loss": (TIE,), "retreat": (RETREAT,), "convert": (CONVERT,),
}
#: The rule an action breaks when played by a seat to act, outside its window.
OUT_OF_WINDOW = {
    "declare_combat": "WS-2.4", "end_turn": "WS-2.4", "allocate": "WS-4.2", "play_event": "WS-5.1",
    "commit_energy": "WS-5.3", "choose_tie_loss": "WS-5.6", "retreat": "WS-6.3", "convert": "WS-6.4",
}
#: The rule cited for a window by the move table itself (only reached if :func:`check_window` is skipped).
WINDOW_RULES = {TURN: "WS-2.4", ALLOCATE: "WS-4.2", EVENT: "WS-5.1", ENERGY: "WS-5.3", TIE: "WS-5.6",
                RETREAT: "WS-6.3", CONVERT: "WS-6.4"}


def window(s: WorldsState) -> str:
    """The open window: ``turn``, the open combat's step, or ``over``."""
    if s.over:
        return OVER
    return TURN if s.combat is None else s.combat.step


def to_act(s: WorldsState) -> tuple[int, ...]:
    """The seats that must act: the active side, the allocator, the seats sealing a choice, the seat owing
    a tie loss, the loser (retreat) or the winner (conversion)."""
    if s.over:
        return ()
    c = s.combat
    if c is None:
        return (s.active,)
    if c.step == ALLOCATE:
        return (c.allocator,)
    if c.step in (EVENT, ENERGY):
        return c.sealed.waiting()
    if c.step == TIE:
        return (c.tie_pending[0],)
    assert c.winner is not None
    return (1 - c.winner,) if c.step == RETREAT else (c.winner,)


def check_window(s: WorldsState, seat: int, kind: str) -> None:
    """Raise the rule ``seat`` breaks by playing ``kind`` now. The rules doc names them even for seats not to
    act: the defender's ``allocate`` breaks WS-4.3 (WS-A8), a declaration while a combat is open breaks
    WS-2.4, and so does the attacker ending its turn then (WS-A9); see WS-D21. A finished game is left to the
    table."""
    if s.over or kind not in WINDOW_OF:
        return
    c = s.combat
    if c is not None:
        if kind == "allocate" and c.step == ALLOCATE and seat != c.allocator:
            raise RuleError(allocation_rule(c), f"{s.sides[seat]} is not the allocator of this combat")
        if kind == "declare_combat":
            raise RuleError("WS-2.4", "a combat is already open: it must end before another is declared")
        if kind == "end_turn" and seat == s.active:
            raise RuleError("WS-2.4", "a combat is open: it must end (WS-6.5) before the turn can end")
    seats = to_act(s)
    if seat not in seats:
        raise NotYourTurn(seat, seats)
    if window(s) not in WINDOW_OF[kind]:
        if kind == "end_turn":
            raise RuleError("WS-2.4", "finish the open combat before ending the turn")
        raise RuleError(OUT_OF_WINDOW[kind], f"this is not the {WINDOW_OF[kind][0]} step")


def after(s: WorldsState, seat: int, move: Move, action: Action) -> None:
    """What follows a successful action (see the module docstring)."""
    c = s.combat
    kind = move.type
    if kind == "allocate":
        start_battle(s)
    elif kind == "play_event":
        assert c is not None
        if c.sealed.complete():
            battle.reveal_events(s)
            energy_step(s)
    elif kind == "commit_energy":
        assert c is not None
        if c.sealed.complete():
            battle.reveal_energy(s)
            roll_dice(s)
    elif kind == "choose_tie_loss":
        tie_losses(s)
    elif kind == "retreat":
        conversion_step(s)
    elif kind == "convert":
        close_combat(s)
    elif kind == "end_turn":
        next_turn(s)


# ------------------------------------------------------------------------------ turns
def start_turn(s: WorldsState) -> None:
    """WS-8.2 income, paid before the end check of WS-8.3a (WS-D18): the skirmish ends when no card is eligible
    for either side."""
    skirmish.start_turn(s)
    if not any_contested(s):
        skirmish.finish(s, "no card is eligible for combat (WS-8.3a)")
        return
    s.log.append(f"round {s.round}: {s.sides[s.active]}'s turn (energy {s.energy[0]}/{s.energy[1]})")


def next_turn(s: WorldsState) -> None:
    """WS-8.3(b) two quiet turns end the skirmish; else the other side's turn, a new round after both,
    and WS-8.3(c) the end after ``max_rounds`` rounds."""
    if s.quiet_turns >= 2:
        skirmish.finish(s, "two consecutive turns without combat (WS-8.3b)")
        return
    s.active = 1 - s.active
    if s.active == s.first_player:
        if s.round >= s.max_rounds:
            skirmish.finish(s, f"{s.max_rounds} rounds complete (WS-8.3c)")
            return
        s.round += 1
    start_turn(s)


# ------------------------------------------------------------------------------ battles
def _combat(s: WorldsState) -> Combat:
    c = s.combat
    assert c is not None
    return c


def start_battle(s: WorldsState) -> None:
    """WS-5.1: the event step, for the seats holding cards; without any, straight to the energy step."""
    c = _combat(s)
    seats = [p for p in (0, 1) if s.hands[p]]
    if seats:
        c.step = EVENT
        c.sealed = SealedCommits.open(seats)
    else:
        energy_step(s)


def energy_step(s: WorldsState) -> None:
    """WS-5.3: the energy step, for the seats with energy; without any, straight to the dice."""
    c = _combat(s)
    seats = [p for p in (0, 1) if s.energy[p] > 0]
    if seats:
        c.step = ENERGY
        c.sealed = SealedCommits.open(seats)
    else:
        c.sealed = SealedCommits()
        roll_dice(s)


def roll_dice(s: WorldsState) -> None:
    """WS-5.4, WS-5.5, WS-5.6 (:func:`.battle.resolve`), then the tie losses or the next battle."""
    _combat(s).sealed = SealedCommits()
    if battle.resolve(s):
        tie_losses(s)
    else:
        next_battle(s)


def tie_losses(s: WorldsState) -> None:
    """WS-5.6: forced losses at once; a seat with a choice to make gets the ``tie`` window."""
    if battle.forced_tie_losses(s):
        _combat(s).step = TIE
        return
    next_battle(s)


def next_battle(s: WorldsState) -> None:
    """WS-5.7 cleanup (natives leave with the battle), then the next battle or the combat result (WS-6.2)."""
    c = _combat(s)
    c.battles[c.current].done = True
    c.tie_pending = []
    if c.current + 1 < len(c.battles):
        c.current += 1
        start_battle(s)
        return
    c.winner = combat_winner(c.losses)
    if c.winner is None:
        s.log.append(f"combat over: losses {c.losses[0]}-{c.losses[1]}, no winner (WS-6.2)")
        close_combat(s)
        return
    s.combats_won[c.winner] += 1
    s.log.append(f"combat over: losses {c.losses[0]}-{c.losses[1]}, {s.sides[c.winner]} wins (WS-6.2)")
    if retreat_candidates(s, c, 1 - c.winner):
        c.step = RETREAT
    else:
        conversion_step(s)


def conversion_step(s: WorldsState) -> None:
    """WS-6.4: after the retreat decision, the winner may convert while the loser keeps a Factory."""
    c = _combat(s)
    assert c.winner is not None
    if convertible(s, c, 1 - c.winner):
        c.step = CONVERT
    else:
        close_combat(s)


def close_combat(s: WorldsState) -> None:
    """WS-6.5: the combat is over; it stays readable as ``last_combat``."""
    s.last_combat = s.combat
    s.combat = None


# ------------------------------------------------------------------------------ timeouts
def timeout_action(s: WorldsState, seat: int) -> Action:
    """Timeout defaults (WS-D22): end the turn, the first canonical allocation, no event, 0 energy, the default
    tie policy (WS-9.1), no retreat, the lowest-id Factory."""
    c = s.combat
    if c is None:
        return {"type": "end_turn"}
    if c.step == ALLOCATE:
        return legal_allocations(s)[0]
    if c.step == EVENT:
        return {"type": "play_event", "card": None}
    if c.step == ENERGY:
        return {"type": "commit_energy", "amount": 0}
    if c.step == TIE:
        return {"type": "choose_tie_loss", "piece": battle.default_tie_loss(s, seat)}
    if c.step == RETREAT:
        return {"type": "retreat", "pieces": []}
    facs = convertible(s, c, seat ^ 1)
    return {"type": "convert", "factory": facs[0].id if facs else None}
