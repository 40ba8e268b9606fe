"""Terminal commands for arena: ``spacetable play arena``, ``spacetable perft arena`` and
``replay(match, args)`` for ``spacetable replay FILE`` (docs/rules/arena.md)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from rich.console import Console
from rich.text import Text

from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.match import Match
from spacetable.core.steps import run_steps

from . import fast
from .board import BLUE, CODES, RED
from .game import GAME, ArenaState
from .notation import action_to_text, format_position, parse_position
from .setup import LAYOUT_LABEL

HELP = """commands: a move in notation (c5-c6, c5xc6, b5-b6/P121, P112, RD+, 212@d2 while placing),
  moves | ?   list the legal actions        undo        take back your last move (and the AI reply)
  position    print the position notation   save FILE   save the match
  accept      accept a pending offer        resign      give up
  add '=' to an action to offer ending the game by agreement (AR-10.4), e.g. c2-c3=
  quit        leave (the match is saved if --save was given)"""


def board_text(state: ArenaState, hints: bool = True) -> Text:
    """Rich board: Red ships red, Blue ships blue, ranks top-down (AR-1.2); ``hints`` adds the placement
    help line used at the play prompt."""
    face = state.face
    owner: dict[int, tuple[int, int]] = {}
    for colour in (RED, BLUE):
        for ship, cell in enumerate(state.loc[colour]):
            if 0 <= cell < face.size:
                owner[cell] = (colour, ship)
    placing = state.phase == "place"
    homes = {c: col for col in (RED, BLUE) for c in face.home(col, state.home == "wide")} if placing else {}
    out = Text()
    for rank in range(face.height - 1, -1, -1):
        out.append(f"{rank + 1} |")
        for f in range(face.width):
            c = rank * face.width + f
            if c in owner:
                colour, ship = owner[c]
                out.append(f" {'R' if colour == RED else 'B'}{CODES[ship]}", style="bold red" if colour == RED else "bold blue")
            elif c in homes:  # free placement: empty home cells (AR-2.4)
                out.append("  :  ", style="red" if homes[c] == RED else "blue")
            else:
                out.append("  .  ", style="dim")
        out.append(" |\n")
    out.append("    " + "".join(f"  {chr(ord('a') + f)}  " for f in range(face.width)) + "\n")
    n = face.banished
    for colour, name in ((RED, "Red"), (BLUE, "Blue")):
        reserve = " ".join(CODES[s] for s in range(8) if state.loc[colour][s] == n) or "-"
        unplaced = " ".join(CODES[s] for s in range(8) if state.loc[colour][s] == -1)
        out.append(f"{name} reserve: {reserve}" + (f"   unplaced: {unplaced}" if unplaced else "") + "\n",
                   style="red" if colour == RED else "blue")
    if placing and hints and state.sealed is not None:
        out.append("':' = empty home cell (AR-2.4); seal all 8 ships at once (AR-2.7):\n"
                   "  layout CODEcell,CODEcell,... (e.g. layout 112a1,111b1,...); 'moves' lists two ready-made layouts\n",
                   style="dim")
    elif placing and hints:
        out.append("':' = empty home cell (AR-2.4); place with CODE@CELL, e.g. 212@d2\n", style="dim")
    if state.phase == "over":
        out.append(result_text(state) + "\n", style="bold")
    else:
        side = "Red" if state.to_move == RED else "Blue"
        if state.sealed is not None:
            side = "Both sides"  # simultaneous placement: each seals its own layout
        last = {RED: "Red", BLUE: "Blue", -1: "none"}[state.last_capturer]
        doing = "to place" if state.phase == "place" else "to move"
        offer = "" if state.offer < 0 else f"   offer pending from {'Red' if state.offer == RED else 'Blue'}"
        out.append(f"{side} {doing}   ply {state.plies}   quiet {state.quiet}/40   last capturer {last}{offer}\n")
    return out


def result_text(state: ArenaState) -> str:
    out = GAME.outcome(state)
    if out is None:
        return "game in progress"
    who = "Red" if state.winner == RED else "Blue"
    plies = f"{state.plies} ply" if state.plies == 1 else f"{state.plies} plies"
    return f"Result: {who} wins {out.details['points']} ({state.kind}) after {plies}"


def _make_agent(name: str, seed: int, seconds: float) -> Any:
    from .ai import AGENTS

    if name not in AGENTS:
        raise ConfigError(f"unknown AI {name!r}; choose from {', '.join(AGENTS)}")
    return AGENTS[name](seed, seconds)


def cmd_play(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="spacetable play arena", description="Play Cosmic Arena against an AI in the terminal.")
    p.add_argument("--board", choices=("6x4", "5x5"), default="6x4")
    p.add_argument("--vs", choices=("random", "mcts", "alphabeta"), default="alphabeta")
    p.add_argument("--seconds", type=float, default=1.0, help="AI time per move")
    p.add_argument("--setup", choices=("default", "free"), default="default")
    p.add_argument("--placement", choices=("alternate", "simultaneous"), default="alternate")
    p.add_argument("--home", choices=("standard", "wide"), default="standard")
    p.add_argument("--colour", choices=("random", "red", "blue"), default="random",
                   help="your colour (default: seeded draw, AR-2.2)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--load", metavar="FILE", help="continue a saved match")
    p.add_argument("--save", metavar="FILE", help="save the match here after every action and at the end")
    p.add_argument("--position", metavar="TEXT", help="start from a position in arena notation")
    args = p.parse_args(argv)
    console = Console(highlight=False)
    human = 0
    if args.load:
        match = Match.load(args.load)
        human = int(match.meta.get("human_seat", 0))
        vs = str(match.meta.get("vs", args.vs))
    else:
        cfg: dict[str, Any] = {"board": args.board, "setup": args.setup, "placement": args.placement, "home": args.home}
        if args.colour != "random":
            cfg["red_seat"] = 0 if args.colour == "red" else 1
        if args.position:
            cfg["position"] = args.position
        seed = args.seed if args.seed is not None else int(time.time() * 1000) % (1 << 31)
        match = Match.new(GAME, cfg, seed, vs=args.vs, human_seat=human)
        if match.config["setup"] == "default" and not match.config["position"]:
            match.meta["layout"] = LAYOUT_LABEL  # AR-0.3: house content is labelled in saved logs too
        vs = args.vs
    agent = _make_agent(vs, match.seed + 1, args.seconds)
    state: ArenaState = match.replay()
    me = "Red" if state.colour_of(human) == RED else "Blue"
    console.print(f"Cosmic Arena ({state.board}) — you play {me} against {vs}. Type 'help' for commands.")
    if state.setup == "default":
        console.print(f"Layout: {LAYOUT_LABEL}", style="dim")  # AR-0.3
    lines = iter(sys.stdin.readline, "")
    shown = -1
    finished = -1  # log length at which the result was last shown
    while True:
        over = GAME.outcome(state) is not None
        if over and finished != len(match.log):
            console.print(board_text(state))  # ends with the result line (AR-10.5)
            console.print("You win." if state.winner == state.colour_of(human) else "You lose.", style="bold")
            console.print("The game is over: 'undo' takes back your last move, 'save FILE' saves, 'quit' leaves.",
                          style="dim")
            finished = shown = len(match.log)
            _autosave(match, args.save)
        if not over:
            seats = GAME.to_act(state)
            if human not in seats:
                seat = seats[0]
                action = agent.choose(GAME, state, seat)
                text = action_to_text(state, action) if action.get("type") != "layout" else "layout (sealed)"
                state = match.play(state, seat, action)
                console.print(f"AI ({vs}) plays: {text}")
                _autosave(match, args.save)
                continue
            if shown != len(match.log):
                console.print(board_text(state))
                shown = len(match.log)
        console.print("your action> ", end="")
        line = next(lines, None)
        if line is None:
            console.print("" if over else "\ninput ended")
            break
        cmd = line.strip()
        if not sys.stdin.isatty():
            console.print(cmd)
        if not cmd:
            continue
        low = cmd.lower()
        if low in ("help", "h"):
            console.print(HELP)
        elif low in ("moves", "?"):
            legal = GAME.legal_actions(state, human)
            console.print(f"{len(legal)} legal actions: " + "  ".join(GAME.action_text(state, human, a) for a in legal))
        elif low == "position":
            console.print(format_position(state) if state.phase != "place" else "(placement in progress)", soft_wrap=True)
        elif low == "undo":
            state = _undo(match, human, console)
            shown = finished = -1
        elif low.startswith("save"):
            parts = cmd.split(maxsplit=1)
            target = parts[1] if len(parts) > 1 else args.save
            if not target:
                console.print("usage: save FILE")
            else:
                match.save(target)
                console.print(f"saved to {target}")
        elif low in ("quit", "exit"):
            break
        elif over:
            console.print("the game is over; try undo, save FILE or quit", style="yellow")
        else:
            try:
                action = GAME.parse_action(state, human, cmd)
                state = match.play(state, human, action)
            except RuleError as exc:
                console.print(f"illegal: {exc}", style="yellow")
                continue
            _autosave(match, args.save)
    if GAME.outcome(state) is None:
        console.print(board_text(state))
        resume = f"; saved to {args.save}, continue with --load {args.save}" if args.save else ""
        console.print(f"Game not finished{resume}.")
    _autosave(match, args.save)
    return 0


def _autosave(match: Match, path: str | None) -> None:
    if path:
        match.save(path)


def _undo(match: Match, human: int, console: Console) -> ArenaState:
    """Take back the human's last action and everything after it (the AI reply)."""
    idx = max((i for i, e in enumerate(match.log) if e.player == human), default=-1)
    if idx < 0:
        console.print("nothing to undo")
        return match.replay()  # type: ignore[no-any-return]
    del match.log[idx:]
    console.print("taken back")
    return match.replay()  # type: ignore[no-any-return]


def _depth(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("depth must be 0 or more")
    return value


def cmd_perft(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="spacetable perft arena", description="Count the leaves of the turn tree.")
    p.add_argument("--board", choices=("6x4", "5x5"), default="6x4")
    p.add_argument("--depth", type=_depth, required=True, help="plies, 0 or more")
    p.add_argument("--position", metavar="TEXT")
    p.add_argument("--divide", action="store_true", help="print the count below each first action")
    p.add_argument("--reference", action="store_true", help="use the readable reference engine (slow)")
    args = p.parse_args(argv)
    cfg: dict[str, Any] = {"board": args.board, "red_seat": 0}
    if args.position:
        parse_position(args.position)
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
    return fast.run_perft(fast.to_array(state), state.board, depth)


def replay(match: Match, args: Any) -> int:
    """``spacetable replay FILE``: print each position as a board, then the result."""
    console = Console(highlight=False)
    if match.config.get("setup") == "default" and not match.config.get("position"):
        console.print(f"Layout: {LAYOUT_LABEL}", style="dim")  # AR-0.3
    final = bool(getattr(args, "final", False))
    prev: ArenaState | None = None
    for i, state in enumerate(match.states()):
        if i > 0 and prev is not None and not final:
            entry = match.log[i - 1]
            viewer = getattr(args, "player", None)
            shown = GAME.action_view(prev, entry.player, entry.action, viewer)
            text = action_to_text(prev, shown) if shown else "(hidden)"
            who = "Red" if prev.colour_of(entry.player) == RED else "Blue"
            console.print(f"--- {i}. {who} (seat {entry.player}): {text}")
        if not final or i == len(match.log):
            console.print(board_text(state, hints=False))
        prev = state
    assert prev is not None
    console.print(result_text(prev))
    return 0


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


def run(command: str, argv: list[str]) -> int:
    if command == "play":
        return cmd_play(argv)
    if command == "perft":
        try:
            return cmd_perft(argv)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    print(f"arena does not support {command!r}; try play or perft", file=sys.stderr)
    return 2
