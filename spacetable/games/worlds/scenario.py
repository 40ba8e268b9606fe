"""Skirmish scenarios (WS-8.1, format ``worlds-skirmish/1``) — the format is house content.

A scenario names two sides, systems (one Sun and >= 1 World each) with pieces per
side, energy pools and incomes, hands (explicit lists or ``{"random": n}`` drawn
from the house deck), ``first_player``, ``max_rounds``, ``seed`` and an optional
``dice_script``. An optional ``combat`` block (house extension) describes one
combat for ``spacetable odds`` / ``spacetable advise``.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from spacetable.core.errors import ConfigError

from .events import house_deck

FORMAT = "worlds-skirmish/1"



def shipped_names() -> list[str]:
    """Names of the scenarios shipped in ``scenarios/*.json``."""
    root = resources.files(__package__).joinpath("scenarios")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".json"))


def load(name_or_file: str) -> dict[str, Any]:
    """A shipped scenario by name, or a JSON file by path; validated (WS-8.1)."""
    path = Path(name_or_file)
    if path.suffix == ".json" and path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
    elif name_or_file in shipped_names():
        text = resources.files(__package__).joinpath(f"scenarios/{name_or_file}.json").read_text(encoding="utf-8")
        data = json.loads(text)
    else:
        raise ConfigError(f"no scenario {name_or_file!r}: not a file, and not one of {shipped_names()}")
    validate(data)
    return data


#: Bounds of a scenario sent as content (``scenario_json``): pieces of one kind on one card, pieces in all,
#: energy pools and incomes, rounds. The shipped scenarios stay far below them.
MAX_PIECES_PER_CARD = 50
MAX_PIECES = 400
MAX_ENERGY = 1000
MAX_ROUNDS = 100
#: Further bounds of scenario content (WS-D23 lists them all): side names and ids (a piece id
#: ``<side>.<card>.<P|F><n>`` then fits the 64 characters of an action's names), systems, Worlds per system,
#: listed hand cards, dice script pairs, labels.
MAX_NAME = 24
MAX_SYSTEMS = 50
MAX_WORLDS = 20
MAX_HAND = 100
MAX_DICE_SCRIPT = 10_000
MAX_LABEL = 200


def _count(value: Any, where: str, maximum: int = MAX_PIECES_PER_CARD) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= maximum:
        raise ConfigError(f"{where}: counts are integers in 0..{maximum}, got {value!r}")
    return value


def _check_sides(data: dict[str, Any]) -> list[str]:
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or len(set(sides)) != 2 or not all(isinstance(s, str) and s for s in sides):
        raise ConfigError("a scenario has exactly two sides with distinct names")
    if any(len(s) > MAX_NAME for s in sides):
        raise ConfigError(f"side names are at most {MAX_NAME} characters")
    if data.get("first_player", sides[0]) not in sides:
        raise ConfigError("first_player must be one of the sides")
    for key in ("id", "label"):
        if key in data and (not isinstance(data[key], str) or len(data[key]) > MAX_LABEL):
            raise ConfigError(f"{key} is a string of at most {MAX_LABEL} characters")
    return sides


def _pieces_of(holder: dict[str, Any], sides: list[str], sun: bool) -> None:
    """A card's pieces ``{side: {"P": n, "F": n}}``: known sides, kinds P and F, bounded counts, no Factory
    on a Sun (WS-1.3)."""
    pcs = holder.get("pieces") or {}
    if not isinstance(pcs, dict) or not all(isinstance(v, dict) for v in pcs.values()):
        raise ConfigError(f"{holder.get('id')}: pieces are {{side: {{\"P\": n, \"F\": n}}}}")
    cid = holder["id"]
    for side, per in pcs.items():
        if side not in sides:
            raise ConfigError(f"{cid}: unknown side {side!r}")
        if sun and _count(per.get("F", 0), cid) > 0:
            raise ConfigError(f"{cid}: a Sun holds Populations only, no Factory (WS-1.3)")
        if sun:
            _count(per.get("P", 0), cid)
        if set(per) - {"P", "F"}:
            raise ConfigError(f"{cid}: piece kinds are P and F")
        if not sun:
            _count(per.get("P", 0), cid)
            _count(per.get("F", 0), cid)


class _Ids:
    """Unique ids of systems and cards; short enough that piece ids ``<side>.<card>.<P|F><n>`` stay short."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def add(self, i: Any) -> None:
        if not isinstance(i, str) or not i or i in self.seen:
            raise ConfigError(f"ids must be unique non-empty strings ({i!r})")
        if len(i) > MAX_NAME:
            raise ConfigError(f"ids are at most {MAX_NAME} characters ({i!r})")
        self.seen.add(i)


def _check_system(sysd: Any, sides: list[str], ids: _Ids, starting: dict[str, str]) -> None:
    """One Sun and at least one World (WS-1.2), at most one starting system per side (WS-1.6)."""
    if not isinstance(sysd, dict):
        raise ConfigError("each system is a JSON object {id, starting_system_of, sun, worlds}")
    ids.add(sysd.get("id"))
    owner = sysd.get("starting_system_of")
    if owner is not None:
        if owner not in sides:
            raise ConfigError(f"system {sysd['id']}: starting_system_of must be a side or null")
        if owner in starting:
            raise ConfigError(f"side {owner} has more than one starting system (WS-1.6)")
        starting[owner] = sysd["id"]
    sun = sysd.get("sun")
    if not isinstance(sun, dict):
        raise ConfigError(f"system {sysd['id']} needs exactly one Sun")
    ids.add(sun.get("id"))
    _pieces_of(sun, sides, sun=True)
    worlds = sysd.get("worlds")
    if not isinstance(worlds, list) or not worlds:
        raise ConfigError(f"system {sysd['id']} needs at least one World")
    if len(worlds) > MAX_WORLDS:
        raise ConfigError(f"system {sysd['id']} has more than {MAX_WORLDS} Worlds")
    for w in worlds:
        if not isinstance(w, dict):
            raise ConfigError(f"system {sysd['id']}: each World is a JSON object {{id, pieces}}")
        ids.add(w.get("id"))
        _pieces_of(w, sides, sun=False)


def _check_systems(data: dict[str, Any], sides: list[str]) -> None:
    systems = data.get("systems")
    if not isinstance(systems, list) or not systems:
        raise ConfigError("a scenario needs at least one system")
    if len(systems) > MAX_SYSTEMS:
        raise ConfigError(f"a scenario has at most {MAX_SYSTEMS} systems")
    ids = _Ids()
    starting: dict[str, str] = {}
    for sysd in systems:
        _check_system(sysd, sides, ids, starting)
    total = sum(int(v) for sysd in systems for cd in [sysd["sun"], *sysd["worlds"]]
                for pcs in (cd.get("pieces") or {}).values() for v in pcs.values())
    if total > MAX_PIECES:
        raise ConfigError(f"a scenario holds at most {MAX_PIECES} pieces in all, not {total}")


def _check_pools(data: dict[str, Any], sides: list[str]) -> None:
    for key in ("energy", "energy_income", "hands"):
        if not isinstance(data.get(key) or {}, dict):
            raise ConfigError(f"{key} is a JSON object keyed by side")
    for key in ("energy", "energy_income"):
        for side, v in (data.get(key) or {}).items():
            if side not in sides:
                raise ConfigError(f"{key}: unknown side {side!r}")
            _count(v, key, MAX_ENERGY)


def _check_hands(data: dict[str, Any], sides: list[str]) -> None:
    """Listed hands hold house cards; random hands together draw at most the house deck (WS-7)."""
    deck = house_deck()
    for side, hand in (data.get("hands") or {}).items():
        if side not in sides:
            raise ConfigError(f"hands: unknown side {side!r}")
        if isinstance(hand, dict):
            n = _count(hand.get("random"), "hands.random", 10_000)
            if n > sum(c.copies for c in deck.values()):
                raise ConfigError("hands.random asks for more cards than the house deck holds")
        elif isinstance(hand, list):
            if len(hand) > MAX_HAND:
                raise ConfigError(f"a hand lists at most {MAX_HAND} cards")
            for c in hand:
                if c not in deck:
                    raise ConfigError(f"hand card {c!r} is not in the house deck {sorted(deck)}")
        else:
            raise ConfigError("a hand is a list of card codes or {\"random\": n}")
    drawn = sum(int(h["random"]) for h in (data.get("hands") or {}).values() if isinstance(h, dict))
    if drawn > sum(c.copies for c in deck.values()):
        raise ConfigError(f"random hands draw {drawn} cards in all; the house deck holds {sum(c.copies for c in deck.values())}")


def _is_die(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6


def _check_rounds_dice_seed(data: dict[str, Any]) -> None:
    mr = data.get("max_rounds", 10)
    if not isinstance(mr, int) or isinstance(mr, bool) or not 1 <= mr <= MAX_ROUNDS:
        raise ConfigError(f"max_rounds must be an integer in 1..{MAX_ROUNDS}")
    script = data.get("dice_script")
    pairs_ok = isinstance(script, list) and len(script) <= MAX_DICE_SCRIPT and all(
        isinstance(p, list) and len(p) == 2 and all(_is_die(x) for x in p) for p in script
    )
    if script is not None and not pairs_ok:
        raise ConfigError(f"dice_script is a list of at most {MAX_DICE_SCRIPT} [attacker_die, defender_die] pairs of 1..6")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not -(2**63) <= seed < 2**64:
        raise ConfigError("seed must be an integer (at most 64 bits)")


def validate(data: dict[str, Any]) -> None:
    """Validation of the format (docs/rules/worlds.md, "Scenario format"); raises :class:`ConfigError` with the reason."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConfigError(f"a scenario must be a JSON object with format {FORMAT!r}")
    sides = _check_sides(data)
    _check_systems(data, sides)
    _check_pools(data, sides)
    _check_hands(data, sides)
    _check_rounds_dice_seed(data)
