"""The accounts' tables (migration ``0004``): accounts, sessions, single-use tokens, passkeys, WebAuthn
challenges, seats bound to accounts, rated matches, ratings, rating history and per-account results.

Nothing secret is stored in the clear: passwords as argon2id hashes, session cookies and mailed tokens as
SHA-256 digests. The CSRF token of a session is stored as is (it is useless without the session cookie and
the page must be able to read it back).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, false, text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: as typed (NFKC-normalised); ``username_key``: NFKC + casefold, unique
    username: Mapped[str] = mapped_column(String(32))
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    display_name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_key: Mapped[str | None] = mapped_column(String(254), nullable=True, unique=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    totp_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    totp_pending: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lang: Mapped[str] = mapped_column(String(8), default="en")
    created_at: Mapped[float] = mapped_column(Float)
    #: presence (migration 0006): an invisible account appears offline to others; the last time it was seen online
    invisible: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    last_seen: Mapped[float | None] = mapped_column(Float, nullable=True)


class AccountSessionRow(Base):
    __tablename__ = "account_sessions"

    #: SHA-256 of the cookie's value
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    user_agent: Mapped[str] = mapped_column(String(200), default="")
    address: Mapped[str] = mapped_column(String(64), default="")


class AccountTokenRow(Base):
    """A mailed token (e-mail verification, password reset): SHA-256 only, single use, expiring."""

    __tablename__ = "account_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))  # verify | reset
    expires_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class PasskeyRow(Base):
    __tablename__ = "passkeys"

    #: base64url of the credential id
    id: Mapped[str] = mapped_column(String(700), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    public_key: Mapped[str] = mapped_column(Text)  # base64url COSE key
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChallengeRow(Base):
    """A WebAuthn ceremony under way (in the database, so that any process finishes what another began)."""

    __tablename__ = "webauthn_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge: Mapped[str] = mapped_column(String(128))
    purpose: Mapped[str] = mapped_column(String(16))  # register | signin
    data: Mapped[str] = mapped_column(Text, default="{}")
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class AccountSeatRow(Base):
    """A seat taken by an account (``account_id`` NULL once the account is deleted: "deleted player")."""

    __tablename__ = "account_seats"

    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    #: the seat's token hash when the account took it: the binding holds only while ``seats.token_hash`` is the same
    #: (a seat left and taken again by somebody else is no longer the account's)
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)


class RatedMatchRow(Base):
    """A match made by a signed-in player: rated or casual, and whether its result was counted yet."""

    __tablename__ = "account_matches"

    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: pending | counted | aborted | casual (``pending`` until the match is over)
    state: Mapped[str] = mapped_column(String(16), default="pending", index=True)
    created_at: Mapped[float] = mapped_column(Float)
    done_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class RatingRow(Base):
    __tablename__ = "ratings"
    #: the leaderboard's order (game, best conservative rating first, ties by account), and the same for settled
    #: ratings only (10 games or more: ``ratings.PROVISIONAL_GAMES``), so a page reads only its own rows
    __table_args__ = (Index("ix_ratings_board", "game", "ordinal", "account_id"),
                      Index("ix_ratings_settled", "game", "ordinal", "account_id", sqlite_where=text("games >= 10"),
                            postgresql_where=text("games >= 10")))

    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: mu - 3 sigma (the conservative figure the leaderboard sorts on)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_account", "account_id", "game", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class ResultRow(Base):
    """One account's result in one finished match (history pages and statistics read only this table)."""

    __tablename__ = "account_results"
    __table_args__ = (Index("ix_account_results_page", "account_id", "finished_at"),)

    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    result: Mapped[str] = mapped_column(String(8))  # win | loss | draw
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: rating change in this match (ordinal after - before), rated matches only
    delta: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float] = mapped_column(Float)


class ServerKeyRow(Base):
    """Server-wide secrets shared by all processes (the key that derives account seats' tokens)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
