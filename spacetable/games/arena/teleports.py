"""Permutations (AR-6), rotations (AR-7) and the own-corvette rule (AR-9.1).

Teleports act on one colour's slot list ``own[ship]`` (a cell or ``banished``) and
return a new list; they ignore paths and never capture (AR-3.3, AR-5.3). A permutation
acts on one complementary pair (AR-6.1, AR-1.6); a rotation on the three frigates or the
three destroyers (AR-7.1), never on the corvette or the cruiser (AR-7.6); the direction is
the player's choice (AR-D4). This module also holds the JSON shapes of teleports (docs/rules/arena.md)
and their strict schemas, used by the ``permute`` and ``rotate`` actions and by bonuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Literal

from spacetable.core.errors import MalformedAction, RuleError
from spacetable.core.moves import Params

from .board import CRUISER, DESTROYERS, FRIGATES, complement, predecessor, successor

#: Canonical teleport order (docs/rules/arena.md).
TELEPORTS: tuple[str, ...] = ("P111", "P112", "P121", "P122", "RF+", "RF-", "RD+", "RD-")
PAIRS: dict[str, int] = {"P111": 0, "P112": 1, "P121": 2, "P122": 3}

Pair = Literal["P111", "P112", "P121", "P122"]
RotClass = Literal["F", "D"]
RotDir = Literal["+", "-"]


class PermuteParams(Params):
    """Permute one complementary pair of own ships (AR-6); ``offer_end`` offers to end (AR-10.4)."""

    pair: Pair
    offer_end: bool = False


class RotateParams(Params):
    """Rotate the own frigates (``F``) or destroyers (``D``), ``+`` or ``-`` (AR-7)."""

    cls: RotClass
    dir: RotDir
    offer_end: bool = False


class PermuteBonus(Params):
    """A permutation taken as a move's bonus (AR-8.2)."""

    type: Literal["permute"]
    pair: Pair


class RotateBonus(Params):
    """A rotation taken as a move's bonus (AR-8.2)."""

    type: Literal["rotate"]
    cls: RotClass
    dir: RotDir


def teleport_action(name: str) -> dict[str, Any]:
    """JSON shape of a teleport: ``{"type": "permute", "pair": ...}`` or a rotation."""
    if name in PAIRS:
        return {"type": "permute", "pair": name}
    return {"type": "rotate", "cls": name[1], "dir": name[2]}


def teleport_name(action: Any) -> str:
    """Teleport name (``P112``, ``RD+``) of a permute/rotate object; ``CORE-ACTION`` otherwise."""
    if not isinstance(action, dict):
        raise MalformedAction("a teleport is a JSON object")
    if action.get("type") == "permute":
        pair = action.get("pair")
        if pair not in PAIRS:
            raise MalformedAction(f"unknown pair {pair!r}; use P111, P112, P121 or P122")
        return str(pair)
    if action.get("type") == "rotate":
        cls, d = action.get("cls"), action.get("dir")
        if cls not in ("F", "D") or d not in ("+", "-"):
            raise MalformedAction("a rotation needs cls F|D and dir +|-")
        return f"R{cls}{d}"
    raise MalformedAction(f"not a teleport: {action.get('type')!r}")


def members(name: str) -> tuple[int, ...]:
    """Ships that take part in a teleport (AR-8.2)."""
    if name in PAIRS:
        low = PAIRS[name]
        return (low, complement(low))
    if name.startswith("RF"):
        return FRIGATES
    if name.startswith("RD"):
        return DESTROYERS
    raise RuleError("CORE-ACTION", f"unknown teleport {name!r}")


def teleport(own: Sequence[int], name: str, banished: int) -> list[int]:
    """Apply teleport ``name`` to one colour's slots; raise :class:`RuleError` if illegal.

    Permutation: both on board swap (AR-6.2); one on board is banished and its partner takes
    its cell (AR-6.3); both banished is no option (AR-6.4); ``P111`` with the cruiser banished
    is refused (AR-6.5, AR-9.1). Rotation: each ship of the class takes the slot of its
    successor (``+``) or predecessor (``-``) in the cycles of AR-7.2, all at once (AR-7.3);
    it needs two or three of the class on the board (AR-7.4, with the two-on-board table of
    AR-7.5). Scenarios AR-A7, AR-A8, AR-A9, AR-A10; AR-D2: the self-banishing ``P111`` is refused,
    not legal and losing."""
    why = refusal(own, name, banished)
    if why is not None:
        raise RuleError(*why)
    new = list(own)
    if name in PAIRS:
        a = PAIRS[name]
        b = complement(a)
        new[a], new[b] = own[b], own[a]  # swap (AR-6.2) or recall (AR-6.3): the same exchange of slots
        return new
    cls = FRIGATES if name[1] == "F" else DESTROYERS
    step = successor if name[2] == "+" else predecessor
    for s in cls:
        new[s] = own[step(s)]  # AR-7.3: each ship takes the slot of its successor (+) / predecessor (−)
    return new


def refusal(own: Sequence[int], name: str, banished: int) -> tuple[str, str] | None:
    """Why :func:`teleport` refuses ``name`` (rule id and message), or ``None``: checked alone by the legal lists
    and the AR-10.6 check for every teleport of every position, with no slots built and no exception raised."""
    if name in PAIRS:
        a = PAIRS[name]
        if own[a] == banished and own[complement(a)] == banished:
            return "AR-6.4", f"{name}: both ships of the pair are banished"
        if name == "P111" and own[CRUISER] == banished:
            return "AR-9.1", "P111 with the cruiser banished would banish the own corvette"
        return None
    if name in ("RF+", "RF-", "RD+", "RD-"):
        cls = FRIGATES if name[1] == "F" else DESTROYERS
        if sum(own[s] != banished for s in cls) < 2:
            return "AR-7.4", f"{name}: a rotation needs at least two ships of the class on the board"
        return None
    return "CORE-ACTION", f"unknown teleport {name!r}"


PERMUTATIONS: tuple[str, ...] = TELEPORTS[:4]
ROTATIONS: tuple[str, ...] = TELEPORTS[4:]


def available(own: Sequence[int], banished: int, names: Sequence[str] = TELEPORTS) -> list[str]:
    """Legal teleports of one colour among ``names``, in canonical order (AR-6, AR-7, AR-9.1):
    at most one permutation per pair (AR-6.4) and two rotations per class."""
    return list(_open(_banished_set(own, banished), tuple(names)))


def any_available(own: Sequence[int], banished: int, names: Sequence[str] = TELEPORTS) -> bool:
    """Whether :func:`available` lists any teleport."""
    return bool(_open(_banished_set(own, banished), tuple(names)))


def _banished_set(own: Sequence[int], banished: int) -> int:
    """The ships of ``own`` that are banished, one bit each: all that :func:`refusal` looks at."""
    ships = 0
    for ship, where in enumerate(own):
        if where == banished:
            ships |= 1 << ship
    return ships


#: a location that stands for "banished" in :func:`_open`'s own positions (no face has so many cells)
_AWAY = 1 << 20


@cache
def _open(banished_ships: int, names: tuple[str, ...]) -> tuple[str, ...]:
    """The teleports among ``names`` open when the ships of ``banished_ships`` are banished, worked out once for
    each of the 256 sets (every legal list and every AR-10.6 check asks)."""
    own = [_AWAY if banished_ships >> ship & 1 else 0 for ship in range(8)]
    return tuple(name for name in names if refusal(own, name, _AWAY) is None)

