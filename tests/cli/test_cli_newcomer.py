"""Issue 24, "A newcomer's first hour", on the command line: a failed save keeps the game going, unreadable
saved matches and unknown rules docs are one clear line, `--seats` sets the number of players, a closed pipe
ends quietly, negative and absurd numbers are refused, `simulate fullmetal` names and rotates its AI players,
seconds per move say wall or CPU, Worlds' notice is said once per screen and no Python repr reaches a user."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from spacetable.ai.agents import agent_specs
from spacetable.ai.ladder import describe
from spacetable.ai.tournament_cli import ratings_table
from spacetable.cli import build_parser, load_games, main
from spacetable.core.match import Match
from spacetable.games import available, get_game

pytestmark = pytest.mark.hardening

ROOT = Path(__file__).resolve().parents[2]


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
             stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        rc = int(exc.code or 0)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def cli(*argv: str, cwd: Path = ROOT, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spacetable.cli", *argv], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=600, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


# --------------------------------------------------------------------------------------------- saving
def test_save_to_a_missing_folder_at_the_prompt_is_one_line_and_the_game_goes_on(monkeypatch, capsys, tmp_path):
    good = tmp_path / "ok.json"
    rc, out, err = run_main(monkeypatch, capsys, ["play", "arena", "--vs", "random", "--seed", "1", "--seconds", "0.05"],
                            f"save /nonexistent/x.json\nsave {tmp_path}\n1\nsave {good}\nquit\n")
    assert rc == 0 and "Traceback" not in out + err
    assert "cannot save to /nonexistent/x.json: no folder '/nonexistent'; the game goes on" in out
    assert f"cannot save to {tmp_path}: it is a folder" in out
    assert "played: " in out and f"saved to {good}" in out  # the game went on after both failures
    assert len(json.loads(good.read_text())["log"]) >= 2


def test_play_save_into_a_missing_folder_says_so_once_and_plays_on(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_main(monkeypatch, capsys, ["play", "arena", "--vs", "random", "--seed", "1", "--seconds", "0.05",
                                                  "--save", "nodir/m.json"], "1\n2\nquit\nquit\n")
    assert rc == 0 and "Traceback" not in out + err
    assert out.count("cannot save to nodir/m.json: no folder 'nodir'") == 1  # said once, not after every action
    assert out.count("played: ") == 2
    assert "'quit' again leaves without saving" in out  # the first quit warns that the match is not saved
    assert "Game not finished; not saved (nodir/m.json could not be written)." in out
    assert "continue with --load" not in out


def test_save_without_a_file_saves_to_the_save_path_and_a_good_save_switches_to_it(monkeypatch, capsys, tmp_path):
    target = tmp_path / "here.json"
    rc, out, _ = run_main(monkeypatch, capsys, ["play", "arena", "--vs", "random", "--seed", "1", "--seconds", "0.05",
                                                "--save", str(tmp_path / "no" / "m.json")], f"save {target}\n1\nquit\n")
    assert rc == 0 and f"saved to {target}" in out
    assert "continue with --load" in out and len(json.loads(target.read_text())["log"]) >= 2  # autosaved there


# --------------------------------------------------------------------------------------- reading files
def _saved(tmp_path: Path) -> Path:
    good = tmp_path / "good.json"
    game = get_game("arena")
    Match(game="arena", config=game.normalize_config({}), seed=3).save(good)
    return good


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read {p}: no such file"),
    ("{", "cannot read {p}: not JSON (line 1, column 2"),
    ("[1, 2]", "cannot read {p}: not a saved match"),
    ('{"format": "spacetable-match/1", "game": "arena"}', "lacks its 'config', 'seed' and 'log' fields"),
    ('{"format": "spacetable-match/1", "game": "arena", "config": {}, "seed": 1}', "lacks its 'log' field"),
    ('{"format": "spacetable-match/1", "game": "arena", "config": {}, "seed": "x", "log": []}', "a malformed saved match"),
    ('{"format": "spacetable-match/1", "game": "arena", "config": {}, "seed": 1, "log": [{"player": 0}]}',
     "an entry lacks its 'action' field"),
    ("\udcff", "cannot read {p}"),
])
def test_unreadable_saved_matches_are_one_clear_line(monkeypatch, capsys, tmp_path, content, message):
    path = tmp_path / "m.json"
    if content == "\udcff":
        path.write_bytes(b"\xff\xfe\x00")
    elif content is not None:
        path.write_text(content)
    for argv in (["play", "arena", "--load", str(path)], ["replay", str(path)]):
        rc, out, err = run_main(monkeypatch, capsys, argv, "quit\n")
        assert rc == 2, (argv, out, err)
        assert err.count("\n") == 1 and err.startswith("spacetable: error: "), err
        assert message.format(p=path) in err and "Traceback" not in err and "KeyError" not in err


def test_a_match_of_another_game_names_the_right_command(monkeypatch, capsys, tmp_path):
    rc, _, err = run_main(monkeypatch, capsys, ["play", "worlds", "--load", str(_saved(tmp_path))])
    assert rc == 2 and "a saved match of another game (arena)" in err and "spacetable play arena --load" in err
    assert " a arena " not in err


def test_bad_files_in_a_real_process_end_without_traceback(tmp_path):
    (tmp_path / "bad2.json").write_text('{"format": "spacetable-match/1", "game": "arena"}')
    for argv in (["replay", "bad2.json"], ["play", "arena", "--load", "missing.json"], ["rules", "chess"]):
        run = cli(*argv, cwd=tmp_path)
        assert run.returncode == 2 and "Traceback" not in run.stderr and "error" in run.stderr, (argv, run.stderr)


def test_rules_of_an_unknown_game_is_a_clear_error_without_a_false_hint(monkeypatch, capsys):
    rc, _, err = run_main(monkeypatch, capsys, ["rules", "chess"])
    assert rc == 2 and "error: no guide for 'chess'; games with a guide: arena" in err
    assert "source checkout" not in err


# ------------------------------------------------------------------------------------------ seats
def test_seats_give_the_number_of_players(monkeypatch, capsys):
    """docs/ai.md's `play fullmetal --seats human,medium,medium` is a three-player match."""
    rc, out, err = run_main(monkeypatch, capsys, ["play", "fullmetal", "--seats", "human,medium,medium", "--seed", "2",
                                                  "--seconds", "0.05"], "quit\n")
    assert rc == 0, err
    assert "you at seat 0; AI: seat 1 commander, seat 2 commander" in out
    rc, _, err = run_main(monkeypatch, capsys, ["play", "fullmetal", "--seats", "human,easy,easy,easy,easy"])
    assert rc == 2 and "--seats lists 5 seats; Full Metal Planète has 2 to 4 players" in err
    rc, _, err = run_main(monkeypatch, capsys, ["play", "fullmetal", "--players", "2", "--seats", "human,easy,easy"])
    assert rc == 2 and "--seats lists 1 to 2 entries" in err  # an explicit --players still rules


def test_a_hot_seat_of_several_people_is_worded_as_a_list(monkeypatch, capsys):
    rc, out, _ = run_main(monkeypatch, capsys, ["play", "tremble", "--players", "3", "--vs", "human", "--seed", "1"],
                          "quit\n")
    assert rc == 0 and "people at seats 0, 1 and 2" in out


# --------------------------------------------------------------------------------------- numbers
@pytest.mark.parametrize("argv", [
    ["play", "arena", "--seconds", "-5"], ["play", "arena", "--seconds", "0"], ["play", "arena", "--seconds", "nan"],
    ["play", "arena", "--seconds", "inf"], ["play", "arena", "--seconds", "1e9"], ["play", "arena", "--seat", "-1"],
    ["play", "tremble", "--players", "0"], ["tournament", "arena", "--agents", "random", "--games", "-1"],
    ["tournament", "arena", "--agents", "random", "--seconds", "-1"], ["tournament", "arena", "--agents", "random",
                                                                       "--jobs", "0"],
    ["tournament", "arena", "--agents", "random", "--bootstrap", "-3"], ["simulate", "fullmetal", "--games", "0"],
    ["simulate", "fullmetal", "--seconds", "-1"], ["simulate", "fullmetal", "--players", "9"],
    ["simulate", "galaxies", "--games", "-2"], ["simulate", "tremble", "--jobs", "0"],
])
def test_negative_and_absurd_numbers_are_refused(monkeypatch, capsys, argv):
    rc, _, err = run_main(monkeypatch, capsys, argv)
    assert rc == 2 and "error: argument --" in err and "expected" in err and "Traceback" not in err, err


# ------------------------------------------------------------------------------------------- pipes
def test_a_reader_that_stops_early_gets_no_broken_pipe_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "spacetable.cli", "replay", "--example", "fullmetal"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={"PYTHONPATH": str(ROOT),
                                                                                "PATH": "/usr/bin:/bin"})
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()  # like `| head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    rc = proc.wait(timeout=600)
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert rc == 141


# ---------------------------------------------------------------------------------------- simulate
def test_simulate_fullmetal_names_the_ai_at_each_seat_and_rotates_them(capsys):
    assert main(["simulate", "fullmetal", "--games", "2", "--seats", "greedy,random", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    game0 = next(line for line in out.splitlines() if line.startswith("game 0:"))
    game1 = next(line for line in out.splitlines() if line.startswith("game 1:"))
    assert "seat 0 greedy" in game0 and "seat 1 random" in game0
    assert "seat 0 random" in game1 and "seat 1 greedy" in game1  # rotated
    assert re.search(r"wins per AI: greedy [\d.]+ of 2 games, random [\d.]+ of 2 games", out)
    assert "wins per seat: seat 0 " in out and "[" not in out


def test_simulate_helps_list_the_registered_ai_players(capsys):
    parser = build_parser(load_games())
    for gid in ("fullmetal", "galaxies", "tremble"):
        with pytest.raises(SystemExit):
            parser.parse_args(["simulate", gid, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for spec in agent_specs(get_game(gid)):
            assert spec.name in text, (gid, spec.name)
    with pytest.raises(SystemExit):
        parser.parse_args(["simulate", "fullmetal", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "planner" in text and "rotates them by g seats" in text


# ----------------------------------------------------------------------------------------- s/move
def test_seconds_per_move_say_wall_or_cpu():
    summ = {"anchor": {"mean": 1500.0}, "game": "arena", "games": 2, "seats": 2, "table": [
        {"name": "a", "rating": 1500, "low": 1400, "high": 1600, "games": 2, "score": 0.5, "win_rate": 0.5,
         "seconds_per_move": 0.25, "cpu_per_move": 0.125}]}
    columns = [str(c.header) for c in ratings_table(summ).columns]
    assert "wall s/move" in columns and "CPU s/move" in columns and "s/move" not in columns
    assert "0.125" in [str(c) for c in ratings_table(summ).columns[-1]._cells]
    spec = next(s for s in agent_specs(get_game("arena")) if s.seconds_per_move is not None)
    assert describe(spec).endswith("CPU s/move")
    ai_doc = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    assert "| s/move |" not in ai_doc and "| CPU s/move |" in ai_doc


# ------------------------------------------------------------------------------------ what users read
#: Python's own notation reaching a user: a dict or list repr, an escaped character, None, an article slip
SLIPS = [r"\{'", r"\['", r"\\u[0-9a-f]{4}", r"\bNone\b", r"\ba (arena|[aeiou]\w*) match\b", r"seats 0\b(?!,| and)"]


def slips(text: str) -> list[str]:
    return [m.group(0) for pattern in SLIPS for m in re.finditer(pattern, text)]


@pytest.mark.parametrize("game_id", available())
def test_no_python_reprs_in_a_game_transcript_or_replay(game_id, monkeypatch, capsys, tmp_path):
    save = tmp_path / "m.json"
    rc, out, err = run_main(monkeypatch, capsys, ["play", game_id, "--vs", "random", "--seed", "5", "--seconds", "0.05",
                                                  "--save", str(save)], "1\n" * 40 + "legal\nhelp\nquit\n")
    assert rc == 0 and not slips(out + err), slips(out + err)
    for argv in (["replay", str(save)], ["replay", "--example", game_id, "--final"]):
        rc, out, err = run_main(monkeypatch, capsys, argv)
        assert rc == 0 and not slips(out + err), (argv, slips(out + err))
        assert "result: {" not in out


def test_worlds_says_its_notice_once_per_screen(monkeypatch, capsys):
    rc, out, _ = run_main(monkeypatch, capsys, ["play", "worlds", "--vs", "random", "--seed", "3", "--seconds", "0.05"],
                          "1\nquit\n")
    assert rc == 0
    screens = [s for s in re.split(r"^your action> .*$", out, flags=re.M) if "scenario s1-example" in s]
    assert len(screens) >= 2
    for screen in screens:
        assert screen.count("Only the combat chapter") == 1 and screen.count("unidentified game") == 1, screen


def test_the_end_of_a_game_reads_as_words(monkeypatch, capsys):
    rc, out, _ = run_main(monkeypatch, capsys, ["replay", "--example", "arena", "--final"])
    assert rc == 0 and "result: Game over (corvette): winner seat 0; scores seat 0 1, seat 1 0" in out
    assert "points 1–0" in out and "semi victory no" in out
