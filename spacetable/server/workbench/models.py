"""The workbench's table (migration ``0009``): a content set (a card set, pack, scenario or map) of an account."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class ContentSetRow(Base):
    """A named piece of content of one kind, owned by an account; ``public`` sets are listed for everybody."""

    __tablename__ = "workbench_sets"
    __table_args__ = (UniqueConstraint("account_id", "game", "kind", "name", name="uq_workbench_sets_owner_name"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    #: the content's canonical JSON text
    content: Mapped[str] = mapped_column(Text)
    size: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
