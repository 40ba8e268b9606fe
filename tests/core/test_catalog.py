"""The data catalogue (spacetable/core/catalog.py): entries by name only, bundled first, content bounded."""

from __future__ import annotations

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
