"""Schema migrations (SRV-P3), structured logs (SRV-L1), command line (SRV-CLI) and the shipped web client files."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from spacetable.server.cli import parse_args
from spacetable.server.db import Base, Checkpointer, make_engine, run_migrations
from spacetable.server.jsonlog import JsonFormatter

WEB = Path(__file__).resolve().parents[2] / "spacetable" / "web"


def test_migrations_build_exactly_the_models(tmp_path: Path) -> None:
    """SRV-P3: the shipped Alembic migrations create the schema of the models, and re-running them is harmless."""
    engine = make_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    run_migrations(engine)
    run_migrations(engine)
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) >= {"matches", "seats", "actions", "alembic_version"}
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_checkpointer_moves_the_wal_into_the_database(tmp_path: Path) -> None:
    """SRV-P2: commits leave the WAL growing (no checkpoint inside a commit); the background checkpointer folds it in."""
    db = tmp_path / "c.sqlite3"
    engine = make_engine(f"sqlite:///{db}")
    run_migrations(engine)
    with engine.begin() as conn:
        for i in range(200):
            conn.exec_driver_sql(
                "INSERT INTO matches (id, game, name, config, seed, status, version, ai_seconds, created_at, updated_at) "
                "VALUES (?, 'nim', '', '{}', 1, 'open', 0, 1.0, 0, 0)", (f"m{i}",))
    wal = Path(f"{db}-wal")
    assert wal.stat().st_size > 0
    cp = Checkpointer(engine, interval=0.05)
    cp.start()
    cp.stop()  # stops with a TRUNCATE checkpoint
    assert wal.stat().st_size == 0
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM matches").scalar() == 200
    engine.dispose()


def test_json_logs() -> None:
    """SRV-L1: one JSON object per log line, extra fields included."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("spacetable.test-json")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.info("match created", extra={"match": "abc", "game": "arena"})
    line = json.loads(stream.getvalue())
    assert line["msg"] == "match created" and line["match"] == "abc" and line["level"] == "info"
    logger.removeHandler(handler)


def test_cli_defaults_and_options() -> None:
    """SRV-CLI: defaults 127.0.0.1:8000, options --host --port --database-url --log-level."""
    args = parse_args([])
    assert (args.host, args.port, args.log_level) == ("127.0.0.1", 8000, "info")
    args = parse_args(["--host", "0.0.0.0", "--port", "9001", "--database-url", "sqlite:///x.db", "--log-level", "debug"])
    assert (args.host, args.port, args.database_url, args.log_level) == ("0.0.0.0", 9001, "sqlite:///x.db", "debug")


def test_translations_are_complete() -> None:
    """Every interface key used by the client exists in English, French, Dutch and Russian."""
    i18n = WEB / "static" / "i18n"
    dicts = {code: json.loads((i18n / f"{code}.json").read_text(encoding="utf-8")) for code in ("en", "fr", "nl", "ru")}
    keys = set(dicts["en"])
    for code, d in dicts.items():
        assert set(d) == keys, f"{code} differs from en: {sorted(set(d) ^ keys)}"
        assert all(isinstance(v, str) and v for v in d.values())
    used = set()
    for js in [*(WEB / "static" / "app").glob("*.js"), WEB / "static" / "generic.js"]:  # full check: tests/browser/test_i18n.py
        used |= set(re.findall(r'\bt\("([a-z_]+\.[a-z_]+)"', js.read_text(encoding="utf-8")))
    # a key written as a prefix (``t("absent.clock_" + kind)``) names a family: it must have members
    prefixes = {k for k in used if k.endswith("_")}
    assert all(any(key.startswith(p) for key in keys) for p in prefixes), sorted(prefixes)
    assert used and used - prefixes <= keys, sorted(used - prefixes - keys)
    assert "/static/app/main.js" in (WEB / "index.html").read_text(encoding="utf-8")
