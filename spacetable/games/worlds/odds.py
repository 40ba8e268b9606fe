"""Exact odds calculator (WS-9).

A combat is a list of independent battles (WS-5.8); each battle's law comes from
the 36 equally likely dice pairs (WS-9.2) and the combat's joint law of losses
is their convolution (WS-9.3). Everything is exact: integer counts over 36^k,
reported as :class:`fractions.Fraction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from spacetable.core.errors import ConfigError

from .battle import dice_counts, group_power

#: Tie policies (WS-9.1): which piece a side removes after a tie when its group holds both kinds.
FACTORY_FIRST = "factory_first"
POPULATION_FIRST = "population_first"
TIE_POLICIES = (FACTORY_FIRST, POPULATION_FIRST)


@dataclass(frozen=True)
class Group:
    """One side's group in one battle (WS-9.1). ``pop_bonus`` is 1 under MG; natives never count as losses."""

    pops: int = 0
    facs: int = 0
    natives: int = 0
    pop_bonus: int = 0
    energy: int = 0
    tie_policy: str = FACTORY_FIRST

    @property
    def power(self) -> int:
        return group_power(self.pops, self.facs, self.natives, self.pop_bonus, self.energy)

    @property
    def pieces(self) -> int:
        return self.pops + self.facs

    def facs_after_tie(self) -> int:
        """Factories kept after a tie under the group's tie policy (WS-5.6, WS-9.1)."""
        if self.facs and (self.tie_policy == FACTORY_FIRST or self.pops == 0):
            return self.facs - 1
        return self.facs

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Group:
        """A group written ``{"P": n, "F": n, "natives": n, "pop_bonus": n, "energy": n, "tie_policy": ...}``."""
        policy = data.get("tie_policy", FACTORY_FIRST)
        if policy not in TIE_POLICIES:
            raise ConfigError(f"tie_policy is one of {list(TIE_POLICIES)}, not {policy!r}")
        return cls(
            pops=int(data.get("P", data.get("pops", 0))), facs=int(data.get("F", data.get("facs", 0))),
            natives=int(data.get("natives", 0)), pop_bonus=int(data.get("pop_bonus", 0)),
            energy=int(data.get("energy", 0)), tie_policy=str(data.get("tie_policy", FACTORY_FIRST)),
        )


@dataclass(frozen=True)
class BattleInput:
    s: Group
    o: Group


@dataclass
class Odds:
    """WS-9.4 output, from side S's point of view."""

    per_battle: list[tuple[int, int, int]]
    joint: dict[tuple[int, int], Fraction]
    p_s_wins: Fraction
    p_no_winner: Fraction
    p_o_wins: Fraction
    e_ls: Fraction
    e_lo: Fraction
    p_s_converts: Fraction
    p_o_converts: Fraction
    denominator: int

    def total(self) -> Fraction:
        return sum(self.joint.values(), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        def fr(x: Fraction) -> dict[str, Any]:
            return {"fraction": str(x), "percent": round(float(x) * 100, 4)}

        return {
            "per_battle": [{"win": w, "tie": t, "loss": lo, "of": 36} for w, t, lo in self.per_battle],
            "joint": [{"L_S": a, "L_O": b, "p": str(p)} for (a, b), p in sorted(self.joint.items())],
            "p_s_wins": fr(self.p_s_wins), "p_no_winner": fr(self.p_no_winner), "p_o_wins": fr(self.p_o_wins),
            "e_ls": str(self.e_ls), "e_lo": str(self.e_lo),
            "p_s_converts": fr(self.p_s_converts), "p_o_converts": fr(self.p_o_converts),
        }


def battle_counts(b: BattleInput) -> tuple[int, int, int]:
    """WS-9.2: (win, tie, loss) counts out of 36 for S."""
    return dice_counts(b.s.power - b.o.power)


def _battle_outcomes(b: BattleInput) -> list[tuple[int, int, int, int, int]]:
    """WS-9.2 outcomes of one battle as (S lost, O lost, S keeps a Factory, O keeps a Factory, count/36)."""
    w, t, lo = battle_counts(b)
    out = []
    if w:
        out.append((0, b.o.pieces, b.s.facs, 0, w))
    if t:
        out.append((1, 1, b.s.facs_after_tie(), b.o.facs_after_tie(), t))
    if lo:
        out.append((b.s.pieces, 0, 0, b.o.facs, lo))
    return out


def _joint_counts(battles: list[BattleInput], start: tuple[int, int, int, int]) -> dict[tuple[int, int, int, int], int]:
    """WS-9.3: the joint law over (L_S, L_O, S keeps a Factory, O keeps a Factory) as integer counts."""
    law: dict[tuple[int, int, int, int], int] = {start: 1}
    for b in battles:
        new: dict[tuple[int, int, int, int], int] = {}
        outcomes = _battle_outcomes(b)
        for (ls, lo_, fs, fo), c in law.items():
            for dls, dlo, kfs, kfo, cnt in outcomes:
                key = (ls + dls, lo_ + dlo, 1 if (fs or kfs) else 0, 1 if (fo or kfo) else 0)
                new[key] = new.get(key, 0) + c * cnt
        law = new
    return law


def combat_odds(
    battles: list[BattleInput],
    offsets: tuple[int, int] = (0, 0),
    kept_factories: tuple[int, int] = (0, 0),
) -> Odds:
    """WS-9.3, WS-9.4 exact odds of a combat. ``offsets`` are losses already incurred (S, O) and
    ``kept_factories`` Factories each side already keeps on the card (a combat in progress)."""
    start = (offsets[0], offsets[1], min(kept_factories[0], 1), min(kept_factories[1], 1))
    law = _joint_counts(battles, start)
    den = 36 ** len(battles)
    joint: dict[tuple[int, int], Fraction] = {}
    sw = nw = ow = scv = ocv = 0
    els = elo = 0
    for (ls, lo_, fs, fo), c in law.items():
        joint[(ls, lo_)] = joint.get((ls, lo_), Fraction(0)) + Fraction(c, den)
        els += ls * c
        elo += lo_ * c
        if ls < lo_:
            sw += c
            scv += c if fo else 0
        elif ls > lo_:
            ow += c
            ocv += c if fs else 0
        else:
            nw += c
    return Odds(
        per_battle=[battle_counts(b) for b in battles], joint=joint, p_s_wins=Fraction(sw, den),
        p_no_winner=Fraction(nw, den), p_o_wins=Fraction(ow, den), e_ls=Fraction(els, den), e_lo=Fraction(elo, den),
        p_s_converts=Fraction(scv, den), p_o_converts=Fraction(ocv, den), denominator=den,
    )


def battles_from_json(data: list[dict[str, Any]]) -> list[BattleInput]:
    """Read ``[{"s": {"P":1,"F":0,"pop_bonus":1,...}, "o": {...}}, ...]`` (format ``worlds-odds/1``)."""
    return [BattleInput(Group.from_json(b["s"]), Group.from_json(b["o"])) for b in data]


def format_odds(o: Odds, s_name: str = "S", o_name: str = "O") -> str:
    """Plain-text report of WS-9.4 output with fractions and percentages."""

    def pc(x: Fraction) -> str:
        return f"{x} ({float(x) * 100:.2f}%)"

    lines = [f"Per battle ({s_name} win / tie / {o_name} win, out of 36):"]
    for i, (w, t, lo) in enumerate(o.per_battle, 1):
        lines.append(f"  battle {i}: {w}/{t}/{lo}")
    lines.append(f"Joint law of losses (L_{s_name}, L_{o_name}):")
    for (a, b), p in sorted(o.joint.items()):
        lines.append(f"  ({a}, {b}): {pc(p)}")
    lines += [
        f"P({s_name} wins combat) = {pc(o.p_s_wins)}",
        f"P(no winner)       = {pc(o.p_no_winner)}",
        f"P({o_name} wins combat) = {pc(o.p_o_wins)}",
        f"E[{s_name} pieces lost] = {o.e_ls} ({float(o.e_ls):.4f})",
        f"E[{o_name} pieces lost] = {o.e_lo} ({float(o.e_lo):.4f})",
        f"P({s_name} may convert a Factory) = {pc(o.p_s_converts)}",
        f"P({o_name} may convert a Factory) = {pc(o.p_o_converts)}",
        f"check: probabilities sum to {o.total()}",
    ]
    return "\n".join(lines)
