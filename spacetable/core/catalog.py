"""The data catalogue: named maps, card sets and other data a match configuration may refer to.

A configuration never names a file. A game declares each *kind* of data it reads (a
:class:`Kind`: the fullmetal maps, the tremble card sets) with the folder of its bundled
entries; the operator of a server adds entries in a data folder (``spacetable serve
--data-dir DIR``, or the environment variable ``SPACETABLE_DATA_DIR``), laid out as
``DIR/<game>/<kind>/<name><suffix>`` (a file per entry) or ``DIR/<game>/<kind>/<name>/``
(a folder per entry). A configuration chooses an entry by its **name**, a short identifier
(:data:`NAME`), and a player's own data travels *as content* in the configuration
(``map_content``, ``card_set_content``), bounded by :attr:`Kind.max_bytes` and validated
by the game, so that replays of the match need nothing but its stored configuration.

Names are matched against the listing, never joined to a path as given, so no name can
reach outside the catalogue's folders; errors name the entry, never a path or the content
of a file.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError

#: What a catalogue name looks like: letters, digits, ``-`` and ``_``, 1 to 64 characters.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")
#: The environment variable read when no data folder was configured explicitly.
ENV = "SPACETABLE_DATA_DIR"


class CatalogError(ConfigError):
    """An unknown or unreadable catalogue entry, or content over its kind's limit."""


@dataclass(frozen=True)
class Kind:
    """One kind of named data of a game.

    ``suffix`` is the file suffix of an entry (``.fmp``); an empty suffix means that each
    entry is a folder. ``max_bytes`` bounds an entry's content (a file, the files of a
    folder together, or the JSON text of content carried in a configuration)."""

    game: str
    name: str
    bundled: Path
    suffix: str = ""
    max_bytes: int = 256 * 1024
    label: str = ""
    model: Any = field(default=None, compare=False, repr=False)
    load: Callable[[str], Any] | None = field(default=None, compare=False, repr=False)
    config: Callable[[Any], dict[str, Any]] | None = field(default=None, compare=False, repr=False)
    to_text: Callable[[Any], str] | None = field(default=None, compare=False, repr=False)
    from_text: Callable[[str], Any] | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.game}/{self.name}"


_kinds: dict[str, Kind] = {}
_data_dir: Path | None = None
_configured = False


def register(kind: Kind) -> Kind:
    """Declare a kind (idempotent; a game calls this when its package is imported)."""
    _kinds[kind.key] = kind
    return kind


def kind(key: str) -> Kind:
    """The kind ``<game>/<name>``; :class:`CatalogError` when no game declared it."""
    found = _kinds.get(key)
    if found is None:
        raise CatalogError(f"no content kind {key!r}")
    return found


def kinds(game: str | None = None) -> list[Kind]:
    return [k for k in _kinds.values() if game is None or k.game == game]


def configure(data_dir: str | Path | None) -> None:
    """Set the operator's data folder for this process (``None``: bundled data only)."""
    global _data_dir, _configured
    _data_dir = Path(data_dir).resolve() if data_dir else None
    _configured = True


def data_dir() -> Path | None:
    """The operator's data folder: the configured one, else ``$SPACETABLE_DATA_DIR``, else none."""
    if not _configured:
        env = os.environ.get(ENV)
        return Path(env).resolve() if env else None
    return _data_dir


#: the listings of folders by (folder, suffix): the folder's modification time (ns) when listed, and its entries
_listings: dict[tuple[Path, str], tuple[int, dict[str, Path]]] = {}
#: the most listings kept (a folder per kind, bundled and the operator's); beyond it the cache starts again
MAX_LISTINGS = 256
#: a listing is kept only when its folder had not changed for this long (ns) when it was read: two changes within
#: one tick of the file system's clock leave the folder's time as the first one set it
SETTLED_NS = 2_000_000_000


def _scan(folder: Path, suffix: str) -> dict[str, Path]:
    out: dict[str, Path] = {}
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return out
    for p in children:
        if suffix:
            if not p.name.endswith(suffix) or not p.is_file():
                continue
            name = p.name[: -len(suffix)]
        else:
            if not p.is_dir():
                continue
            name = p.name
        if NAME.match(name):
            out[name] = p
    return out


def _entries(folder: Path, suffix: str) -> dict[str, Path]:
    """The entries of one folder, listed again only when the folder changed (an entry added, removed or renamed
    moves its modification time): every match set-up looks its data up by name, and a listing reads every entry's
    type (``bench/server_load.py``: a Worlds & Suns set-up listed its scenarios three times)."""
    key = (folder, suffix)
    try:
        changed = os.stat(folder).st_mtime_ns
    except OSError:
        _listings.pop(key, None)
        return {}
    kept = _listings.get(key)
    if kept is not None and kept[0] == changed:
        return dict(kept[1])
    out = _scan(folder, suffix)
    if time.time_ns() - changed > SETTLED_NS:
        if len(_listings) >= MAX_LISTINGS:
            _listings.clear()
        _listings[key] = (changed, dict(out))
    return out


def entries(kind: Kind) -> dict[str, Path]:
    """Name -> location of every entry: the bundled ones, then the operator's (a bundled name wins)."""
    out = _entries(kind.bundled, kind.suffix)
    root = data_dir()
    if root is not None:
        for name, path in _entries(root / kind.game / kind.name, kind.suffix).items():
            out.setdefault(name, path)
    return out


def names(kind: Kind) -> list[str]:
    return sorted(entries(kind))


def locate(kind: Kind, name: object) -> Path:
    """The location of entry ``name``; :class:`CatalogError` (naming no path) when there is none."""
    label = kind.label or kind.name
    if not isinstance(name, str) or not NAME.match(name):
        raise CatalogError(f"{label}: a name is 1-64 letters, digits, '-' or '_'")
    found = entries(kind).get(name)
    if found is None:
        known = ", ".join(names(kind)) or "none"
        raise CatalogError(f"no {label} named {name!r}; known: {known}")
    return found


def read_bytes(kind: Kind, name: str) -> bytes:
    """The content of a file entry, at most ``kind.max_bytes``."""
    path = locate(kind, name)
    try:
        with path.open("rb") as fh:
            data = fh.read(kind.max_bytes + 1)
    except OSError:
        raise CatalogError(f"{kind.label or kind.name} {name!r} cannot be read") from None
    if len(data) > kind.max_bytes:
        raise CatalogError(f"{kind.label or kind.name} {name!r} is larger than {kind.max_bytes} bytes")
    return data


def check_content(kind: Kind, content: Any) -> None:
    """Raise unless ``content`` (text or JSON data carried in a configuration) fits ``kind.max_bytes``."""
    label = kind.label or kind.name
    if isinstance(content, str):
        size = len(content.encode("utf-8", "surrogatepass"))
    else:
        try:
            size = len(json.dumps(content, ensure_ascii=False, allow_nan=False).encode("utf-8", "surrogatepass"))
        except (TypeError, ValueError):
            raise CatalogError(f"{label}: the content is not JSON data") from None
    if size > kind.max_bytes:
        raise CatalogError(f"{label}: the content is {size} bytes; at most {kind.max_bytes} are accepted")


def listing() -> dict[str, dict[str, list[str]]]:
    """``{game: {kind: [names]}}`` of every declared kind (the lobby publishes it)."""
    out: dict[str, dict[str, list[str]]] = {}
    for k in _kinds.values():
        out.setdefault(k.game, {})[k.name] = names(k)
    return out
