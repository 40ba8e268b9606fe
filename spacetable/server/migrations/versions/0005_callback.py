"""Notifications, chat and moderation (issue 21): the outbox, the in-page inbox, preferences and settings, Web Push
subscriptions, the server's own secrets; chat messages, reports, blocks between accounts,
suspensions; the matches' lapse policies (absent players);
challenges.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("dedup", sa.String(200), nullable=False, unique=True),
        sa.Column("account_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("target", sa.String(32), nullable=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("due_at", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("status", sa.String(8), nullable=False, server_default="pending"),
        sa.Column("claim", sa.String(64), nullable=True),
        sa.Column("claim_until", sa.Float, nullable=True),
        sa.Column("done_at", sa.Float, nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
    )
    op.create_index("ix_notify_outbox_account_id", "notify_outbox", ["account_id"])
    op.create_index("ix_notify_outbox_due_at", "notify_outbox", ["due_at"])
    op.create_index("ix_notify_outbox_status", "notify_outbox", ["status"])
    op.create_index("ix_notify_outbox_done_at", "notify_outbox", ["done_at"])
    op.create_table(
        "notify_inbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("dedup", sa.String(200), nullable=False, unique=True),
        sa.Column("account_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("read_at", sa.Float, nullable=True),
    )
    op.create_index("ix_notify_inbox_account_id", "notify_inbox", ["account_id"])
    op.create_index("ix_notify_inbox_created_at", "notify_inbox", ["created_at"])
    op.create_table(
        "notify_prefs",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("channel", sa.String(8), primary_key=True),
        sa.Column("enabled", sa.Boolean, nullable=False),
    )
    op.create_table(
        "notify_settings",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("email_mode", sa.String(8), nullable=False, server_default="instant"),
        sa.Column("quiet_minutes", sa.Integer, nullable=False, server_default="30"),
        sa.Column("digest_hour", sa.Integer, nullable=False, server_default="8"),
        sa.Column("sound", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("digest_claim", sa.String(64), nullable=True),
        sa.Column("digest_until", sa.Float, nullable=True),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("account_id", sa.String(64), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("quick", sa.String(24), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_chat_messages_match_id", "chat_messages", ["match_id"])
    op.create_index("ix_chat_messages_account_id", "chat_messages", ["account_id"])
    op.create_index("ix_chat_messages_created_at", "chat_messages", ["created_at"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("reporter", sa.String(100), nullable=False),
        sa.Column("reason", sa.String(300), nullable=False, server_default=""),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False, server_default="open"),
        sa.UniqueConstraint("message_id", "reporter", name="uq_chat_reports_message_reporter"),
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])
    op.create_index("ix_chat_reports_status", "chat_reports", ["status"])
    op.create_table(
        "account_blocks",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("blocked_id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_suspensions",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("reason", sa.String(300), nullable=False, server_default=""),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "match_policies",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("lapse", sa.String(12), nullable=False),
        sa.Column("agent", sa.String(64), nullable=True),
        sa.Column("set_by", sa.Integer, nullable=False),
        sa.Column("set_at", sa.Float, nullable=False),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_account", sa.String(64), nullable=False),
        sa.Column("to_account", sa.String(64), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("turn_seconds", sa.Float, nullable=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_from_account", "challenges", ["from_account"])
    op.create_index("ix_challenges_to_account", "challenges", ["to_account"])


def downgrade() -> None:
    for name in ("challenges", "match_policies", "account_suspensions", "account_blocks", "chat_reports",
                 "chat_messages", "server_secrets", "push_subscriptions", "notify_settings", "notify_prefs",
                 "notify_inbox", "notify_outbox"):
        op.drop_table(name)
