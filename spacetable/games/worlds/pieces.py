"""Components of Worlds & Suns combat (WS-1): cards, systems, pieces and power.

Only the combat chapter of the original game is known; these dataclasses model
exactly what that chapter needs (WS-0.3).
"""

from __future__ import annotations

from dataclasses import dataclass

POPULATION = "P"
FACTORY = "F"
#: WS-1.3, WS-5.2 piece powers; a native (a temporary event piece, never material: WS-7.1, WS-D6) has power 4.
POWER = {POPULATION: 2, FACTORY: 1}
NATIVE_POWER = 4
SUN = "sun"
WORLD = "world"

#: WS-0.2, WS-0.3: the seed is the combat chapter of an unidentified game, and every screen, log and replay says
#: that only that chapter is implemented.
NOTICE = (
    "Worlds & Suns - combat skirmish. Only the combat chapter of an unidentified game is implemented; "
    "its map, production, movement and victory rules are unknown and not part of this program (WS-0.3)."
)
TITLE = "Worlds & Suns — combat skirmish (combat chapter only; not the full game)"
#: WS-0.4: what is house content, shown with every view.
HOUSE_RULES = [
    "house rule: skirmish turn, ending and material score (WS-8)",
    "house rule: scenario format worlds-skirmish/1 (rules doc, \"Scenario format\")",
    "house rule: event deck composition and effects except the attested +1 of Mobilisation Générale (WS-7)",
]


@dataclass
class Piece:
    """A Population or a Factory (WS-1.3) of ``owner`` (seat) lying on ``card``."""

    id: str
    owner: int
    kind: str
    card: str


@dataclass
class Card:
    """A Sun or a World card (WS-1.2)."""

    id: str
    kind: str
    system: str


@dataclass
class System:
    """One Sun plus one or more Worlds (WS-1.2); ``starting_system_of`` is a seat or None (WS-1.6)."""

    id: str
    sun: str
    worlds: list[str]
    starting_system_of: int | None = None


def piece_sort_key(piece_id: str) -> tuple[str, str, int]:
    """Natural order of generated ids ``<side>.<card>.<P|F><n>``: card, kind (P before F), number."""
    head, _, tail = piece_id.rpartition(".")
    kind = tail[:1]
    try:
        num = int(tail[1:])
    except ValueError:
        num = 0
    return (head, "0" if kind == POPULATION else "1", num)


def anchor_sort_key(piece: Piece) -> tuple[int, tuple[str, str, int]]:
    """WS-10.6: anchors are ordered Populations first, then Factories, then by piece id."""
    return (0 if piece.kind == POPULATION else 1, piece_sort_key(piece.id))


def material(kinds: list[str]) -> int:
    """WS-8.4 material: 2 per Population, 1 per Factory."""
    return sum(POWER[k] for k in kinds)
