"""Permutations (AR-6), rotations (AR-7) and the own-corvette rule (AR-9.1).

Teleports act on one colour's slot list ``own[ship]`` (a cell or ``banished``) and
return a new list; they never capture (AR-3.3, AR-5.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from spacetable.core.errors import RuleError

from .board import CORVETTE, CRUISER, DESTROYERS, FRIGATES, predecessor, successor

#: Canonical teleport order (spec §5).
TELEPORTS: tuple[str, ...] = ("P111", "P112", "P121", "P122", "RF+", "RF-", "RD+", "RD-")
PAIRS: dict[str, int] = {"P111": 0, "P112": 1, "P121": 2, "P122": 3}


def members(name: str) -> tuple[int, ...]:
    """Ships that take part in a teleport (AR-8.2)."""
    if name in PAIRS:
        low = PAIRS[name]
        return (low, low ^ 7)
    if name.startswith("RF"):
        return FRIGATES
    if name.startswith("RD"):
        return DESTROYERS
    raise RuleError("CORE-ACTION", f"unknown teleport {name!r}")


def teleport(own: Sequence[int], name: str, banished: int) -> list[int]:
    """Apply teleport ``name`` to one colour's slots; raise :class:`RuleError` if illegal."""
    new = list(own)
    if name in PAIRS:
        a = PAIRS[name]
        b = a ^ 7
        on_a, on_b = own[a] != banished, own[b] != banished
        if not on_a and not on_b:
            raise RuleError("AR-6.4", f"{name}: both ships of the pair are banished")
        if name == "P111" and own[CRUISER] == banished:
            raise RuleError("AR-9.1", "P111 with the cruiser banished would banish the own corvette")
        new[a], new[b] = own[b], own[a]  # swap (AR-6.2) or recall (AR-6.3): the same exchange of slots
        return new
    if name in ("RF+", "RF-", "RD+", "RD-"):
        cls = FRIGATES if name[1] == "F" else DESTROYERS
        if sum(own[s] != banished for s in cls) < 2:
            raise RuleError("AR-7.4", f"{name}: a rotation needs at least two ships of the class on the board")
        step = successor if name[2] == "+" else predecessor
        for s in cls:
            new[s] = own[step(s)]  # AR-7.3: each ship takes the slot of its successor (+) / predecessor (−)
        return new
    raise RuleError("CORE-ACTION", f"unknown teleport {name!r}")


def available(own: Sequence[int], banished: int) -> list[str]:
    """Legal teleports of one colour in canonical order (AR-6, AR-7, AR-9.1)."""
    out = []
    for name in TELEPORTS:
        try:
            teleport(own, name, banished)
        except RuleError:
            continue
        out.append(name)
    return out


def corvette_safe(own: Sequence[int], banished: int) -> bool:
    """AR-9.1 invariant: the own corvette is on the board."""
    return own[CORVETTE] != banished
