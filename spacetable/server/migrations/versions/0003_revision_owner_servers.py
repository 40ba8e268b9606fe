"""Several server processes on one database (SRV-X1, SRV-X3): match revision and epoch (compare-and-set of
every change), owner and wake time (who runs a match's AI and clock, and when), the servers' heartbeats.

Running matches get ``wake_at = 0``: the first server to start loads them, runs what is due and sets the
real wake time.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("revision", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("wake_at", sa.Float, nullable=True))
        batch.create_index("ix_matches_wake_at", ["wake_at"])
    op.execute("UPDATE matches SET wake_at = 0 WHERE status = 'running'")
    op.create_table(
        "servers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("host", sa.String(200), nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_servers_seen_at", "servers", ["seen_at"])


def downgrade() -> None:
    op.drop_index("ix_servers_seen_at", "servers")
    op.drop_table("servers")
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_wake_at")
        batch.drop_column("wake_at")
        batch.drop_column("owner")
        batch.drop_column("epoch")
        batch.drop_column("revision")
