"""The ``spacetable`` command.

``spacetable <command> ...``. Generic commands live here (``games``, ``replay``,
``serve``); game commands (``play``, ``perft``, ``odds``, ``advise``,
``simulate``) take the game id next and are handed to that game's
``spacetable/games/<id>/cli.py`` as ``run(command, argv) -> int``. ``check``
reads scenario files, each naming its game, and hands them to that game.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from spacetable.core.errors import SpacetableError

GAME_COMMANDS = ("play", "perft", "odds", "advise", "simulate")
USAGE = """usage: spacetable <command> [args]

commands:
  serve [--host H] [--port P] [--database-url URL]   start the web play server
  games                                              list the games
  play GAME [options]                                play in the terminal
  perft GAME [options]                               count move-tree leaves
  odds GAME [options]                                exact odds
  advise GAME [options]                              best choice with its value
  simulate GAME [options]                            many AI games, with a report
  check FILE...                                      run scenario files, pass/fail per step
  replay FILE                                        replay a saved match

'spacetable <command> GAME --help' shows a game command's options.
"""


def _game_cli(game_id: str):  # type: ignore[no-untyped-def]
    from spacetable.games import REGISTRY, get_game

    get_game(game_id)  # raises a clear error for unknown ids
    return importlib.import_module(REGISTRY[game_id] + ".cli")


def cmd_games() -> int:
    from spacetable.games import available, get_game

    for gid in available():
        g = get_game(gid)
        players = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
        print(f"{gid:10} {g.name}  ({players} players)")
    return 0


def cmd_replay(argv: list[str]) -> int:
    from spacetable.core.match import Match

    parser = argparse.ArgumentParser(prog="spacetable replay", description="Replay a saved match, position by position.")
    parser.add_argument("file")
    parser.add_argument("--player", type=int, default=None, help="show this seat's view (default: spectator)")
    parser.add_argument("--final", action="store_true", help="print only the final position")
    args = parser.parse_args(argv)
    match = Match.load(args.file)
    game = match.game_obj()
    try:
        mod = _game_cli(match.game)
        if hasattr(mod, "replay"):
            return int(mod.replay(match, args))
    except ModuleNotFoundError:
        pass
    prev = None
    for i, state in enumerate(match.states()):
        if i > 0 and not args.final:
            entry = match.log[i - 1]
            print(f"--- {i}. seat {entry.player}: {game.action_text(prev, entry.player, entry.action)}")
        if not args.final or i == len(match.log):
            print(game.render_text(state, args.player))
        prev = state
    out = game.outcome(prev)
    print("result:", json.dumps(out.to_json()) if out else "game in progress")
    return 0


def cmd_check(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spacetable check", description="Run scenario files; print pass/fail per step.")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    failed = 0
    for name in args.files:
        data = json.loads(Path(name).read_text(encoding="utf-8"))
        game_id = data.get("game")
        if not game_id:
            print(f"{name}: no 'game' field", file=sys.stderr)
            failed += 1
            continue
        failed += int(_game_cli(game_id).check_file(name, data))
    print("all scenarios passed" if not failed else f"{failed} scenario file(s) failed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    command, rest = argv[0], argv[1:]
    try:
        if command == "games":
            return cmd_games()
        if command == "replay":
            return cmd_replay(rest)
        if command == "check":
            return cmd_check(rest)
        if command == "serve":
            from spacetable.server.cli import main as serve_main

            return int(serve_main(rest))
        if command in GAME_COMMANDS:
            if not rest or rest[0].startswith("-"):
                print(f"usage: spacetable {command} GAME [options]", file=sys.stderr)
                return 2
            mod = _game_cli(rest[0])
            return int(mod.run(command, rest[1:]))
    except SpacetableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
