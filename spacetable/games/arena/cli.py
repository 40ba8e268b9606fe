"""Arena's commands for ``spacetable``: ``perft`` (move-tree leaf count) and ``check`` (step files),
and the notation help shown by ``help`` at the terminal prompt (docs/rules/arena.md)."""

from __future__ import annotations

import argparse
from importlib import resources
from typing import Any

from spacetable.commands import check_command
from spacetable.core.errors import ConfigError
from spacetable.core.hooks import Command
from spacetable.core.steps import run_steps

from .board import RED
from .game import GAME, ArenaState
from .notation import action_to_text, format_position, parse_position

NOTATION = """Arena notation (docs/rules/arena.md):
  c5-c6         move the ship on c5 to c6; c5xc6 captures on c6
  c5-c6/P112    a move that earns a bonus, with the bonus: a swap P111 P112 P121 P122 or a rotation RF+ RF- RD+ RD-
  P112  RD+     a teleport played as the whole turn
  c2-c3=        add '=' to any action to offer ending the game by agreement (AR-10.4)
  accept        accept the pending offer         resign      give up
  212@d2        free placement, one ship at a time: ship 212 on d2 (':' marks your empty home cells, AR-2.4)
  layout 112a1,111b1,...  simultaneous placement: all 8 ships at once, CODEcell each (AR-2.7)
A ship is named by three digits, each 1 or 2: sails, cannons, shields (111 corvette, 222 cruiser).
The 'Position:' line under the board can be given to `spacetable play arena --position TEXT`
or to `spacetable perft arena --position TEXT`."""


def _depth(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("depth must be 0 or more")
    return value


def _add_perft_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", choices=("6x4", "5x5"), default="6x4")
    p.add_argument("--depth", type=_depth, required=True, help="plies, 0 or more")
    p.add_argument("--position", metavar="TEXT", help="start from a position in arena notation")
    p.add_argument("--divide", action="store_true", help="print the count below each first action")
    p.add_argument("--reference", action="store_true", help="use the readable reference engine (slow)")


def cmd_perft(args: argparse.Namespace) -> int:
    cfg: dict[str, Any] = {"board": args.board, "red_seat": 0}
    if args.position:
        try:
            parse_position(args.position)
        except ValueError as exc:
            raise ConfigError(f"--position: {exc}") from exc
        cfg["position"] = args.position
    state: ArenaState = GAME.initial_state(GAME.normalize_config(cfg), 0)
    if args.divide and state.phase == "play" and args.depth >= 1:
        total = 0
        for action in reference_turns(state):
            child = GAME.apply(state, state.seat_of(state.to_move), action)
            count = _count(child, args.depth - 1, args.reference)
            print(f"{action_to_text(state, action)}: {count}")
            total += count
        print(total)
        return 0
    print(_count(state, args.depth, args.reference))
    return 0


def reference_turns(state: ArenaState) -> list[dict[str, Any]]:
    """Turn actions only (no accept/resign/offer), as counted by perft."""
    if state.phase != "play":
        return []
    return [a for a in GAME.legal_actions(state, state.seat_of(state.to_move)) if a["type"] != "accept_end"]


def reference_perft(state: ArenaState, depth: int) -> int:
    """Leaves of the turn tree at ``depth``; a position that is over has no actions (a leaf only at depth 0)."""
    if depth == 0:
        return 1
    if state.phase != "play":
        return 0
    turns = reference_turns(state)
    if depth == 1:
        return len(turns)
    seat = state.seat_of(state.to_move)
    return sum(reference_perft(GAME.apply(state, seat, a), depth - 1) for a in turns)


def _count(state: ArenaState, depth: int, reference: bool) -> int:
    if depth == 0:
        return 1
    if state.phase != "play":
        return 0
    if reference:
        return reference_perft(state, depth)
    from . import fast  # imported here: numba takes a moment to load, and only perft needs it

    return int(fast.run_perft(fast.to_array(state), state.board, depth))


def check_file(name: str, data: dict[str, Any]) -> int:
    """``spacetable check FILE`` for an arena step file. Format::

        {"game": "arena", "config": {...} (optional), "position": "6x4 ... r 0 -" (optional), "seed": 1,
         "steps": [{"action": "c5xc6/P112" | {...} (optional), "seat": 0 (default: the side to move),
                    "expect_error": "AR-9.1" (optional),
                    "expect": {"position": TEXT, "legal_count": n, "legal": [notation...], "over": bool,
                               "winner": "red"|"blue", "kind": "corvette"|..., "quiet": n} (optional)}]}

    Prints pass/fail per step; returns 1 if any step failed, else 0."""
    cfg = dict(data.get("config") or {})
    cfg.setdefault("red_seat", 0)
    if data.get("position"):
        cfg["position"] = data["position"]
    state: ArenaState = GAME.initial_state(GAME.normalize_config(cfg), int(data.get("seed", 0)))
    return run_steps(
        GAME,
        state,
        data.get("steps", []),
        name,
        _expectations,
        seat_of=lambda st, step: int(step["seat"]) if "seat" in step else st.seat_of(st.to_move),
    )


def _expectations(state: ArenaState, exp: dict[str, Any]) -> list[str]:
    out: list[str] = []
    over = state.phase == "over"
    if "over" in exp and over != exp["over"]:
        out.append(f"over {over} != {exp['over']}")
    if "winner" in exp:
        got = ("red" if state.winner == RED else "blue") if over else None
        if got != exp["winner"]:
            out.append(f"winner {got} != {exp['winner']}")
    if "kind" in exp and (state.kind if over else None) != exp["kind"]:
        out.append(f"kind {state.kind or None} != {exp['kind']}")
    if "quiet" in exp and state.quiet != exp["quiet"]:
        out.append(f"quiet {state.quiet} != {exp['quiet']}")
    if "position" in exp and state.phase != "place":
        got_pos = format_position(state)
        want = format_position(parse_position(exp["position"]))
        if got_pos != want:
            out.append(f"position {got_pos!r} != {want!r}")
    if "legal_count" in exp or "legal" in exp:
        seats = GAME.to_act(state)
        legal = GAME.legal_actions(state, seats[0]) if seats else []
        texts = [GAME.action_text(state, seats[0], a) for a in legal] if seats else []
        if "legal_count" in exp and len(legal) != exp["legal_count"]:
            out.append(f"{len(legal)} legal actions != {exp['legal_count']}")
        if "legal" in exp and texts != list(exp["legal"]):
            out.append(f"legal {texts} != {exp['legal']}")
    return out


COMMANDS = (
    Command("perft", "count the leaves of the move tree (compiled engine; --reference for the readable one)",
            _add_perft_arguments, cmd_perft),
    check_command("arena", check_file, resources.files(__package__).joinpath("checks")),
)
