"""docs/rules/worlds.md, the rules reference: it stands alone, states every rule id on one line, and each id is
first named by its own statement, so the server's rule links (``/rules/worlds#WS-5.3``) land on it."""

from __future__ import annotations

import re
from pathlib import Path

from spacetable.server.presentation import rules_document

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "worlds.md"
STATED = re.compile(r"^\s*(?:- )?\*\*(WS-[0-9A-Z][0-9.a-z]*)\*\* (.+)$", re.M)
#: the rule ids the engine cites in its refusals
REFUSALS = ("WS-2.1", "WS-2.3", "WS-2.4", "WS-4.2", "WS-4.3", "WS-5.1", "WS-5.3", "WS-5.6", "WS-6.3", "WS-6.4", "WS-7")


def test_the_doc_stands_alone_and_states_every_id_once() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "shared/specs" not in text and "spec §" not in text
    ids = [m.group(1) for m in STATED.finditer(text)]
    assert len(ids) == len(set(ids))
    expected = ({f"WS-0.{i}" for i in range(1, 5)} | {f"WS-1.{i}" for i in range(1, 7)} | {f"WS-A{i}" for i in range(1, 21)}
                | {f"WS-D{i}" for i in range(1, 25)} | {"WS-7", "WS-8.3a", "WS-8.3b", "WS-8.3c"})
    assert expected <= set(ids)


def test_every_id_is_first_named_by_its_statement() -> None:
    doc = rules_document("worlds")
    assert doc is not None
    text = DOC.read_text(encoding="utf-8")
    for rid in [m.group(1) for m in STATED.finditer(text)] + list(REFUSALS):
        assert doc["rules"].get(rid, "").startswith(rid), (rid, doc["rules"].get(rid, "")[:80])
