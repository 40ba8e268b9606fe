"""Card-set loading and validation (TH-0.3, TH-C1, TH-C2, TH-C4, TH-C5, TH-C6).

A set is a folder with ``set.json`` (manifest) naming the files ``cities``,
``ships``, ``stations``, ``armies``, ``compensations``, ``missions`` and ``rules``.
Records with ``copies: n`` expand to instances ``id#1..n`` (TH-C1). Every field and the hard checks (TH-C5) are
declared once in :mod:`.models`; a failing set raises :class:`CardSetError` with every problem listed; guidelines
(TH-C6) only produce warnings. The shipped set is ``house`` (original content, clearly labelled).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from spacetable.core import catalog, content

from .effects import CITY_TYPES, REGIONS, compile_passives
from .models import CardSetDoc, Rules

HOUSE_DIR = Path(__file__).parent / "data" / "house"
HOUSE_LABEL = "House card set — not the published cards"

#: the ``rules.json`` defaults (TH-C4), as :class:`.models.Rules` declares them
DEFAULT_RULES: dict[str, Any] = Rules().model_dump()

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
    :class:`CardSetError` listing every hard-check failure (TH-C5: the models of :mod:`.models` check every field,
    :meth:`.models.CardSetDoc.problems` the set as a whole); guideline issues go to ``CardSet.warnings`` (TH-C6)."""
    doc = folder if isinstance(folder, dict) else set_document(folder)
    obj, problems = content.check(CardSetDoc, doc)
    if obj is None or problems:
        manifest = doc.get("set")
        set_id = manifest.get("set_id") if isinstance(manifest, dict) else None
        raise CardSetError(f"card set {set_id!r} is invalid:\n  - " + "\n  - ".join(_where(doc, p) for p in problems))
    assert isinstance(obj, CardSetDoc)
    return build_set(obj)


def _where(doc: dict[str, Any], problem: content.Problem) -> str:
    """A problem as the loader has always named it: by record (``ship reaper_tripod: ...``), never by path."""
    parts = problem.path.replace("[", ".").replace("]", "").split(".") if problem.path else []
    if len(parts) >= 2 and parts[0] in _LABELS and parts[1].isdigit():
        records = doc.get(parts[0])
        i = int(parts[1])
        rec = records[i] if isinstance(records, list) and i < len(records) else None
        rid = rec.get("id", f"#{i}") if isinstance(rec, dict) else f"#{i}"
        rest = ".".join(parts[2:])
        return f"{_LABELS[parts[0]]} {rid}: {rest + ': ' if rest else ''}{problem.message}"
    return str(problem)


_LABELS = {"cities": "city", "ships": "ship", "stations": "station", "armies": "army", "compensations": "compensation",
           "missions": "mission"}


def build_set(doc: CardSetDoc) -> CardSet:
    """The playing tables of a valid set: records expanded to their instances ``id#1..n`` (TH-C1)."""
    source = doc.manifest.source

    def ids(rec: Any) -> list[str]:
        return [f"{rec.id}#{i}" for i in range(1, rec.copies + 1)]

    cities = {c.id: City(c.id, c.name, c.name_ru or c.name, c.region, c.city_type, c.raid, c.catch, c.catch_draw,
                         c.min_players, c.deck, c.source or source) for c in doc.cities}
    ships: dict[str, Ship] = {}
    deck_of: dict[str, str] = {}
    for r in doc.ships:
        abilities = tuple(dict(a) for a in r.abilities)
        for iid in ids(r):
            ships[iid] = Ship(iid, r.id, r.name, r.name_ru or r.name, r.kind, r.deck, r.strength, r.fuel, r.price,
                              abilities, r.source or source,
                              immortal=any(a["op"] == "immortal" for a in abilities),
                              relocate_self=any(a["op"] == "relocate_self" for a in abilities),
                              raid_bonus=sum(a["amount"] for a in abilities if a["op"] == "raid_bonus"))
            deck_of[iid] = r.deck
    stations: dict[str, Station] = {}
    for st in doc.stations:
        for iid in ids(st):
            stations[iid] = Station(iid, st.id, st.name, st.name_ru or st.name, st.deck, st.price, dict(st.effect),
                                    st.token, st.source or source)
            deck_of[iid] = st.deck
    armies = {iid: Army(iid, a.id, a.name or a.id, a.name_ru or a.name or a.id, a.strength)
              for a in doc.armies for iid in ids(a)}
    comps = {iid: Compensation(iid, c.id, c.name, c.name_ru or c.name, dict(c.effect))
             for c in doc.compensations for iid in ids(c)}
    missions = {m.id: Mission(m.id, m.name, m.name_ru or m.name, m.kind, m.target, m.min_players) for m in doc.missions}
    rules = doc.rules.model_dump()
    counts = [f"count {p.message}" for p in doc.count_problems()] if doc.manifest.allow_count_mismatch else []
    warnings = counts + guideline_warnings(cities, ships, stations, armies, comps)
    label = HOUSE_LABEL if source == "house" else doc.manifest.name
    return CardSet(doc.manifest.set_id, doc.manifest.name, source, label, cities, ships, stations, armies, comps,
                   missions, rules, warnings, deck_of)


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
def _bundled_document(name: str) -> dict[str, Any]:
    return set_document(catalog.locate(CARD_SETS, name))


def _config(doc: Any) -> dict[str, Any]:
    return {"card_set": "custom", "card_set_content": doc}


CARD_SETS = catalog.register(catalog.Kind("tremble", "card_sets", HOUSE_DIR.parent, "", max_bytes=512 * 1024,
                                          label="card set", model=CardSetDoc, load=_bundled_document, config=_config))
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
