"""Migration 0004 (accounts) on SQLite and PostgreSQL: from an empty database and from a database at 0003 holding a
match, down again, and up again (a later migration builds on it)."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from spacetable.server.db import MIGRATIONS_DIR, make_engine, run_migrations

pytestmark = pytest.mark.accounts

TABLES = {"accounts", "account_sessions", "account_tokens", "passkeys", "webauthn_challenges", "account_seats",
          "account_matches", "ratings", "rating_history", "account_results", "server_keys"}


def alembic(engine: sa.Engine, action: str, target: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        getattr(command, action)(cfg, target)


def test_upgrade_downgrade_upgrade(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        alembic(engine, "upgrade", "0003")
        assert not TABLES & set(sa.inspect(engine).get_table_names())
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO matches (id, game, name, config, seed, status, version, ai_seconds, "
                                 "created_at, updated_at, revision, epoch) VALUES ('m1', 'arena', '', '{}', 1, 'open', 0, "
                                 "1.0, :t, :t, 0, 0)"), {"t": time.time()})
        run_migrations(engine)  # to the newest revision, 0004 included
        assert set(sa.inspect(engine).get_table_names()) >= TABLES
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO accounts (id, username, username_key, display_name, lang, created_at) "
                                 "VALUES ('a1', 'Ana', 'ana', 'Ana', 'en', 0)"))
            conn.execute(sa.text("INSERT INTO account_seats (match_id, seat, account_id, token_hash, created_at) "
                                 "VALUES ('m1', 0, 'a1', 'h', 0)"))
            with pytest.raises(sa.exc.IntegrityError), conn.begin_nested():  # usernames unique by key
                conn.execute(sa.text("INSERT INTO accounts (id, username, username_key, display_name, lang, created_at) "
                                     "VALUES ('a2', 'ANA', 'ana', 'x', 'en', 0)"))
        alembic(engine, "downgrade", "0003")
        assert not TABLES & set(sa.inspect(engine).get_table_names())
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT id FROM matches")).scalars().all() == ["m1"]
        run_migrations(engine)
        assert set(sa.inspect(engine).get_table_names()) >= TABLES
    finally:
        engine.dispose()
