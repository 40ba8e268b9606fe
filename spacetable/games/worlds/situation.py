"""Combats described by a scenario's ``combat`` block (house extension of ``worlds-skirmish/1``).

The block names the card fought over, the attacker and optionally the allocation, event cards
and energy of each side. The engine itself checks it (WS-2.3 declaring, WS-4 allocating, WS-5.1
and WS-5.3 energy, WS-7 event cards) before :func:`odds_inputs` turns it into the exact-odds
input (WS-9) and :func:`situation_from_scenario` into the advisor's input (WS-10.1).
"""

from __future__ import annotations

import copy
from typing import Any

from spacetable.core.errors import ConfigError, RuleError

from . import scenario as scen
from .advisor import FIXED, Situation
from .declare import card_by_id, eligible_cards, pieces_on
from .events import card as event_card
from .game import GAME
from .odds import FACTORY_FIRST, TIE_POLICIES, BattleInput, Group
from .pieces import POPULATION, WORLD, Piece, anchor_sort_key
from .state import WorldsState


def combat_block(data: dict[str, Any], state: WorldsState) -> dict[str, Any]:
    block = data.get("combat") or {}
    if not isinstance(block, dict):
        raise ConfigError("the scenario's 'combat' block is a JSON object {card, attacker, allocation, events, energy}")
    block = dict(block)
    if "card" not in block:
        cards = eligible_cards(state, state.active)
        if not cards:
            raise ConfigError("the scenario has no 'combat' block and no eligible card")
        block["card"] = cards[0]
    block.setdefault("attacker", state.sides[state.active])
    if block["attacker"] not in state.sides:
        raise ConfigError(f"combat.attacker must be one of {state.sides}")
    return block


def _engine_allocation(state: WorldsState, block: dict[str, Any]) -> tuple[list[dict[str, Any]], int, int]:
    """The block's combat played into a copy of the state by the engine (WS-2.3 declaring, WS-4 allocating):
    the block's allocation, or else the first canonical split (WS-4.5). Returns the battles, attacker, allocator."""
    attacker = state.sides.index(block["attacker"])
    trial = copy.deepcopy(state)
    trial.active = attacker
    trial.over = False
    trial.fought = []
    try:
        trial = GAME.apply(trial, attacker, {"type": "declare_combat", "card": block["card"]})
        c = trial.combat
        assert c is not None
        alloc = block.get("allocation")
        action = {"type": "allocate", "battles": alloc} if alloc else GAME.allocations(trial)[0]
        trial = GAME.apply(trial, c.allocator, action)
    except RuleError as exc:
        raise ConfigError(f"combat block: [{exc.rule}] {exc.message}") from exc
    return list(action["battles"]), attacker, c.allocator


def _check_side(state: WorldsState, block: dict[str, Any], battles: list[dict[str, Any]], seat: int, attacker: int,
                allocator: int) -> None:
    """One side's events and energy per battle: within its pool (WS-5.3), cards of its hand legal in their
    battle (WS-5.1, WS-7)."""
    side = state.sides[seat]
    card = card_by_id(state, block["card"])
    on_world = card is not None and card.kind == WORLD
    kinds = {p.id: p.kind for p in state.pieces}
    evs = (block.get("events") or {}).get(side) or [None] * len(battles)
    ens = (block.get("energy") or {}).get(side) or [0] * len(battles)
    if len(evs) != len(battles) or len(ens) != len(battles):
        raise ConfigError(f"combat block: {side}'s events and energy list one entry per battle ({len(battles)})")
    if any(not isinstance(e, int) or isinstance(e, bool) or e < 0 for e in ens) or sum(ens) > state.energy[seat]:
        raise ConfigError(f"combat block [WS-5.3]: {side}'s energy must be whole amounts totalling at most its pool "
                          f"({state.energy[seat]})")
    hand = list(state.hands[seat])
    for b, ev in zip(battles, evs, strict=True):
        if ev is None:
            continue
        ids = list(b["pieces"]) if seat == allocator else [b["anchor"]]
        pops = sum(1 for i in ids if kinds[i] == POPULATION)
        if ev not in hand or not event_card(ev).legal(pops, seat != attacker, on_world):
            raise ConfigError(f"combat block [WS-7]: {side} cannot play {ev!r} in the battle against {b['anchor']}")
        hand.remove(ev)


def battle_groups(state: WorldsState, block: dict[str, Any]) -> tuple[list[dict[str, Any]], int, int]:
    """Battles of the scenario's combat, checked by the engine itself (WS-2.3 declaring, WS-4 allocating):
    the block's allocation, or else the first canonical split (WS-4.5). Events and energy are checked
    against the hands and pools (WS-5.1, WS-5.3, WS-7)."""
    battles, attacker, allocator = _engine_allocation(state, block)
    for seat in (0, 1):
        _check_side(state, block, battles, seat, attacker, allocator)
    return battles, attacker, allocator


def group_for(state: WorldsState, ids: list[str], ev: str | None, energy: int, policy: str) -> Group:
    kinds = {p.id: p.kind for p in state.pieces}
    pops = sum(1 for i in ids if kinds[i] == POPULATION)
    facs = len(ids) - pops
    natives = bonus = 0
    if ev:
        c = event_card(ev)
        natives, bonus = c.natives, c.pop_bonus
    return Group(pops=pops, facs=facs, natives=natives, pop_bonus=bonus, energy=energy, tie_policy=policy)


def odds_inputs(raw: dict[str, Any], side: str | None) -> tuple[list[BattleInput], list[str]]:
    """WS-9 input from a scenario's ``combat`` block: the battles in resolution order, each side's
    group (pieces, event card, energy, tie policy), reported for ``side`` (default: the attacker)."""
    scen.validate(raw)
    state = GAME.from_scenario(raw)
    block = combat_block(raw, state)
    battles, attacker, allocator = battle_groups(state, block)
    if side is not None and side not in state.sides:
        raise ConfigError(f"--side must be one of {state.sides}")
    s = state.sides.index(side) if side else attacker
    o = 1 - s
    names = [state.sides[s], state.sides[o]]
    evs = block.get("events") or {}
    ens = block.get("energy") or {}
    pol = block.get("tie_policy") or {}
    if not isinstance(pol, dict) or any(v not in TIE_POLICIES for v in pol.values()):
        raise ConfigError(f"combat block: tie_policy maps sides to one of {list(TIE_POLICIES)}")
    inputs: list[BattleInput] = []
    for i, b in enumerate(battles):
        groups = []
        for seat in (s, o):
            ids = list(b["pieces"]) if seat == allocator else [b["anchor"]]
            name = state.sides[seat]
            ev = (evs.get(name) or [None] * len(battles))[i]
            en = (ens.get(name) or [0] * len(battles))[i]
            groups.append(group_for(state, ids, ev, int(en), pol.get(name, FACTORY_FIRST)))
        inputs.append(BattleInput(groups[0], groups[1]))
    return inputs, names


def _allocation_counts(block: dict[str, Any], anchor_pieces: list[Piece], kinds: dict[str, str]) -> list[tuple[int, int]] | None:
    """The block's allocation as (Populations, Factories) per anchor in WS-10.6 order, or None."""
    if not block.get("allocation"):
        return None
    by_anchor = {b["anchor"]: b["pieces"] for b in block["allocation"]}
    out = []
    for p in anchor_pieces:
        ids = by_anchor[p.id]
        np_ = sum(1 for i in ids if kinds[i] == POPULATION)
        out.append((np_, len(ids) - np_))
    return out


def _allocation_mode(allocation: str, name: str, s_alloc: bool, given: bool) -> str:
    """``auto``: ours when we allocate, else the block's allocation, else the opponent's worst (WS-10.2)."""
    mode = allocation
    if mode == "auto":
        mode = "ours" if s_alloc else ("given" if given else "opponent_worst")
    if mode == "ours" and not s_alloc:
        raise ConfigError(f"[WS-4.2] {name} is not the allocator of this combat: use --allocation "
                          "opponent_worst or given")
    if mode == "opponent_worst" and s_alloc:
        raise ConfigError(f"[WS-4.2] {name} is the allocator of this combat: use --allocation ours or given")
    if mode == "given" and not given:
        raise ConfigError("allocation 'given' needs an 'allocation' in the scenario's combat block")
    return mode


def _block_response(block: dict[str, Any], other: str, anchor_pieces: list[Piece]) -> list[tuple[str | None, int]]:
    """The other side's events and energy written in the block, per anchor (WS-10.3 ``fixed``)."""
    order = [b["anchor"] for b in block.get("allocation") or []]
    ev = (block.get("events") or {}).get(other) or [None] * len(order)
    en = (block.get("energy") or {}).get(other) or [0] * len(order)
    resp_by_anchor = {a: (ev[i], int(en[i])) for i, a in enumerate(order)}
    return [resp_by_anchor.get(p.id, (None, 0)) for p in anchor_pieces]


def _kinds(pieces: list[Piece]) -> tuple[int, int]:
    pops = sum(1 for p in pieces if p.kind == POPULATION)
    return pops, len(pieces) - pops


def situation_from_scenario(raw: dict[str, Any], side: str | None, objective: str, opponent: str, allocation: str,
                            opponent_hand: str = "scenario", use_scenario_response: bool = False) -> tuple[Situation, list[str]]:
    """Build the WS-10.1 input from a scenario and its ``combat`` block."""
    scen.validate(raw)
    state = GAME.from_scenario(raw)
    block = combat_block(raw, state)
    battle_groups(state, block)  # the engine checks the block (WS-2.3, WS-4, WS-7)
    card = block["card"]
    attacker = state.sides.index(block["attacker"])
    if side is not None and side not in state.sides:
        raise ConfigError(f"--side must be one of {state.sides}")
    s = state.sides.index(side) if side else attacker
    o = 1 - s
    mine, theirs = pieces_on(state, card, s), pieces_on(state, card, o)
    if not mine or not theirs:
        raise ConfigError(f"both sides need pieces on {card}")
    s_alloc = len(mine) > len(theirs) or (len(mine) == len(theirs) and s == attacker)
    anchor_pieces = sorted(theirs if s_alloc else mine, key=anchor_sort_key)
    alloc_list = _allocation_counts(block, anchor_pieces, {p.id: p.kind for p in state.pieces})
    mode = _allocation_mode(allocation, state.sides[s], s_alloc, alloc_list is not None)
    response = None
    if opponent == FIXED and use_scenario_response:
        response = _block_response(block, state.sides[o], anchor_pieces)
    c = card_by_id(state, card)
    sit = Situation(
        s_is_attacker=s == attacker, on_world=c is not None and c.kind == WORLD,
        s_pieces=_kinds(mine), o_pieces=_kinds(theirs),
        anchors=[(p.id, p.kind) for p in anchor_pieces], allocator="S" if s_alloc else "O",
        energy_s=state.energy[s], energy_o=state.energy[o], hand_s=list(state.hands[s]),
        hand_o=None if opponent_hand == "unknown" else list(state.hands[o]),
        mode=mode, allocation=alloc_list if mode == "given" else None, opponent=opponent, fixed_response=response,
        objective=objective,
    )
    return sit, [state.sides[s], state.sides[o]]
