"""Skirmish scenarios (WS-8.1, format ``worlds-skirmish/1``) — the format is house content.

A scenario names two sides, systems (one Sun and >= 1 World each) with pieces per
side, energy pools and incomes, hands (explicit lists or ``{"random": n}`` drawn
from the house deck), ``first_player``, ``max_rounds``, ``seed`` and an optional
``dice_script``. An optional ``combat`` block (house extension) describes one
combat for ``spacetable odds`` / ``spacetable advise``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core import catalog
from spacetable.core.content import ContentError, Problem, check
from spacetable.core.errors import ConfigError

from .events import house_deck

FORMAT = "worlds-skirmish/1"


def shipped_names() -> list[str]:
    """Names of the scenarios shipped in ``scenarios/*.json``."""
    root = resources.files(__package__).joinpath("scenarios")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".json"))


def names() -> list[str]:
    """Names of the scenarios of the catalogue: the shipped ones and the operator's data folder's
    (``DATA/worlds/scenarios/<name>.json``; a shipped name wins)."""
    return catalog.names(SCENARIOS)


def named(name: str) -> dict[str, Any]:
    """A scenario of the catalogue by name (shipped or the operator's), validated by :class:`Scenario`; a
    :class:`ConfigError` names the entry, never a path. Configurations reach scenarios only this way. Each call
    reads the file and returns a new document; a content already validated is not validated again
    (:func:`_valid`)."""
    raw = catalog.read_bytes(SCENARIOS, name)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ConfigError(f"scenario {name!r} is not a JSON document") from None
    _valid(raw)
    out: dict[str, Any] = data
    return out


@lru_cache(maxsize=16)
def _valid(raw: bytes) -> None:
    """Validate the scenario whose JSON text is ``raw`` (raises, and then nothing is kept); kept by content, so an
    entry the operator rewrites is validated again."""
    validate(json.loads(raw.decode("utf-8")))


def load(name_or_file: str) -> dict[str, Any]:
    """A scenario of the catalogue by name, or (for the terminal's commands) a JSON file by path; validated
    (WS-8.1)."""
    path = Path(name_or_file)
    if path.suffix == ".json" and path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        validate(data)
        out: dict[str, Any] = data
        return out
    return named(name_or_file)


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


Count = Annotated[int, Field(ge=0, le=MAX_PIECES_PER_CARD)]
Amount = Annotated[int, Field(ge=0, le=MAX_ENERGY)]
Id = Annotated[str, Field(min_length=1, max_length=MAX_NAME, pattern=r"^[^\s]+$")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Pieces(_Model):
    """A side's pieces on one card: Populations and Factories."""

    P: Count = Field(default=0, description="Population pieces")
    F: Count = Field(default=0, description="Factory pieces (never on a Sun, WS-1.3)")


class Card(_Model):
    """A Sun or a World: its id and the pieces each side has on it."""

    id: Id = Field(description="the card's id, unique in the scenario (piece ids are <side>.<card>.<P|F><n>)")
    pieces: dict[Id, Pieces] | None = Field(default=None, description="side -> its pieces on the card")


class System(_Model):
    """A system: exactly one Sun and at least one World (WS-1.2)."""

    id: Id = Field(description="the system's id, unique in the scenario")
    starting_system_of: Id | None = Field(default=None, description="the side that starts here, if any (WS-1.6)")
    sun: Card = Field(description="the system's Sun (Populations only, WS-1.3)")
    worlds: list[Card] = Field(min_length=1, max_length=MAX_WORLDS, description="the system's Worlds (WS-1.2)",
                               json_schema_extra={"x-rule": "WS-1.2"})


class RandomHand(_Model):
    """A hand drawn at random from the house deck."""

    random: int = Field(ge=0, le=10_000, description="how many cards are drawn (WS-7)")


class Scenario(_Model):
    """A Worlds & Suns skirmish scenario (WS-8.1, format ``worlds-skirmish/1``): two sides, systems with their
    pieces, energy, hands, the first player, rounds, seed and an optional dice script."""

    format: Literal["worlds-skirmish/1"] = Field(description="the format's name and version")
    id: Annotated[str, Field(max_length=MAX_LABEL)] | None = Field(default=None, description="the scenario's id")
    label: Annotated[str, Field(max_length=MAX_LABEL)] | None = Field(default=None, description="its title")
    sides: list[Id] = Field(min_length=2, max_length=2, description="the two sides' names; the first is seat 0")
    first_player: Id | None = Field(default=None, description="the side that plays first (default: the first)")
    systems: list[System] = Field(min_length=1, max_length=MAX_SYSTEMS, description="the map's systems")
    energy: dict[Id, Amount] | None = Field(default=None, description="side -> its energy pool at the start (WS-5.3)")
    energy_income: dict[Id, Amount] | None = Field(default=None, description="side -> energy gained each turn")
    hands: dict[Id, Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=MAX_HAND)] | RandomHand] | None \
        = Field(default=None, description="side -> its event cards: a list of house card codes or {random: n} (WS-7)")
    max_rounds: int = Field(default=10, ge=1, le=MAX_ROUNDS, description="rounds before the skirmish ends (WS-8)")
    seed: int = Field(default=0, ge=-(2**63), lt=2**64, description="the seed of the scenario's draws and dice")
    dice_script: list[Annotated[list[Annotated[int, Field(ge=1, le=6)]], Field(min_length=2, max_length=2)]] | None \
        = Field(default=None, max_length=MAX_DICE_SCRIPT, description="[attacker die, defender die] pairs to roll "
                                                                       "in order (tests and worked examples)")
    combat: dict[str, Any] | None = Field(default=None, description="one combat for spacetable odds and advise "
                                                                     "(house extension)")

    def problems(self) -> list[Problem]:
        """Across the document: known sides, unique ids, one starting system per side, pieces in all, hands."""
        out: list[Problem] = []
        sides = list(self.sides)
        if sides[0] == sides[1]:
            out.append(Problem("sides", "a scenario has exactly two sides with distinct names", "WS-8.1"))
        if self.first_player is not None and self.first_player not in sides:
            out.append(Problem("first_player", "first_player must be one of the sides", "WS-8.1"))
        seen: set[str] = set()
        starting: dict[str, str] = {}
        total = 0
        for i, sysd in enumerate(self.systems):
            where = f"systems[{i}]"
            cards = [(f"{where}.sun", sysd.sun, True)] + [(f"{where}.worlds[{j}]", w, False)
                                                        for j, w in enumerate(sysd.worlds)]
            for path, cid in [(f"{where}.id", sysd.id)] + [(f"{p}.id", c.id) for p, c, _ in cards]:
                if cid in seen:
                    out.append(Problem(path, f"ids must be unique ({cid!r})"))
                seen.add(cid)
            owner = sysd.starting_system_of
            if owner is not None:
                if owner not in sides:
                    out.append(Problem(f"{where}.starting_system_of", "starting_system_of must be a side or null"))
                elif owner in starting:
                    out.append(Problem(f"{where}.starting_system_of",
                                       f"side {owner} has more than one starting system (WS-1.6)", "WS-1.6"))
                else:
                    starting[owner] = sysd.id
            for path, card, sun in cards:
                for side, pcs in (card.pieces or {}).items():
                    if side not in sides:
                        out.append(Problem(f"{path}.pieces.{side}", f"{card.id}: unknown side {side!r}"))
                    if sun and pcs.F:
                        out.append(Problem(f"{path}.pieces.{side}.F",
                                           f"{card.id}: a Sun holds Populations only, no Factory (WS-1.3)", "WS-1.3"))
                    total += pcs.P + pcs.F
        if total > MAX_PIECES:
            out.append(Problem("systems", f"a scenario holds at most {MAX_PIECES} pieces in all, not {total}", "WS-D23"))
        for key in ("energy", "energy_income", "hands"):
            for side in getattr(self, key) or {}:
                if side not in sides:
                    out.append(Problem(f"{key}.{side}", f"{key}: unknown side {side!r}"))
        deck = house_deck()
        size = sum(c.copies for c in deck.values())
        drawn = 0
        for side, hand in (self.hands or {}).items():
            if isinstance(hand, RandomHand):
                drawn += hand.random
                if hand.random > size:
                    out.append(Problem(f"hands.{side}.random", "hands.random asks for more cards than the house deck "
                                                               "holds", "WS-7"))
            else:
                for j, c in enumerate(hand):
                    if c not in deck:
                        out.append(Problem(f"hands.{side}[{j}]", f"hand card {c!r} is not in the house deck "
                                                                 f"{sorted(deck)}", "WS-7"))
        if drawn > size:
            out.append(Problem("hands", f"random hands draw {drawn} cards in all; the house deck holds {size}", "WS-7"))
        return out


def validate(data: Any) -> None:
    """Validation of the format (docs/rules/worlds.md, "Scenario format") by :class:`Scenario`; raises
    :class:`ConfigError` (a :class:`~spacetable.core.content.ContentError`) naming every problem."""
    obj, found = check(Scenario, data)
    if obj is None or found:
        raise ContentError("the scenario", found)


def _bundled(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(catalog.read_bytes(SCENARIOS, name).decode("utf-8"))
    return data


def _config(data: Any) -> dict[str, Any]:
    return {"scenario_json": data}


#: The catalogue of scenarios: the shipped ``scenarios/*.json`` and the operator's ``DATA/worlds/scenarios/*.json``.
SCENARIOS = catalog.register(catalog.Kind("worlds", "scenarios", Path(__file__).with_name("scenarios"), ".json",
                                          max_bytes=256 * 1024, label="scenario", model=Scenario, load=_bundled,
                                          config=_config))
