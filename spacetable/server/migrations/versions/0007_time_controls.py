"""Time controls and vacations (issue 21, absent players): a match's clock kind (per move, with increment, days
per move) and increment, when its first turn started (the clocks' banks are counted from it); accounts'
vacation periods (a correspondence clock pauses while its seat's account is away).

Revision ID: 0007
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE (SQLite 3.35+ drops columns too): no table copy, so the seats' and actions' foreign keys
    # to ``matches`` stay as they are
    op.add_column("matches", sa.Column("clock_kind", sa.String(12), nullable=True))
    op.add_column("matches", sa.Column("clock_increment", sa.Float, nullable=True))
    op.add_column("matches", sa.Column("started_at", sa.Float, nullable=True))
    op.create_table(
        "account_vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(64), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
    )
    op.create_index("ix_account_vacations_account_id", "account_vacations", ["account_id"])


def downgrade() -> None:
    op.drop_table("account_vacations")
    for column in ("started_at", "clock_increment", "clock_kind"):
        op.drop_column("matches", column)
