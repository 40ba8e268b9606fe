"""Weapons, charging, range and the attack roll (BG-12, D-6, D-7).

A weapon must be charged (its charge cost paid) before it attacks; one charge gives the weapon's
*attacks* number of attacks (BG-12.2). Each ship charges each weapon at most once per activation
(D-7); in a squadron every ship charges and attacks on its own, paying per ship and measuring range
from itself. A weapon whose charge cost is 0 is charged implicitly by its first attack. Attacks
happen only in the attack step, after ``end_movement`` (BG-9.3).

**Range** (D-6): the least hex distance between any attacker hex and any target hex; legal when
1 ≤ distance ≤ the weapon's current range. There is no line of sight (BG-12.3). **Targets** are
enemy ships on the board within range (BG-12.4).

**Hit test** (BG-12.5): roll the letter die (d10, A–J) then the number die (d8, 1–8) and read the
cell on the target card's 10 × 8 grid: a silhouette cell is a hit. Reroll and cancel effects act
after the roll, before damage: the attacker's ``after_attack_roll`` window, then on a hit the
defender's ``enemy_hit`` window (D-20). **Damage** (BG-12.6): shields first, the rest to hull.
"""

from __future__ import annotations

from spacetable.core.errors import RuleError

from .board import LETTERS, fp_distance
from .damage import apply_damage
from .effects import fire_powers
from .energy import pay
from .movement import require_activation
from .packs import WeaponData
from .state import GState, Roll
from .stats import weapon as weapon_of
from .stats import weapon_stat
from .windows import open_window


def _weapon(s: GState, piece: str, weapon_id: str) -> WeaponData:
    w = weapon_of(s, s.pieces[piece].card, weapon_id)
    if w is None:
        raise RuleError("BG-12.1", f"{piece} has no weapon {weapon_id!r}")
    return w


def charge(s: GState, seat: int, a: dict) -> None:
    """BG-12.2 pay a weapon's charge cost for its attacks (once per ship and weapon, D-7)."""
    piece = a["ship"]
    act = require_activation(s, seat, piece)
    if act.step != "attack":
        raise RuleError("BG-9.3", "attacks come after end_movement")
    w = _weapon(s, piece, a["weapon"])
    key = f"{piece}/{w.id}"
    if key in act.charges:
        raise RuleError("D-7", f"{piece} has already charged {w.id} in this activation")
    p = s.pieces[piece]
    pay(s.sides[s.active], weapon_stat(s, p, w, "charge_cost"), f"charging {w.id}")
    act.charges.append(key)
    row = act.charged.setdefault(piece, {})
    row[w.id] = row.get(w.id, 0) + weapon_stat(s, p, w, "attacks")
    s.log({"t": "charge", "ship": piece, "weapon": w.id})


def targets_in_range(s: GState, piece: str, w: WeaponData) -> list[str]:
    """BG-12.4 enemy ships on the board within the weapon's current range (D-6)."""
    p = s.pieces[piece]
    reach = weapon_stat(s, p, w, "range")
    side = s.cards[p.card].side
    return [e.id for e in s.on_board(1 - side) if 1 <= fp_distance(p.hexes, e.hexes) <= reach]


def attacks_left(s: GState, piece: str, w: WeaponData) -> int:
    """Attacks the ship may still make with ``w`` now (an uncharged 0-cost weapon counts as charged)."""
    act = s.activation
    if act is None:
        return 0
    left = act.charged.get(piece, {}).get(w.id, 0)
    p = s.pieces[piece]
    if left <= 0 and f"{piece}/{w.id}" not in act.charges and weapon_stat(s, p, w, "charge_cost") == 0:
        return weapon_stat(s, p, w, "attacks")
    return left


def attack(s: GState, seat: int, a: dict) -> None:
    """BG-12.5 attack an enemy ship in range: roll the coordinate dice."""
    piece, target = a["ship"], a["target"]
    act = require_activation(s, seat, piece)
    if act.step != "attack":
        raise RuleError("BG-9.3", "attacks come after end_movement")
    w = _weapon(s, piece, a["weapon"])
    p = s.pieces[piece]
    row = act.charged.setdefault(piece, {})
    key = f"{piece}/{w.id}"
    if row.get(w.id, 0) <= 0 and key not in act.charges:
        if weapon_stat(s, p, w, "charge_cost") > 0:
            raise RuleError("BG-12.2", f"charge {w.id} before attacking with it")
        act.charges.append(key)  # a free weapon is charged by its first attack (D-7 still holds)
        row[w.id] = weapon_stat(s, p, w, "attacks")
    if row.get(w.id, 0) <= 0:
        raise RuleError("BG-12.2", f"{piece} has no attack left with {w.id}")
    t = s.pieces.get(target)
    side = s.cards[p.card].side
    if t is None or not t.alive or not t.hexes or s.cards[t.card].side == side or s.cards[t.card].zone != "play":
        raise RuleError("BG-12.4", f"{target} is not an enemy ship on the board")
    dist = fp_distance(p.hexes, t.hexes)
    reach = weapon_stat(s, p, w, "range")
    if not 1 <= dist <= reach:
        raise RuleError("BG-12.3", f"{target} is {dist} away; {w.id} reaches {reach}")
    row[w.id] -= 1
    letter, number = s.rng.die(10), s.rng.die(8)
    hit = s.shipdata(t.card).hit(letter, number)
    s.roll = Roll(piece, w.id, target, letter, number, hit, weapon_stat(s, p, w, "strength"), w.tag)
    s.log({"t": "attack", "ship": piece, "weapon": w.id, "target": target,
           "roll": f"{LETTERS[letter - 1]}-{number}", "hit": hit})
    if not open_window(s, "after_attack_roll", side):
        after_own_window(s)


def after_own_window(s: GState) -> None:
    """After the attacker's window: a hit opens the defender's ``enemy_hit`` window, else resolve."""
    s.window = None
    r = s.roll
    if r is None:  # pragma: no cover
        return
    if r.hit and not r.cancelled:
        defender = s.cards[s.pieces[r.target].card].side
        if open_window(s, "enemy_hit", defender):
            return
    resolve_roll(s)


def resolve_roll(s: GState) -> None:
    """BG-12.6 apply the damage of a (still) hitting, uncancelled roll; fire hit powers."""
    s.window = None
    r = s.roll
    s.roll = None
    if r is None or not r.hit or r.cancelled:
        return
    t = s.pieces[r.target]
    if not t.alive:
        return
    dealt = apply_damage(s, r.target, r.strength, "attack", r.tag)
    attacker = s.pieces[r.piece]
    if attacker.alive:
        fire_powers(s, attacker.card, "on_attack_hit", piece=r.piece, hit=r.target, attacker=r.piece)
    if not dealt.destroyed and s.pieces[r.target].alive:
        fire_powers(s, t.card, "on_hit_taken", piece=r.target, hit=r.target, attacker=r.piece)
