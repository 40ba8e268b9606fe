"""Fixtures for server tests: an app on a temporary SQLite file, and the test game ``nim``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacetable import games
from spacetable.server.app import create_app
from spacetable.server.limits import Limits


@pytest.fixture
def nim() -> Iterator[None]:
    """Register the test game ``nim`` (tests/server/nimgame.py) for the duration of a test."""
    games.REGISTRY["nim"] = "tests.server.nimgame"
    yield
    games.REGISTRY.pop("nim", None)
    games._cache.pop("nim", None)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


#: Test apps: every bound at its default but the rate limits (the tests play fast from one address);
#: tests/server/test_limits.py checks the rate limits themselves.
def lenient_limits(**changes: Any) -> Limits:
    return Limits(**{"rate_create": None, "rate_join": None, "rate_act": None, **changes})


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, ai_workers=0, limits=lenient_limits())
    with TestClient(app) as c:
        yield c


def create(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    r = client.post("/api/matches", json={"game": game, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(client: TestClient, match_id: str, seat: int, name: str = "") -> str:
    r = client.post(f"/api/matches/{match_id}/seats/{seat}/join", json={"name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token
