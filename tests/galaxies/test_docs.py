"""docs/rules/galaxies.md stands alone: every rule id and decision with a statement, the house-set
tables matching the data, and every rule cited in the engine's code."""

from __future__ import annotations

import re
from pathlib import Path

from spacetable.games.galaxies.packs import bundled_pack

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "galaxies.md").read_text(encoding="utf-8")
CODE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "spacetable" / "games" / "galaxies").glob("*.py"))


def test_every_rule_and_decision_is_stated_and_cited_in_the_code() -> None:
    rules = set(re.findall(r"\*\*(BG-\d+\.\d+)\*\*", DOC))
    assert len(rules) == 87
    for rid in sorted(rules):
        assert re.search(rf"{re.escape(rid)}\b", CODE), f"{rid} is cited nowhere in the engine"
    for d in range(1, 23):
        assert f"| D-{d} |" in DOC
    assert "shared/specs" not in DOC and "House set, not official Battleship Galaxies card data" in DOC


def test_house_set_tables_match_the_data() -> None:
    pack = bundled_pack()
    for ship in pack.ships.values():
        for name, v in ship.versions.items():
            row = (f"| {ship.name} (`{ship.key}`) | {ship.faction} | ")
            assert row in DOC
            stats = f"{v.launch_cost} | {v.activation_cost} | {v.shields} | {v.hull} | {v.move} | {v.capacity} | {ship.cells}"
            assert f"| {name} | {stats} |" in DOC
    for t in pack.tactics.values():
        assert f"| {t.name} (`{t.id}`) | {t.faction} | {t.type} | {t.cost} | {t.copies_max} | {t.timing} |" in DOC
    for m in pack.missions.values():
        assert f"(`{m.id}`)" in DOC
    for b in pack.boards.values():
        assert f"**`{b.id}`**" in DOC


def test_each_rule_is_first_named_by_its_own_statement() -> None:
    """The server anchors a rule link on the block that first names the id: it must be the rule's statement."""
    lines = DOC.splitlines()
    for rid in set(re.findall(r"\*\*(BG-\d+\.\d+)\*\*", DOC)):
        first = next(i for i, line in enumerate(lines) if re.search(rf"{re.escape(rid)}\b", line))
        assert lines[first].startswith(f"- **{rid}**"), (rid, lines[first])
