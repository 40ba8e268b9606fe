"""The data catalogue (spacetable/core/catalog.py): entries by name only, bundled first, content bounded."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from spacetable.core import catalog


@pytest.fixture
def kind(tmp_path: Path) -> Iterator[catalog.Kind]:
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    (bundled / "original.fmp").write_text("bundled")
    data = tmp_path / "data"
    (data / "demo" / "maps").mkdir(parents=True)
    (data / "demo" / "maps" / "isle.fmp").write_text("operator")
    (data / "demo" / "maps" / "original.fmp").write_text("operator's copy")  # may not shadow the bundled one
    (data / "demo" / "maps" / "bad name.fmp").write_text("x")
    (data / "demo" / "maps" / "huge.fmp").write_text("x" * 200)
    (tmp_path / "outside.fmp").write_text("secret")
    catalog.configure(data)
    yield catalog.Kind("demo", "maps", bundled, ".fmp", max_bytes=100, label="map")
    catalog.configure(None)


def test_entries_by_name(kind: catalog.Kind) -> None:
    assert catalog.names(kind) == ["huge", "isle", "original"]
    assert catalog.read_bytes(kind, "isle") == b"operator"
    assert catalog.read_bytes(kind, "original") == b"bundled"


@pytest.mark.parametrize("name", ["../outside", "..", "/etc/passwd", "a/b", "bad name", "", "x" * 65, 5, None, "nothere"])
def test_no_name_reaches_outside_and_errors_name_no_path(kind: catalog.Kind, name: object, tmp_path: Path) -> None:
    with pytest.raises(catalog.CatalogError) as err:
        catalog.locate(kind, name)
    assert str(tmp_path) not in str(err.value)


def test_sizes_are_bounded(kind: catalog.Kind) -> None:
    with pytest.raises(catalog.CatalogError, match="larger than 100 bytes"):
        catalog.read_bytes(kind, "huge")
    catalog.check_content(kind, "y" * 100)
    with pytest.raises(catalog.CatalogError, match="at most 100"):
        catalog.check_content(kind, "y" * 101)
    with pytest.raises(catalog.CatalogError, match="at most 100"):
        catalog.check_content(kind, {"rows": ["y" * 60, "y" * 60]})


def _settle(folder: Path) -> None:
    """Date the folder's last change an hour back, as an operator's folder is when a server reads it."""
    os.utime(folder, ns=(time.time_ns() - 3600 * 10**9,) * 2)


@pytest.mark.hotpath
def test_a_folders_listing_is_kept_until_the_folder_changes(kind: catalog.Kind, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder unchanged for a while is listed once; an entry added, renamed or removed moves the folder's time, and
    the next lookup lists it again."""
    maps = tmp_path / "data" / "demo" / "maps"
    _settle(maps)
    _settle(kind.bundled)
    scans: list[Path] = []
    scan = catalog._scan
    monkeypatch.setattr(catalog, "_scan", lambda folder, suffix: scans.append(folder) or scan(folder, suffix))
    assert catalog.names(kind) == ["huge", "isle", "original"]
    assert catalog.names(kind) == ["huge", "isle", "original"]
    assert catalog.read_bytes(kind, "isle") == b"operator"
    assert sorted(scans) == sorted([kind.bundled, maps])  # once each
    (maps / "reef.fmp").write_text("new")
    assert catalog.names(kind) == ["huge", "isle", "original", "reef"]
    (maps / "reef.fmp").rename(maps / "atoll.fmp")
    assert catalog.names(kind) == ["atoll", "huge", "isle", "original"]
    (maps / "isle.fmp").unlink()
    assert catalog.names(kind) == ["atoll", "huge", "original"]
    with pytest.raises(catalog.CatalogError, match="no map named 'isle'"):
        catalog.read_bytes(kind, "isle")


@pytest.mark.hotpath
def test_a_folder_changed_just_now_is_listed_at_every_lookup(kind: catalog.Kind, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Two changes within one tick of the file system's clock may leave the folder's time as the first set it: a
    folder changed within the last seconds is not kept, so the second change is seen."""
    maps = tmp_path / "data" / "demo" / "maps"
    changed = time.time_ns()
    os.utime(maps, ns=(changed, changed))
    assert "reef" not in catalog.names(kind)
    (maps / "reef.fmp").write_text("new")
    os.utime(maps, ns=(changed, changed))  # the same time as before the entry came
    assert "reef" in catalog.names(kind)


@pytest.mark.hotpath
def test_a_folder_that_goes_away_has_no_entries(kind: catalog.Kind, tmp_path: Path) -> None:
    maps = tmp_path / "data" / "demo" / "maps"
    _settle(maps)
    assert "isle" in catalog.names(kind)
    for p in maps.iterdir():
        p.unlink()
    maps.rmdir()
    assert catalog.names(kind) == ["original"]
