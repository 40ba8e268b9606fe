"""Effective ship statistics: card values plus attachments, passive powers, temporary modifiers
and tile bonuses (BG-12.1, BG-12.3, BG-13.3, BG-14.1, BG-15.3).

A modifier names a stat (``range``, ``strength``, ``attacks``, ``move``, ``charge_cost``) and
optionally a weapon (``primary``, ``secondary`` or a weapon id; none = every weapon). Sources:

* attachments (hero, upgrade, additional weapon) while attached (``modify``/``add_weapon``/
  ``ecm_immunity`` effects with duration ``attached``);
* ``passive`` ship powers of the card's version;
* temporary :class:`~.state.Mod` records from events (until the end of the activation or turn);
* tiles: primary range only (BG-12.3).
"""

from __future__ import annotations

from collections.abc import Iterator

from .packs import Effect, WeaponData
from .state import GState, Piece
from .tiles import range_bonus

SIZE_OF_ECM = {"small": 1, "medium": 2, "large": 3}  # BG-11.3


def _weapon_match(want: str | None, w: WeaponData) -> bool:
    return not want or want == w.slot or want == w.id


def static_effects(s: GState, card: str) -> Iterator[Effect]:
    """Effects that hold while the card is in play: its attachments' and its passive powers'."""
    c = s.cards[card]
    for tid in c.attachments:
        for e in s.tdata(tid).effects:
            if e.op == "add_weapon" or e.duration in (None, "attached", "permanent"):
                yield e
    for power in s.vdata(card).powers:
        if power.trigger == "passive":
            yield from power.effects


def weapons(s: GState, card: str) -> list[WeaponData]:
    """BG-12.1 the card's weapons: its version's, then those added by attachments."""
    out = list(s.vdata(card).weapons)
    for e in static_effects(s, card):
        if e.op == "add_weapon" and e.add is not None and all(w.id != e.add.id for w in out):
            out.append(e.add)
    return out


def weapon(s: GState, card: str, weapon_id: str) -> WeaponData | None:
    for w in weapons(s, card):
        if w.id == weapon_id:
            return w
    return None


def _delta(s: GState, card: str, piece: str, stat: str, w: WeaponData | None) -> int:
    total = 0
    for e in static_effects(s, card):
        if e.op == "modify" and e.stat == stat and (w is None or _weapon_match(e.weapon, w)):
            total += e.delta or 0
    for m in s.mods:
        if m.card == card and m.stat == stat and (not m.piece or m.piece == piece) and (w is None or _weapon_match(m.weapon, w)):
            total += m.delta
    return total


def move_points(s: GState, piece: str) -> int:
    """BG-10.1 the ship's move number with modifiers (never below 0)."""
    p = s.pieces[piece]
    return max(0, s.vdata(p.card).move + _delta(s, p.card, piece, "move", None))


def weapon_stat(s: GState, piece: Piece, w: WeaponData, stat: str) -> int:
    """A weapon's current ``range``, ``strength``, ``attacks`` or ``charge_cost`` for one ship."""
    base = {"range": w.range, "strength": w.strength, "attacks": w.attacks, "charge_cost": w.charge_cost}[stat]
    value = base + _delta(s, piece.card, piece.id, stat, w)
    if stat == "range" and w.slot == "primary":
        value += range_bonus(s, piece, s.cards[piece.card].side)
    floor = 0 if stat == "charge_cost" else 1 if stat in ("range", "attacks", "strength") else 0
    return max(floor, value)


def ecm_immune(s: GState, piece: str) -> bool:
    """``ecm_immunity`` from an attachment, a passive power or a temporary effect."""
    p = s.pieces[piece]
    if any(e.op == "ecm_immunity" for e in static_effects(s, p.card)):
        return True
    return any(m.card == p.card and m.stat == "ecm_immunity" and (not m.piece or m.piece == piece) for m in s.mods)


def damage_mod(s: GState, card: str, tag: str) -> int | str:
    """BG-13.3 the card's ``damage_mods`` entry for a damage tag (0 when none)."""
    return s.vdata(card).damage_mods.get(tag, 0)


def hull_value(s: GState, card: str) -> int:
    return s.vdata(card).hull


def size_of(s: GState, card: str) -> str:
    return s.shipdata(card).size
