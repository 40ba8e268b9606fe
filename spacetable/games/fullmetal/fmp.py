"""The ``.fmp`` map file format ("Map files" in the rules doc: reading and writing).

A file is Windows-1252 text with ``<FMP ...>``, a ``<CARTE>`` terrain block, an
optional ``<REPARTITION>`` ore block and the optional spacetable ``<ZONES>`` block.
Terrain characters: ``.`` sea, ``*`` reef, ``%`` swamp, ``$`` plain, ``#`` mountain,
``?`` off-map (FM-1.1).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from spacetable.core import catalog
from spacetable.core.content import ContentError, Problem

TERRAIN_CHARS = ".*%$#?"
#: The largest number of rows or columns of a map read from content (a bound for maps sent by players).
MAX_SIDE = 128
FRENCH_MONTHS = (
    "Janvier", "Février", "Mars", "Avril", "Mai", "Juin",
    "Juillet", "Août", "Septembre", "Octobre", "Novembre", "Décembre",
)
_ATTR = re.compile(r'(\w+)=(?:"([^"]*)"|(\S+?))(?=[\s>]|$)')
_TAG = re.compile(r"^<(/?)(\w+)([^>]*)>\s*$")


class FmpError(ValueError):
    """A malformed ``.fmp`` file."""


@dataclass
class FmpMap:
    """A map: ``terrain`` rows (strings of width ``width``), optional ore and zone rows."""

    width: int
    height: int
    terrain: list[str]
    ore: list[str] | None = None
    zones: list[str] | None = None
    attrs: dict[str, str] = field(default_factory=dict)

    def cell(self, x: int, y: int) -> str:
        return self.terrain[y][x]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in self.terrain:
            for ch in row:
                out[ch] = out.get(ch, 0) + 1
        return out

    def ore_cells(self) -> list[tuple[int, int, str]]:
        """``(x, y, char)`` of every ore of the ``REPARTITION`` layer."""
        if self.ore is None:
            return []
        return [(x, y, ch) for y, row in enumerate(self.ore) for x, ch in enumerate(row) if ch != "."]


def parse_attrs(text: str) -> dict[str, str]:
    """Attributes ``Name=value`` or ``Name="value"``; sizes may have any number of digits."""
    return {m.group(1): (m.group(2) if m.group(2) is not None else m.group(3)) for m in _ATTR.finditer(text)}


def parse_fmp(data: bytes | str) -> FmpMap:
    """Parse ``.fmp`` content (bytes are decoded as Windows-1252; CRLF or LF)."""
    try:
        text = data.decode("cp1252") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise FmpError("not Windows-1252 text") from None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header: dict[str, str] = {}
    blocks: dict[str, tuple[dict[str, str], list[str]]] = {}
    current: str | None = None
    cur_attrs: dict[str, str] = {}
    rows: list[str] = []
    for raw in lines:
        line = raw.strip()
        if not line and current is None:
            continue
        m = _TAG.match(line)
        if m and (current is None or (m.group(1) == "/" and m.group(2) == current)):
            closing, name, rest = m.group(1) == "/", m.group(2).upper(), m.group(3)
            if name == "FMP":
                if not closing:
                    header = parse_attrs(rest)
                continue
            if closing:
                if current is not None:
                    blocks[current] = (cur_attrs, rows)
                current, rows = None, []
                continue
            current, cur_attrs, rows = name, parse_attrs(rest), []
            continue
        if current is None:
            if line:
                raise FmpError(f"unexpected line outside blocks: {line[:40]!r}")
            continue
        rows.append(raw.rstrip("\n"))
    if current is not None:
        raise FmpError(f"block {current} is not closed")
    if "CARTE" not in blocks:
        raise FmpError("no CARTE block")
    for name in blocks:
        if name not in ("CARTE", "REPARTITION", "ZONES"):
            warnings.warn(f"fmp: unknown block {name} skipped", stacklevel=2)
    attrs, carte = blocks["CARTE"]
    try:
        height, width = int(attrs["Lignes"]), int(attrs["Colonnes"])
    except (KeyError, ValueError) as exc:
        raise FmpError("CARTE needs integer Lignes and Colonnes") from exc
    if not (1 <= height <= MAX_SIDE and 1 <= width <= MAX_SIDE):
        raise FmpError(f"CARTE: Lignes and Colonnes must be in 1..{MAX_SIDE}")
    terrain = _grid(carte, width, height, TERRAIN_CHARS, "CARTE", pad="?")
    ore = zones = None
    if "REPARTITION" in blocks:
        ore = _grid(blocks["REPARTITION"][1], width, height, None, "REPARTITION", pad=".")
    if "ZONES" in blocks:
        zones = _grid(blocks["ZONES"][1], width, height, None, "ZONES", pad=".")
    return FmpMap(width, height, terrain, ore, zones, header)


def _grid(rows: list[str], width: int, height: int, allowed: str | None, name: str, pad: str) -> list[str]:
    rows = [r.rstrip(" \t") for r in rows]
    while rows and not rows[-1]:
        rows.pop()
    if len(rows) != height:
        raise FmpError(f"{name}: expected {height} rows, found {len(rows)}")
    out = []
    for y, row in enumerate(rows):
        if len(row) > width:
            raise FmpError(f"{name}: row {y} is longer than {width}")
        if len(row) < width:
            warnings.warn(f"fmp: {name} row {y} padded with {pad!r}", stacklevel=3)
            row = row + pad * (width - len(row))
        if allowed is not None:
            bad = [ch for ch in row if ch not in allowed]
            if bad:
                raise FmpError(f"{name}: bad character {bad[0]!r} in row {y}")
        out.append(row)
    return out


def read_fmp(path: str | Path) -> FmpMap:
    return parse_fmp(Path(path).read_bytes())


def write_fmp(fmap: FmpMap, timestamp: tuple[int, int, int, int, int, int] = (2026, 1, 1, 0, 0, 0)) -> bytes:
    """Serialise: CRLF, Windows-1252, ``Format=4 Version="2.3.7 spacetable"``.
    ``timestamp`` is ``(year, month, day, hour, minute, second)`` supplied by the caller."""
    year, month, day, hh, mm, ss = timestamp
    date = f"{day} {FRENCH_MONTHS[month - 1]} {year}"
    out = [
        f'<FMP Format=4 Version="2.3.7 spacetable" Date="{date}" Heure="{hh:02d}:{mm:02d}:{ss:02d}">',
        f"<CARTE Lignes={fmap.height} Colonnes={fmap.width}>",
        *fmap.terrain,
        "</CARTE>",
    ]
    if fmap.ore is not None:
        out += [f"<REPARTITION Lignes={fmap.height} Colonnes={fmap.width}>", *fmap.ore, "</REPARTITION>"]
    if fmap.zones is not None:
        out += [f"<ZONES Lignes={fmap.height} Colonnes={fmap.width}>", *fmap.zones, "</ZONES>"]
    out.append("</FMP>")
    return ("\r\n".join(out) + "\r\n").encode("cp1252")


Row = Annotated[str, Field(min_length=1, max_length=MAX_SIDE)]


class MapDoc(BaseModel):
    """A Full Metal map (FM-1.1, "Map files"): the terrain of every cell row by row, with the optional ore layer
    (``REPARTITION``) and landing zones (``ZONES``) of the ``.fmp`` format. Rows are read left to right, top to
    bottom, on the offset hex grid of the original board."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    width: int = Field(ge=1, le=MAX_SIDE, description="columns (the original map: 36)")
    height: int = Field(ge=1, le=MAX_SIDE, description="rows (the original map: 23)")
    terrain: list[Annotated[Row, Field(pattern=r"^[.*%$#?]+$")]] = Field(
        max_length=MAX_SIDE, json_schema_extra={"x-rule": "FM-1.1"},
        description="one string per row: '.' sea, '*' reef, '%' swamp, '$' plain, '#' mountain, '?' off the map")
    ore: list[Annotated[Row, Field(pattern=r"^[!-;=?-~]+$")]] | None = Field(
        default=None, max_length=MAX_SIDE, json_schema_extra={"x-rule": "FM-3.1"},
        description="the ore layer: '.' none, another character an ore (0, 2, 3, 5: its kind under "
                    "ore_values=multi); none: the lattice of FM-3.1")
    zones: list[Annotated[Row, Field(pattern=r"^[.A-Za-z]+$")]] | None = Field(
        default=None, max_length=MAX_SIDE, json_schema_extra={"x-rule": "FM-D47"},
        description="landing zones: '.' none, A-Z a zone, a-z an island (for landing_rule=zones)")

    def problems(self) -> list[Problem]:
        """Every layer has ``height`` rows of ``width`` cells."""
        out: list[Problem] = []
        for layer in ("terrain", "ore", "zones"):
            rows = getattr(self, layer)
            if rows is None:
                continue
            if len(rows) != self.height:
                out.append(Problem(layer, f"expected {self.height} rows, found {len(rows)}", "FM-1.1"))
            for y, row in enumerate(rows):
                if len(row) != self.width:
                    out.append(Problem(f"{layer}[{y}]", f"row {y} has {len(row)} cells, not {self.width}", "FM-1.1"))
        return out

    def fmp_map(self) -> FmpMap:
        return FmpMap(self.width, self.height, list(self.terrain), None if self.ore is None else list(self.ore),
                      None if self.zones is None else list(self.zones))


def map_document(fmap: FmpMap) -> dict[str, Any]:
    """A map as :class:`MapDoc` content (JSON data)."""
    doc: dict[str, Any] = {"width": fmap.width, "height": fmap.height, "terrain": list(fmap.terrain)}
    if fmap.ore is not None:
        doc["ore"] = list(fmap.ore)
    if fmap.zones is not None:
        doc["zones"] = list(fmap.zones)
    return doc


def document_text(doc: Any) -> str:
    """The ``.fmp`` text of valid :class:`MapDoc` content (what ``map_content`` carries)."""
    return write_fmp(MapDoc.model_validate(doc).fmp_map()).decode("cp1252")


def text_document(text: str) -> dict[str, Any]:
    """``.fmp`` text as :class:`MapDoc` content; :class:`~spacetable.core.content.ContentError` when unreadable."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return map_document(parse_fmp(text))
    except FmpError as exc:
        raise ContentError("the map", [Problem("", str(exc), "FM-1.1")]) from None


def _bundled_document(name: str) -> dict[str, Any]:
    return map_document(catalog_map(name))


def _config(doc: Any) -> dict[str, Any]:
    return {"map": "custom", "map_content": document_text(doc)}


BUNDLED = Path(__file__).with_name("maps")
#: The catalogue of maps (bundled ``maps/*.fmp`` plus the operator's ``DATA/fullmetal/maps/*.fmp``).
MAPS = catalog.register(catalog.Kind("fullmetal", "maps", BUNDLED, ".fmp", max_bytes=128 * 1024, label="map",
                                     model=MapDoc, load=_bundled_document, config=_config, to_text=document_text,
                                     from_text=text_document))


def bundled_map(name: str = "original") -> FmpMap:
    """A map shipped with the package (``maps/<name>.fmp``); ``original`` is the classic board, 36 x 23 cells
    as transcribed (FM-1.6, FM-D1)."""
    return read_fmp(BUNDLED / f"{name}.fmp")


def catalog_map(name: str) -> FmpMap:
    """A map of the catalogue by name (FM-7.1); an unreadable entry is a :class:`~spacetable.core.catalog.CatalogError`
    that names the map only (never its path or content)."""
    data = catalog.read_bytes(MAPS, name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return parse_fmp(data)
    except FmpError:
        raise catalog.CatalogError(f"map {name!r} of the catalogue is not a valid .fmp map") from None


def content_map(text: object) -> FmpMap:
    """A player's own map sent as ``.fmp`` text (``map=custom``), size-capped and validated (FM-7.1)."""
    if not isinstance(text, str) or not text:
        raise catalog.CatalogError("map=custom needs map_content: the text of an .fmp map")
    catalog.check_content(MAPS, text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return parse_fmp(text)
