"""Tremble, Humans!'s commands for ``spacetable``: ``simulate`` (AI captains with a balance report) and
``check`` (scenario step files), and the notation help of the terminal prompt.

Play is the shared terminal loop: ``spacetable play tremble --players 4 --vs ai`` (one person
against AI captains) or ``--vs human`` (hot seat: the screen is cleared between people, whose
hands and sealed choices are private).
"""

from __future__ import annotations

import argparse
from importlib import resources
from typing import Any

from spacetable.commands import agent_list, agent_names, check_command, count
from spacetable.core.errors import ConfigError
from spacetable.core.hooks import Command
from spacetable.core.steps import run_steps

from .game import GAME
from .simulate import run_cli

NOTATION = """Tremble, Humans! notation:
  plan 2=1,3 4=reaper_tripod#2 fuel=spare_tank#1 station=beacon#1@2
      the planning phase (TH-6): slot=ships (ships by card id, or by their 1-based position in your
      sorted hand), fuel=card for extra fuel, station=id@slot to build a station
Every other decision (buying, battles, rewards) is easiest by its number in the list; any action
can also be typed as a JSON object."""


def _add_simulate_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--players", type=count(2, 5), default=4, help="2 to 5 (default 4)")
    ap.add_argument("--games", type=count(1), default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ai", default="heuristic", help=f"comma list of captains, rotated over the seats "
                                                     f"({agent_list(GAME)})")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=count(1), default=1, help="worker processes (default 1)")
    where.add_argument("--ray", metavar="ADDRESS", help="run the games on a Ray cluster (auto, HOST:6379, "
                                                       "ray://HOST:10001) or 'local' (docs/scale.md)")
    ap.add_argument("--out", default=None, help="folder for JSON/CSV results, plots and report.md")
    ap.add_argument("--iterations", type=count(0), default=0, help="MCTS iterations per decision (default: 60)")


def _simulate(args: argparse.Namespace) -> int:
    if not 2 <= args.players <= 5:
        raise ConfigError("--players must be 2..5")
    if args.games < 1 or args.jobs < 1 or args.iterations < 0:
        raise ConfigError("--games and --jobs must be 1 or more, --iterations 0 or more")
    ais = agent_names(GAME, args.ai)
    return int(run_cli(args.players, args.games, args.seed, ais, args.jobs, args.out, args.iterations, args.ray))


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


COMMANDS = (
    Command("simulate", "AI-against-AI games with a balance report (JSON, CSV, plots)", _add_simulate_arguments,
            _simulate),
    check_command("tremble", check_file, resources.files(__package__).joinpath("checks")),
)
