"""The effect vocabulary of tactic cards and ship powers (§6.2, BG-14.2, BG-13.2).

The complete set: ``gain_energy n``, ``drain_energy n`` (floor 0), ``draw n``, ``damage {kind,
amount, tag}``, ``repair_shields n``, ``repair_hull n``, ``extra_attacks {weapon, n}``, ``modify
{stat, weapon?, delta, duration}``, ``add_weapon {weapon}``, ``reroll {dice, whose}``,
``cancel_hit``, ``ecm_immunity {duration}``, ``place_ship {within n}`` (a placement: no ECM),
``reveal_hold``, ``take_over {sizes}``. Effects resolve in the order listed; ``if:`` conditions are
checked on the effect's subject. Attached durations (``modify``, ``add_weapon``, ``ecm_immunity``
on hero/upgrade/weapon cards) are not executed here: :mod:`.stats` reads them while the card is
attached.

The subject of an effect is named by ``on``: a selector of the card (``ship``, ``card``...),
``self`` (a power's own ship), ``target`` (the ship an attack hit), ``attacker``, ``self_side`` or
``enemy_side``. Ship powers use the same vocabulary with the triggers ``passive``,
``activation_start``, ``on_attack_hit``, ``on_hit_taken``, ``on_launch`` and ``energy_phase``; a
power with a cost is used automatically when its side can pay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spacetable.core.errors import RuleError

from .board import Hex, distance
from .damage import apply_damage, repair_hull, repair_shields
from .energy import drain, draw, gain, pay
from .movement import placement_ok
from .packs import Effect
from .state import GState, Mod
from .stats import size_of, weapons
from .takeover import take_over
from .tiles import flip_under

UNTIL = {"end_of_activation": "activation", "end_of_turn": "turn", "permanent": "permanent"}


@dataclass
class Ctx:
    """Who resolves the effects and on what: the acting side and seat, the chosen targets
    (selector name -> ship or card id), choices, and for powers their ship and the attack."""

    side: int
    seat: int
    targets: dict[str, str] = field(default_factory=dict)
    choices: dict[str, Any] = field(default_factory=dict)
    self_piece: str = ""
    hit: str = ""
    attacker: str = ""
    source: str = ""


def _pieces(s: GState, ctx: Ctx, on: str | None) -> list[str]:
    """Ship ids an effect acts on."""
    if on in (None, "self"):
        if ctx.self_piece:
            return [ctx.self_piece]
        on = "ship" if "ship" in ctx.targets else "card" if "card" in ctx.targets else None
        if on is None:
            return []
    if on == "target":
        return [ctx.hit] if ctx.hit else []
    if on == "attacker":
        return [ctx.attacker] if ctx.attacker else []
    ref = ctx.targets.get(on, "")
    if ref in s.pieces:
        return [ref]
    if ref in s.cards:
        return [pid for pid in s.cards[ref].pieces if s.pieces[pid].alive]
    return []


def _cond_ok(s: GState, e: Effect, pid: str) -> bool:
    c = e.cond
    if c is None:
        return True
    p = s.pieces[pid]
    if (c.shields == "up" and p.shields <= 0) or (c.shields == "down" and p.shields > 0):
        return False
    if c.size and size_of(s, p.card) not in c.size:
        return False
    return not (c.hit is not None and (s.roll is None or s.roll.hit != c.hit))


def resolve(s: GState, effects: list[Effect] | tuple[Effect, ...], ctx: Ctx) -> None:
    """BG-14.2 resolve effects in order."""
    for e in effects:
        if not s.result:
            _one(s, e, ctx)


def _one(s: GState, e: Effect, ctx: Ctx) -> None:
    op = e.op
    if op in ("gain_energy", "draw", "drain_energy"):
        side = ctx.side if (e.on or ("enemy_side" if op == "drain_energy" else "self_side")) == "self_side" else 1 - ctx.side
        n = e.n or 0
        if op == "gain_energy":
            gain(s.sides[side], n)
        elif op == "drain_energy":
            drain(s.sides[side], n)
        else:
            draw(s, side, n)
        s.log({"t": "effect", "op": op, "side": side, "n": n})
        return
    if op == "reroll":
        _reroll(s, e.dice or "both")
        return
    if op == "cancel_hit":
        if s.roll is not None:
            s.roll.cancelled = True
            s.log({"t": "effect", "op": op})
        return
    if op == "add_weapon" or e.duration == "attached":
        return  # live while attached (stats)
    for pid in _pieces(s, ctx, e.on):
        if not s.pieces[pid].alive or not _cond_ok(s, e, pid):
            continue
        _on_piece(s, e, ctx, pid)


def _on_piece(s: GState, e: Effect, ctx: Ctx, pid: str) -> None:
    p = s.pieces[pid]
    op = e.op
    if op == "damage":
        apply_damage(s, pid, e.amount or 0, e.kind or "direct", e.tag or "")
    elif op == "repair_shields":
        repair_shields(s, pid, e.n or 0)
    elif op == "repair_hull":
        repair_hull(s, pid, e.n or 0)
    elif op == "extra_attacks":
        act = s.activation
        if act is None or p.card != act.card:
            return
        ws = weapons(s, p.card)
        w = next((w for w in ws if w.id == e.weapon or w.slot == e.weapon), None)
        if w is None:
            return
        row = act.charged.setdefault(pid, {})
        row[w.id] = row.get(w.id, 0) + (e.n or 0)
    elif op == "modify":
        s.mods.append(Mod(p.card, e.stat or "", e.delta or 0, pid if s.cards[p.card].pieces != [pid] else "",
                          e.weapon or "", UNTIL.get(e.duration or "end_of_turn", "turn")))
    elif op == "ecm_immunity":
        s.mods.append(Mod(p.card, "ecm_immunity", 0, pid, "", UNTIL.get(e.duration or "end_of_turn", "turn")))
    elif op == "place_ship":
        _place(s, e, ctx, pid)
        return
    elif op == "reveal_hold":
        card = s.cards[p.card]
        for cid in card.cargo:
            if ctx.side not in s.cards[cid].revealed_to:
                s.cards[cid].revealed_to.append(ctx.side)
        s.reveals += 1
        s.log({"t": "reveal_hold", "card": card.id, "cargo": list(card.cargo),
               "keys": [s.cards[c].key for c in card.cargo]}, to=[ctx.side, card.side])
        return
    elif op == "take_over":
        take_over(s, p.card, ctx.side, ctx.seat)
        return
    s.log({"t": "effect", "op": op, "ship": pid})


def _place(s: GState, e: Effect, ctx: Ctx, pid: str) -> None:
    """``place_ship {within n}``: a placement (no ECM) within ``n`` of the ship's footprint."""
    p = s.pieces[pid]
    raw = ctx.choices.get("hexes")
    if not raw:
        raise RuleError("BG-14.2", "choose the hexes to place the ship on (choices.hexes)")
    hexes: list[Hex] = [(int(h[0]), int(h[1])) for h in raw]
    problem = placement_ok(s, size_of(s, p.card), hexes, exclude=pid)
    if problem:
        raise RuleError("BG-14.2", problem)
    n = e.within or 0
    if any(min(distance(h, o) for o in p.hexes) > n for h in hexes):
        raise RuleError("BG-14.2", f"every hex must be within {n} of the ship")
    s.log({"t": "place", "ship": pid, "from": [list(h) for h in p.hexes], "to": [list(h) for h in hexes]})
    p.hexes = hexes
    flip_under(s, hexes)


def _reroll(s: GState, dice: str) -> None:
    r = s.roll
    if r is None:
        return
    if dice in ("both", "letter"):
        r.letter = s.rng.die(10)
    if dice in ("both", "number"):
        r.number = s.rng.die(8)
    target = s.pieces[r.target]
    r.hit = s.shipdata(target.card).hit(r.letter, r.number)
    s.log({"t": "reroll", "letter": r.letter, "number": r.number, "hit": r.hit})


def fire_powers(s: GState, card_id: str, trigger: str, *, piece: str = "", hit: str = "", attacker: str = "") -> None:
    """Run the card's ship powers with ``trigger`` (paying a power's cost when the side can)."""
    card = s.cards[card_id]
    powers = [pw for pw in s.vdata(card_id).powers if pw.trigger == trigger]
    if not powers:
        return
    pieces = [piece] if piece else [x for x in card.pieces if s.pieces[x].alive]
    for pw in powers:
        for pid in pieces:
            side = s.sides[card.side]
            if pw.cost:
                if side.energy < pw.cost:
                    continue
                pay(side, pw.cost, "a ship power")
            s.log({"t": "power", "card": card_id, "ship": pid, "trigger": trigger})
            resolve(s, pw.effects, Ctx(card.side, card.seat, self_piece=pid, hit=hit, attacker=attacker, source=card_id))
