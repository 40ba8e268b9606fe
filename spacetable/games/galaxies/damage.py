"""Damage and destruction (BG-13, BG-8.10, BG-13.6, D-8).

Shields are up with at least one shield peg (BG-13.1). Kinds (BG-13.2): **attack** damage and
**direct** damage remove shield pegs first, every point the shields cannot absorb adds one hull peg;
**direct shield** damage removes shield pegs only and does nothing while shields are down; **direct
hull** damage adds hull pegs even while shields are up. Tags (``ecm``, ``pulse``...) change the
amount through the card's ``damage_mods`` (BG-13.3: an integer added, or ``immune``).

A ship is destroyed as soon as its hull pegs reach its card's hull value (BG-13.4), even with shields
up; it leaves the board and its cargo is destroyed. A squadron card stays in play while any of its
ships survives (BG-13.5, D-8); when a card leaves play its attachments go to their owners' discard piles
(BG-13.6). Cargo of a destroyed (or taken) transporter is destroyed at once: revealed, to its
owner's destroyed pile, its launch cost never paid (BG-8.10).
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import GState
from .stats import damage_mod, hull_value


@dataclass
class Dealt:
    shields: int = 0
    hull: int = 0
    destroyed: bool = False


def apply_damage(s: GState, piece: str, amount: int, kind: str, tag: str = "") -> Dealt:
    """BG-13.2 deal ``amount`` of ``kind`` (``attack``, ``direct``, ``shield``, ``hull``) tagged ``tag``."""
    p = s.pieces[piece]
    out = Dealt()
    if not p.alive:
        return out
    mod = damage_mod(s, p.card, tag) if tag else 0
    if mod == "immune":
        amount = 0
    else:
        amount = max(0, amount + int(mod))
    if amount <= 0:
        return out
    if kind in ("attack", "direct"):
        absorbed = min(p.shields, amount)
        p.shields -= absorbed
        p.hull += amount - absorbed
        out.shields, out.hull = absorbed, amount - absorbed
    elif kind == "shield":
        out.shields = min(p.shields, amount)
        p.shields -= out.shields
    elif kind == "hull":
        p.hull += amount
        out.hull = amount
    else:  # pragma: no cover - data validation prevents other kinds
        raise ValueError(f"unknown damage kind {kind}")
    s.log({"t": "damage", "ship": piece, "kind": kind, "tag": tag, "shields": out.shields, "hull": out.hull})
    if p.hull >= hull_value(s, p.card):
        destroy_piece(s, piece, "damage")
        out.destroyed = True
    return out


def destroy_piece(s: GState, piece: str, cause: str) -> None:
    """BG-13.4 the ship leaves the board; its card's cargo is destroyed; D-8 the card leaves
    play with its last ship."""
    p = s.pieces[piece]
    if not p.alive:
        return
    p.alive = False
    p.hexes = []
    card = s.cards[p.card]
    s.log({"t": "destroyed", "ship": piece, "card": card.id, "cause": cause})
    if card.cargo:
        destroy_cargo(s, card.id)
    if not any(s.pieces[x].alive for x in card.pieces):
        leave_play(s, card.id)


def leave_play(s: GState, card_id: str) -> None:
    """The card goes to its owner's destroyed pile; attachments to their owners' discards (BG-13.6)."""
    card = s.cards[card_id]
    card.zone = "destroyed"
    card.public = True
    s.sides[card.owner].destroyed.append(card_id)
    for tid in card.attachments:
        t = s.tactics[tid]
        t.zone, t.on = "discard", ""
        s.sides[t.owner].discard.append(tid)
    card.attachments = []
    s.mods = [m for m in s.mods if m.card != card_id]


def destroy_cargo(s: GState, transporter: str) -> None:
    """BG-8.10 every card in the hold is destroyed at once and revealed (no launch cost paid)."""
    holder = s.cards[transporter]
    for cid in holder.cargo:
        c = s.cards[cid]
        c.holder = ""
        for pid in c.pieces:
            s.pieces[pid].alive = False
            s.pieces[pid].hexes = []
        c.zone = "destroyed"
        c.public = True
        s.sides[c.owner].destroyed.append(cid)
        s.reveals += 1
        s.log({"t": "cargo_destroyed", "card": cid, "key": c.key, "version": c.version, "holder": transporter,
               "ships": len(c.pieces)})
    holder.cargo = []


def repair_shields(s: GState, piece: str, n: int) -> int:
    """Add shield pegs up to the card's shield value (BG-13.1); returns pegs added."""
    p = s.pieces[piece]
    if not p.alive:
        return 0
    top = s.vdata(p.card).shields
    add = max(0, min(n, top - p.shields))
    p.shields += add
    return add


def repair_hull(s: GState, piece: str, n: int) -> int:
    p = s.pieces[piece]
    if not p.alive:
        return 0
    fix = min(n, p.hull)
    p.hull -= fix
    return fix
