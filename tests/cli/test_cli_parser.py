"""The one `spacetable` parser: help lists the games per command, one wording for unsupported commands,
bad values end with a message and exit status 2 (never a traceback), and games' hooks are wired."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from spacetable.ai.agents import agent_specs, default_agent, find_agent
from spacetable.cli import main
from spacetable.core.errors import ConfigError
from spacetable.games import available, get_game

ROOT = Path(__file__).resolve().parents[2]


def cli(*argv: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spacetable.cli", *argv], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_help_of_each_command_lists_the_games_that_have_it(capsys: pytest.CaptureFixture[str]) -> None:
    games = available()
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert all(g in out for g in games)
    for command in ("perft", "simulate", "odds", "advise"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        having = [g for g in games if any(c.name == command for c in get_game(g).commands())]
        assert having and all(g in out for g in having), command
        assert all(g not in out.split("games:")[-1] for g in games if g not in having), command
    with pytest.raises(SystemExit):
        main(["games", "--help"])
    assert "--verbose" in capsys.readouterr().out
    assert main([]) == 0 and "COMMAND" in capsys.readouterr().out


def test_games_lists_ai_players_and_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "-v"]) == 0
    out = capsys.readouterr().out
    assert "endgame (hard" in out and "planner (hard" in out and "commander (medium" in out
    assert "commands: play, perft, check" in out


def test_a_game_lists_its_ai_players_only_when_its_play_is_asked() -> None:
    """`spacetable play GAME --help` names the game's AI players; a command that does not play (help, perft,
    check) does not import every game's AI modules for them (numba's compiled kernels: most of a second)."""
    probe = ("import sys\nfrom spacetable.cli import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print('numba loaded:', 'numba' in sys.modules, file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", probe, "--help"], capture_output=True, text=True, timeout=300)
    assert "numba loaded: False" in run.stderr and "play" in run.stdout, run.stderr
    run = subprocess.run([sys.executable, "-c", probe, "play", "arena", "--help"], capture_output=True, text=True,
                         timeout=300)
    assert "numba loaded: True" in run.stderr and "alphabeta" in run.stdout and "--vs AI" in run.stdout, run.stderr


@pytest.mark.parametrize(("argv", "message"), [
    (["perft", "worlds", "--depth", "1"], "worlds does not support perft; perft is available for: arena"),
    (["odds", "arena"], "arena does not support odds; odds is available for: worlds"),
    (["simulate", "arena"], "arena does not support simulate; simulate is available for: worlds, tremble, fullmetal, galaxies"),
    (["play", "chess"], "unknown game 'chess'"),
    (["simulate", "fullmetal", "--seats", "foo,bar"], "unknown AI 'foo' for fullmetal; choose from: planner, commander"),
    (["play", "arena", "--board", "7x7"], "option board must be one of"),
    (["play", "arena", "--vs", "deep-blue"], "unknown AI 'deep-blue' for arena"),
    (["play", "arena", "--seats", "human,human,human"], "--seats lists 1 to 2 entries"),
    (["play", "tremble", "--players", "9"], "--players: expected a whole number from 2 to 5, got 9"),
    (["play", "fullmetal", "--deploy-secret", "maybe"], "expected yes or no"),
    (["play", "arena", "--option", "nonsense"], "--option takes KEY=VALUE"),
    (["replay", "no-such-file.json"], "cannot read no-such-file.json"),
    (["replay"], "give the FILE of a saved match"),
    (["check", "no-such-thing"], "is neither a file nor a game"),
    (["check", "fullmetal/s99"], "no bundled fullmetal scenario of that name"),
    (["check"], "name scenario files, games"),
    (["advise", "worlds", "--scenario", "nowhere"], "no scenario named 'nowhere'"),
])
def test_bad_input_is_one_clear_error_and_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == 2 and message in err and "Traceback" not in err


def test_bad_values_in_a_real_process_give_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{not json")
    for argv in (["simulate", "fullmetal", "--seats", "foo,bar"], ["replay", "broken.json"], ["check", "broken.json"],
                 ["perft", "arena", "--depth", "many"], ["play", "arena", "--seed", "x"], ["odds", "worlds", "--scenario",
                                                                                            "broken.json"]):
        run = cli(*argv, cwd=tmp_path)
        assert run.returncode == 2 and "Traceback" not in run.stderr and "error" in run.stderr, (argv, run.stderr)


def test_serve_passes_its_options_through() -> None:
    run = cli("serve", "--help")
    assert run.returncode == 0 and "usage: spacetable serve" in run.stdout and "--database-url" in run.stdout


def test_check_bundled_scenarios_by_game_name_and_all(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "fullmetal/s01_terrain", "arena"]) == 0
    out = capsys.readouterr().out
    assert "all scenarios passed" in out and "S-1 step 1: pass" in out and "arena/ar_a10_a16" in out
    assert main(["check", "--all"]) == 0
    out = capsys.readouterr().out
    assert all(f"{g}/" in out for g in ("arena", "worlds", "tremble")) and "S-8" in out and "FAIL" not in out


def test_every_game_declares_agents_commands_and_notation_through_its_package() -> None:
    """Issue 10 item 4: the server and the CLI find a game's AI players and commands through the hooks
    its package declares, not by importing `<pkg>.ai` / `<pkg>.cli` by naming convention."""
    for gid in available():
        game = get_game(gid)
        specs = game.agents()
        assert specs and {s.level for s in specs} >= {"easy", "hard"}, gid
        assert default_agent(game) == specs[0].name and find_agent(game, "ai").name == specs[0].name
        assert {"mcts", "random"} <= {s.name for s in agent_specs(game)}
        assert any(c.name == "check" for c in game.commands()), gid
        assert "``" not in game.notation_help() and game.notation_help().strip(), gid
        copy = pickle.loads(pickle.dumps(game))  # AI worker processes receive pickled games
        assert [s.name for s in copy.agents()] == [s.name for s in specs]
    for path in (ROOT / "spacetable" / "cli.py", ROOT / "spacetable" / "server" / "ai.py", ROOT / "spacetable" / "terminal.py"):
        text = path.read_text(encoding="utf-8")
        assert "importlib" not in text and '".ai"' not in text and '".cli"' not in text, path
    with pytest.raises(ConfigError, match="choose from"):
        find_agent(get_game("arena"), "nobody")


def test_server_lists_the_same_agents_as_the_cli() -> None:
    from spacetable.server.ai import agent_registry

    for gid in available():
        game = get_game(gid)
        agents, default = agent_registry(game)
        assert list(agents) == [s.name for s in agent_specs(game)] and default == default_agent(game)
