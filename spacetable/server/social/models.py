"""The tables of seeks and rematch offers (migration ``0006``; the accounts' ``invisible`` and ``last_seen`` columns
are on ``accounts``)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class SeekRow(Base):
    """An open seek of the lobby: anybody signed in whose rating is in the range may take it."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(32))
    config: Mapped[str] = mapped_column(Text)
    rated: Mapped[bool] = mapped_column(Boolean)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: JSON ``{"clock", "lapse", "lapse_agent"}`` of the match to make (``challenges.time_control``)
    time_control: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: the taker's rating (the conservative figure of the profile, ``mu - 3 sigma``) must be in this range
    min_rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    max_rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: open | taken | cancelled
    status: Mapped[str] = mapped_column(String(12), index=True)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: the poster's seat in the match once taken
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[float] = mapped_column(Float, index=True)


class RematchRow(Base):
    """The rematch offer of a finished match: the seats that agreed, and the new match once all did."""

    __tablename__ = "rematches"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: JSON list of the seats that agreed
    agreed: Mapped[str] = mapped_column(Text)
    #: open | accepted | declined
    status: Mapped[str] = mapped_column(String(12))
    new_match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
