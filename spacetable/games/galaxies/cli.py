"""``spacetable`` commands for Battleship Galaxies (filled in below)."""

from __future__ import annotations

from .scenario import check_file

__all__ = ["check_file"]
