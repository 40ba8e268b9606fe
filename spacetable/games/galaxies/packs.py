"""Content packs: ships, tactic cards, boards and missions as validated data (rules doc "Owner packs", BG-1.2, BG-4, BG-14).

The engine hard-codes no ship, card, board or mission value: everything comes from a **pack**.
The bundled pack ``house`` (``data/house/*.json``) is **house content**, labelled as such in every
record (``content_source: house``); it is not official Battleship Galaxies card data. Owners may load
a private **owner pack** of their real cards: it is validated completely before anything is used, and
a bad pack raises :class:`PackError` naming the file, the record (card, ship, board, mission) and the
field, and nothing is loaded.

The whole data model is one module (longer than 500 lines: every field's declaration with its meaning) on purpose:
a pack is validated in one place, record by record and then across sections (:class:`PackDoc`, the declaration
the workbench and ``docs/content.md`` read), so an error can always name the file, record and field.

Packs are chosen by name among the bundled ones (``bundled_pack``) or passed as content
(``load_pack_content``, what the CLI does with a user-local file); match configurations never carry
server paths. Loaded packs are cached by the SHA-256 of their canonical JSON.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from spacetable.core import catalog, content
from spacetable.core.errors import ConfigError

from .board import board_problems

HOUSE_LABEL = "House set, not official Battleship Galaxies card data"
SIZES = ("small", "medium", "large")
SIZE_RANK = {"small": 0, "medium": 1, "large": 2}
FOOTPRINT = {"small": 1, "medium": 2, "large": 7}  # BG-3.2
VERSIONS = ("standard", "seasoned", "veteran")
FACTIONS = ("isn", "wretch")
TILE_KINDS = ("energy_source", "orbital_market", "shield_regenerator", "alien_artifact",
              "observation_station", "warp_gate", "victory_point")
TIMINGS = ("own_energy", "own_deploy", "own_action", "activation_start", "before_attack_roll",
           "after_attack_roll", "any_own_turn", "enemy_activation", "enemy_hit")
REACTIONS = ("enemy_activation", "enemy_hit")
TRIGGERS = ("passive", "activation_start", "on_attack_hit", "on_hit_taken", "on_launch", "energy_phase")
STATS = ("range", "strength", "attacks", "move", "charge_cost")
SELECTOR_KINDS = ("self_side", "enemy_side", "friendly_ship", "enemy_ship", "attached_card")

Nat = Annotated[int, Field(ge=0, le=1000)]
Pos = Annotated[int, Field(ge=1, le=1000)]
Ident = Annotated[str, Field(min_length=1, max_length=48, pattern=r"^[a-z0-9][a-z0-9_\-]*$")]
Text = Annotated[str, Field(max_length=600)]
Hex = tuple[int, int]
_IDENT = re.compile(r"[a-z0-9][a-z0-9_\-]{0,47}")


class PackError(ConfigError):
    """A pack failed validation: ``file``, ``record`` and ``field`` say where."""

    def __init__(self, file: str, record: str, fld: str, message: str) -> None:
        super().__init__(f"{file}: {record}: field {fld}: {message}")
        self.file, self.record, self.field, self.message = file, record, fld, message


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


# --------------------------------------------------------------------------- effects (§6.2)
class Condition(Model):
    """``if:`` of an effect: checked on the effect's subject ship."""

    shields: Literal["up", "down"] | None = None
    """The subject's shields must be up or down."""
    size: list[Literal["small", "medium", "large"]] | None = None
    """The subject's size must be one of these."""
    hit: bool | None = None
    """The attack hit (or missed)."""


class WeaponData(Model):
    """BG-12.1 a weapon: charge cost, range, attacks, strength, damage tag."""

    id: Ident
    """The weapon's id on its ship card."""
    name: Annotated[str, Field(min_length=1, max_length=60)]
    """Its name."""
    slot: Literal["primary", "secondary"]
    """Primary (exactly one per version) or secondary."""
    charge_cost: Nat = 0
    """Energy to charge it (BG-12.1)."""
    range: Annotated[int, Field(ge=1, le=30)]
    """Range in hexes."""
    attacks: Annotated[int, Field(ge=1, le=10)]
    """Attack dice rolled."""
    strength: Annotated[int, Field(ge=1, le=10)]
    """Damage of a hit."""
    tag: Ident = "laser"
    """Damage tag (ship versions may modify or be immune to it)."""
    special: Text | None = None
    """Rules text of a special ability."""


class Effect(Model):
    """One effect of the §6.2 vocabulary. ``op`` names it; the other fields are its parameters;
    ``on`` names the subject (a selector's ``as`` name, ``self`` for a power's own ship, ``target``
    for the ship an attack hit, ``attacker``); ``if`` is an optional condition."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, use_attribute_docstrings=True)

    op: Literal["gain_energy", "drain_energy", "draw", "damage", "repair_shields", "repair_hull",
                "extra_attacks", "modify", "add_weapon", "reroll", "cancel_hit", "ecm_immunity",
                "place_ship", "reveal_hold", "take_over"]
    """What the effect does (the effect vocabulary)."""
    n: Annotated[int, Field(ge=0, le=20)] | None = None
    """A number (energy, cards, shields, hull, attacks)."""
    kind: Literal["direct", "shield", "hull"] | None = None
    """Damage kind."""
    amount: Annotated[int, Field(ge=0, le=20)] | None = None
    """Damage amount."""
    tag: Ident | None = None
    """A weapon tag."""
    weapon: Ident | None = None
    """A weapon id."""
    stat: Literal["range", "strength", "attacks", "move", "charge_cost"] | None = None
    """The statistic modified."""
    delta: Annotated[int, Field(ge=-10, le=10)] | None = None
    """The change of the statistic."""
    duration: Literal["instant", "attached", "end_of_activation", "end_of_turn", "permanent"] | None = None
    """How long it lasts."""
    add: WeaponData | None = None
    """A weapon added by the effect."""
    dice: Literal["both", "letter", "number"] | None = None
    """Dice rerolled."""
    whose: Literal["own", "enemy"] | None = None
    """Whose roll is rerolled."""
    within: Annotated[int, Field(ge=0, le=30)] | None = None
    """Range in hexes."""
    sizes: list[Literal["small", "medium", "large"]] | None = None
    """Ship sizes concerned."""
    on: Ident | None = None
    """The subject: a target's 'as' name, self, target or attacker."""
    cond: Condition | None = Field(default=None, alias="if")
    """A condition on the subject."""

    @model_validator(mode="after")
    def _params(self) -> Effect:
        need = {
            "gain_energy": ("n",), "drain_energy": ("n",), "draw": ("n",), "damage": ("kind", "amount"),
            "repair_shields": ("n",), "repair_hull": ("n",), "extra_attacks": ("weapon", "n"),
            "modify": ("stat", "delta", "duration"), "add_weapon": ("add",), "reroll": ("dice", "whose"),
            "cancel_hit": (), "ecm_immunity": ("duration",), "place_ship": ("within",), "reveal_hold": (),
            "take_over": ("sizes",),
        }[self.op]
        for name in need:
            if getattr(self, name) is None:
                raise ValueError(f"{self.op} needs '{name}'")
        if self.op == "take_over" and self.sizes and "large" in self.sizes:
            raise ValueError("take_over is limited to small or medium targets")
        return self


class Power(Model):
    """A ship power: a trigger, an optional cost, effects of the same vocabulary (§6.2)."""

    trigger: Literal["passive", "activation_start", "on_attack_hit", "on_hit_taken", "on_launch", "energy_phase"]
    """When the power acts."""
    cost: Nat = 0
    """Energy it costs."""
    effects: list[Effect] = Field(min_length=1, max_length=6)
    """Its effects, in order."""
    text: Text = ""
    """The card's rules text."""


# ------------------------------------------------------------------------------- ships (§6.1)
class VersionData(Model):
    fleet_cost: Nat | None = None
    """Fleet-building cost (default: the launch cost, BG-4.1)."""
    launch_cost: Nat
    """Energy to launch (BG-8)."""
    activation_cost: Nat
    """Energy to activate."""
    shields: Nat
    """Shield points."""
    hull: Pos
    """Hull points."""
    move: Annotated[int, Field(ge=0, le=12)]
    """Hexes it may move."""
    capacity: Nat = 0
    """Hold capacity for small ships (small ships: 0, BG-8.8)."""
    weapons: list[WeaponData] = Field(min_length=1, max_length=4)
    """Its weapons (one primary)."""
    powers: list[Power] = Field(default_factory=list, max_length=4)
    """Its powers."""
    damage_mods: dict[Ident, int | Literal["immune"]] = Field(default_factory=dict)
    """Damage tag -> modifier, or immune."""
    text: Text = ""
    """The card's rules text."""

    @property
    def cost(self) -> int:
        """BG-4.1 fleet cost (defaults to the launch cost)."""
        return self.launch_cost if self.fleet_cost is None else self.fleet_cost

    @field_validator("weapons")
    @classmethod
    def _one_primary(cls, v: list[WeaponData]) -> list[WeaponData]:
        if sum(1 for w in v if w.slot == "primary") != 1:
            raise ValueError("exactly one primary weapon")
        if len({w.id for w in v}) != len(v):
            raise ValueError("weapon ids repeat")
        return v


class ShipData(Model):
    key: Ident
    """The ship's id."""
    name: Annotated[str, Field(min_length=1, max_length=60)]
    """Its name."""
    faction: Literal["isn", "wretch"]
    """Isn or wretch."""
    size: Literal["small", "medium", "large"]
    """Small, medium or large (BG-3.2)."""
    squadron_size: Literal[1, 3] = 1
    """Ships per card: 1, or 3 for a small squadron (BG-1.2)."""
    grid: list[Annotated[str, Field(pattern=r"^[#.]{10}$")]] = Field(min_length=8, max_length=8)
    """The 8 x 10 silhouette: '#' a hit cell, '.' a miss (BG-12.5)."""
    versions: dict[Literal["standard", "seasoned", "veteran"], VersionData]
    """Standard, seasoned and veteran versions; launch costs rise."""
    pack_id: Ident = "house"
    """The pack it comes from (set by the pack)."""
    content_source: Literal["house", "owner"] = "house"
    """House or owner (set by the pack)."""

    @model_validator(mode="after")
    def _rules(self) -> ShipData:
        if self.squadron_size > 1 and self.size != "small":
            raise ValueError("squadrons are small (BG-1.2)")
        if not any("#" in row for row in self.grid):
            raise ValueError("the grid needs at least one silhouette cell (BG-12.5)")
        order = [v for v in VERSIONS if v in self.versions]
        if not order:
            raise ValueError("at least one version")
        for v in order:
            ver = self.versions[v]
            if self.size == "small" and ver.capacity:
                raise ValueError(f"{v}: small ships have capacity 0 (BG-8.8)")
        costs = [self.versions[v].launch_cost for v in order]
        if any(b <= a for a, b in pairwise(costs)):
            raise ValueError("launch costs must rise strictly from standard to seasoned to veteran")
        return self

    _cells: int = PrivateAttr(default=0)

    def model_post_init(self, context: Any, /) -> None:
        self._cells = sum(row.count("#") for row in self.grid)

    @property
    def cells(self) -> int:
        """BG-12.5 silhouette cells of the grid (P(hit) = cells / 80)."""
        return self._cells

    @property
    def footprint(self) -> int:
        """BG-3.2 the number of hexes the card's ships cover (hold space)."""
        return FOOTPRINT[self.size] * self.squadron_size

    def hit(self, letter: int, number: int) -> bool:
        """BG-12.5 the cell (letter 1..10 = A..J, number 1..8) is a silhouette cell."""
        return self.grid[number - 1][letter - 1] == "#"


# ----------------------------------------------------------------------- tactics (§6.2)
class Selector(Model):
    """A target of a tactic card: ``as`` names it in the action's ``targets``."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, use_attribute_docstrings=True)

    name_as: Ident = Field(alias="as")
    """The name effects use for this target."""
    kind: Literal["self_side", "enemy_side", "friendly_ship", "enemy_ship", "attached_card"]
    """What is targeted."""
    size: list[Literal["small", "medium", "large"]] | None = None
    """Allowed sizes."""
    shields: Literal["up", "down"] | None = None
    """The target's shields must be up or down."""
    within: Annotated[int, Field(ge=0, le=30)] | None = None
    """Range in hexes."""
    of: Literal["friendly_ship", "enemy_ship"] | None = None
    """For an attached card: whose ship."""
    names: list[Ident] | None = None
    """Allowed ship keys."""
    active: bool | None = None
    """The ship is (not) the active one."""
    loaded: bool | None = None
    """The ship carries (or not) other ships."""


class AttachTo(Model):
    solo: bool | None = None
    """A single ship may carry it."""
    squadron: bool | None = None
    """A squadron may carry it."""
    sizes: list[Literal["small", "medium", "large"]] | None = None
    """Sizes that may carry it."""
    names: list[Ident] | None = None
    """Ship keys that may carry it."""


class TacticData(Model):
    id: Ident
    """The card's id."""
    name: Annotated[str, Field(min_length=1, max_length=60)]
    """Its name."""
    faction: Literal["isn", "wretch"]
    """Isn or wretch."""
    type: Literal["hero", "upgrade", "weapon", "event", "sabotage"]
    """Hero, upgrade and weapon cards attach to a ship (BG-14.1)."""
    cost: Annotated[int, Field(ge=0, le=20)]
    """Energy to play it."""
    copies_max: Annotated[int, Field(ge=1, le=3)]
    """Copies a deck may hold (at most 3, D-18)."""
    timing: Literal["own_energy", "own_deploy", "own_action", "activation_start", "before_attack_roll",
                    "after_attack_roll", "any_own_turn", "enemy_activation", "enemy_hit"]
    """When it may be played."""
    targets: list[Selector] = Field(default_factory=list, max_length=3)
    """What it targets."""
    attach_to: AttachTo | None = None
    """Which ships it may attach to."""
    duration: Literal["instant", "attached", "end_of_activation", "end_of_turn"] = "instant"
    """How long its effects last."""
    effects: list[Effect] = Field(min_length=1, max_length=6)
    """Its effects, in order."""
    text: Text = ""
    """The card's rules text."""
    pack_id: Ident = "house"
    """The pack it comes from (set by the pack)."""
    content_source: Literal["house", "owner"] = "house"
    """House or owner (set by the pack)."""

    @model_validator(mode="after")
    def _rules(self) -> TacticData:
        attaches = self.type in ("hero", "upgrade", "weapon")
        if attaches != (self.attach_to is not None):
            raise ValueError("hero, upgrade and weapon cards need attach_to; events and sabotage have none (BG-14.1)")
        if attaches and not any(s.kind == "attached_card" for s in self.targets):
            raise ValueError("an attachment needs an attached_card target")
        names = [s.name_as for s in self.targets]
        if len(set(names)) != len(names):
            raise ValueError("selector 'as' names repeat")
        known = {*names, "self_side", "enemy_side", "attack"}
        for e in self.effects:
            if e.on is not None and e.on not in known:
                raise ValueError(f"effect {e.op} acts on unknown target {e.on!r}")
        if self.type == "weapon" and not any(e.op == "add_weapon" for e in self.effects):
            raise ValueError("an additional weapon card adds a weapon")
        return self

    @property
    def attaches(self) -> bool:
        return self.attach_to is not None


# ------------------------------------------------------------------------ boards (§6.4)
class Rect(Model):
    """Offset rectangle (odd-r): columns and rows, both inclusive."""

    cols: tuple[int, int]
    """First and last column."""
    rows: tuple[int, int]
    """First and last row."""


class Obstacle(Model):
    kind: Literal["asteroid", "debris"]
    """Asteroid or debris."""
    hexes: list[Hex] = Field(min_length=1)
    """The hexes it covers (column, row)."""


class TileSlot(Model):
    hex: Hex
    """The tile's hex (column, row)."""
    tile: Literal["energy_source", "orbital_market", "shield_regenerator", "alien_artifact",
                  "observation_station", "warp_gate", "victory_point"]
    """The tile."""
    face: Literal["up", "down"] = "up"
    """Face up or down at the start."""


class BoardData(Model):
    id: Ident
    """The board's id."""
    name: str = ""
    """Its name."""
    full: list[Hex] | Rect
    """The board's hexes: a list or a rectangle."""
    half: Literal["rim"] | list[Hex] = "rim"
    """The half hexes: the rim or a list."""
    zones: dict[Literal["A", "B"], list[Hex] | list[Rect]]
    """Each side's deployment zone."""
    obstacles: list[Obstacle] = Field(default_factory=list)
    """Asteroids and debris."""
    tile_slots: list[TileSlot] = Field(default_factory=list)
    """Tiles placed at the start."""
    vp_tile: Hex | None = None
    """The victory-point tile's hex."""
    pack_id: Ident = "house"
    """The pack it comes from (set by the pack)."""
    content_source: Literal["house", "owner"] = "house"
    """House or owner (set by the pack)."""


# ---------------------------------------------------------------------- missions (§6.3)
class SeatData(Model):
    seat: Nat
    """The seat number (0..n-1)."""
    side: Literal["A", "B"]
    """Its side."""
    faction: Literal["isn", "wretch"]
    """Its faction (one per side, BG-18.1)."""


class FleetEntry(Model):
    ship: Ident
    """A ship key."""
    version: Literal["standard", "seasoned", "veteran"] = "standard"
    """Its version."""
    seat: Nat | None = None
    """The seat that commands it."""


class FleetRule(Model):
    """BG-4.1 a fixed fleet (``list``) or a budget."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, use_attribute_docstrings=True)

    mode: Literal["fixed", "budget"]
    """A fixed list or a budget (BG-4.1)."""
    entries: list[FleetEntry] | None = Field(default=None, alias="list")
    """The fixed fleet."""
    budget: Nat | None = None
    """The fleet budget."""


class DeckRule(Model):
    """BG-4.3 a fixed deck (``list``) or a constructed one (``presets`` are offered as examples)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, use_attribute_docstrings=True)

    mode: Literal["fixed", "constructed"]
    """A fixed deck or a constructed one (BG-4.3)."""
    cards: list[Ident] | None = Field(default=None, alias="list")
    """The fixed deck's card ids."""
    presets: list[list[Ident]] | None = None
    """Example decks offered."""


class Preplaced(Model):
    side: Literal["A", "B"]
    """The side."""
    ship: Ident
    """A ship key."""
    hexes: list[list[Hex]]
    """The hexes of each ship of the card."""


class VictoryData(Model):
    """A victory condition (BG-17.1): ``destroy_all``, ``destroy_named``, ``hold_tile``, ``ships_in_hexes``."""

    type: Literal["destroy_all", "destroy_named", "hold_tile", "ships_in_hexes"]
    """The condition (BG-17.1)."""
    side: Literal["A", "B"] | None = None
    """The side it applies to."""
    ship: Ident | None = None
    """The named ship."""
    tile: Hex | None = None
    """The tile's hex."""
    rounds: Pos | None = None
    """Rounds to hold it."""
    hexes: list[Hex] | None = None
    """The hexes to reach."""
    n: Pos | None = None
    """Ships needed."""
    sizes: list[Literal["small", "medium", "large"]] | None = None
    """Ship sizes that count."""


class Overrides(Model):
    obstacles: list[Obstacle] | None = None
    """Obstacles replacing the boards'."""
    tiles: list[TileSlot] | None = None
    """Tiles replacing the boards'."""


class MissionData(Model):
    id: Ident
    """The mission's id."""
    name: str
    """Its name."""
    number: Annotated[int, Field(ge=0, le=99)] = 0
    """Its number in the mission book."""
    seats: list[SeatData] = Field(min_length=2, max_length=4)
    """The seats and their sides."""
    boards: list[Ident] = Field(min_length=1)
    """Board ids, placed in order."""
    overrides: Overrides = Overrides()
    """Obstacles and tiles of this mission."""
    fleets: dict[Literal["A", "B"], FleetRule]
    """Each side's fleet rule."""
    decks: dict[Literal["A", "B"], DeckRule]
    """Each side's deck rule."""
    prepped: dict[Literal["A", "B"], list[Ident]] = Field(default_factory=dict)
    """Tactic cards each side starts with in play."""
    preplaced: list[Preplaced] = Field(default_factory=list)
    """Ships on the board at the start."""
    start: dict[Literal["energy", "hand"], Nat] = Field(default_factory=lambda: {"energy": 15, "hand": 5})
    """Starting energy and hand size."""
    energy_income: dict[Literal["A", "B"], Nat] = Field(default_factory=dict)
    """Energy each side gains each round."""
    mirror: bool = False
    """Both sides play one faction."""
    victory: list[VictoryData] = Field(default_factory=lambda: [VictoryData(type="destroy_all")])
    """The victory conditions."""
    max_rounds: Annotated[int, Field(ge=1, le=99)] = 20
    """Rounds before the game ends."""
    text: Text = ""
    """The mission's story and special rules."""
    pack_id: Ident = "house"
    """The pack it comes from (set by the pack)."""
    content_source: Literal["house", "owner"] = "house"
    """House or owner (set by the pack)."""

    @model_validator(mode="after")
    def _rules(self) -> MissionData:
        seats = sorted(s.seat for s in self.seats)
        if seats != list(range(len(seats))):
            raise ValueError("seats are numbered 0..n-1")
        for side in ("A", "B"):
            factions = {s.faction for s in self.seats if s.side == side}
            if len(factions) != 1:
                raise ValueError(f"side {side} needs exactly one faction (BG-18.1)")
            if side not in self.fleets or side not in self.decks:
                raise ValueError(f"side {side} needs a fleet rule and a deck rule")
        for side, rule in self.fleets.items():
            if rule.mode == "fixed" and not rule.entries:
                raise ValueError(f"fixed fleet of side {side} needs a list")
            if rule.mode == "budget" and rule.budget is None:
                raise ValueError(f"budget fleet of side {side} needs a budget")
        for side, deck in self.decks.items():
            if deck.mode == "fixed" and deck.cards is None:
                raise ValueError(f"fixed deck of side {side} needs a list")
        fa = next(s.faction for s in self.seats if s.side == "A")
        fb = next(s.faction for s in self.seats if s.side == "B")
        if (fa == fb) != self.mirror:
            raise ValueError("both sides of one faction need mirror: true (and only then)")
        return self


# ------------------------------------------------------------------------------ packs
@dataclass
class Pack:
    """A validated pack: records by key plus its id, source and digest."""

    pack_id: str
    """The pack it comes from (set by the pack)."""
    source: str
    digest: str
    ships: dict[str, ShipData] = field(default_factory=dict)
    tactics: dict[str, TacticData] = field(default_factory=dict)
    boards: dict[str, BoardData] = field(default_factory=dict)
    """Board ids, placed in order."""
    missions: dict[str, MissionData] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return HOUSE_LABEL if self.source == "house" else "Owner pack (private, not redistributed)"

    def ship(self, key: str) -> ShipData:
        return self.ships[key]

    def version(self, key: str, version: str) -> VersionData:
        return self.ships[key].versions[version]  # type: ignore[index]

    def faction_tactics(self, faction: str) -> list[TacticData]:
        return [t for t in self.tactics.values() if t.faction == faction]

    def faction_pool(self, faction: str) -> list[str]:
        """Every copy of the faction's tactic cards (``copies_max`` each), in pack order."""
        return [t.id for t in self.faction_tactics(faction) for _ in range(t.copies_max)]


SECTIONS: dict[str, tuple[type[Model], str]] = {
    "ships": (ShipData, "key"),
    "tactics": (TacticData, "id"),
    "boards": (BoardData, "id"),
    "missions": (MissionData, "id"),
}


class PackDoc(BaseModel):
    """A Battleship Galaxies pack (rules doc "Owner packs"): ships, tactic cards, boards and missions. An owner
    pack may leave sections out; they come from the house pack. Every record is checked by its model; the
    references between sections (mission boards, fleets, decks, prepped cards) and the boards' geometry once
    every record is valid."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pack_id: Annotated[str, Field(min_length=1, max_length=48)] = Field(description="the pack's short name")
    content_source: Literal["house", "owner"] = Field(
        default="owner", description="house: the project's own content; owner: an owner's private cards")
    format: Annotated[str, Field(max_length=64)] | None = Field(default=None, description="a format label (ignored)")
    ships: list[ShipData] | None = Field(default=None, max_length=200, description="the ship cards (§6.1)")
    tactics: list[TacticData] | None = Field(default=None, max_length=400, description="the tactic cards (§6.2)")
    boards: list[BoardData] | None = Field(default=None, max_length=50, description="the boards (§6.4)")
    missions: list[MissionData] | None = Field(default=None, max_length=100, description="the missions (§6.3)")

    @model_validator(mode="before")
    @classmethod
    def _stamp(cls, data: Any) -> Any:
        """Records carry the pack's id and source unless they say otherwise."""
        if not isinstance(data, dict):
            return data
        out = dict(data)
        source = out.get("content_source", "owner")
        for section in SECTIONS:
            records = out.get(section)
            if isinstance(records, list):
                stamp = {"content_source": source}
                if isinstance(out.get("pack_id"), str) and _IDENT.fullmatch(out["pack_id"]):
                    stamp["pack_id"] = out["pack_id"]  # (a bad pack_id is one problem, of the pack, not of each record)
                out[section] = [{**stamp, **r} if isinstance(r, dict) else r for r in records]
        return out

    def pack(self, base: Pack | None, digest: str = "") -> Pack:
        """The pack's tables by key; sections left out come from ``base``."""
        pack = Pack(pack_id=self.pack_id, source=self.content_source, digest=digest)
        for section, (_, key) in SECTIONS.items():
            records = getattr(self, section)
            if records is None:
                setattr(pack, section, dict(getattr(base, section)) if base is not None else {})
            else:
                setattr(pack, section, {getattr(r, key): r for r in records})
        return pack

    def problems(self) -> list[content.Problem]:
        """Across records: ids used twice, records of another source, and the references between sections."""
        P = content.Problem
        out: list[P] = []
        base = bundled_pack("house") if self.content_source == "owner" else None
        for section, (_, key) in SECTIONS.items():
            records = getattr(self, section)
            if records is None:
                if base is None:
                    out.append(P(section, "section missing"))
                continue
            seen: set[str] = set()
            for i, r in enumerate(records):
                k = getattr(r, key)
                if k in seen:
                    out.append(P(f"{section}[{i}].{key}", f"{k!r} appears twice"))
                seen.add(k)
                if r.content_source != self.content_source:
                    out.append(P(f"{section}[{i}].content_source", f"must be {self.content_source!r} in this pack"))
        if out:
            return out
        pack = self.pack(base)
        index = {s: {getattr(r, SECTIONS[s][1]): i for i, r in enumerate(getattr(self, s) or [])} for s in SECTIONS}

        def at(section: str, key: str, fld: str) -> str:
            i = index[section].get(key)
            return f"{section}[{i}].{fld}" if i is not None else f"{section}.{key}.{fld}"

        for b in pack.boards.values():
            problem = board_problems(b)
            if problem:
                out.append(P(at("boards", b.id, problem[0]), problem[1]))
        for m in pack.missions.values():
            for b_id in m.boards:
                if b_id not in pack.boards:
                    out.append(P(at("missions", m.id, "boards"), f"unknown board {b_id!r}"))
            sides = {s.side: s.faction for s in m.seats}
            for side, rule in m.fleets.items():
                for e in rule.entries or []:
                    ship = pack.ships.get(e.ship)
                    where = at("missions", m.id, f"fleets.{side}.list")
                    if ship is None:
                        out.append(P(where, f"unknown ship {e.ship!r}"))
                    elif ship.faction != sides[side]:
                        out.append(P(where, f"{e.ship} is not a {sides[side]} ship (D-21)", "D-21"))
                    elif e.version not in ship.versions:
                        out.append(P(where, f"{e.ship} has no {e.version} version"))
            for side, deck in m.decks.items():
                lists = ([deck.cards] if deck.cards is not None else []) + list(deck.presets or [])
                for lst in lists:
                    problem = deck_problem(pack, sides[side], lst, exact=deck.mode == "constructed" or len(lst) == 30)
                    if problem:
                        out.append(P(at("missions", m.id, f"decks.{side}"), problem, "D-18" if "D-18" in problem else None))
            for side, cards in m.prepped.items():
                for c in cards:
                    t = pack.tactics.get(c)
                    if t is None or t.faction != sides[side]:
                        out.append(P(at("missions", m.id, f"prepped.{side}"), f"unknown {sides[side]} tactic card {c!r}"))
        return out


def _pack_error(problem: content.Problem, doc: Any, names: dict[str, str]) -> PackError:
    """The first problem as a :class:`PackError` naming the file, the record (``ship f54``) and the field."""
    parts = problem.path.replace("[", ".").replace("]", "").split(".") if problem.path else []
    if parts and parts[0] in SECTIONS:
        section, file = parts[0], names.get(parts[0], parts[0])
        if len(parts) >= 2 and parts[1].isdigit():
            i = int(parts[1])
            records = doc.get(section) if isinstance(doc, dict) else None
            rec = records[i] if isinstance(records, list) and i < len(records) else None
            key = SECTIONS[section][1]
            label = f"{section[:-1]} {rec.get(key, '#' + str(i)) if isinstance(rec, dict) else '#' + str(i)}"
            return PackError(file, label, ".".join(parts[2:]) or "(record)", problem.message)
        if len(parts) >= 3:  # a record of the base pack, named by key
            return PackError(file, f"{section[:-1]} {parts[1]}", ".".join(parts[2:]), problem.message)
        return PackError(file, section, section, problem.message)
    return PackError(names.get("pack", "pack"), "pack", problem.path or "(root)", problem.message)


def deck_problem(pack: Pack, faction: str, cards: list[str], exact: bool = True) -> str | None:
    """D-18: a constructed deck is exactly 30 own-faction cards, at most 3 per name (and at most
    the card's ``copies_max``). ``None`` when the deck is fine."""
    if exact and len(cards) != 30:
        return f"a deck has exactly 30 cards, not {len(cards)} (D-18)"
    counts: dict[str, int] = {}
    for c in cards:
        t = pack.tactics.get(c)
        if t is None or t.faction != faction:
            return f"{c!r} is not a {faction} tactic card"
        counts[c] = counts.get(c, 0) + 1
        if counts[c] > min(3, t.copies_max):
            return f"at most {min(3, t.copies_max)} copies of {c} (D-18)"
    return None


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


PACKS: dict[str, Pack] = {}


def build_pack(files: dict[str, Any], source: str, pack_id: str, names: dict[str, str] | None = None,
               base: Pack | None = None) -> Pack:
    """Validate the sections given in ``files`` (``{"ships": [...], ...}``) with :class:`PackDoc`; sections an
    owner pack omits come from ``base`` (the house pack). Everything is checked before the pack is returned; the
    first problem raises :class:`PackError` (:func:`pack_problems` lists them all)."""
    names = names or {s: f"{s}.json" for s in SECTIONS}
    digest = hashlib.sha256(_canonical({"source": source, "pack_id": pack_id, **files}).encode()).hexdigest()
    if digest in PACKS:
        return PACKS[digest]
    doc = {"pack_id": pack_id, "content_source": source, **files}
    obj, problems = content.check(PackDoc, doc)
    if obj is None or problems:
        raise _pack_error(problems[0], doc, {"pack": names.get("pack", "pack"), **names})
    assert isinstance(obj, PackDoc)
    pack = obj.pack(base, digest)
    PACKS[digest] = pack
    return pack


@cache
def bundled_pack(name: str = "house") -> Pack:
    """A pack shipped in ``data/<name>/`` (only ``house`` is bundled)."""
    if name != "house":
        raise ConfigError(f"unknown bundled pack {name!r}; bundled: house (owner packs are passed as content)")
    return build_pack(_house_files(name), "house", "house", {s: f"data/{name}/{s}.json" for s in SECTIONS})


def _house_files(name: str) -> dict[str, Any]:
    root = resources.files("spacetable.games.galaxies").joinpath("data", name)
    return {s: json.loads(root.joinpath(f"{s}.json").read_text(encoding="utf-8")) for s in SECTIONS}


def load_pack_content(content: Any, file: str = "owner pack") -> Pack:
    """An owner pack passed as content: ``{"pack_id": ..., "ships": [...], "tactics": [...],
    "boards"?: [...], "missions"?: [...]}``. Missing sections are taken from the house pack.
    Raises :class:`PackError` naming ``file``, the record and the field."""
    if not isinstance(content, dict):
        raise PackError(file, "pack", "(root)", "a pack is a JSON object")
    pack_id = content.get("pack_id")
    files = {k: v for k, v in content.items() if k not in ("pack_id", "content_source", "format")}
    return build_pack(files, "owner", pack_id,  # type: ignore[arg-type]
                      {"pack": file, **{s: f"{file}#{s}" for s in SECTIONS}}, base=bundled_pack("house"))


#: The catalogue of packs (:mod:`spacetable.core.catalog`): the bundled ``data/house/`` and an operator's
#: ``DATA/galaxies/packs/<name>/`` folders, each holding some of ``ships.json``, ``tactics.json``,
#: ``boards.json``, ``missions.json`` (missing sections come from the house set).
def _folder_files(name: str) -> dict[str, Any]:
    """The sections of a catalogue pack's folder (by name, never a path), size-capped."""
    folder = catalog.locate(PACK_KIND, name)
    files: dict[str, Any] = {}
    size = 0
    for section in SECTIONS:
        path = folder / f"{section}.json"
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
            size += len(text.encode("utf-8"))
            files[section] = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            raise PackError(f"{name}/{section}.json", "pack", "(file)", "not readable JSON") from None
        if size > PACK_KIND.max_bytes:
            raise catalog.CatalogError(f"card pack {name!r} is larger than {PACK_KIND.max_bytes} bytes")
    return files


def _bundled_document(name: str) -> dict[str, Any]:
    """A catalogue pack as content (what ``pack_content`` carries): ``{"pack_id": name, sections...}``."""
    return {"pack_id": name, **(_house_files("house") if name == "house" else _folder_files(name))}


def _config(doc: Any) -> dict[str, Any]:
    return {"pack_content": doc}


PACK_KIND = catalog.register(catalog.Kind("galaxies", "packs", Path(__file__).with_name("data"), "",
                                          max_bytes=512 * 1024, label="card pack", model=PackDoc,
                                          load=_bundled_document, config=_config))


def named_pack(name: str) -> Pack:
    """A pack of the catalogue, by name (never a path): ``house`` or an operator's owner pack."""
    if name == "house":
        return bundled_pack("house")
    return load_pack_content({"pack_id": name, **_folder_files(name)}, name)


def pack_of_config(config: dict[str, Any]) -> Pack:
    """The pack a match configuration names (``pack``, from the catalogue) or carries (``pack_content``)."""
    content = config.get("pack_content")
    if content:
        catalog.check_content(PACK_KIND, content)
        label = content.get("pack_id", "?") if isinstance(content, dict) else "?"
        return load_pack_content(content, f"pack_content ({label})")
    return named_pack(str(config.get("pack", "house")))
