"""``spacetable play|simulate fullmetal`` and the ``check`` hook.

``spacetable play fullmetal --players 2 --seats human,commander`` plays in the
terminal; it reads one action per line (notation of :mod:`.notation`, JSON, a
number from the listed legal actions, ``auto`` for the AI's choice) and works with
piped stdin. ``--preset pc|fmg`` and ``--option key=value`` set variants.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from spacetable.core.errors import RuleError, SpacetableError

from .ai import AGENTS
from .fmp import FmpMap, write_fmp
from .game import GAME
from .notation import format_action
from .render import svg_board
from .scenario import check_file

__all__ = ["check_file", "run"]


def _config(args: argparse.Namespace) -> dict[str, Any]:
    cfg: dict[str, Any] = {"players": args.players, "preset": args.preset}
    for opt in args.option or []:
        key, _, value = opt.partition("=")
        try:
            cfg[key] = json.loads(value)
        except json.JSONDecodeError:
            cfg[key] = value
    if args.map in ("original", "generated"):
        cfg["map"] = args.map
    elif args.map:
        cfg["map"], cfg["map_file"] = "file", args.map
    return GAME.normalize_config(cfg)


def _parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--preset", default="original", choices=["original", "pc", "fmg"])
    p.add_argument("--map", default=None, help="original, generated, or the path of an .fmp file")
    p.add_argument("--option", action="append", help="variant option key=value (JSON value)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=1.0, help="AI time per move")
    p.add_argument("--save-map", metavar="FILE", help="write the map of the game (with its ore layer) as .fmp")
    p.add_argument("--svg", metavar="FILE", help="write the final board as SVG")
    return p


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


def play(argv: list[str]) -> int:
    p = _parser("spacetable play fullmetal")
    p.add_argument("--seats", default="human,commander", help="comma list: human or an AI name per seat")
    p.add_argument("--quiet-ai", action="store_true", help="do not redraw the board after AI moves")
    args = p.parse_args(argv)
    cfg = _config(args)
    seats = args.seats.split(",")
    if len(seats) != args.players:
        seats = (seats + [seats[-1]] * args.players)[: args.players]
    agents: dict[int, Any] = {}
    for i, name in enumerate(seats):
        if name != "human":
            if name not in AGENTS:
                print(f"unknown AI {name!r}; known: {', '.join(AGENTS)}", file=sys.stderr)
                return 2
            agents[i] = AGENTS[name](args.seed + i, args.seconds)
    state = GAME.initial_state(cfg, args.seed)
    initial = state
    helper = AGENTS["commander"](args.seed + 99, args.seconds)
    shown = None
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        if seat in agents:
            action = agents[seat].choose(GAME, state, seat)
            print(f"[P{seat} {agents[seat].name}] {format_action(action)}")
            state = GAME.apply(state, seat, action)
            continue
        if shown != (state.turn, seat, state.pool[seat], len(state.graveyard), state.phase):
            print(GAME.render_text(state, seat))
        legal = GAME.legal_actions(state, seat)
        if state.phase != "play" or len(legal) <= 40:
            for k, a in enumerate(legal[:40]):
                print(f"  {k}: {format_action(a)}")
            if len(legal) > 40:
                print(f"  ... {len(legal)} legal actions in all ('list' shows them, 'auto' lets the AI choose)")
        else:
            print(f"  {len(legal)} legal actions ('list' shows them, 'auto' lets the AI choose)")
        print(f"P{seat}> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print("\nend of input")
            _outputs(args, state, initial)
            return 0
        line = line.strip()
        shown = (state.turn, seat, state.pool[seat], len(state.graveyard), state.phase)
        if line in ("quit", "exit"):
            _outputs(args, state, initial)
            return 0
        if line == "list":
            for k, a in enumerate(legal):
                print(f"  {k}: {format_action(a)}")
            continue
        if line == "board":
            shown = None
            continue
        try:
            if line == "auto":
                action = helper.choose(GAME, state, seat)
            elif line.isdigit():
                action = legal[int(line)]
            else:
                action = GAME.parse_action(state, seat, line)
            state = GAME.apply(state, seat, action)
            print(f"ok: {format_action(action)}")
        except (RuleError, IndexError) as exc:
            print(f"rejected: {exc}")
    out = GAME.outcome(state)
    print(GAME.render_text(state, None))
    print("result:", json.dumps(out.to_json() if out else None))
    _outputs(args, state, initial)
    return 0


def simulate(argv: list[str]) -> int:
    p = _parser("spacetable simulate fullmetal")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seats", default="commander,greedy")
    args = p.parse_args(argv)
    cfg = _config(args)
    names = args.seats.split(",")
    wins = [0] * args.players
    for g in range(args.games):
        t0 = time.perf_counter()
        agents = [AGENTS[names[i % len(names)]](args.seed + g * 10 + i, args.seconds) for i in range(args.players)]
        state = GAME.initial_state(cfg, args.seed + g)
        initial = state
        n = 0
        while GAME.to_act(state):
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, agents[seat].choose(GAME, state, seat))
            n += 1
        out = GAME.outcome(state)
        assert out is not None
        for w in out.winners:
            wins[w] += 1
        print(f"game {g}: scores {list(out.scores)} winners {list(out.winners)} actions {n} {time.perf_counter() - t0:.1f}s")
        _outputs(args, state, initial)
    print("wins per seat:", wins)
    return 0


def run(command: str, argv: list[str]) -> int:
    try:
        if command == "play":
            return play(argv)
        if command == "simulate":
            return simulate(argv)
    except SpacetableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"fullmetal does not support {command!r} (try play, simulate)", file=sys.stderr)
    return 2
