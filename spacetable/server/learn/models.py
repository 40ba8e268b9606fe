"""Tables of the learning features (issue 22; migration ``0008_learn``).

* ``analyses``: a finished match's post-game analysis, keyed by the match, the match's version (its number of
  actions: an analysis is of one exact log) and the analysis settings (a short key of the budget), so that a
  restart or another server process finds it again instead of running it twice. Bounded (see ``store.py``).
* ``hint_counts``: the hints each seat of a match asked for (the match's record shows them).
* ``tutorial_progress``: how far an account got in each game's tutorial (guests keep it in their browser).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class AnalysisRow(Base):
    __tablename__ = "analyses"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: the analysis settings (``analysis_jobs.settings_key``)
    settings: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: the result as JSON (every seat's analysis; the routes hand each viewer its own)
    result: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float, index=True)


class HintCountRow(Base):
    __tablename__ = "hint_counts"

    match_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TutorialProgressRow(Base):
    __tablename__ = "tutorial_progress"

    account_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: the step reached (0 = the first)
    step: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    done: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    updated_at: Mapped[float] = mapped_column(Float)
