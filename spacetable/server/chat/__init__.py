"""Chat per match, reports, blocks and suspensions (issue 21): ``service.py`` (rules and queries), ``models.py``
(tables), ``routes.py`` (the API)."""

from __future__ import annotations

from .service import MAX_CHARS, QUICK, ChatService, Writer

__all__ = ["MAX_CHARS", "QUICK", "ChatService", "Writer"]
