"""Learning features (issue 22): post-game analyses cached with their match, hints used per match and seat,
tutorial progress per account.

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("settings", sa.String(64), primary_key=True),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_analyses_created_at", "analyses", ["created_at"])
    op.create_table(
        "hint_counts",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("count", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "tutorial_progress",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("step", sa.Integer, nullable=False, server_default="0"),
        sa.Column("done", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tutorial_progress")
    op.drop_table("hint_counts")
    op.drop_index("ix_analyses_created_at", table_name="analyses")
    op.drop_table("analyses")
