"""Challenges and seeks carry a whole time control (issue 21): the clock's kind and figures and what a lapse does,
as JSON beside the per-turn seconds they already had (``None``: a plain per-move clock or none, as before).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("challenges", "seeks"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("time_control", sa.Text, nullable=True))


def downgrade() -> None:
    for table in ("challenges", "seeks"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("time_control")
