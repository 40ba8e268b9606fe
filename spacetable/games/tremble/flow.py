"""The flow of a game (TH-3.1: ten turns; TH-8): the open window, who acts, what follows every move.

A *window* is a decision point, named by ``state.phase``:

================  ======================================  ======  ===============================
phase             decision                                sealed  who acts
================  ======================================  ======  ===============================
``redraw``        show two stations and redraw, or keep   no      the first queued seat (TH-4.2)
``buy``           the buy commit                          yes     everybody (TH-4.3)
``plan``          the plan                                yes     seats holding ships (TH-6.1)
``station_move``  a ``relocate_enemy_ship`` use, or pass  yes     station owners (TH-7.2)
``self_move``     moves of ``relocate_self`` ships        yes     their owners (TH-7.2)
``declare``       fight or flee                           no      next in strength order (TH-9.3)
``respond``       one effect, or pass                     no      the offered fighter (TH-11.3)
``loss``          the ship lost, or salvage               yes     losers with a choice (TH-9.7)
``claim``         take the city after a loss, or decline  yes     losers with cards (TH-9.9)
``reward``        raid or catch (or an army peek first)   no      the winner (TH-10.1)
``ignore_army``   discard a revealed army, or pass        no      the winner (TH-10.3)
``army``          fight or flee the next army             no      the winner (TH-10.3)
``over``          nothing: the game has ended             —       nobody (TH-14)
================  ======================================  ======  ===============================

Rule modules perform a move's rule steps and never change the phase; :func:`after` (the move
table's flow hook) then moves the game on: resolving sealed commits once all are in, opening the
next window, settling a slot and going to the next (TH-8.1, TH-D23), ending the turn (TH-3.3) and
the game (TH-14). :data:`WINDOWS` lists each window's legal actions (TH-P2), its timeout default
(TH-P3) and the rule cited when a move of another window is played in it (TH-P1). Loss choices,
claims and both relocation steps are sealed windows like buying and planning (TH-H4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import battle, buying, missions, planning, reward, stations
from .cards import CardSet, get_set
from .fast import apply_buy
from .state import TState

Action = dict[str, Any]


def cards_of(s: TState) -> CardSet:
    """The card set a state plays with (TH-0.3)."""
    return get_set(s.card_set)


# ------------------------------------------------------------------------- who acts
def to_act(s: TState) -> tuple[int, ...]:
    """The seats that must act now (sealed windows: every seat still to commit, IM-5)."""
    ph = s.phase
    if ph in SEALED:
        sealed = s.sealed
        commits = sealed.commits
        if not commits:
            return tuple(sealed.required)
        return tuple([p for p in sealed.required if p not in commits])
    if ph == "over":
        return ()
    if ph == "redraw":
        return (s.queue[0],)
    c = s.contest
    assert c is not None
    if ph == "declare":
        return (c.order[0],)
    if ph == "respond":
        return (c.offer,)
    return (c.winner,)  # reward, ignore_army, army


def _seal(s: TState, seats: list[int], phase: str) -> None:
    """Open a sealed window for ``seats`` (IM-5)."""
    s.sealed.required = seats
    s.sealed.commits = {}
    s.phase = phase


def _unseal(s: TState) -> dict[int, Any]:
    """The commits of a complete sealed window, revealed together; the box is emptied."""
    commits = s.sealed.revealed()
    s.sealed.required, s.sealed.commits = [], {}
    return commits


# ------------------------------------------------------------------------- the turn cycle
def start_turn(s: TState, cards: CardSet) -> None:
    """TH-3.2: stations untap; on the first red turn the rest of the blue ship deck leaves the game unseen
    (TH-A25); then the draws (TH-4.1) and the station redraws (TH-4.2) or the buy commits."""
    rules = cards.rules
    for p in s.players:
        p.tapped = []
    if s.turn == rules["red_from_turn"]:
        s.out.extend(s.blue_deck)
        s.blue_deck = []
    s.log_events and s.note(f"turn {s.turn} begins; fuel limit {s.fuel[s.turn - 1]}")
    buying.draw_for_turn(s, cards)
    if s.queue:
        s.phase = "redraw"
    else:
        _seal(s, list(range(s.num_players)), "buy")


def _after_redraw(s: TState, cards: CardSet, seat: int, kind: str) -> None:
    """TH-4.2, TH-D20: a seat that drew two stations again may redraw again; otherwise the next queued seat,
    then the buy commits."""
    if kind == "redraw_stations" and buying.all_stations(cards, s.players[seat].drawn):
        return
    s.queue.pop(0)
    if not s.queue:
        _seal(s, list(range(s.num_players)), "buy")


def resolve_buys(s: TState, cards: CardSet) -> None:
    """TH-4.3: every buy commit is applied together, in seat order (each was validated when sealed),
    then the cities are revealed."""
    commits = s.sealed.commits
    rules = cards.rules
    for seat in s.seat_order():
        p = s.players[seat]
        before = p.humans
        commit = commits[seat]
        gone = apply_buy(p, s, cards, rules, commit)
        buying.settle_purchase(s, cards, seat, commit, before, gone)
    s.sealed.required, s.sealed.commits = [], {}
    reveal_cities(s, cards)


def reveal_cities(s: TState, cards: CardSet) -> None:
    """TH-5.1, then the plans (TH-6.1) of the seats holding ships (TH-D10)."""
    planning.deal_cities(s, cards)
    _seal(s, [i for i, p in enumerate(s.players) if p.hand], "plan")
    if not s.sealed.required:
        after_plans(s, cards, {})


def after_plans(s: TState, cards: CardSet, plans: dict[int, dict[str, Any]]) -> None:
    """TH-7.1, TH-7.2: plans revealed together, then the station moves and the self moves."""
    s.sealed.required, s.sealed.commits = [], {}
    planning.reveal_plans(s, cards, plans)
    movers = stations.station_movers(s, cards)
    if movers:
        _seal(s, movers, "station_move")
    else:
        start_self_moves(s, cards)


def after_station_moves(s: TState, cards: CardSet) -> None:
    """TH-7.2 (a) resolved, then the self moves."""
    stations.resolve_station_moves(s, cards, _unseal(s))
    start_self_moves(s, cards)


def start_self_moves(s: TState, cards: CardSet) -> None:
    """TH-7.2 (b): the owners of attacking ``relocate_self`` ships decide; then the cities (TH-8.1)."""
    movers = stations.self_movers(s, cards)
    if movers:
        _seal(s, movers, "self_move")
    else:
        s.slot = -1
        end_slot(s, cards, first=True)


def after_self_moves(s: TState, cards: CardSet) -> None:
    """TH-7.2 (b) resolved, then the cities from slot 1 (TH-8.1)."""
    stations.resolve_self_moves(s, cards, _unseal(s))
    s.slot = -1
    end_slot(s, cards, first=True)


def end_slot(s: TState, cards: CardSet, first: bool = False) -> None:
    """TH-8.1, TH-8.2, TH-D23: the settled slot's ships go back to hand; the next slots are resolved in
    order: no attacker → the city is discarded; one → reward; several → battle. After the last, TH-3.3."""
    slot = s.slot
    groups = s.groups
    if not first and 0 <= slot < len(groups):
        groups[slot] = {}
    s.contest = None
    slots = s.slots
    n = len(slots)
    while True:
        slot += 1
        s.slot = slot
        if slot >= n:
            end_turn(s, cards)
            return
        attackers = groups[slot]
        if not attackers:
            s.city_discard.append(slots[slot])
            continue
        if len(attackers) == 1:
            start_reward(s, next(iter(attackers)))
        else:
            battle.open_battle(s, cards, sorted(attackers))
            s.phase = "declare"
        return


def end_turn(s: TState, cards: CardSet) -> None:
    """TH-3.3: slots empty, the turn marker advances; after the last turn (TH-3.1) the game ends (TH-14)."""
    s.slots, s.groups, s.support, s.slot = [], [], [], 0
    s.turn += 1
    if s.turn > int(cards.rules["turns"]):
        missions.final_scoring(s, cards)
        end_game(s)
        return
    start_turn(s, cards)


def end_game(s: TState) -> None:
    """TH-14.6: the game is over; nobody acts any more."""
    s.phase = "over"
    s.log_events and s.note("game over: " + ", ".join(f"seat {i} {p.humans:,}" for i, p in enumerate(s.players)))


# ------------------------------------------------------------------------- battles and rewards
def _after_declare(s: TState, cards: CardSet) -> None:
    """TH-9.4, TH-D3: once everybody has declared, nobody fighting discards the city, one fighter goes to
    the reward without dice; otherwise the fighters roll (TH-9.5) and the response window opens."""
    c = s.contest
    assert c is not None
    if not c.fight:
        s.log_events and s.note("everybody fled; the city is discarded")
        s.city_discard.append(s.slots[s.slot])
        end_slot(s, cards)
    elif len(c.fight) == 1:
        start_reward(s, c.fight[0])
    else:
        c.seats = sorted(c.fight)
        battle.roll(s, c.seats)
        open_window(s, cards)


def open_window(s: TState, cards: CardSet) -> None:
    """TH-11.3: a response window after a roll; nobody has passed yet."""
    c = s.contest
    assert c is not None
    c.passed = []
    offer(s, cards)


def offer(s: TState, cards: CardSet) -> None:
    """TH-11.3: offer the window to the next fighter, or close it once all have passed."""
    known: dict[int, int] = {}
    if battle.next_offer(s, cards, known) >= 0:
        s.phase = "respond"
    else:
        window_closed(s, cards, known)


def window_closed(s: TState, cards: CardSet, known: dict[int, int]) -> None:
    """TH-9.6, TH-D9: in a battle the unique highest total wins and the others lose; a shared top total is
    rerolled among the tied (a new window). In an army fight, TH-10.4."""
    c = s.contest
    assert c is not None
    if c.kind == "army":
        if reward.army_beaten(s, cards):
            next_army(s, cards)
        else:
            start_losses(s, cards, [c.winner])
        return
    best = battle.leaders(s, cards, known)
    if len(best) > 1:
        c.seats = best
        battle.roll(s, best)
        open_window(s, cards)
        return
    battle.set_winner(s, best[0])
    start_losses(s, cards, c.losers)


def start_losses(s: TState, cards: CardSet, losers: list[int]) -> None:
    """TH-9.7, TH-10.6: losses fixed by public facts at once (TH-H3); the others are chosen in a sealed window
    (TH-H4)."""
    deciders = battle.auto_losses(s, cards, losers)
    if deciders:
        _seal(s, sorted(deciders), "loss")
    else:
        after_losses(s, cards)


def resolve_losses(s: TState, cards: CardSet) -> None:
    """TH-9.7: the loss choices are revealed and applied together."""
    commits = _unseal(s)
    for seat in sorted(commits):
        battle.apply_loss(s, cards, seat, commits[seat])
    after_losses(s, cards)


def after_losses(s: TState, cards: CardSet) -> None:
    """TH-9.8: each battle loser draws a compensation card, then the loss window (TH-9.9) or the reward
    (TH-9.10). A lost army fight ends the catch with nothing (TH-10.6, TH-D2)."""
    c = s.contest
    assert c is not None
    if c.kind == "army":
        reward.discard_city(s)
        finish_catch(s, cards)
        return
    for x in c.losers:
        battle.draw_comp(s, x)
    claimers = battle.claimers(s, c.losers)
    if claimers:
        _seal(s, claimers, "claim")
        return
    start_reward(s, c.winner)


def resolve_claims(s: TState, cards: CardSet) -> None:
    """TH-9.9 resolved, then the winner's reward (TH-9.10)."""
    c = s.contest
    assert c is not None
    battle.resolve_claims(s, cards, _unseal(s))
    start_reward(s, c.winner)


def start_reward(s: TState, winner: int) -> None:
    """TH-10.1: the winner chooses raid or catch."""
    reward.open_reward(s, winner)
    s.phase = "reward"


def _after_reward(s: TState, cards: CardSet, kind: str, choice: str | None) -> None:
    """TH-10.2: a raid settles the slot; TH-10.3: a catch meets its armies; an army peek keeps the window."""
    if kind == "use_station":
        return
    if choice == "raid":
        end_slot(s, cards)
    else:
        next_army(s, cards)


def next_army(s: TState, cards: CardSet) -> None:
    """TH-10.3, TH-10.5: all armies beaten → the catch; before the first fight the ``ignore_army`` window
    if the captain holds such a card (TH-H5); otherwise fight or flee the next army."""
    c = s.contest
    assert c is not None
    seat = c.winner
    if c.army_pos >= len(c.armies):
        reward.catch_succeeds(s, cards, seat)
        finish_catch(s, cards)
        return
    if c.army_pos == 0 and c.beaten == 0 and s.phase != "ignore_army" and reward.may_ignore(s, cards, seat):
        s.phase = "ignore_army"
        return
    s.phase = "army"


def _after_ignore(s: TState, cards: CardSet, seat: int, kind: str) -> None:
    """TH-10.3: after a pass, or once no revealed army or no ``ignore_army`` card is left, the army fights."""
    c = s.contest
    assert c is not None
    if kind == "pass":
        s.phase = "army"
        if not c.armies:
            next_army(s, cards)
    elif not c.armies:
        next_army(s, cards)
    elif not reward.may_ignore(s, cards, seat):
        s.phase = "army"


def _after_army(s: TState, cards: CardSet, choice: str) -> None:
    """TH-10.7: a flight ends the catch; TH-10.4: a fight opens the army's response window."""
    if choice == "flee":
        finish_catch(s, cards)
    else:
        open_window(s, cards)


def finish_catch(s: TState, cards: CardSet) -> None:
    """TH-10.8: the revealed armies go to their discard; the slot is settled."""
    reward.discard_revealed(s)
    end_slot(s, cards)


# ------------------------------------------------------------------------- the flow hook
#: sealed window -> its resolution once every commit is in
_RESOLVE: dict[str, Callable[[TState, CardSet], None]] = {
    "buy": resolve_buys,
    "plan": lambda s, cards: after_plans(s, cards, dict(s.sealed.commits)),
    "station_move": after_station_moves,
    "self_move": after_self_moves,
    "loss": resolve_losses,
    "claim": resolve_claims,
}
SEALED = frozenset(_RESOLVE)


def after(s: TState, seat: int, move: Any, action: Action) -> None:
    """The move table's flow hook: runs after every move's rule steps (``move.type`` names the move)."""
    ph = s.phase
    resolve = _RESOLVE.get(ph)
    if resolve is not None:
        sealed = s.sealed
        if len(sealed.commits) == len(sealed.required):
            resolve(s, get_set(s.card_set))
        return
    if ph == "declare":
        c = s.contest
        if c is not None and not c.order:  # nothing follows until the last declaration
            _after_declare(s, get_set(s.card_set))
        return
    cards = get_set(s.card_set)
    if ph == "reward":
        _after_reward(s, cards, move.type, action.get("choice"))
    elif ph == "respond":
        offer(s, cards)
    elif ph == "army":
        _after_army(s, cards, action["choice"])
    elif ph == "ignore_army":
        _after_ignore(s, cards, seat, move.type)
    elif ph == "redraw":
        _after_redraw(s, cards, seat, move.type)


# ------------------------------------------------------------------------- windows
def _default_loss(s: TState, cards: CardSet, seat: int) -> Action:
    """TH-P3 timeout of a forced loss: the non-immortal ship with the lowest base strength (then lowest id)."""
    ships = [a for a in battle.loss_options(s, cards, seat) if a["type"] == "choose_loss"]
    return min(ships, key=lambda a: (cards.ships[a["ship"]].strength, a["ship"]))


def _fixed(action: Action) -> Callable[[TState, CardSet, int], Action]:
    return lambda s, cards, seat: dict(action)


@dataclass(frozen=True)
class Window:
    """One decision window: the rule cited when a move of another window is played in it, its legal
    actions (canonical order, TH-P2) and its timeout default (TH-P3: buy nothing, empty plan, pass or stay,
    flee, raid, army flee, decline, keep; a forced loss takes the weakest ship)."""

    phase: str
    rule: str
    legal: Callable[[TState, CardSet, int], list[Action]]
    default: Callable[[TState, CardSet, int], Action]


WINDOWS: dict[str, Window] = {
    w.phase: w
    for w in (
        Window("redraw", "TH-4.2", buying.redraw_actions, _fixed({"type": "keep"})),
        Window("buy", "TH-4.3", lambda s, cards, seat: buying.enumerate_buys(s, cards, cards.rules, seat),
               lambda s, cards, seat: buying.no_buy()),
        Window("plan", "TH-6.1", planning.enumerate_plans, lambda s, cards, seat: planning.empty_plan()),
        Window("station_move", "TH-7.2", stations.station_move_actions, _fixed({"type": "pass"})),
        Window("self_move", "TH-7.2", stations.self_move_actions, lambda s, cards, seat: {"type": "relocate_self", "moves": []}),
        Window("declare", "TH-9.3", battle.declare_actions, _fixed({"type": "declare", "choice": "flee"})),
        Window("respond", "TH-11.3", battle.window_actions, _fixed({"type": "pass"})),
        Window("loss", "TH-9.7", battle.loss_options, _default_loss),
        Window("claim", "TH-9.9", battle.claim_actions, _fixed({"type": "decline"})),
        Window("reward", "TH-10.1", reward.reward_actions, _fixed({"type": "reward", "choice": "raid"})),
        Window("ignore_army", "TH-10.3", reward.ignore_actions, _fixed({"type": "pass"})),
        Window("army", "TH-10.3", reward.army_actions, _fixed({"type": "army", "choice": "flee"})),
    )
}


def legal(s: TState, cards: CardSet, seat: int) -> list[Action]:
    """The legal actions of a seat that must act now, in the window's canonical order."""
    w = WINDOWS.get(s.phase)
    return w.legal(s, cards, seat) if w is not None else []


def default_action(s: TState, cards: CardSet, seat: int) -> Action:
    """The timeout default of the open window for a seat that must act (TH-P3)."""
    return WINDOWS[s.phase].default(s, cards, seat)
