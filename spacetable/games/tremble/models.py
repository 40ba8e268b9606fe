"""The card set declared once (TH-0.3, TH-C1, TH-C2, TH-C4, TH-C5): pydantic models of every record kind.

A card set document is ``{"set": manifest, "cities": [...], "ships": [...], "stations": [...], "armies": [...],
"compensations": [...], "missions": [...], "rules": {...}}`` (a folder holds the same parts as files). The models
check every field (TH-C2: unknown fields, ops and parameters are refused); :meth:`CardSetDoc.problems` makes the
hard checks across records (TH-C5: counts, the mark groups' colours, missions per player count). Validation,
the workbench's JSON Schema and ``docs/content.md`` all come from these declarations
(:mod:`spacetable.core.content`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, field_validator, model_validator
from pydantic_core import PydanticCustomError

from spacetable.core.content import Problem, rule_error

from .effects import CITY_TYPES, OPS, REGIONS, EffectError, check_effect

SOURCES = ("house", "owner", "fixture")
#: the TH-1.1 / TH-15 counts of a complete set
COUNTS = {"cities": 60, "ship-deck cards": 105, "training saucers": 5, "armies": 20, "compensations": 20,
          "missions": 9}
#: cities per ``min_players`` mark (TH-2.2)
MARK_GROUPS = {2: 30, 3: 10, 4: 10, 5: 10}

Region = Literal["europe", "asia", "africa", "north_america", "south_america", "oceania"]
CityType = Literal["science", "culture", "industrial"]
ShipKind = Literal["saucer", "tripod", "cruiser"]
Source = Literal["house", "owner", "fixture"]
assert set(get_args(Region)) == set(REGIONS) and set(get_args(CityType)) == set(CITY_TYPES)


def _money(value: int) -> int:
    if value < 0 or value % 10000:
        raise PydanticCustomError("rule", "must be a non-negative multiple of 10,000 (TH-C2)", {"rule": "TH-C2"})
    return value


Money = Annotated[int, Field(le=100_000_000, json_schema_extra={"minimum": 0, "multipleOf": 10000}),
                  AfterValidator(_money)]
Ident = Annotated[str, Field(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$",
                             description="the record's id (letters, digits, '-' and '_'); instances are id#1..n")]
Name = Annotated[str, Field(min_length=1, max_length=80)]
Copies = Annotated[int, Field(ge=1, le=60, description="how many cards of this record the set holds (TH-C1)",
                              json_schema_extra={"x-rule": "TH-C1"})]
PlayerMark = Annotated[Literal[2, 3, 4, 5], Field(description="the least number of players using the card (TH-2.2)")]


def _effect_schema(carrier: str) -> dict[str, Any]:
    """The JSON Schema of an effect a ``carrier`` may hold: one branch per op of the vocabulary (TH-C3)."""
    branches = []
    for op, (params, carriers, window) in sorted(OPS.items()):
        if carrier not in carriers:
            continue
        props: dict[str, Any] = {"op": {"const": op}}
        for key, spec in params.items():
            props[key] = {"type": "integer"} if spec is int else {"enum": list(spec)}
        branches.append({"title": op, "description": f"used at: {window}", "type": "object", "properties": props,
                         "required": ["op", *params], "additionalProperties": False})
    return {"oneOf": branches}


def _effect_checker(carrier: str) -> Any:
    def check(value: Any) -> dict[str, Any]:
        try:
            return check_effect(value, carrier, "effect")
        except EffectError as exc:
            raise PydanticCustomError("rule", "{detail}", {"rule": "TH-C3", "detail": str(exc)}) from None
    return check


def EffectOf(carrier: str) -> Any:
    return Annotated[dict[str, Any], AfterValidator(_effect_checker(carrier)),
                     WithJsonSchema(_effect_schema(carrier))]


class Record(BaseModel):
    """Every record: unknown fields are refused (TH-C2)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Manifest(Record):
    """``set.json``: the set's id, name and source (house content is labelled as such, TH-0.3)."""

    set_id: Ident = Field(description="the set's short id")
    name: Name = Field(description="the set's name, shown to the players")
    name_ru: Name | None = Field(default=None, description="the set's name in Russian")
    version: int | None = Field(default=None, ge=1, le=1_000_000, description="the set's version number")
    source: Source = Field(description="house (the project's own), owner (an owner's cards) or fixture (tests)")
    notes: Annotated[str, Field(max_length=2000)] = Field(default="", description="free notes about the set")
    files: dict[Literal["cities", "ships", "stations", "armies", "compensations", "missions", "rules"],
                Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")]] = Field(
        default_factory=dict, description="in a folder: the file of each part (default <part>.json)")
    allow_count_mismatch: bool = Field(
        default=False, description="count problems (TH-1.1) are warnings, not errors, for a partial set")


class City(Record):
    """A city card (TH-2): where it is, what raiding and catching it pays, when it is used."""

    id: Ident
    name: Name = Field(description="the card's name")
    name_ru: Name | None = Field(default=None, description="the name in Russian (default: the name)")
    region: Region = Field(description="the region, for region missions (TH-12)")
    city_type: CityType = Field(description="the city's type, for city-type missions (TH-12)")
    raid: Money = Field(description="humans gained by a raid (TH-9.3)")
    catch: Money = Field(description="humans gained by a catch; more than the raid (TH-9.3)")
    catch_draw: Literal[1, 2, 3] = Field(description="ship cards drawn by a catch (TH-9.3)")
    min_players: PlayerMark
    deck: Literal["blue", "red"] = Field(description="the city deck: blue from turn 1, red later (TH-2.2)")
    source: Source | None = Field(default=None, description="the record's source (default: the set's)")

    @model_validator(mode="after")
    def _catch_exceeds_raid(self) -> City:
        if self.catch <= self.raid:
            raise rule_error("TH-C5", "catch must exceed raid")
        return self


class Ship(Record):
    """A ship card (TH-6, TH-9): its kind, deck, strength, fuel, price and abilities."""

    id: Ident
    name: Name = Field(description="the card's name")
    name_ru: Name | None = Field(default=None, description="the name in Russian (default: the name)")
    kind: ShipKind = Field(description="saucer, tripod or cruiser (abilities may name it)")
    deck: Literal["blue", "red", "training"] = Field(description="the ship deck, or the training saucers")
    strength: int = Field(ge=0, le=99, description="strength added to its group's roll (TH-9.1)")
    fuel: int = Field(ge=1, le=20, description="fuel a flight costs (TH-6.3); training saucers: exactly 1",
                      json_schema_extra={"x-rule": "TH-6.3"})
    price: Money = Field(description="the humans it costs to buy (TH-4.4)")
    abilities: list[EffectOf("ship")] = Field(  # type: ignore[valid-type]
        default_factory=list, max_length=6, description="effects of the vocabulary a ship may carry (TH-C3)")
    copies: Copies = 1
    source: Source | None = Field(default=None, description="the record's source (default: the set's)")

    @model_validator(mode="after")
    def _training(self) -> Ship:
        if self.deck == "training":
            if self.fuel != 1:
                raise rule_error("TH-C5", "fuel must be >= 1 (training saucers: exactly 1)")
            if not any(a["op"] == "immortal" for a in self.abilities):
                raise rule_error("TH-D11", "training saucers must be immortal")
        return self


class Station(Record):
    """A space station card (TH-4.6): its deck, price and effect; city-support stations are tokens."""

    id: Ident
    name: Name = Field(description="the card's name")
    name_ru: Name | None = Field(default=None, description="the name in Russian (default: the name)")
    deck: Literal["blue", "red"] = Field(description="the ship deck it is shuffled into")
    price: Money = Field(description="the humans it costs to buy (TH-4.4)")
    effect: EffectOf("station") = Field(description="an effect of the vocabulary a station may carry (TH-C3)")  # type: ignore[valid-type]
    token: bool = Field(default=False, description="true exactly for city_support stations (a token on a city)")
    copies: Copies = 1
    source: Source | None = Field(default=None, description="the record's source (default: the set's)")

    @model_validator(mode="after")
    def _token(self) -> Station:
        if self.token != (self.effect["op"] == "city_support"):
            raise rule_error("TH-C5", "token must be true exactly for city_support stations")
        return self


class Army(Record):
    """An army card (TH-9.2): the strength a group must reach; 0 is no army."""

    id: Ident
    name: Name | None = Field(default=None, description="the card's name (default: the id)")
    name_ru: Name | None = Field(default=None, description="the name in Russian")
    strength: int = Field(ge=0, le=99, description="the army's strength; 0: no army (TH-9.2)")
    copies: Copies = 1
    source: Source | None = Field(default=None, description="the record's source (default: the set's)")


class Compensation(Record):
    """A compensation card (TH-10): given after a loss, with an effect."""

    id: Ident
    name: Name = Field(description="the card's name")
    name_ru: Name | None = Field(default=None, description="the name in Russian (default: the name)")
    effect: EffectOf("comp") = Field(description="an effect of the vocabulary a compensation may carry (TH-C3)")  # type: ignore[valid-type]
    copies: Copies = 1
    source: Source | None = Field(default=None, description="the record's source (default: the set's)")


class Mission(Record):
    """A mission card (TH-12): a region or city type to collect."""

    id: Ident
    name: Name = Field(description="the card's name")
    name_ru: Name | None = Field(default=None, description="the name in Russian (default: the name)")
    kind: Literal["region", "city_type"] = Field(description="what the target names")
    target: str = Field(max_length=32, description="a region (kind region) or a city type (kind city_type)")
    min_players: PlayerMark
    source: Source | None = Field(default=None, description="the record's source (default: the set's)")

    @model_validator(mode="after")
    def _target(self) -> Mission:
        allowed = REGIONS if self.kind == "region" else CITY_TYPES
        if self.target not in allowed:
            raise rule_error("TH-C2", f"target must be one of {list(allowed)}")
        return self


class Credit(Record):
    """The credit a player may take (TH-11)."""

    amount: Money = Field(default=50000, description="humans lent")
    repay: Money = Field(default=60000, description="humans paid back")
    max_humans: Money = Field(default=50000, description="a player may borrow only with at most this many humans")
    max_ships: int = Field(default=2, ge=0, le=20, description="... and at most this many ships")


def _per_count(default: dict[str, int], meaning: str) -> Any:
    return Field(default_factory=lambda: dict(default), description=meaning)


PlayerKey = Literal["2", "3", "4", "5"]


class Rules(Record):
    """``rules.json`` (TH-C4): the numbers of the game; every key is optional (the defaults are the house rules)."""

    turns: int = Field(default=10, ge=1, le=30, description="the number of turns")
    red_from_turn: int = Field(default=6, ge=1, le=30, description="the red city deck is used from this turn")
    fuel_by_turn: list[Annotated[int, Field(ge=0, le=50)]] = Field(
        default_factory=lambda: [4, 5, 6, 7, 8, 9, 10, 11, 12, 12], max_length=30,
        description="fuel of each turn, one value per turn (TH-6.3)")
    cities_per_turn: dict[PlayerKey, Annotated[int, Field(ge=1, le=20)]] = _per_count(
        {"2": 3, "3": 4, "4": 5, "5": 6}, "cities shown each turn, by player count")
    missions_shown: dict[PlayerKey, Annotated[int, Field(ge=0, le=20)]] = _per_count(
        {"2": 3, "3": 3, "4": 4, "5": 5}, "missions shown, by player count (TH-12)")
    start_humans: Money = Field(default=100000, description="humans each player starts with")
    draw_per_turn: int = Field(default=2, ge=0, le=20, description="ship cards drawn each turn")
    buy_max: int = Field(default=2, ge=0, le=20, description="cards bought at most per turn (TH-4.4)")
    max_ships: int = Field(default=5, ge=1, le=50, description="ships a player may hold")
    max_stations: int = Field(default=2, ge=0, le=20, description="stations a player may hold (TH-4.6)")
    mission_prizes: list[Money] = Field(default_factory=lambda: [200000, 100000], max_length=5,
                                        description="the prizes of a mission, first and second")
    split_unit: int = Field(default=10000, ge=1, le=100000, description="rounding unit of shared prizes (TH-D7)")
    credit: Credit = Field(default_factory=Credit, description="the credit (TH-11)")

    @model_validator(mode="after")
    def _fuel_per_turn(self) -> Rules:
        if len(self.fuel_by_turn) != self.turns:
            raise rule_error("TH-C4", "fuel_by_turn needs one value per turn")
        for key in ("2", "3", "4", "5"):
            if key not in self.cities_per_turn or key not in self.missions_shown:
                raise rule_error("TH-C4", "cities_per_turn and missions_shown need a value for 2, 3, 4 and 5 players")
        return self


class CardSetDoc(BaseModel):
    """A Tremble, Humans! card set (TH-0.3): the manifest and the seven parts. Records with ``copies: n`` stand
    for n cards ``id#1..n`` (TH-C1)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    manifest: Manifest = Field(alias="set", description="the set's manifest (set.json)")
    cities: list[City] = Field(max_length=500, description="the city cards")
    ships: list[Ship] = Field(max_length=500, description="the ship cards and training saucers")
    stations: list[Station] = Field(max_length=200, description="the space station cards")
    armies: list[Army] = Field(max_length=200, description="the army cards")
    compensations: list[Compensation] = Field(max_length=200, description="the compensation cards")
    missions: list[Mission] = Field(max_length=100, description="the mission cards")
    rules: Rules = Field(default_factory=Rules, description="the game's numbers (rules.json)")

    @field_validator("rules", mode="before")
    @classmethod
    def _no_rules(cls, v: Any) -> Any:
        return {} if v is None else v

    def count_problems(self) -> list[Problem]:
        """TH-1.1 / TH-15: the counts of a complete set (warnings with ``allow_count_mismatch``)."""
        training = sum(s.copies for s in self.ships if s.deck == "training")
        deck = sum(s.copies for s in self.ships if s.deck != "training") + sum(s.copies for s in self.stations)
        got = {"cities": len(self.cities), "ship-deck cards": training + deck, "training saucers": training,
               "armies": sum(a.copies for a in self.armies), "compensations": sum(c.copies for c in self.compensations),
               "missions": len(self.missions)}
        path = {"ship-deck cards": "ships", "training saucers": "ships"}
        return [Problem(path.get(label, label), f"{label}: {got[label]} (expected {want})", "TH-1.1")
                for label, want in COUNTS.items() if got[label] != want]

    def problems(self) -> list[Problem]:
        """The hard checks across records (TH-C5)."""
        out: list[Problem] = []
        for part in ("cities", "missions"):
            seen: set[str] = set()
            for i, rec in enumerate(getattr(self, part)):
                if rec.id in seen:
                    out.append(Problem(f"{part}[{i}].id", f"duplicate id {rec.id!r}", "TH-C5"))
                seen.add(rec.id)
        seen_cards: set[str] = set()
        for part in ("ships", "stations", "armies", "compensations"):
            for i, rec in enumerate(getattr(self, part)):
                if rec.id in seen_cards:
                    out.append(Problem(f"{part}[{i}].id", f"duplicate id {rec.id!r}", "TH-C5"))
                seen_cards.add(rec.id)
        lenient = self.manifest.allow_count_mismatch
        for mark, want in MARK_GROUPS.items():
            group = [c for c in self.cities if c.min_players == mark]
            if not lenient and len(group) != want:
                out.append(Problem("cities", f"cities marked {mark}{'+' if mark > 2 else ''}: {len(group)} "
                                             f"(expected {want})", "TH-2.2"))
            blue = sum(1 for c in group if c.deck == "blue")
            if 2 * blue != len(group):
                out.append(Problem("cities", f"cities marked {mark}: {blue} blue of {len(group)}; each mark group must "
                                             "be half blue (TH-2.2)", "TH-2.2"))
        for p in range(2, 6):
            eligible = sum(1 for m in self.missions if m.min_players <= p)
            shown = self.rules.missions_shown[str(p)]
            if eligible < shown:
                out.append(Problem("missions", f"{p} players: {eligible} eligible missions, {shown} needed", "TH-12"))
        if not lenient:
            out.extend(self.count_problems())
        return out
