"""Every example in README.md works as written from any folder once the virtual environment is active:
each `spacetable ...` line of the "Using it" block runs (a short version: fewer games, less thinking time,
a smaller advisor case, a free port) in an empty temporary folder, in the README's order, and the Python
example runs too."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent / "spacetable"

#: (pattern, replacement): the short version of a README command (same command, less work)
SHORTER = [
    (r"--games \d+", "--games 2"),
    (r"--jobs \d+", "--jobs 1"),
    (r"grand-melee", "s1-example"),
]


def using_it_commands() -> list[str]:
    block = README.split("## Using it", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip().startswith("spacetable")]


def short(command: str) -> list[str]:
    for pattern, repl in SHORTER:
        command = re.sub(pattern, repl, command)
    argv = command.split()[1:]
    if argv[0] == "play":
        argv += ["--seconds", "0.05"]
    return argv


def spacetable(argv: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    exe = [str(BIN)] if BIN.exists() else [sys.executable, "-m", "spacetable.cli"]
    return subprocess.run(exe + argv, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=600)


def test_the_readme_lists_the_examples() -> None:
    commands = using_it_commands()
    assert len(commands) >= 12
    names = {c.split()[1] for c in commands}
    assert {"games", "play", "replay", "perft", "odds", "advise", "simulate", "check", "serve"} <= names
    assert "shared/specs" not in README and "shared/seeds" not in README
    first = README.split("```bash", 1)[1].split("```", 1)[0]
    assert "./scripts/serve" in first and "./scripts/test" in first


@pytest.mark.slow
def test_every_readme_command_runs_from_an_empty_folder(tmp_path: Path) -> None:
    for command in using_it_commands():
        argv = short(command)
        if "..." in command:  # a template (a database or Redis URL to fill in): its flags must exist
            _flags_exist(argv)
            continue
        if argv[0] == "serve":
            _serve(argv, tmp_path)
            continue
        run = spacetable(argv, tmp_path, stdin="help\nlegal\n1\nquit\n" if argv[0] == "play" else "")
        assert run.returncode == 0, (command, run.stdout[-2000:], run.stderr[-2000:])
        assert "Traceback" not in run.stderr, command
    assert (tmp_path / "my-match.json").exists() and (tmp_path / "odds.png").exists()


def _flags_exist(argv: list[str]) -> None:
    """A template line runs for real elsewhere (several processes on PostgreSQL and Redis: tests/server/
    test_multiprocess.py); here each of its flags must be one its command knows."""
    helptext = spacetable([argv[0], "--help"], ROOT).stdout
    flags = [a for a in argv if a.startswith("--")]
    assert flags and all(f in helptext for f in flags), (argv, helptext[-2000:])


def _serve(argv: list[str], cwd: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [a if a != "8000" else str(port) for a in argv] + ["--database-url", f"sqlite:///{cwd / 'readme.sqlite3'}"]
    exe = [str(BIN)] if BIN.exists() else [sys.executable, "-m", "spacetable.cli"]
    proc = subprocess.Popen(exe + argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.time() + 60
        while time.time() < end:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise AssertionError("spacetable serve did not answer /health")
    finally:
        proc.terminate()
        proc.wait(20)


def test_the_python_example_runs() -> None:
    code = README.split("```python", 1)[1].split("```", 1)[0].replace("iterations=500", "iterations=20")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT.parent)
    assert run.returncode == 0 and "Outcome(" in run.stdout, run.stderr
