"""The designer's workbench (issue 25): content sets (card sets, packs, scenarios, maps) stored per account.

Revision ID: 0009
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "workbench_sets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.UniqueConstraint("account_id", "game", "kind", "name", name="uq_workbench_sets_owner_name"),
    )
    op.create_index("ix_workbench_sets_account_id", "workbench_sets", ["account_id"])
    op.create_index("ix_workbench_sets_public", "workbench_sets", ["public"])


def downgrade() -> None:
    op.drop_index("ix_workbench_sets_public", table_name="workbench_sets")
    op.drop_index("ix_workbench_sets_account_id", table_name="workbench_sets")
    op.drop_table("workbench_sets")
