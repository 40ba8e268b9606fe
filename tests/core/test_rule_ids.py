"""Rule-id traceability (``spacetable/ruleindex.py``): every rule id of a game's rules doc is found in
the game's code or on a test (``@pytest.mark.rule``), written hyphenated and never as a range.

``TRACED`` lists the games already converted to the declared shape: the helper who converts a game
adds its id here once ``python -m spacetable.ruleindex GAME --missing --lint`` is clean. Games not
listed are still reported by the command and on ``docs/rules/index.md``, but do not fail the tests.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from spacetable import ruleindex
from spacetable.ruleindex import doc_ids, games_with_docs, lint, main, render_markdown, report

TRACED = {"arena", "fullmetal", "galaxies", "tremble", "worlds"}


@pytest.mark.parametrize("game", sorted(TRACED))
def test_every_rule_id_has_code_or_a_test(game: str) -> None:
    rep = report(game)
    assert rep.entries, f"docs/rules/{game}.md states no rule ids"
    assert rep.missing() == [], f"{game}: rule ids with neither code nor test: {rep.missing()}"
    assert rep.unknown == {}, f"{game}: ids cited but not stated in docs/rules/{game}.md: {sorted(rep.unknown)}"


@pytest.mark.parametrize("game", sorted(TRACED))
def test_rule_ids_are_hyphenated_and_never_ranges(game: str) -> None:
    assert lint(game) == []


def test_the_generated_rule_index_is_current() -> None:
    """docs/rules/index.md lists files, not line numbers, so it changes only when a rule id moves
    between files, a test is renamed or a rule is added: regenerate it then with
    ``spacetable rules --write``."""
    page = ruleindex.ROOT / ruleindex.INDEX_PAGE
    expected = render_markdown([report(g) for g in games_with_docs()])
    assert page.read_text(encoding="utf-8") == expected, "run: spacetable rules --write"


def test_traced_games_have_rules_docs() -> None:
    assert set(games_with_docs()) >= TRACED


def _tree(tmp_path: Path) -> Path:
    files = {
        "docs/rules/toy.md": """
            # Toy
            ### TY-1 Moving
            - **TY-1.1** A piece moves one step.
            - **TY-1.2** A piece never jumps.
            - **TY-A1** Scenario: a lone piece has 4 steps.
            Mentioned only: TY-2.1. Not ours: CORE-TURN.
            """,
        "spacetable/games/toy/rules.py": '''
            """Moving (TY-1.1)."""
            # TY-9.9 is cited but not stated
            def step():
                raise ValueError("TY-1.2")
            TY_A1 = 1  # an identifier is not text; see TY_A1 in this comment and TY-1.1–TY-1.2 here
            ''',
        "tests/toy/test_rules.py": '''
            import pytest

            @pytest.mark.rule("TY-1.1", "TY-A1")
            def test_step():
                pass

            @pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.rule("TY-1.2"))])
            def test_param(x):
                pass

            class TestMore:
                @pytest.mark.rule("TY-7.7")
                def test_unknown(self):
                    pass
            ''',
    }
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return tmp_path


def test_report_finds_statements_code_and_markers(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    rep = report("toy", root)
    by_id = {e.id: e for e in rep.entries}
    assert rep.prefix == "TY" and list(by_id) == ["TY-1.1", "TY-1.2", "TY-A1", "TY-2.1"]  # TY-1 is a section
    assert by_id["TY-1.1"].statement == "A piece moves one step." and by_id["TY-2.1"].statement == ""
    assert [str(loc) for loc in by_id["TY-1.1"].code] == ["spacetable/games/toy/rules.py:1", "spacetable/games/toy/rules.py:5"]
    assert [(loc.path, loc.where) for loc in by_id["TY-1.2"].tests] == [("tests/toy/test_rules.py", "test_param")]
    assert [loc.where for loc in by_id["TY-A1"].tests] == ["test_step"] and by_id["TY-A1"].code == []
    assert rep.missing() == ["TY-2.1"] and rep.untested() == ["TY-2.1"] and rep.uncoded() == ["TY-A1", "TY-2.1"]
    assert sorted(rep.unknown) == ["TY-7.7", "TY-9.9"]
    assert "TestMore.test_unknown" in str(rep.unknown["TY-7.7"][0])
    page = render_markdown([rep])
    assert "| TY-1.2 | A piece never jumps. | rules.py | toy/test_rules.py:test_param |" in page
    assert "| TY-2.1 |  | — | — |" in page


def test_lint_flags_underscores_and_ranges_in_text_only(tmp_path: Path) -> None:
    problems = lint("toy", _tree(tmp_path))
    assert len(problems) == 2, problems
    assert "rules.py:5: 'TY_A1' is written with underscores" in problems[0]
    assert "'TY-1.1–TY-1.2' is a range" in problems[1]


@pytest.mark.parametrize(("text", "ids"), [
    ("- **AR-4.1** x\n- **AR-A13** y\nsee AR-4.1, AR-10.6 (1) and CORE-TURN", ["AR-4.1", "AR-A13", "AR-10.6"]),
    ("TH-14.2–14.5 and WS-4.2-4.4 are ranges (first bounds count); TH-3.1 is not", ["TH-14.2", "TH-3.1"]),
])
def test_doc_ids(text: str, ids: list[str]) -> None:
    assert list(doc_ids(text)[1]) == ids


@pytest.mark.parametrize(("text", "flagged"), [
    ("TH-14.2–14.5", True), ("WS-4.2-4.4", True), ("AR-4.1–AR-4.5", True), ("AR-A1..A26", True),
    ("AR-A1..AR-A21", True), ("AR-5.2 — 48 of 64 pairs", False), ("AR-2.2 - Red moves first", False),
    ("AR-4.1, AR-4.2", False), ("(AR-10.6 (1)-(3))", False),
])
def test_ranges(text: str, flagged: bool) -> None:
    assert bool(ruleindex.RANGE_RE.search(text)) == flagged


def test_main_lists_and_fails_on_missing_ids(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--missing", "--lint"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("arena (AR-*): ") and "ids written well" in out
