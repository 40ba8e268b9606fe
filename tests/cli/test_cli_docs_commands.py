"""Issue 24: every `spacetable ...` command line in README.md and docs/*.md is one the command accepts as
written (options, values, AI names, seats), and the cheap ones run: every `play` line (left at once), `games`,
`replay --example`, `perft`, `check GAME`, `odds galaxies`. The long runs (tournaments, simulations, the
server) are checked up to their start: their arguments parse and name real AI players; README.md's own test
(tests/cli/test_cli_readme.py) runs its "Using it" block in full."""

from __future__ import annotations

import io
import re
import shlex
import sys
from pathlib import Path

import pytest

from spacetable.ai.agents import find_agent
from spacetable.cli import build_parser, load_games, main
from spacetable.games import get_game

pytestmark = pytest.mark.hardening

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: placeholders of the docs' shell loops and templates, with a value the command accepts
PLACEHOLDERS = {"$n": "2", "N": "2"}
#: commands run in full here (in-process, quick); the others are parsed and their AI names checked
RUN = ("play", "games", "perft", "check")


def doc_commands() -> list[tuple[str, str]]:
    """``(file, command)`` for every `spacetable` line of a fenced shell block (continued lines joined)."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```(?:bash|sh|shell|console)?\n(.*?)```", text, flags=re.S):
            block = re.sub(r"\\\n\s*", " ", block)
            for line in block.splitlines():
                line = line.strip().removeprefix("$ ")
                if not line.startswith("spacetable "):
                    continue
                command = line.split(" #", 1)[0].strip()
                if re.match(r"spacetable \S+:", command):  # printed output ("spacetable server: http://...")
                    continue
                found.append((str(path.relative_to(ROOT)), command))
    return found


COMMANDS = doc_commands()


def argv_of(command: str) -> list[str]:
    return [PLACEHOLDERS.get(word, word) for word in shlex.split(command)[1:]]


def test_the_docs_have_commands_to_check():
    files = {f for f, _ in COMMANDS}
    assert len(COMMANDS) >= 30 and {"README.md", "docs/ai.md", "docs/scale.md"} <= files
    assert ("docs/ai.md", "spacetable play fullmetal --seats human,medium,medium") in COMMANDS


@pytest.mark.parametrize(("doc", "command"), COMMANDS, ids=[f"{f}:{c[11:60]}" for f, c in COMMANDS])
def test_a_documented_command_is_accepted_as_written(doc, command, monkeypatch, capsys, tmp_path):
    argv = argv_of(command)
    if argv[0] == "serve":  # the server's own options: tests/cli/test_cli_readme.py starts it
        return
    parser = build_parser(load_games())
    try:
        ns = parser.parse_args(argv)
    except SystemExit as exc:
        pytest.fail(f"{doc}: `{command}` is refused: {capsys.readouterr().err.strip()} (exit {exc.code})")
    game = get_game(ns.game) if getattr(ns, "game", None) else None
    for flag in ("agents", "seats", "ai", "vs", "table"):
        value = getattr(ns, flag, None)
        if game is None or value is None or (flag == "seats" and argv[0] == "play"):
            continue
        for names in value if isinstance(value, list) else [value]:
            for name in names.split(","):
                if name.strip() not in ("human", "humans"):
                    find_agent(game, name.strip())  # an unknown AI name raises with the choices
    if argv[0] not in RUN or "--all" in argv or (argv[0] == "replay" and "--example" not in argv):
        return
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    if argv[0] == "play" and "--seconds" not in argv:
        argv += ["--seconds", "0.05"]
    rc = main(argv)
    cap = capsys.readouterr()
    assert rc == 0, f"{doc}: `{command}` ended with {rc}: {cap.err[-2000:]}"
    assert "Traceback" not in cap.out + cap.err


def test_a_replay_example_and_the_galaxies_odds_run(capsys):
    for command in ("spacetable replay --example tremble --final",
                    "spacetable odds galaxies --attacker f47 --target barrage"):
        assert main(argv_of(command)) == 0, command
    out = capsys.readouterr().out
    assert "result: Game over" in out and "f47" in out
