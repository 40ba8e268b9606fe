"""The tables of notifications (issue 21): the outbox of deliveries, the in-page inbox, preferences, Web Push
subscriptions and the server's own secrets (VAPID key, unsubscribe signing key). Migration ``0005_callback``.

Accounts are named by ``account_id`` (the accounts' primary key as text); a row of an account that is deleted
is deleted with it (``notify.store.forget_account``)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class OutboxRow(Base):
    """One delivery to make on one channel (``push``: to one subscription; ``email``; ``digest``: a line of the
    account's next daily digest). ``dedup`` is unique: the same event enqueued twice (two processes, a retry of
    the hook) is stored once. A process claims rows (``claim``, ``claim_until``) before sending; a claim that
    outlives ``claim_until`` (the process died) is taken over."""

    __tablename__ = "notify_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    dedup: Mapped[str] = mapped_column(String(200), unique=True)
    account_id: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    channel: Mapped[str] = mapped_column(String(8))
    #: the push subscription (channel ``push``)
    target: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: JSON: match id, seat, version, names for the text
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
    due_at: Mapped[float] = mapped_column(Float, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: pending | sent | failed | dropped
    status: Mapped[str] = mapped_column(String(8), index=True, default="pending", server_default="pending")
    claim: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claim_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    done_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)


class InboxRow(Base):
    """A notification shown in the page (the bell), read or not."""

    __tablename__ = "notify_inbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    dedup: Mapped[str] = mapped_column(String(200), unique=True)
    account_id: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float, index=True)
    read_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class PrefRow(Base):
    """An account's choice for one kind of event on one channel (absent: the default of ``prefs.DEFAULTS``)."""

    __tablename__ = "notify_prefs"

    account_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    channel: Mapped[str] = mapped_column(String(8), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean)


class SettingsRow(Base):
    """An account's e-mail rhythm and page sound; ``digest_claim`` lets one process at a time send its digest."""

    __tablename__ = "notify_settings"

    account_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: instant | digest | off (``off``: the one-click unsubscribe)
    email_mode: Mapped[str] = mapped_column(String(8), default="instant", server_default="instant")
    #: correspondence "your turn" mails wait this long (the player may come back by themselves)
    quiet_minutes: Mapped[int] = mapped_column(Integer, default=30, server_default="30")
    #: the hour (UTC) of the daily digest
    digest_hour: Mapped[int] = mapped_column(Integer, default=8, server_default="8")
    sound: Mapped[bool] = mapped_column(Boolean, default=True, server_default="1")
    digest_claim: Mapped[str | None] = mapped_column(String(64), nullable=True)
    digest_until: Mapped[float | None] = mapped_column(Float, nullable=True)


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (RFC 8030 endpoint, RFC 8291 keys)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(64), index=True)
    endpoint: Mapped[str] = mapped_column(Text)
    #: sha256 of the endpoint: one row per browser subscription
    endpoint_hash: Mapped[str] = mapped_column(String(64), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)


class SecretRow(Base):
    """A secret the server makes itself at first start and keeps (``vapid``: the VAPID private key, PEM;
    ``unsubscribe``: the key signing unsubscribe links). Never logged."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
