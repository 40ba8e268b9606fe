"""Exact attack odds (BG-12.5, BG-12.6, BG-13): hit probability and damage, before committing.

An attack hits when the coordinate roll (letter d10 × number d8) lands on a silhouette cell of the
target card's grid, so P(hit) = cells / 80. Each hit deals the weapon's strength (with the target's
``damage_mods`` for the weapon's tag): shield pegs first, the rest as hull pegs; the ship is
destroyed when its hull pegs reach its hull value. :func:`attack_odds` gives, for ``n`` attacks in
a row, the exact probability of at least one hit, the expected pegs removed/added and the
probability of destroying the target. Used by ``spacetable odds galaxies`` and by the views (the
browser's hit chance on attack targets).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

GRID_CELLS = 80


def hit_chance(grid: list[str]) -> Fraction:
    """BG-12.5 P(hit) of one attack roll against this grid."""
    return Fraction(sum(row.count("#") for row in grid), GRID_CELLS)


@dataclass(frozen=True)
class Odds:
    p_hit: Fraction
    p_any_hit: Fraction
    expected_shields: Fraction
    expected_hull: Fraction
    p_destroy: Fraction
    attacks: int

    @property
    def expected_damage(self) -> Fraction:
        return self.expected_shields + self.expected_hull

    def to_json(self) -> dict[str, Any]:
        return {
            "p_hit": float(self.p_hit), "p_hit_exact": str(self.p_hit), "attacks": self.attacks,
            "p_any_hit": float(self.p_any_hit), "expected_damage": float(self.expected_damage),
            "expected_shield_pegs": float(self.expected_shields), "expected_hull_pegs": float(self.expected_hull),
            "p_destroy": float(self.p_destroy), "p_destroy_exact": str(self.p_destroy),
        }


def attack_odds(p_hit: Fraction, strength: int, shields: int, hull_pegs: int, hull: int, attacks: int = 1,
                mod: int | str = 0) -> Odds:
    """Exact distribution over ``attacks`` attacks of ``strength`` against a ship with ``shields``
    pegs, ``hull_pegs`` hull pegs and hull value ``hull`` (``mod``: the target's damage mod)."""
    per_hit = 0 if mod == "immune" else max(0, strength + int(mod))
    states: dict[tuple[int, int], Fraction] = {(shields, hull_pegs): Fraction(1)}
    miss_all = Fraction(1)
    for _ in range(max(0, attacks)):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (sh, hp), pr in states.items():
            if hp >= hull:  # already destroyed: later attacks change nothing
                nxt[(sh, hp)] = nxt.get((sh, hp), Fraction(0)) + pr
                continue
            absorbed = min(sh, per_hit)
            hit_state = (sh - absorbed, hp + per_hit - absorbed)
            nxt[hit_state] = nxt.get(hit_state, Fraction(0)) + pr * p_hit
            nxt[(sh, hp)] = nxt.get((sh, hp), Fraction(0)) + pr * (1 - p_hit)
        states = nxt
        miss_all *= 1 - p_hit
    e_sh = sum(((shields - sh) * pr for (sh, _), pr in states.items()), Fraction(0))
    e_hull = sum(((hp - hull_pegs) * pr for (_, hp), pr in states.items()), Fraction(0))
    p_destroy = sum((pr for (_, hp), pr in states.items() if hp >= hull), Fraction(0))
    return Odds(p_hit, 1 - miss_all, e_sh, e_hull, p_destroy, attacks)
