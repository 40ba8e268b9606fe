"""Card-set loading and validation (TH-0.3, TH-C1, TH-C2, TH-C4, TH-C5, TH-C6).

A set is a folder with ``set.json`` (manifest) naming the files ``cities``,
``ships``, ``stations``, ``armies``, ``compensations``, ``missions`` and ``rules``.
Records with ``copies: n`` expand to instances ``id#1..n`` (TH-C1). Hard checks (TH-C5)
raise :class:`CardSetError` with every problem listed; guidelines (TH-C6) only
produce warnings. The shipped set is ``house`` (original content, clearly labelled).

This module is longer than 500 lines because the loader checks every field of every record kind
in one place (TH-C2, TH-C5), so that one error lists every problem of a set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from spacetable.core import catalog

from .effects import CITY_TYPES, KINDS, REGIONS, EffectError, check_effect, compile_passives

HOUSE_DIR = Path(__file__).parent / "data" / "house"
SOURCES = ("house", "owner", "fixture")
HOUSE_LABEL = "House card set — not the published cards"

#: the ``rules.json`` defaults (TH-C4)
DEFAULT_RULES: dict[str, Any] = {
    "turns": 10,
    "red_from_turn": 6,
    "fuel_by_turn": [4, 5, 6, 7, 8, 9, 10, 11, 12, 12],
    "cities_per_turn": {"2": 3, "3": 4, "4": 5, "5": 6},
    "missions_shown": {"2": 3, "3": 3, "4": 4, "5": 5},
    "start_humans": 100000,
    "draw_per_turn": 2,
    "buy_max": 2,
    "max_ships": 5,
    "max_stations": 2,
    "mission_prizes": [200000, 100000],
    "split_unit": 10000,
    "credit": {"amount": 50000, "repay": 60000, "max_humans": 50000, "max_ships": 2},
}

#: fuel tables (TH-0.2, TH-D1: the rulebook's fuel text contradicts itself; the default is our reading)
FUEL_PRESETS: dict[str, list[int]] = {
    "default": [4, 5, 6, 7, 8, 9, 10, 11, 12, 12],
    "late_step": [4, 5, 6, 7, 8, 9, 10, 11, 11, 12],
    "linear13": [4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    "from3": [3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
}


class CardSetError(ValueError):
    """A card set fails a hard check (TH-C5); the message lists every problem."""


class _HasEffect:
    """Cards whose ``effect`` is an op of the effect vocabulary."""

    effect: dict[str, Any]

    @cached_property
    def op(self) -> str:
        """The effect's op, read once (a hot lookup in simulations; the effect is never mutated)."""
        return str(self.effect["op"])


@dataclass(frozen=True)
class City:
    id: str
    name: str
    name_ru: str
    region: str
    city_type: str
    raid: int
    catch: int
    catch_draw: int
    min_players: int
    deck: str
    source: str


@dataclass(frozen=True)
class Ship:
    id: str
    base_id: str
    name: str
    name_ru: str
    kind: str
    deck: str
    strength: int
    fuel: int
    price: int
    abilities: tuple[dict[str, Any], ...]
    source: str
    immortal: bool = False
    relocate_self: bool = False
    raid_bonus: int = 0

    @cached_property
    def passives(self) -> tuple[tuple[int, Any, int], ...]:
        """The passive abilities as ``(code, argument, n)`` (see :data:`effects.PASSIVE_CODES`), compiled
        once for :func:`effects.group_strength` (TH-9.1); other abilities are left out."""
        return compile_passives(self.abilities)


@dataclass(frozen=True)
class Station(_HasEffect):
    id: str
    base_id: str
    name: str
    name_ru: str
    deck: str
    price: int
    effect: dict[str, Any]
    token: bool
    source: str


@dataclass(frozen=True)
class Army:
    id: str
    base_id: str
    name: str
    name_ru: str
    strength: int


@dataclass(frozen=True)
class Compensation(_HasEffect):
    id: str
    base_id: str
    name: str
    name_ru: str
    effect: dict[str, Any]


@dataclass(frozen=True)
class Mission:
    id: str
    name: str
    name_ru: str
    kind: str
    target: str
    min_players: int


@dataclass
class CardSet:
    set_id: str
    name: str
    source: str
    label: str
    cities: dict[str, City]
    ships: dict[str, Ship]
    stations: dict[str, Station]
    armies: dict[str, Army]
    comps: dict[str, Compensation]
    missions: dict[str, Mission]
    rules: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    deck_of: dict[str, str] = field(default_factory=dict)
    #: memo of group strengths without contest modifiers, (city, vs_army, *ships) -> strength (TH-9.1);
    #: filled by :func:`battle.strength`, bounded there, never part of the set's identity
    strength_memo: dict[tuple[Any, ...], int] = field(default_factory=dict, init=False, repr=False, compare=False)
    #: memo of the sorted card lists a setup for a player count starts from (TH-2), filled by ``turns.setup``
    setup_memo: dict[int, tuple[list[str], ...]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def self_movers(self) -> frozenset[str]:
        """Ship ids carrying ``relocate_self`` (TH-7.2), derived once from the (never mutated) ship table."""
        return frozenset(cid for cid, ship in self.ships.items() if ship.relocate_self)

    @cached_property
    def ship_fuel(self) -> dict[str, int]:
        """Ship id -> fuel cost (TH-6.3), derived once."""
        return {cid: ship.fuel for cid, ship in self.ships.items()}

    @cached_property
    def station_fuel(self) -> dict[str, int]:
        """Station id -> ``n`` of its ``extra_fuel`` effect (TH-6.3), derived once."""
        return {cid: int(st.effect["n"]) for cid, st in self.stations.items() if st.op == "extra_fuel"}

    @cached_property
    def comp_fuel(self) -> dict[str, int]:
        """Compensation id -> ``n`` of its ``extra_fuel`` effect (TH-6.3), derived once."""
        return {cid: int(cp.effect["n"]) for cid, cp in self.comps.items() if cp.op == "extra_fuel"}

    @cached_property
    def support_stations(self) -> frozenset[str]:
        """Station ids whose effect is ``city_support`` (TH-6.4), derived once."""
        return frozenset(cid for cid, st in self.stations.items() if st.op == "city_support")

    def card_name(self, cid: str, lang: str = "en") -> str:
        for table in (self.ships, self.stations, self.cities, self.comps, self.armies, self.missions):
            if cid in table:
                rec = table[cid]
                return str(rec.name_ru if lang == "ru" else rec.name)
        return cid

    def price(self, cid: str) -> int:
        ship = self.ships.get(cid)
        if ship is not None:
            return ship.price
        return self.stations[cid].price

    def base_id(self, cid: str) -> str:
        return cid.split("#", 1)[0]


def _expand(rec: dict[str, Any]) -> list[str]:
    copies = rec.get("copies", 1)
    return [f"{rec['id']}#{i}" for i in range(1, copies + 1)]


def _money(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0 and value % 10000 == 0


def _need(rec: dict[str, Any], keys: dict[str, Any], where: str, errors: list[str]) -> bool:
    ok = True
    for key, spec in keys.items():
        if key not in rec:
            errors.append(f"{where}: missing field {key!r}")
            ok = False
            continue
        v = rec[key]
        if spec is int:
            if not isinstance(v, int) or isinstance(v, bool):
                errors.append(f"{where}: {key} must be an integer, got {v!r}")
                ok = False
        elif spec is str:
            if not isinstance(v, str) or not v:
                errors.append(f"{where}: {key} must be a non-empty string")
                ok = False
        elif spec is bool:
            if not isinstance(v, bool):
                errors.append(f"{where}: {key} must be true or false")
                ok = False
        elif v not in spec:
            errors.append(f"{where}: {key} must be one of {list(spec)}, got {v!r}")
            ok = False
    return ok


#: The parts of a card set: a folder holds ``set.json`` and one file per part; a document (a player's own set
#: sent in a configuration as ``card_set_content``) holds the manifest under ``"set"`` and each part by name.
PARTS = ("cities", "ships", "stations", "armies", "compensations", "missions", "rules")


class _Source:
    """Where a card set's parts come from: a folder (bundled or the operator's catalogue) or a JSON document.
    Problems are reported by part name, never by path (TH-0.3)."""

    def __init__(self, where: str | Path | dict[str, Any]) -> None:
        self.doc = where if isinstance(where, dict) else None
        self.folder = None if isinstance(where, dict) else Path(where)
        self.files: dict[str, Any] = {}

    def manifest(self, errors: list[str]) -> Any:
        if self.doc is not None:
            return self.doc.get("set")
        return self._file("set.json", errors)

    def part(self, name: str, errors: list[str]) -> Any:
        if self.doc is not None:
            return self.doc.get(name)
        fname = self.files.get(name, f"{name}.json")
        if not isinstance(fname, str) or not fname or "/" in fname or "\\" in fname or fname.startswith("."):
            errors.append(f"set.json: files.{name} must name a file of the set's folder")
            return None
        if name == "rules" and not (self.folder / fname).exists():  # type: ignore[operator]
            return None
        return self._file(fname, errors)

    def _file(self, fname: str, errors: list[str]) -> Any:
        assert self.folder is not None
        try:
            return json.loads((self.folder / fname).read_text(encoding="utf-8"))
        except FileNotFoundError:
            errors.append(f"{fname}: file not found")
        except (OSError, UnicodeDecodeError):
            errors.append(f"{fname}: cannot be read")
        except json.JSONDecodeError as exc:
            errors.append(f"{fname}: invalid JSON (line {exc.lineno}, column {exc.colno})")
        return None


def set_document(folder: str | Path) -> dict[str, Any]:
    """The JSON document of a card set folder (what ``card_set_content`` carries): ``{"set": manifest, part: ...}``.
    The command line reads a local folder with this; a server never reads a folder a client names."""
    src = _Source(folder)
    errors: list[str] = []
    manifest = src.manifest(errors)
    if isinstance(manifest, dict):
        src.files = manifest.get("files", {}) if isinstance(manifest.get("files"), dict) else {}
    doc: dict[str, Any] = {"set": manifest}
    for name in PARTS:
        data = src.part(name, errors)
        if data is not None:
            doc[name] = data
    if errors:
        raise CardSetError("the card set cannot be read:\n  - " + "\n  - ".join(errors))
    return doc


def load_set(folder: str | Path | dict[str, Any]) -> CardSet:
    """Load and validate a card set: a folder, or its JSON document (:func:`set_document`). Raises
    :class:`CardSetError` listing every hard-check failure (TH-C5); guideline issues go to ``CardSet.warnings``
    (TH-C6)."""
    src = _Source(folder)
    errors: list[str] = []
    manifest = src.manifest(errors)
    if not isinstance(manifest, dict):
        raise CardSetError("; ".join(errors) or "set.json: the manifest must be an object")
    _need(manifest, {"set_id": str, "name": str, "source": SOURCES}, "set.json", errors)
    files = manifest.get("files", {})
    src.files = files if isinstance(files, dict) else {}
    source = manifest.get("source", "owner")
    allow_mismatch = bool(manifest.get("allow_count_mismatch", False))

    def part(name: str) -> list[dict[str, Any]]:
        data = src.part(name, errors)
        if data is None:
            if src.doc is not None:
                errors.append(f"{name}: missing")
            return []
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            errors.append(f"{name}: must be a list of objects")
            return []
        return data

    count_problems: list[str] = []
    cities: dict[str, City] = {}
    for rec in part("cities"):
        where = f"city {rec.get('id', '?')}"
        if not _need(
            rec,
            {
                "id": str,
                "name": str,
                "region": REGIONS,
                "city_type": CITY_TYPES,
                "raid": int,
                "catch": int,
                "catch_draw": (1, 2, 3),
                "min_players": (2, 3, 4, 5),
                "deck": ("blue", "red"),
            },
            where,
            errors,
        ):
            continue
        if not (_money(rec["raid"]) and _money(rec["catch"])):
            errors.append(f"{where}: raid and catch must be non-negative multiples of 10,000")
        if rec["catch"] <= rec["raid"]:
            errors.append(f"{where}: catch must exceed raid")
        if rec["id"] in cities:
            errors.append(f"{where}: duplicate id")
        cities[rec["id"]] = City(
            rec["id"],
            rec["name"],
            rec.get("name_ru", rec["name"]),
            rec["region"],
            rec["city_type"],
            rec["raid"],
            rec["catch"],
            rec["catch_draw"],
            rec["min_players"],
            rec["deck"],
            rec.get("source", source),
        )
    ships: dict[str, Ship] = {}
    deck_of: dict[str, str] = {}
    for rec in part("ships"):
        where = f"ship {rec.get('id', '?')}"
        if not _need(
            rec,
            {
                "id": str,
                "name": str,
                "kind": KINDS,
                "deck": ("blue", "red", "training"),
                "strength": int,
                "fuel": int,
                "price": int,
            },
            where,
            errors,
        ):
            continue
        abilities = []
        try:
            abilities = [check_effect(e, "ship", where) for e in rec.get("abilities", [])]
        except EffectError as exc:
            errors.append(str(exc))
        if not _money(rec["price"]):
            errors.append(f"{where}: price must be a non-negative multiple of 10,000")
        if rec["fuel"] < 1 or (rec["deck"] == "training" and rec["fuel"] != 1):
            errors.append(f"{where}: fuel must be >= 1 (training saucers: exactly 1)")
        if rec["deck"] == "training" and not any(a["op"] == "immortal" for a in abilities):  # TH-D11
            errors.append(f"{where}: training saucers must be immortal")
        for iid in _expand(rec):
            ships[iid] = Ship(
                iid,
                rec["id"],
                rec["name"],
                rec.get("name_ru", rec["name"]),
                rec["kind"],
                rec["deck"],
                rec["strength"],
                rec["fuel"],
                rec["price"],
                tuple(abilities),
                rec.get("source", source),
                immortal=any(a["op"] == "immortal" for a in abilities),
                relocate_self=any(a["op"] == "relocate_self" for a in abilities),
                raid_bonus=sum(a["amount"] for a in abilities if a["op"] == "raid_bonus"),
            )
            deck_of[iid] = rec["deck"]
    stations: dict[str, Station] = {}
    for rec in part("stations"):
        where = f"station {rec.get('id', '?')}"
        if not _need(rec, {"id": str, "name": str, "deck": ("blue", "red"), "price": int}, where, errors):
            continue
        try:
            eff = check_effect(rec.get("effect"), "station", where)
        except EffectError as exc:
            errors.append(str(exc))
            continue
        token = bool(rec.get("token", False))
        if token != (eff["op"] == "city_support"):
            errors.append(f"{where}: token must be true exactly for city_support stations")
        if not _money(rec["price"]):
            errors.append(f"{where}: price must be a non-negative multiple of 10,000")
        for iid in _expand(rec):
            stations[iid] = Station(
                iid,
                rec["id"],
                rec["name"],
                rec.get("name_ru", rec["name"]),
                rec["deck"],
                rec["price"],
                eff,
                token,
                rec.get("source", source),
            )
            deck_of[iid] = rec["deck"]
    armies: dict[str, Army] = {}
    for rec in part("armies"):
        where = f"army {rec.get('id', '?')}"
        if not _need(rec, {"id": str, "strength": int}, where, errors):
            continue
        if rec["strength"] < 0:
            errors.append(f"{where}: strength must be >= 0")
        for iid in _expand(rec):
            armies[iid] = Army(
                iid, rec["id"], rec.get("name", rec["id"]), rec.get("name_ru", rec.get("name", rec["id"])), rec["strength"]
            )
    comps: dict[str, Compensation] = {}
    for rec in part("compensations"):
        where = f"compensation {rec.get('id', '?')}"
        if not _need(rec, {"id": str, "name": str}, where, errors):
            continue
        try:
            eff = check_effect(rec.get("effect"), "comp", where)
        except EffectError as exc:
            errors.append(str(exc))
            continue
        for iid in _expand(rec):
            comps[iid] = Compensation(iid, rec["id"], rec["name"], rec.get("name_ru", rec["name"]), eff)
    missions: dict[str, Mission] = {}
    for rec in part("missions"):
        where = f"mission {rec.get('id', '?')}"
        if not _need(
            rec,
            {"id": str, "name": str, "kind": ("region", "city_type"), "target": str, "min_players": (2, 3, 4, 5)},
            where,
            errors,
        ):
            continue
        allowed = REGIONS if rec["kind"] == "region" else CITY_TYPES
        if rec["target"] not in allowed:
            errors.append(f"{where}: target must be one of {list(allowed)}")
        missions[rec["id"]] = Mission(
            rec["id"], rec["name"], rec.get("name_ru", rec["name"]), rec["kind"], rec["target"], rec["min_players"]
        )
    rules = dict(DEFAULT_RULES)
    rdata = src.part("rules", errors)
    if rdata is not None:
        if not isinstance(rdata, dict):
            errors.append("rules: must be an object")
        else:
            for key in rdata:
                if key not in DEFAULT_RULES:
                    errors.append(f"rules.json: unknown key {key!r}")
            rules.update({k: v for k, v in rdata.items() if k in DEFAULT_RULES})
    if len(rules["fuel_by_turn"]) != rules["turns"]:
        errors.append("rules.json: fuel_by_turn needs one value per turn")

    # ---- hard checks (TH-C5; the counts of TH-1.1 and TH-15)
    training = [s for s in ships.values() if s.deck == "training"]
    deck_cards = [c for c in list(ships.values()) + list(stations.values()) if c.deck != "training"]

    def count(label: str, got: int, want: int) -> None:
        if got != want:
            count_problems.append(f"{label}: {got} (expected {want})")

    count("cities", len(cities), 60)
    count("ship-deck cards", len(training) + len(deck_cards), 105)
    count("training saucers", len(training), 5)
    count("armies", len(armies), 20)
    count("compensations", len(comps), 20)
    count("missions", len(missions), 9)
    for mark, want in ((2, 30), (3, 10), (4, 10), (5, 10)):
        group = [c for c in cities.values() if c.min_players == mark]
        if not allow_mismatch and len(group) != want:
            errors.append(f"cities marked {mark}{'+' if mark > 2 else ''}: {len(group)} (expected {want})")
        blue = sum(1 for c in group if c.deck == "blue")
        if 2 * blue != len(group):
            errors.append(f"cities marked {mark}: {blue} blue of {len(group)}; each mark group must be half blue (TH-2.2)")
    for p in range(2, 6):
        eligible = sum(1 for m in missions.values() if m.min_players <= p)
        shown = int(rules["missions_shown"][str(p)])
        if eligible < shown:
            errors.append(f"{p} players: {eligible} eligible missions, {shown} needed")
    if count_problems:
        if allow_mismatch:
            pass
        else:
            errors.extend(count_problems)
    if errors:
        raise CardSetError(f"card set {manifest.get('set_id')!r} is invalid:\n  - " + "\n  - ".join(errors))
    warnings = [f"count {p}" for p in count_problems] + guideline_warnings(cities, ships, stations, armies, comps)
    label = HOUSE_LABEL if source == "house" else str(manifest.get("name"))
    return CardSet(
        manifest["set_id"],
        manifest["name"],
        source,
        label,
        cities,
        ships,
        stations,
        armies,
        comps,
        missions,
        rules,
        warnings,
        deck_of,
    )


_PASS_CACHE: dict[tuple[int, int], float] = {}


def army_pass_probability(armies: dict[str, Army], strength: int) -> float:
    """Exact probability over 2d6 of passing one random army card (no-army cards included)."""
    key = (id(armies), strength)
    if key not in _PASS_CACHE:
        _PASS_CACHE[key] = _army_pass(armies, strength)
    return _PASS_CACHE[key]


def _army_pass(armies: dict[str, Army], strength: int) -> float:
    two = [a + b for a in range(1, 7) for b in range(1, 7)]
    total = 0.0
    for army in armies.values():
        if army.strength == 0:
            total += 1.0
        else:
            total += sum(1 for d in two if strength + d >= army.strength) / 36
    return total / max(1, len(armies))


def guideline_warnings(
    cities: dict[str, City],
    ships: dict[str, Ship],
    stations: dict[str, Station],
    armies: dict[str, Army],
    comps: dict[str, Compensation],
) -> list[str]:
    """House-set guidelines (TH-C6): returned as warnings, never errors."""
    out: list[str] = []
    for ctype in CITY_TYPES:
        n = sum(1 for c in cities.values() if c.city_type == ctype)
        if n != 20:
            out.append(f"{n} {ctype} cities (guideline 20)")
    for region in REGIONS:
        n = sum(1 for c in cities.values() if c.region == region)
        if not 6 <= n <= 14:
            out.append(f"{n} cities in {region} (guideline 6-14)")
    for c in cities.values():
        if c.catch - c.raid < 20000:
            out.append(f"city {c.id}: catch - raid < 20,000")
    p12 = army_pass_probability(armies, 12)
    p22 = army_pass_probability(armies, 22)
    if armies and not 0.55 <= p12 <= 0.70:
        out.append(f"army pass probability at strength 12 is {p12:.3f} (guideline 0.55-0.70)")
    if armies and not 0.85 <= p22 <= 0.97:
        out.append(f"army pass probability at strength 22 is {p22:.3f} (guideline 0.85-0.97)")
    for colour in ("blue", "red"):
        n_st = sum(1 for s in stations.values() if s.deck == colour)
        if not 6 <= n_st <= 8:
            out.append(f"{n_st} {colour} stations (guideline 6-8)")
    for s in ships.values():
        if len(s.abilities) > 2 and s.deck != "training":
            out.append(f"ship {s.base_id}: more than 2 abilities")
    return sorted(set(out))


#: The catalogue of card sets: bundled ``data/<name>/`` (``house``) and the operator's ``DATA/tremble/card_sets/<name>/``.
CARD_SETS = catalog.register(catalog.Kind("tremble", "card_sets", HOUSE_DIR.parent, "", max_bytes=512 * 1024,
                                          label="card set"))
#: Loaded sets by config key; bounded: at most ``MAX_CACHED`` sets besides the pinned ones (the oldest go first).
_CACHE: dict[str, CardSet] = {}
_PINNED: set[str] = {"house"}
MAX_CACHED = 16


def content_key(doc: Any) -> str:
    """The config key of a player's own set sent as a JSON document: its canonical JSON text (so equal content
    shares one cache entry, and a state's key alone is enough to rebuild the set after the cache dropped it)."""
    catalog.check_content(CARD_SETS, doc)
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def get_set(key: str = "house") -> CardSet:
    """The card set for a config key: a catalogue name (``house``, an operator's set) or the canonical JSON
    document of a player's own set (:func:`content_key`). Cached, bounded (TH-0.3)."""
    cards = _CACHE.get(key)
    if cards is None:
        if key.startswith("{"):
            try:
                doc = json.loads(key)
            except json.JSONDecodeError:
                raise CardSetError("the card set document is not JSON") from None
            if not isinstance(doc, dict):
                raise CardSetError("a card set document is a JSON object")
            cards = load_set(doc)
        else:
            cards = load_set(catalog.locate(CARD_SETS, key))
        unpinned = [k for k in _CACHE if k not in _PINNED]
        for old in unpinned[: max(0, len(unpinned) - MAX_CACHED + 1)]:
            del _CACHE[old]
        _CACHE[key] = cards
    return cards


def register_set(key: str, cards: CardSet) -> None:
    """Make an already-loaded set available under ``key`` (tests register fixture sets; never dropped)."""
    _PINNED.add(key)
    _CACHE[key] = cards
