"""The project's documents stand alone (issue 9, first hour): no README, doc, packaged rules page or package
source cites the design notes the rules were written from (``shared/specs``, ``shared/seeds``, "spec §N"), which
are not part of the repository; each rules doc states every rule itself."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITES = re.compile(r"shared/(specs|seeds)|spec §|\b[Tt]he spec(s|'s)?\b")


def documents() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found += sorted((ROOT / "spacetable").rglob("*.md"))
    found += sorted(p for ext in ("*.py", "*.js", "*.json") for p in (ROOT / "spacetable").rglob(ext))
    return [p for p in found if "__pycache__" not in p.parts]


def test_no_document_cites_the_unpublished_design_notes() -> None:
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
            for p in documents()
            for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if CITES.search(line)]
    assert hits == []


def test_the_pattern_finds_a_citation() -> None:
    assert CITES.search("see shared/specs/arena.md") and CITES.search("the scenario format (spec §6)")
    assert not CITES.search("the special rule") and not CITES.search("spectators see it")
