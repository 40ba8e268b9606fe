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
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("clock_kind", sa.String(12), nullable=True))
        batch.add_column(sa.Column("clock_increment", sa.Float, nullable=True))
        batch.add_column(sa.Column("started_at", sa.Float, nullable=True))
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
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("started_at")
        batch.drop_column("clock_increment")
        batch.drop_column("clock_kind")
