"""Open seeds, stored seats-to-act (lobby without loading matches), broken-match reasons, lobby order index.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("open_seed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("to_act", sa.Text, nullable=True))
        batch.add_column(sa.Column("broken", sa.Text, nullable=True))
        batch.create_index("ix_matches_updated_at", ["updated_at"])


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_updated_at")
        batch.drop_column("broken")
        batch.drop_column("to_act")
        batch.drop_column("open_seed")
