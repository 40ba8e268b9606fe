"""What each seat sees, and what it does not (IM-1, IM-2, IM-3).

Public (IM-1): cards and systems, every piece and its owner, starting systems, energy pools, hand
sizes, pairing and order, revealed events and commitments, dice, losses, retreats, conversions and
the score, and the draw agreement (WS-D25). Private (IM-2): the contents of one's own hand, and one's own sealed choice until both
are in; the other seat sees only "committed yes/no". The deck order is hidden from both (IM-3).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.game import Action
from spacetable.core.rng import Rng

from .battle import event_error
from .declare import eligible_cards, pieces_on
from .events import deck_list, event_number, house_deck
from .flow import to_act
from .pieces import HOUSE_RULES, NOTICE, TITLE
from .skirmish import material, outcome
from .state import ENERGY, EVENT, Combat, WorldsState, clone


def _pieces(s: WorldsState, card_id: str) -> list[dict[str, Any]]:
    return [{"id": p.id, "owner": p.owner, "side": s.sides[p.owner], "kind": p.kind} for p in pieces_on(s, card_id)]


def _systems(s: WorldsState) -> list[dict[str, Any]]:
    return [{
        "id": sy.id,
        "starting_system_of": None if sy.starting_system_of is None else s.sides[sy.starting_system_of],
        "sun": {"id": sy.sun, "pieces": _pieces(s, sy.sun)},
        "worlds": [{"id": w, "pieces": _pieces(s, w)} for w in sy.worlds],
    } for sy in s.systems]


def _combat(c: Combat, player: int | None) -> dict[str, Any]:
    """The open combat: energy shows only once the dice are rolled, sealed choices as ``committed`` (IM-2)."""
    return {
        "card": c.card, "attacker": c.attacker, "defender": 1 - c.attacker, "allocator": c.allocator,
        "participants": c.participants, "step": c.step, "current": c.current,
        "battles": [
            {"anchor": b.anchor, "pieces": b.pieces, "events": b.events,
             "energy": b.energy if b.dice else [None, None],
             "power": b.power, "dice": b.dice, "totals": b.totals, "result": b.result, "lost": b.lost, "done": b.done}
            for b in c.battles
        ],
        "sealed": c.sealed.view(player),
        "tie_pending": c.tie_pending, "losses": c.losses, "winner": c.winner,
    }


def view(s: WorldsState, player: int | None) -> dict[str, Any]:
    """IM-1, IM-2: everything public, plus the seat's own hand and own sealed choice. ``last_combat`` is the combat
    closed last (WS-6.5), public once over, so that its battles can still be read between combats."""
    return {**public_view(s), **own_view(s, player)}


def public_view(s: WorldsState) -> dict[str, Any]:
    """The fields every viewer sees alike (IM-1): all but the seat, its hand and the combats, whose sealed choices
    show as the viewer may see them (:func:`own_view`); a server writes them once per state for every seat."""
    c = s.combat
    out = outcome(s)
    return {
        "game": "worlds", "title": TITLE, "notice": NOTICE, "house_rules": HOUSE_RULES,
        "scenario": s.scenario_id, "label": s.label,
        "sides": s.sides, "active": s.active, "round": s.round, "max_rounds": s.max_rounds,
        "systems": _systems(s), "energy": s.energy, "income": s.income,
        "hand_sizes": [len(h) for h in s.hands],
        "cards": {code: ec.to_json() for code, ec in house_deck().items()},
        "discards": s.discards, "fought": s.fought,
        "eligible": eligible_cards(s, s.active) if c is None and not s.over else [],
        "material": material(s),
        "stats": {"lost": s.lost, "combats_won": s.combats_won, "converted": s.converted},
        "to_act": list(to_act(s)), "log": s.log[-40:], "over": s.over, "draw_offer": s.draw.view(),
        "result": out.to_json() if out else None,
    }


def own_view(s: WorldsState, player: int | None) -> dict[str, Any]:
    """The viewer's own fields: its seat, its hand (IM-2), and the open and last combats with their sealed choices
    as it may see them (its own, and whether the other committed)."""
    c = s.combat
    return {
        "seat": player, "hand": list(s.hands[player]) if player is not None else None,
        "combat": None if c is None else _combat(c, player),
        "last_combat": None if s.last_combat is None else _combat(s.last_combat, player),
    }


def action_view(player: int, action: Action, viewer: int | None) -> Action | None:
    """Sealed choices (WS-5.1, WS-5.3) show the other seats only that a choice was sent (IM-2)."""
    if action.get("type") in ("play_event", "commit_energy") and viewer != player:
        return {"type": action["type"], "sealed": True}
    return action


def determinize(state: WorldsState, player: int, rng: Rng) -> WorldsState:
    """Resample the other seat's hand from the unseen house cards and its sealed choice; new dice
    (IM-2, IM-3). Scenario hands may hold more copies than the deck: the hand is then topped up with
    random house cards, never the real hand."""
    s = clone(state)
    other = 1 - player
    pool = deck_list()
    for code in s.hands[player] + s.discards[0] + s.discards[1]:
        if code in pool:
            pool.remove(code)
    rng.shuffle(pool)
    n = len(s.hands[other])
    codes = sorted(house_deck())
    drawn = pool[:n] + [rng.choice(codes) for _ in range(n - len(pool[:n]))]
    s.hands[other] = sorted(drawn, key=event_number)
    s.deck = pool[n:]
    s.rng = Rng(rng.next_u64())
    s.dice_script = None
    c = s.combat
    if c is not None and other in c.sealed.commits:
        if c.step == EVENT:
            legal = [None] + [x for x in s.hands[other] if event_error(s, other, x) is None]
            c.sealed.commits[other] = rng.choice(legal)
        elif c.step == ENERGY:
            c.sealed.commits[other] = rng.randint(0, s.energy[other])
    return s
