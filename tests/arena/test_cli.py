"""Arena through the command line: perft (last line is the count), terminal play against the AIs with
piped stdin, save/load/replay, and the bundled check files (AR-A10, AR-A12, AR-A16, AR-A21)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from spacetable.cli import main


def _run(monkeypatch, capsys, argv: list[str], stdin: str = "") -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = main(argv)
    return rc, capsys.readouterr().out


@pytest.mark.rule("AR-9.2")
def test_perft_last_line_is_count(monkeypatch, capsys) -> None:
    rc, out = _run(monkeypatch, capsys, ["perft", "arena", "--board", "6x4", "--depth", "2"])
    assert rc == 0 and out.strip().splitlines()[-1] == "470"
    rc, out = _run(monkeypatch, capsys, ["perft", "arena", "--board", "5x5", "--depth", "2", "--divide"])
    lines = out.strip().splitlines()
    assert lines[-1] == "288" and len(lines) == 18 and sum(int(x.split(": ")[1]) for x in lines[:-1]) == 288
    rc, out = _run(monkeypatch, capsys, ["perft", "arena", "--depth", "2", "--reference",
                                         "--position", "6x4 111a1,212b5,121c3,122d2,221a3 111d6 r 0 -"])
    assert out.strip().splitlines()[-1].isdigit()
    rc, out = _run(monkeypatch, capsys, ["perft", "arena", "--depth", "3", "--position", "6x4 111a1 112a2,122b1,111d6 r 0 -"])
    assert out.strip().splitlines()[-1] == "0"  # AR-9.2: terminal positions have no actions


def test_perft_subprocess_and_bad_values() -> None:
    out = subprocess.run([sys.executable, "-m", "spacetable.cli", "perft", "arena", "--board", "6x4", "--depth", "3"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "10805"
    for bad in (["--depth", "-1"], ["--depth", "2", "--position", "nonsense"], ["--depth", "x"]):
        run = subprocess.run([sys.executable, "-m", "spacetable.cli", "perft", "arena", *bad], capture_output=True, text=True)
        assert run.returncode == 2 and "Traceback" not in run.stderr and "error" in run.stderr


def test_play_piped_against_random(monkeypatch, capsys, tmp_path) -> None:
    save = tmp_path / "m.json"
    script = "help\nlegal\nzz-zz\nc2-c3\nundo\nb2-b3\nview\nquit\n"
    rc, out = _run(monkeypatch, capsys, ["play", "arena", "--vs", "random", "--red-seat", "0", "--seed", "5",
                                         "--save", str(save)], script)
    assert rc == 0
    assert "Arena notation" in out and "undo" in out  # help: the commands and the notation
    assert "22 legal actions" in out and "    1. a2-a3" in out and "illegal: [CORE-ACTION]" in out
    assert "AI (random) plays" in out and "taken back (2 actions)" in out and "You play Red." in out
    data = json.loads(save.read_text())
    assert data["format"] == "spacetable-match/1" and data["game"] == "arena" and data["log"][0]["action"]["from"] == "b2"
    assert data["meta"]["seats"] == ["human", "random"]
    rc, out = _run(monkeypatch, capsys, ["replay", str(save)])
    assert rc == 0 and out.count("| B112") >= 2 and "game in progress" in out and "--- 1. seat 0: b2-b3" in out
    rc, out = _run(monkeypatch, capsys, ["play", "arena", "--load", str(save), "--seconds", "0.05"], "legal\nquit\n")
    assert "legal actions" in out and "seat 1 random" in out  # the saved seats come back


@pytest.mark.rule("AR-A16")
def test_play_to_the_end_from_position(monkeypatch, capsys, tmp_path) -> None:
    """AR-A16 in the terminal: the human captures the corvette and the result is shown."""
    save = tmp_path / "w.json"
    rc, out = _run(monkeypatch, capsys, ["play", "arena", "--vs", "random", "--red-seat", "0",
                                         "--position", "6x4 111a1,222c5 111c6,112a6 r 0 -", "--save", str(save)],
                   "c5xc6\n")
    assert rc == 0 and "Red wins 1–0 (corvette)" in out and "You win." in out
    rc, out = _run(monkeypatch, capsys, ["replay", str(save), "--final"])
    assert "Red wins 1–0 (corvette)" in out and "result: Game over (corvette): winner seat 0" in out


@pytest.mark.parametrize("vs", ["alphabeta", "mcts"])
def test_play_against_ai_replies(monkeypatch, capsys, vs: str) -> None:
    rc, out = _run(monkeypatch, capsys, ["play", "arena", "--vs", vs, "--seconds", "0.05", "--red-seat", "1",
                                         "--board", "5x5", "--seed", "1"], "legal\nquit\n")
    assert rc == 0 and f"AI ({vs}) plays" in out and "legal actions" in out and "You play Blue." in out


@pytest.mark.rule("AR-A10", "AR-A12", "AR-A16", "AR-A21")
def test_check_bundled_and_given_files(monkeypatch, capsys, tmp_path) -> None:
    """`spacetable check arena` runs the bundled step files (AR-A10, AR-A12, AR-A16, AR-A21); a file that
    expects the wrong thing fails with exit status 1."""
    rc, out = _run(monkeypatch, capsys, ["check", "arena"])
    assert rc == 0 and "all scenarios passed" in out and "FAIL" not in out and "arena/ar_a12_bonus" in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "arena", "position": "6x4 111a1,222b1 111d6 r 0 -",
                               "steps": [{"action": "P111", "expect_error": "AR-9.1"}, {"expect": {"legal_count": 99}}]}))
    rc, out = _run(monkeypatch, capsys, ["check", str(bad)])
    assert rc == 1 and out.count("FAIL") == 2 and "1 scenario file(s) failed" in out
