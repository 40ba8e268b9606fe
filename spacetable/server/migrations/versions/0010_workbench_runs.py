"""The workbench's balance runs (issue 25): a run's parameters, progress, result and per-game records, and the
cached bundled-set runs beside them.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "workbench_runs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("games", sa.Text, nullable=True),
        sa.Column("bundled_id", sa.String(32), nullable=True),
        sa.Column("cache_key", sa.String(64), nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("beat_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_workbench_runs_owner", "workbench_runs", ["owner"])
    op.create_index("ix_workbench_runs_state", "workbench_runs", ["state"])
    op.create_index("ix_workbench_runs_cache_key", "workbench_runs", ["cache_key"])


def downgrade() -> None:
    op.drop_table("workbench_runs")
