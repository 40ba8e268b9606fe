"""Rule-id traceability: where each rule id of a game's rules doc is implemented and tested.

A game's rules doc ``docs/rules/<game>.md`` states its rules with ids (``AR-4.1``,
``AR-A13``), one line each::

    - **AR-4.1** A 1-sail ship moves to one orthogonally adjacent cell.

This module reads those ids (every id with the doc's prefix that the doc mentions, and the
statement of its bullet line), then looks for them

* in **code**: every ``.py`` file under ``spacetable/games/<game>/`` that writes the id
  hyphenated, in a docstring, a comment or a string (``RuleError("AR-4.3", ...)``);
* in **tests**: every ``@pytest.mark.rule("AR-4.1", ...)`` under ``tests/``, found statically
  (decorators, ``pytestmark`` and ``pytest.param(..., marks=...)`` alike).

It also lints the text of a game's code, tests and doc for ids written with underscores
(``AR_A13``) or as ranges (``TH-14.2–14.5``, ``AR-A1..A26``): both hide ids from a grep.
Identifiers (test function names) are not text and are not linted.

Use it as ``python -m spacetable.ruleindex [GAME ...]`` (a listing; ``--missing`` lists only
ids without code or test, ``--write`` regenerates ``docs/rules/index.md``), or call
:func:`report` / :func:`main` (the ``spacetable rules`` command does). It reads the source
tree (docs and tests), so it works from a checkout, not from an installed wheel.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INDEX_PAGE = Path("docs/rules/index.md")

_ID_BODY = r"(?:[A-Z]{1,2}\d+[a-z]?|\d+(?:\.\d+)*[a-z]?)"
ID_RE = re.compile(r"\b([A-Z]{2,4})-(" + _ID_BODY + r")(?!\w)")
#: The second bound of a range: a full id, ``A26`` or ``14.5`` (a bare ``48`` after a dash is prose).
_BOUND = r"(?:[A-Z]{2,4}-" + _ID_BODY + r"|[A-Z]{1,2}\d+|\d+\.\d+)"
#: An id followed by a second bound: ``TH-14.2–14.5``, ``WS-4.2-4.4``, ``AR-4.1–AR-4.5``, ``AR-A1..A26``.
RANGE_RE = re.compile(r"\b[A-Z]{2,4}-" + _ID_BODY + r"\s*(?:[–—-]|\.\.)\s*" + _BOUND)
_BULLET_RE = re.compile(r"^\s*(?:[-*]|\d+\.)\s+\*\*([A-Z]{2,4}-" + _ID_BODY + r")\*\*[.:]?\s*(.*)$")
_NOT_GAME = {"CORE", "SRV", "IM"}  # ids of the platform or of a spec's information model


@dataclass(frozen=True)
class Location:
    path: str  # relative to the repository root
    line: int
    where: str = ""  # enclosing function or class of a test

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" + (f" ({self.where})" if self.where else "")


@dataclass
class RuleEntry:
    id: str
    statement: str = ""
    code: list[Location] = field(default_factory=list)
    tests: list[Location] = field(default_factory=list)

    @property
    def traced(self) -> bool:
        return bool(self.code or self.tests)


@dataclass
class GameReport:
    game: str
    prefix: str
    entries: list[RuleEntry]
    #: Markers or code citing an id with the game's prefix that the doc does not state.
    unknown: dict[str, list[Location]] = field(default_factory=dict)

    def missing(self) -> list[str]:
        """Ids with neither a code nor a test location."""
        return [e.id for e in self.entries if not e.traced]

    def untested(self) -> list[str]:
        return [e.id for e in self.entries if not e.tests]

    def uncoded(self) -> list[str]:
        return [e.id for e in self.entries if not e.code]


# ----------------------------------------------------------------------------- reading
def _rel(path: Path, root: Path) -> str:
    return path.resolve().relative_to(root.resolve()).as_posix()


def doc_path(game: str, root: Path = ROOT) -> Path:
    return root / "docs" / "rules" / f"{game}.md"


def games_with_docs(root: Path = ROOT) -> list[str]:
    """Games that have a rules doc (``docs/rules/<game>.md``, the index page excluded)."""
    return sorted(p.stem for p in (root / "docs" / "rules").glob("*.md") if p != root / INDEX_PAGE)


def _is_section(rid: str, ids: Iterable[str]) -> bool:
    """``AR-4`` is the section of ``AR-4.1``: a heading, not a rule of its own."""
    return any(other.startswith(rid + ".") for other in ids)


def doc_ids(text: str) -> tuple[str, dict[str, str]]:
    """``(prefix, {id: statement})`` of a rules doc: the ids stated on bullet lines, in their order,
    then ids only mentioned, in order of mention (sections such as ``AR-4`` left out). The prefix is
    the most frequent one of the doc (platform ids such as ``CORE-TURN`` do not count). The
    statement is the rest of the id's bullet line."""
    prefixes = Counter(m.group(1) for m in ID_RE.finditer(text) if m.group(1) not in _NOT_GAME)
    if not prefixes:
        return "", {}
    prefix = prefixes.most_common(1)[0][0]
    stated: dict[str, str] = {}
    mentioned: dict[str, str] = {}
    for line in text.splitlines():
        bullet = _BULLET_RE.match(line)
        if bullet and bullet.group(1).startswith(prefix + "-"):
            stated[bullet.group(1)] = bullet.group(2).strip()
            continue
        for m in ID_RE.finditer(line):
            if m.group(1) == prefix:
                mentioned.setdefault(m.group(0), "")
    out = stated | {rid: "" for rid in mentioned if rid not in stated}
    return prefix, {rid: st for rid, st in out.items() if not _is_section(rid, out)}


def _text_tokens(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every comment and string of a Python source (docstrings included)."""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.COMMENT, tokenize.STRING) or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                for i, part in enumerate(tok.string.splitlines() or [""]):
                    yield tok.start[0] + i, part
    except (tokenize.TokenError, SyntaxError):
        for i, line in enumerate(source.splitlines(), 1):
            yield i, line


def code_locations(game: str, prefix: str, root: Path = ROOT) -> dict[str, list[Location]]:
    """Id -> where the game's package writes it (comments, docstrings, strings)."""
    out: dict[str, list[Location]] = {}
    for path in sorted((root / "spacetable" / "games" / game).rglob("*.py")):
        rel = _rel(path, root)
        seen: set[tuple[str, int]] = set()
        for line, text in _text_tokens(path.read_text(encoding="utf-8")):
            for m in ID_RE.finditer(text):
                if m.group(1) == prefix and (m.group(0), line) not in seen:
                    seen.add((m.group(0), line))
                    out.setdefault(m.group(0), []).append(Location(rel, line))
    return out


def _is_rule_marker(func: ast.expr) -> bool:
    # pytest.mark.rule(...) or mark.rule(...)
    return isinstance(func, ast.Attribute) and func.attr == "rule" and (
        (isinstance(func.value, ast.Attribute) and func.value.attr == "mark")
        or (isinstance(func.value, ast.Name) and func.value.id == "mark"))


class _MarkerFinder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.stack: list[str] = []
        self.found: list[tuple[str, int, str]] = []

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        for dec in node.decorator_list:  # decorators belong to the function they decorate
            self.stack.append(node.name)
            self.visit(dec)
            self.stack.pop()
        self.stack.append(node.name)
        for child in node.body:
            self.visit(child)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Call(self, node: ast.Call) -> None:
        if _is_rule_marker(node.func):
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    self.found.append((arg.value, node.lineno, ".".join(self.stack) or "<module>"))
        self.generic_visit(node)


def rule_markers(root: Path = ROOT, tests_dir: str = "tests") -> list[tuple[str, Location]]:
    """Every ``pytest.mark.rule`` id under ``tests/`` with its location, found without running pytest."""
    out: list[tuple[str, Location]] = []
    for path in sorted((root / tests_dir).rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        finder = _MarkerFinder()
        finder.visit(tree)
        rel = _rel(path, root)
        out.extend((rid, Location(rel, line, where)) for rid, line, where in finder.found)
    return out


def report(game: str, root: Path = ROOT) -> GameReport:
    """The traceability report of one game (see the module docstring)."""
    path = doc_path(game, root)
    if not path.exists():
        raise FileNotFoundError(f"no rules doc {path} (run from a source checkout)")
    prefix, ids = doc_ids(path.read_text(encoding="utf-8"))
    entries = {rid: RuleEntry(rid, statement) for rid, statement in ids.items()}
    unknown: dict[str, list[Location]] = {}
    for rid, locs in code_locations(game, prefix, root).items():
        if rid in entries:
            entries[rid].code.extend(locs)
        elif not _is_section(rid, entries):
            unknown.setdefault(rid, []).extend(locs)
    for rid, loc in rule_markers(root):
        if rid in entries:
            entries[rid].tests.append(loc)
        elif rid.startswith(prefix + "-"):
            unknown.setdefault(rid, []).append(loc)  # a marker names a rule, never a section
    return GameReport(game, prefix, list(entries.values()), unknown)


# ------------------------------------------------------------------------------ linting
def lint_text(rel: str, lines: Iterable[tuple[int, str]], prefix: str) -> list[str]:
    """Problems in the given text lines: ``prefix`` ids with underscores, any ids written as ranges."""
    underscore = re.compile(r"\b" + prefix + r"_(?:[A-Z]{1,2}\d+|\d+(?:_\d+)*)\b")
    out = []
    for line, text in lines:
        for m in underscore.finditer(text):
            out.append(f"{rel}:{line}: {m.group(0)!r} is written with underscores; write it hyphenated")
        for m in RANGE_RE.finditer(text):
            out.append(f"{rel}:{line}: {m.group(0)!r} is a range; list every id")
    return out


def lint(game: str, root: Path = ROOT) -> list[str]:
    """Lint the text (comments, docstrings, strings) of the game's package and of ``tests/<game>/``,
    and its rules doc."""
    doc = doc_path(game, root)
    prefix = doc_ids(doc.read_text(encoding="utf-8"))[0] if doc.exists() else ""
    if not prefix:
        return [f"{_rel(doc, root) if doc.exists() else doc}: no rule ids found"]
    out: list[str] = []
    for base in (root / "spacetable" / "games" / game, root / "tests" / game):
        for path in sorted(base.rglob("*.py")) if base.exists() else []:
            out.extend(lint_text(_rel(path, root), _text_tokens(path.read_text(encoding="utf-8")), prefix))
    out.extend(lint_text(_rel(doc, root), enumerate(doc.read_text(encoding="utf-8").splitlines(), 1), prefix))
    return out


# ------------------------------------------------------------------------------ output
def _grouped(locs: list[Location], lines: bool = True) -> str:
    """``a.py:3,9; b.py:4`` (test locations name their function instead of the line); without
    ``lines`` code locations are just file names, so the generated page does not go stale when
    code moves within a file."""
    by_file: dict[str, list[str]] = {}
    for loc in locs:
        items = by_file.setdefault(loc.path, [])
        if loc.where or lines:
            items.append(loc.where or str(loc.line))
    return "; ".join(f"{path}:{','.join(dict.fromkeys(items))}" if items else path for path, items in by_file.items())


def render_text(rep: GameReport, missing_only: bool = False) -> str:
    lines = [f"{rep.game} ({rep.prefix}-*): {len(rep.entries) - len(rep.missing())}/{len(rep.entries)} rule ids traced, "
             f"{len(rep.entries) - len(rep.uncoded())} in code, {len(rep.entries) - len(rep.untested())} in tests"]
    for e in rep.entries:
        if missing_only and e.traced:
            continue
        lines.append(f"  {e.id:9} {e.statement[:90]}")
        lines.append(f"            code:  {_grouped(e.code) or '-'}")
        lines.append(f"            tests: {_grouped(e.tests) or '-'}")
    for rid, locs in sorted(rep.unknown.items()):
        lines.append(f"  {rid:9} not stated in docs/rules/{rep.game}.md but cited at {_grouped(locs)}")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(reports: list[GameReport]) -> str:
    out = ["# Rule index", "",
           "*Generated by `python -m spacetable.ruleindex --write`; do not edit by hand.* For each rule id of a",
           "game's rules doc: the files of `spacetable/games/<game>/` that cite it and the tests",
           "marked `@pytest.mark.rule` with it (with the test's name). See `docs/architecture.md`, rule-id traceability.",
           ""]
    out.append("| game | rule ids | traced | in code | in tests |")
    out.append("|---|---|---|---|---|")
    for rep in reports:
        n = len(rep.entries)
        out.append(f"| [{rep.game}]({rep.game}.md) | {n} | {n - len(rep.missing())} | {n - len(rep.uncoded())} | "
                   f"{n - len(rep.untested())} |")
    for rep in reports:
        out += ["", f"## {rep.game}", "", "| id | rule | code | tests |", "|---|---|---|---|"]
        for e in rep.entries:
            code = _grouped([Location(loc.path.removeprefix(f"spacetable/games/{rep.game}/"), loc.line) for loc in e.code],
                            lines=False)
            tests = _grouped([Location(loc.path.removeprefix("tests/"), loc.line, loc.where) for loc in e.tests])
            out.append(f"| {e.id} | {_cell(e.statement)} | {_cell(code) or '—'} | {_cell(tests) or '—'} |")
    return "\n".join(out) + "\n"


def write_index(root: Path = ROOT) -> Path:
    """Regenerate ``docs/rules/index.md`` for every game with a rules doc."""
    page = root / INDEX_PAGE
    page.write_text(render_markdown([report(g, root) for g in games_with_docs(root)]), encoding="utf-8")
    return page


def main(argv: list[str] | None = None) -> int:
    """``spacetable rules [GAME ...] [--missing] [--write] [--lint]``; returns 1 when an id is untraced
    (with ``--missing``) or when ``--lint`` finds a problem."""
    ap = argparse.ArgumentParser(prog="spacetable rules", description="Where each rule id is implemented and tested.")
    ap.add_argument("games", nargs="*", help="game ids (default: every game with docs/rules/<game>.md)")
    ap.add_argument("--missing", action="store_true", help="list only rule ids without code or test locations")
    ap.add_argument("--write", action="store_true", help=f"regenerate {INDEX_PAGE} for every game")
    ap.add_argument("--lint", action="store_true", help="also report ids written with underscores or as ranges")
    args = ap.parse_args(argv)
    known = games_with_docs()
    if not known:
        ap.error(f"no rules docs under {ROOT / 'docs' / 'rules'}: this command reads a source checkout")
    unknown = [g for g in args.games if g not in known]
    if unknown:
        ap.error(f"no rules doc for {', '.join(map(repr, unknown))}; games with rules docs: {', '.join(known)}")
    if args.write:
        print(f"wrote {write_index()}")
        return 0
    status = 0
    for game in args.games or known:
        rep = report(game)
        print(render_text(rep, args.missing))
        if args.missing and rep.missing():
            status = 1
        if args.lint:
            problems = lint(game)
            print("\n".join(problems) if problems else f"{game}: ids written well")
            status |= bool(problems)
    return status


if __name__ == "__main__":
    sys.exit(main())
