"""Full Metal Planète's commands for ``spacetable``: ``simulate`` (AI-against-AI games) and ``check``
(the bundled acceptance scenarios), and the notation help of the terminal prompt.

Play is the shared terminal loop (``spacetable play fullmetal --seats human,commander``); its
``--map FILE.fmp`` reads a local map file, and its prompt adds ``landing`` (:data:`PROMPT_COMMANDS`).
"""

from __future__ import annotations

import argparse
import time
from importlib import resources
from pathlib import Path
from typing import Any

from spacetable.ai.agents import make_agent
from spacetable.ai.base import play_game
from spacetable.ai.runner import run_tasks
from spacetable.commands import agent_list, agent_names, check_command, count, seconds
from spacetable.core.errors import ConfigError
from spacetable.core.hooks import Command, PromptCommand
from spacetable.terminal import parse_options

from .fmp import FmpMap, write_fmp
from .game import GAME
from .render import landing_text, svg_board
from .scenario import check_file

NOTATION = """Full Metal Planète notation: cells x,y (odd columns sit half a hex lower), a barge x,y/x,y,
units and ships by their numbers on the board.
  land 5,10 north              deploy [{"unit":12,"at":[9,10]}]   move 12 5,3 6,3
  retreat 12 7,2               load 7 30                          unload 7 30 4,4  (unload 7 30 #9: into carrier 9)
  transfer 7 30 9              enter 12 3                         exit 12 3 6,5
  build 8 crab 4,3             fire 12 14 6,3                     assault 12 4,4 14:6,3
  capture 12 14 40 [colour]    capture_ship 12 3                  repair 3 5,4
  take_off 3                   depart 3=leave                     end      resign
Any action can also be typed as a JSON object; docs/rules/fullmetal.md lists every form."""


def _config(args: argparse.Namespace) -> dict[str, Any]:
    cfg: dict[str, Any] = {"players": args.players, "preset": args.preset}
    cfg.update(parse_options(args.option))
    if args.map in ("original", "generated"):
        cfg["map"] = args.map
    elif args.map:
        cfg["map"], cfg["map_content"] = "custom", Path(args.map).read_bytes().decode("cp1252")  # the file's text, never its path
    return GAME.normalize_config(cfg)


def state_map(state: Any) -> FmpMap:
    """The state's map as an .fmp map with a REPARTITION layer of the ore on the board (FM-7.2)."""
    w, h = state.width, state.height
    rows = [state.terrain[y * w:(y + 1) * w] for y in range(h)]
    ore = [["."] * w for _ in range(h)]
    for u in state.units.values():
        if u.kind == "ore" and u.cells and u.carrier < 0:
            x, y = state.board.xy(u.cells[0])
            ore[y][x] = str(u.value)
    zones = [state.zones[y * w:(y + 1) * w] for y in range(h)] if state.zones else None
    return FmpMap(w, h, rows, ["".join(r) for r in ore], zones)


def _outputs(args: argparse.Namespace, state: Any, initial: Any) -> None:
    if args.save_map:
        stamp = time.gmtime()
        Path(args.save_map).write_bytes(write_fmp(state_map(initial), tuple(stamp[:6])))  # type: ignore[arg-type]
    if args.svg:
        Path(args.svg).write_text(svg_board(state, None), encoding="utf-8")


def _add_simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=count(2, 4), default=2, help="2 to 4 (default 2)")
    p.add_argument("--preset", default="original", choices=["original", "pc", "fmg"])
    p.add_argument("--map", default=None, help="original, generated, or the path of an .fmp file")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="variant option (JSON value)")
    p.add_argument("--seed", type=int, default=1, help="seed of game 0; game g plays seed + g (default 1)")
    p.add_argument("--seconds", type=seconds, default=1.0, help="AI time per move for AIs on the clock (default 1)")
    p.add_argument("--games", type=count(1), default=2, help="games to play (default 2)")
    p.add_argument("--seats", default="commander,greedy",
                   help=f"comma list of AI players, one per seat (cycled to fill the seats); game g rotates them "
                        f"by g seats, so over as many games as names every AI plays every seat: "
                        f"{agent_list(GAME)} (default commander,greedy)")
    p.add_argument("--save-map", metavar="FILE", help="write each game's map (with its ore layer) as .fmp")
    p.add_argument("--svg", metavar="FILE", help="write each game's final board as SVG")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=count(1), default=1, help="worker processes (default 1); games print as they finish")
    where.add_argument("--ray", metavar="ADDRESS", help="run the games on a Ray cluster (auto, HOST:6379, "
                                                       "ray://HOST:10001) or 'local' (docs/scale.md)")


def seat_names(names: list[str], players: int, g: int) -> list[str]:
    """The AI at each seat of game ``g``: ``names[(seat - g) % len(names)]`` (the rotation of
    ``spacetable simulate tremble``), so over ``len(names)`` games every AI sits at every seat."""
    return [names[(i - g) % len(names)] for i in range(players)]


def simulate_one(task: tuple[dict[str, Any], list[str], int, int, float]) -> dict[str, Any]:
    """One game of ``simulate`` (a pure function of its task: the same result in any process or on Ray)."""
    cfg, names, seed, g, budget = task
    players = GAME.num_players(cfg)
    t0 = time.perf_counter()
    seats = seat_names(names, players, g)
    agents = [make_agent(GAME, seats[i], seed + g * 10 + i, budget) for i in range(players)]
    initial = GAME.initial_state(cfg, seed + g)
    state, log = play_game(GAME, agents, cfg, seed + g)
    n = len(log)
    out = GAME.outcome(state)
    assert out is not None
    return {"game": g, "seats": seats, "scores": list(out.scores), "winners": list(out.winners), "actions": n,
            "seconds": time.perf_counter() - t0, "initial": initial, "final": state}


def simulate(args: argparse.Namespace) -> int:
    cfg = _config(args)
    names = agent_names(GAME, args.seats)
    players = GAME.num_players(cfg)
    if len(names) > players:
        raise ConfigError(f"--seats lists {len(names)} AI players for {players} seats (--players sets the seats)")
    wins = [0.0] * players
    by_ai = dict.fromkeys(names, 0.0)
    games = dict.fromkeys(names, 0)

    def show(r: dict[str, Any]) -> None:
        seats = r["seats"]
        for name in seats:
            games[name] += 1
        for w in r["winners"]:
            wins[w] += 1 / len(r["winners"])
            by_ai[seats[w]] += 1 / len(r["winners"])
        played = ", ".join(f"seat {i} {name} {_number(r['scores'][i])}" for i, name in enumerate(seats))
        won = " and ".join(f"seat {w} ({seats[w]})" for w in r["winners"]) or "nobody"
        won = f"first place shared by {won}" if len(r["winners"]) > 1 else f"winner {won}"
        print(f"game {r['game']}: {played}; {won}; {r['actions']} actions, {r['seconds']:.1f} s", flush=True)
        _outputs(args, r["final"], r["initial"])

    tasks = [(cfg, names, args.seed, g, args.seconds) for g in range(args.games)]
    run_tasks(simulate_one, tasks, jobs=args.jobs, ray=args.ray, on_result=show)
    print("wins per seat: " + ", ".join(f"seat {i} {_number(w)}" for i, w in enumerate(wins)))
    print("wins per AI: " + ", ".join(f"{n} {_number(by_ai[n])} of {games[n]} games" for n in names)
          + " (a shared first place counts as a fraction)")
    return 0


def _number(x: float) -> str:
    return f"{x:g}" if not float(x).is_integer() else str(int(x))


COMMANDS = (
    Command("simulate", "AI-against-AI games with scores and wins per seat", _add_simulate_arguments, simulate),
    check_command("fullmetal", check_file, resources.files(__package__).joinpath("scenarios")),
)


def _landing(state: Any, seat: int) -> str:
    """``landing`` at the play prompt: where the seat's ship may land now, on the map and by row."""
    sites = [(state.board.index(*a["dome"]), str(a["orientation"]))
             for a in GAME.legal_actions(state, seat) if a.get("type") == "land"]
    return landing_text(state, seat, sites)


PROMPT_COMMANDS = (PromptCommand("landing", "where your ship may land, on the map and by row", _landing),)
