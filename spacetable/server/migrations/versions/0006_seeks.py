"""Seeks, rematch offers and presence (issue 21): open seeks of the lobby with a rating range, the rematch offers of
finished matches, and the accounts' invisible mode and last-seen time.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("turn_seconds", sa.Float, nullable=True),
        sa.Column("min_rating", sa.Float, nullable=True),
        sa.Column("max_rating", sa.Float, nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_seeks_account_id", "seeks", ["account_id"])
    op.create_index("ix_seeks_status", "seeks", ["status"])
    op.create_index("ix_seeks_created_at", "seeks", ["created_at"])
    op.create_table(
        "rematches",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("agreed", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("new_match_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("invisible", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("last_seen", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("last_seen")
        batch.drop_column("invisible")
    op.drop_table("rematches")
    op.drop_index("ix_seeks_created_at", "seeks")
    op.drop_index("ix_seeks_status", "seeks")
    op.drop_index("ix_seeks_account_id", "seeks")
    op.drop_table("seeks")
