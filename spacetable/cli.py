"""The ``spacetable`` command: one argument parser for every command and game.

Generic commands: ``games``, ``play GAME`` (the shared terminal loop, :mod:`spacetable.terminal`),
``tournament GAME`` (rated AI round robins, :mod:`spacetable.ai.tournament_cli`), ``replay FILE``,
``check`` (scenario step files), ``serve`` (the play server). Games contribute
further commands through :meth:`Game.commands` (``perft``, ``odds``, ``advise``, ``simulate``,
...): ``spacetable COMMAND GAME [options]``, and ``spacetable COMMAND --help`` lists the games
that have it. Errors in what the user typed end with a message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spacetable import __version__
from spacetable.ai.agents import agent_specs
from spacetable.ai.analysis_cli import add_arguments as add_analysis_arguments
from spacetable.ai.analysis_cli import run_command as run_analysis
from spacetable.ai.ladder import describe
from spacetable.ai.tournament_cli import add_arguments as add_tournament_arguments
from spacetable.ai.tournament_cli import run_command as run_tournament
from spacetable.core.errors import ConfigError, RuleError, SpacetableError
from spacetable.core.game import Game
from spacetable.core.hooks import Command
from spacetable.example_matches import example_path
from spacetable.games import REGISTRY, available, get_game
from spacetable.terminal import add_play_arguments, outcome_text, read_match, run_play

#: Short descriptions of commands several games may contribute (else the first game's own help).
SHARED_HELP = {
    "perft": "count the leaves of a game's move tree",
    "odds": "exact odds of a combat",
    "advise": "the best choice in a situation, with its value",
    "simulate": "many AI-against-AI games with a report",
}
FORMATTER = argparse.RawDescriptionHelpFormatter
#: Generic commands that every game has, written ``spacetable COMMAND GAME``.
GENERIC_PER_GAME = ("play", "tournament")


def load_games() -> dict[str, Game[Any]]:
    """Every game this installation can play, by id (the lobby's order)."""
    return {gid: get_game(gid) for gid in available()}


def game_commands(games: dict[str, Game[Any]]) -> dict[str, dict[str, Command]]:
    """command name -> game id -> the game's command (``check`` is driven by the generic command)."""
    out: dict[str, dict[str, Command]] = {}
    for gid, game in games.items():
        for cmd in game.commands():
            out.setdefault(cmd.name, {})[gid] = cmd
    return out


def _fail(message: str) -> int:
    print(f"spacetable: error: {message}", file=sys.stderr)
    return 2


# ------------------------------------------------------------------------------------------- commands
def cmd_games(games: dict[str, Game[Any]], ns: argparse.Namespace) -> int:
    for gid, g in games.items():
        players = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
        print(f"{gid:10} {g.name} ({players} players)")
        if ns.verbose:
            ais = ", ".join(f"{s.name} ({describe(s)})" if describe(s) else s.name for s in agent_specs(g))
            cmds = ", ".join(["play", *(c.name for c in g.commands())])
            print(f"{'':10} AI players: {ais}\n{'':10} commands: {cmds}")
    missing = [gid for gid in REGISTRY if gid not in games]
    if missing and ns.verbose:
        print(f"not in this build: {', '.join(missing)}")
    return 0


def cmd_replay(ns: argparse.Namespace) -> int:
    if ns.example:
        if ns.file:
            raise ConfigError("give a FILE or --example GAME, not both")
        path = example_path(ns.example)
    elif ns.file:
        path = Path(ns.file)
    else:
        raise ConfigError("give the FILE of a saved match (`save FILE` at the play prompt, or --save) or --example GAME")
    match = read_match(path)
    if match.game not in REGISTRY:
        raise ConfigError(f"cannot read {path}: a match of an unknown game {match.game!r}")
    game = get_game(match.game)
    if ns.player is not None and not 0 <= ns.player < game.num_players(match.config):
        raise ConfigError(f"--player must be a seat of this match, 0..{game.num_players(match.config) - 1}")
    state = game.initial_state(match.config, match.seed)
    if not ns.final:
        print(game.render_text(state, ns.player))
    for i, entry in enumerate(match.log, 1):
        try:
            after = game.apply(state, entry.player, entry.action)
        except RuleError as exc:
            raise ConfigError(f"action {i} of {path} does not replay: {exc}") from exc
        if not ns.final:
            shown = game.action_view(state, entry.player, entry.action, ns.player)
            if shown is None:
                text = "(hidden)"
            elif shown != entry.action:
                text = f"{shown.get('type', 'action')} (sealed)"
            else:
                text = game.action_text(state, entry.player, entry.action)
            print(f"--- {i}. seat {entry.player}: {text}")
            print(game.render_text(after, ns.player))
        state = after
    screen = game.render_text(state, ns.player)
    if ns.final:
        print(screen)
    out = game.outcome(state)
    print("result:", outcome_text(out, shown=screen) if out else "game in progress")
    return 0


def cmd_check(games: dict[str, Game[Any]], checks: dict[str, Command], ns: argparse.Namespace) -> int:
    targets = list(ns.targets)
    if ns.all:
        targets += [gid for gid in games if gid in checks]
    if not targets:
        raise ConfigError("name scenario files, games (their bundled scenarios, e.g. `check fullmetal`) or --all")
    calls: list[tuple[str, list[str]]] = []
    for target in targets:
        path = Path(target)
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ConfigError(f"cannot read {target}: {exc}") from exc
            gid = data.get("game") if isinstance(data, dict) else None
            if not isinstance(gid, str):
                raise ConfigError(f"{target}: a scenario file names its game in a 'game' field")
            files = [target]
        else:
            gid, _, name = target.partition("/")
            if gid not in games:
                raise ConfigError(f"{target!r} is neither a file nor a game ({', '.join(games)}) "
                                  "nor GAME/NAME of a bundled scenario")
            files = [name] if name else []
        if gid not in games:
            raise ConfigError(f"{target}: unknown game {gid!r}")
        if gid not in checks:
            raise ConfigError(_unsupported(gid, "check", checks))
        if calls and calls[-1][0] == gid and files and calls[-1][1]:
            calls[-1][1].extend(files)
        else:
            calls.append((gid, files))
    failed = sum(int(checks[gid].run(argparse.Namespace(files=files))) for gid, files in calls)
    print("all scenarios passed" if not failed else f"{failed} scenario file(s) failed")
    return 1 if failed else 0


def cmd_serve(ns: argparse.Namespace) -> int:
    # imported here: the server pulls in FastAPI, SQLAlchemy and uvicorn, which no other command needs
    from spacetable.server.cli import main as serve_main

    return int(serve_main(list(ns.args)))


def cmd_moderate(ns: argparse.Namespace) -> int:
    from spacetable.server.chat.moderate import main as moderate_main

    return int(moderate_main(list(ns.args)))


#: Options of `spacetable rules` that ask for the developers' rule index instead of the players' guide.
RULE_INDEX_FLAGS = ("--index", "--missing", "--write", "--lint")


def cmd_rules(ns: argparse.Namespace) -> int:
    """`spacetable rules GAME [--lang fr] [--section ID]` prints the players' guide; with `--index` (or the
    index's own `--missing`, `--write`, `--lint`) the developers' index of where each rule id is implemented."""
    args = list(ns.args)
    if any(a in RULE_INDEX_FLAGS for a in args):
        # imported here: the rule index reads the source tree (docs/rules, tests), which only this command needs
        from spacetable.ruleindex import main as rules_main

        return int(rules_main([a for a in args if a != "--index"]))
    from spacetable import guide

    ap = argparse.ArgumentParser(
        prog="spacetable rules", description="The players' guide of a game, in the terminal. Developers: "
        "`spacetable rules [GAME ...] --index [--missing] [--lint] [--write]` lists where each rule id is implemented "
        "and tested.")
    ap.add_argument("games", nargs="+", metavar="GAME", help=f"game id ({', '.join(guide.games())})")
    ap.add_argument("--lang", default="en", choices=guide.LANGUAGES, help="language of the guide (default en)")
    ap.add_argument("--section", default=None, help="print only this section (its id, e.g. goal, turn, faq)")
    ap.add_argument("--index", action="store_true", help="the developers' rule index instead of the guide")
    a = ap.parse_args(args)
    status = 0
    for gid in a.games:
        out = guide.guide_text(gid, a.lang, a.section)
        if out is None:
            print(f"spacetable: error: no guide for {gid!r}; games with a guide: {', '.join(guide.games())}",
                  file=sys.stderr)
            status = 2
            continue
        print(out)
    return status


def _unsupported(gid: str, command: str, by_game: dict[str, Any]) -> str:
    return f"{gid} does not support {command}; {command} is available for: {', '.join(by_game) or 'no game'}"


# --------------------------------------------------------------------------------------------- parser
def build_parser(games: dict[str, Game[Any]], argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line. With ``argv``, a game's ``play`` options are added only when ``argv`` names that
    game's ``play``: listing a game's AI players imports its AI modules (a second for all five, most of a short
    command's time), and argparse reads a subcommand's options only when the command line chooses it."""
    commands = game_commands(games)
    checks = commands.pop("check", {})
    parser = argparse.ArgumentParser(
        prog="spacetable", formatter_class=FORMATTER,
        description="Engine, AI and play server for space board games.",
        epilog="`spacetable COMMAND --help` explains a command; `spacetable COMMAND GAME --help` its options "
               "for that game.\nGames: " + ", ".join(games))
    parser.add_argument("--version", action="version", version=f"spacetable {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    p = sub.add_parser("games", help="list the games", description="List the games of this installation.")
    p.add_argument("-v", "--verbose", action="store_true", help="also list each game's AI players and commands")
    p.set_defaults(run=lambda ns: cmd_games(games, ns))

    p = sub.add_parser("play", help=f"play in the terminal ({', '.join(games)})", formatter_class=FORMATTER,
                       description="Play a game in the terminal against AI players or people at one keyboard.\n"
                                   "At the prompt type 'help' for the commands (undo, save FILE, legal, quit...).")
    per_game = p.add_subparsers(dest="game", metavar="GAME", title="games", required=True)
    for gid, game in games.items():
        gp = per_game.add_parser(gid, help=game.name, description=f"Play {game.name} in the terminal.")
        if argv is None or argv[:2] == ["play", gid]:
            add_play_arguments(gp, game)
        gp.set_defaults(run=_bind(run_play, game))

    p = sub.add_parser("tournament", help=f"rate AI players against each other ({', '.join(games)})",
                       formatter_class=FORMATTER,
                       description="A round robin between AI players with seats rotated and seeds paired, on this "
                                   "machine (--jobs) or a Ray cluster (--ray): Elo ratings with 95% intervals, a "
                                   "table, a plot and a JSON summary. Games are saved as they finish; the same "
                                   "command resumes an interrupted run.")
    per_game = p.add_subparsers(dest="game", metavar="GAME", title="games", required=True)
    for gid, game in games.items():
        gp = per_game.add_parser(gid, help=game.name, description=f"A tournament of {game.name} AI players.")
        add_tournament_arguments(gp, game)
        gp.set_defaults(run=_bind(run_tournament, game))

    p = sub.add_parser("replay", help="show a saved match position by position",
                       description="Replay a saved match (spacetable-match/1), position by position.")
    p.add_argument("file", nargs="?", help="the saved match: `save FILE` at the play prompt, or `play ... --save FILE`")
    p.add_argument("--example", metavar="GAME", choices=list(games), help="replay the example match shipped for GAME")
    p.add_argument("--player", type=int, default=None, help="show this seat's view (default: a spectator's)")
    p.add_argument("--final", action="store_true", help="print only the final position")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("analyse", help="post-game analysis of a finished match: chances, costly decisions, chart",
                       description="Analyse a finished match (spacetable-match/1): each seat's winning chances "
                                   "move by move, judged from what each seat knew, and the decisions that cost most.")
    add_analysis_arguments(p)
    p.set_defaults(run=run_analysis)

    p = sub.add_parser("check", help=f"run scenario step files ({', '.join(checks)})",
                       description="Run scenario step files and print pass/fail per step. A TARGET is a file, a "
                                   "game (all its bundled scenarios) or GAME/NAME (one bundled scenario).")
    p.add_argument("targets", nargs="*", metavar="TARGET")
    p.add_argument("--all", action="store_true", help="every bundled scenario of every game")
    p.set_defaults(run=lambda ns: cmd_check(games, checks, ns))

    p = sub.add_parser("serve", help="start the web play server (`spacetable serve --help` lists its options)",
                       add_help=False, prefix_chars="\0")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("moderate", help="review chat reports, suspend accounts (`spacetable moderate --help`)",
                       add_help=False, prefix_chars="\0")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(run=cmd_moderate)

    p = sub.add_parser("rules", help="a game's players' guide (`--lang fr`); `--index`: where each rule id is "
                                     "implemented and tested",
                       add_help=False, prefix_chars="\0")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(run=cmd_rules)

    for name, by_game in commands.items():
        first = next(iter(by_game.values()))
        p = sub.add_parser(name, help=f"{SHARED_HELP.get(name, first.help)} ({', '.join(by_game)})",
                           description=f"{SHARED_HELP.get(name, first.help)}. Games that support it: "
                                       f"{', '.join(by_game)}.")
        per = p.add_subparsers(dest="game", metavar="GAME", title="games", required=True)
        for gid, cmd in by_game.items():
            gp = per.add_parser(gid, help=cmd.help, description=f"{games[gid].name}: {cmd.help}.")
            cmd.add_arguments(gp)
            gp.set_defaults(run=cmd.run)
    return parser


def _bind(run: Callable[[Game[Any], argparse.Namespace], int], game: Game[Any]) -> Callable[[argparse.Namespace], int]:
    return lambda ns: run(game, ns)


def _precheck(argv: list[str], games: dict[str, Game[Any]]) -> str | None:
    """One wording for a game that is unknown or lacks the command (argparse would say 'invalid choice')."""
    if len(argv) < 2 or argv[1].startswith("-"):
        return None
    command, gid = argv[0], argv[1]
    commands = game_commands(games)
    commands.pop("check", None)  # its targets are files as well as games: cmd_check words it
    if command not in commands and command not in GENERIC_PER_GAME:
        return None
    if gid not in games:
        if gid in REGISTRY:
            return f"game {gid!r} is not available in this build; games: {', '.join(games)}"
        return f"unknown game {gid!r}; games: {', '.join(games)}"
    if command not in GENERIC_PER_GAME and gid not in commands[command]:
        return _unsupported(gid, command, commands[command])
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        games = load_games()
        parser = build_parser(games, argv)
        if not argv:
            parser.print_help()
            return 0
        problem = _precheck(argv, games)
        if problem:
            return _fail(problem)
        ns = parser.parse_args(argv)
        if getattr(ns, "run", None) is None:
            parser.print_help()
            return 2
        return int(ns.run(ns))
    except SpacetableError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader left (`spacetable games | head -1`): no traceback, and none when Python flushes at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
