"""Chat tables (issue 21; migration ``0005_callback``): messages per match and room, reports to the operator,
blocks between accounts, suspensions."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class ChatMessageRow(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(32), index=True)
    #: players | spectators
    room: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(100))
    #: the text as written (shown escaped everywhere); empty for a quick message
    text: Mapped[str] = mapped_column(Text)
    #: a quick message's key (shown in each reader's language)
    quick: Mapped[str | None] = mapped_column(String(24), nullable=True)
    created_at: Mapped[float] = mapped_column(Float, index=True)
    #: hidden by the operator after a report
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


class ChatReportRow(Base):
    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter", name="uq_chat_reports_message_reporter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(Integer, index=True)
    #: who reported: ``account:<id>`` or ``seat:<match>:<n>``; one report per reporter and message
    reporter: Mapped[str] = mapped_column(String(100))
    reason: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[float] = mapped_column(Float)
    #: open | dismissed | hidden
    status: Mapped[str] = mapped_column(String(12), default="open", server_default="open", index=True)


class BlockRow(Base):
    __tablename__ = "account_blocks"

    account_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)


class SuspensionRow(Base):
    __tablename__ = "account_suspensions"

    account_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    until: Mapped[float] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[float] = mapped_column(Float)
