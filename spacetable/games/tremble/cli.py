"""Terminal commands for Tremble, Humans!: ``play`` (hotseat + AI) and ``simulate``.

``spacetable play tremble --players 4 --vs ai`` seats one person at seat 0 and AI captains
elsewhere; ``--humans 0,2`` seats people at several seats (hotseat: the screen is cleared and
each person's private view is shown only on their own turn). Works with piped stdin.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.steps import run_steps

from . import GAME
from .ai import AGENTS, DEFAULT_AGENT, make_agent
from .views import action_text


def _play(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="spacetable play tremble", description="Play Tremble, Humans! in the terminal.")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--vs", default="ai", choices=["ai", "human", "humans"], help="ai: one person vs AI; humans: all people")
    ap.add_argument("--humans", default=None, help="comma list of seats played by people (default 0, or all with --vs humans)")
    ap.add_argument(
        "--ai", default="heuristic", choices=sorted(AGENTS), help=f"AI captain (default heuristic; strongest: {DEFAULT_AGENT})"
    )
    ap.add_argument("--seconds", type=float, default=1.0, help="thinking time for mcts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fuel", default="default")
    args = ap.parse_args(argv)
    if args.humans is not None:
        people = {int(x) for x in args.humans.split(",") if x.strip()}
    elif args.vs in ("human", "humans"):
        people = set(range(args.players))
    else:
        people = {0}
    cfg = GAME.normalize_config({"players": args.players, "fuel": args.fuel})
    state = GAME.initial_state(cfg, args.seed)
    cards = GAME.cards(state)
    agents: dict[int, Any] = {
        i: make_agent(args.ai, args.seed * 100 + i, args.seconds) for i in range(args.players) if i not in people
    }
    print(f"Tremble, Humans! — {cards.label}. People at seats {sorted(people)}; AI ({args.ai}) elsewhere.")
    hotseat = len(people) > 1
    last_person = None
    seen_events = 0
    while True:
        seats = GAME.to_act(state)
        if not seats:
            break
        seat = seats[0]
        new = state.events[seen_events:] if seen_events <= len(state.events) else state.events
        for e in new:
            print("  · " + e)
        seen_events = len(state.events)
        if seat in agents:
            action = agents[seat].choose(GAME, state, seat)
            shown = GAME.action_view(state, seat, action, None)
            if shown and shown.get("type") != "committed":
                print(f"seat {seat} (AI): {action_text(cards, action)}")
            state = GAME.apply(state, seat, action)
            seen_events = min(seen_events, len(state.events))
            seen_events = _print_new(state, seen_events)
            continue
        if hotseat and last_person != seat:
            if sys.stdout.isatty():
                print("\033[2J\033[3J\033[H", end="")  # clear the previous person's private panel (and the scrollback)
            print("\n" * 3 + f"==== seat {seat}: your turn (others look away) ====")
            if sys.stdin.isatty():
                input("press Enter when only this seat is looking... ")
        last_person = seat
        print(GAME.render_text(state, seat))
        legal = GAME.legal_actions(state, seat)
        for i, a in enumerate(legal[:60], 1):
            print(f"  {i:3}. {action_text(cards, a)}")
        if len(legal) > 60:
            print(f"  ... {len(legal) - 60} more (type a number up to {len(legal)} or JSON)")
        if state.phase == "plan":
            print("  plan notation: plan 2=1,3 4=2  (slot=hand positions or card ids; fuel=card; station=id@slot)")
        while True:
            print(f"seat {seat} choose> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                print("\ninput ended; stopping.")
                return 1
            line = line.strip()
            if line in ("q", "quit"):
                return 0
            if not line:
                continue
            try:
                action = GAME.parse_action(state, seat, line)
                state = GAME.apply(state, seat, action)
                seen_events = _print_new(state, min(seen_events, len(state.events)))
                break
            except RuleError as exc:
                print(f"  refused: {exc}")
    out = GAME.outcome(state)
    assert out is not None
    print(GAME.render_text(state, None))
    print(
        "final scores: " + ", ".join(f"seat {i} {int(x):,}" for i, x in enumerate(out.scores)) + f"; winners {list(out.winners)}"
    )
    return 0


def _print_new(state: Any, seen: int) -> int:
    for e in state.events[seen:]:
        print("  · " + e)
    return len(state.events)


def _simulate(argv: list[str]) -> int:
    from .simulate import run_cli

    ap = argparse.ArgumentParser(prog="spacetable simulate tremble", description="AI-vs-AI games with a balance report.")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ai", default="heuristic", help=f"comma list of captains, rotated over seats ({', '.join(AGENTS)})")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None, help="folder for JSON/CSV results, plots and report.md")
    ap.add_argument("--iterations", type=int, default=0, help="MCTS iterations per decision (default: 60)")
    args = ap.parse_args(argv)
    if not 2 <= args.players <= 5:
        print("players must be 2..5", file=sys.stderr)
        return 2
    ais = [a.strip() for a in args.ai.split(",") if a.strip()]
    for a in ais:
        if a not in AGENTS:
            print(f"unknown captain {a!r}; known: {', '.join(AGENTS)}", file=sys.stderr)
            return 2
    return run_cli(args.players, args.games, args.seed, ais, args.jobs, args.out, args.iterations)


def _position(data: dict[str, Any]) -> Any:
    """The start state of a scenario: a fresh game, optionally rebuilt as a planning position
    (``setup``: turn, slots (city ids), hands, stations, humans, comps {seat: [[card, turn], ...]})."""
    cfg = GAME.normalize_config(dict(data.get("config") or {}))
    state = GAME.initial_state(cfg, int(data.get("seed", 0)))
    setup = data.get("setup")
    if not setup:
        return state
    state.turn = int(setup.get("turn", state.turn))
    state.phase = "plan"
    state.slots = list(setup["slots"])
    state.groups = [{} for _ in state.slots]
    state.support = [{} for _ in state.slots]
    for i, p in enumerate(state.players):
        key = str(i)
        p.drawn = []
        p.hand = list(setup.get("hands", {}).get(key, p.hand))
        p.stations = list(setup.get("stations", {}).get(key, []))
        p.humans = int(setup.get("humans", {}).get(key, p.humans))
        comps = setup.get("comps", {}).get(key, [])
        p.comps, p.comp_turns = [c for c, _ in comps], [int(t) for _, t in comps]
    state.sealed.required = [i for i, p in enumerate(state.players) if p.hand]
    state.sealed.commits = {}
    return state


def check_file(name: str, data: dict[str, Any]) -> int:
    """``spacetable check FILE`` for a Tremble scenario. Format::

        {"game": "tremble", "config": {...}, "seed": 1, "setup": {...} (optional, see _position),
         "steps": [{"action": {...} (optional), "seat": 0 (default: first to act), "dice": [4, 6] (optional,
                    scripted through Rng.forced), "expect_error": "TH-6.3" (optional),
                    "expect": {"phase": str, "humans": {seat: n}, "trophies": {seat: [city]}, "hand_count": {seat: n},
                               "comp_count": {seat: n}, "to_act": [seats], "winners": [seats]} (optional)}]}

    Prints pass/fail per step; returns 1 if any step failed, else 0."""
    return run_steps(GAME, _position(data), data.get("steps", []), name, _expectations, common=True)


def _expectations(state: Any, exp: dict[str, Any]) -> list[str]:
    """Tremble's own ``expect`` keys (``to_act`` and ``winners`` are checked by the core runner)."""
    problems: list[str] = []
    if "phase" in exp and state.phase != exp["phase"]:
        problems.append(f"phase {state.phase} != {exp['phase']}")
    for field, get in (
        ("humans", lambda p: p.humans),
        ("trophies", lambda p: p.trophies),
        ("hand_count", lambda p: len(p.hand)),
        ("comp_count", lambda p: len(p.comps)),
    ):
        for seat, want in (exp.get(field) or {}).items():
            got = get(state.players[int(seat)])
            if got != want:
                problems.append(f"seat {seat} {field} {got} != {want}")
    return problems


def run(command: str, argv: list[str]) -> int:
    if command == "play":
        return _play(argv)
    if command == "simulate":
        return _simulate(argv)
    print(f"tremble supports: play, simulate (not {command})", file=sys.stderr)
    return 2
