"""``spacetable tournament GAME --agents A,B[,C...] --games N --seed S [--jobs K | --ray ADDRESS] --json FILE``.

Plays the round robin of :mod:`spacetable.ai.tournament` with a progress bar, appends every game to
a JSON-lines results file as it finishes (``FILE`` with the suffix ``.jsonl``, or ``--results``), so
that the same command run again resumes, then prints the ratings table (seconds per move both as
wall time, which other jobs on the machine inflate, and as CPU time of the worker), draws the plot
(``FILE`` with ``.png``, or ``--plot``) and writes the summary to ``FILE`` (its ``ratings`` object maps each
agent to its rating). The command is generic: every game gets it with its own agents and options.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from spacetable.commands import count, seconds
from spacetable.core.errors import ConfigError
from spacetable.core.game import Game
from spacetable.terminal import parse_options

from .tournament import Tournament, make_tournament, run, summary


def add_arguments(p: argparse.ArgumentParser, game: Game[Any]) -> None:
    # the agents are not listed here: listing them imports every game's AI modules (slow for some) to build
    # the parser of any command; an unknown name gets an error that lists them
    p.add_argument("--agents", required=True, metavar="A,B[,C...]",
                   help="AI players of the game (`spacetable games -v` lists them)")
    p.add_argument("--games", type=count(1), default=20, help="games to play in all (default 20); a multiple of "
                   "seats x tables gives every table every seat equally often")
    p.add_argument("--seed", type=int, default=1, help="seed of the first block of games (default 1)")
    p.add_argument("--seconds", type=seconds, default=1.0, help="time per move for agents with a time budget (default 1)")
    if game.min_players != game.max_players:
        p.add_argument("--players", type=count(game.min_players, game.max_players), default=None,
                       help=f"seats per game, {game.min_players} to {game.max_players} (default {game.min_players})")
    opts = ", ".join(o.name for o in game.options()) or "none"
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help=f"a game option, JSON value ({opts})")
    p.add_argument("--table", action="append", metavar="A,B,...",
                   help="one agent per seat for a table to play (repeatable; default: the round robin of --agents)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=count(1), default=1, help="worker processes on this machine (default 1)")
    where.add_argument("--ray", metavar="ADDRESS", help="run the games on a Ray cluster (auto, HOST:6379, "
                       "ray://HOST:10001) or 'local' (a Ray instance here with --ray-cpus CPUs)")
    p.add_argument("--ray-cpus", type=count(1), default=2, help="CPUs of a --ray local instance (default 2)")
    p.add_argument("--json", metavar="FILE", help="write the summary (ratings, intervals, table) here; the games "
                   "go to FILE.jsonl as they finish and the same command resumes from them")
    p.add_argument("--results", metavar="FILE", help="the JSON-lines results file (default: from --json)")
    p.add_argument("--plot", metavar="FILE", help="draw the ratings (PNG; default: from --json)")
    p.add_argument("--anchor", metavar="NAME=RATING", help="fix one agent's rating (default: the mean is 1500)")
    p.add_argument("--max-steps", type=count(1), default=None, help="stop a game after this many actions (a draw)")
    p.add_argument("--bootstrap", type=count(0), default=200, help="resamples for the 95%% intervals (default 200)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def config_from_args(game: Game[Any], ns: argparse.Namespace) -> dict[str, Any]:
    cfg: dict[str, Any] = {}
    if getattr(ns, "players", None) is not None:
        cfg["players"] = ns.players
    cfg.update(parse_options(ns.option))
    return game.normalize_config(cfg)


def _anchor(text: str | None) -> tuple[str, float] | None:
    if not text:
        return None
    name, sep, value = text.partition("=")
    try:
        return name, float(value) if sep else 1500.0
    except ValueError as exc:
        raise ConfigError(f"--anchor takes NAME=RATING, got {text!r}") from exc


def run_command(game: Game[Any], ns: argparse.Namespace) -> int:
    if ns.ray is not None and ns.ray_cpus < 1:
        raise ConfigError("--ray-cpus must be 1 or more")
    tables = [[x.strip() for x in t.split(",") if x.strip()] for t in ns.table or []]
    agents = [x.strip() for x in ns.agents.split(",") if x.strip()]
    tour = make_tournament(game.id, agents, config=config_from_args(game, ns), seed=ns.seed, seconds=ns.seconds,
                           tables=tables or None, max_steps=ns.max_steps)
    anchor = _anchor(ns.anchor)
    if anchor is not None and anchor[0] not in tour.agents:
        raise ConfigError(f"--anchor names {anchor[0]!r}, not one of the agents ({', '.join(tour.agents)})")
    out = Path(ns.json) if ns.json else None
    results = Path(ns.results) if ns.results else out.with_suffix(".jsonl") if out else None
    if out is not None and results == out:
        raise ConfigError("--json and --results must be different files")
    console = Console(stderr=True)
    records = _play(tour, ns, results, console)
    summ = summary(tour, records, anchor=anchor, bootstrap=ns.bootstrap)
    Console().print(ratings_table(summ))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(summ, indent=1) + "\n", encoding="utf-8")
        console.print(f"summary: {out}" + (f", games: {results}" if results else ""))
    plot = Path(ns.plot) if ns.plot else out.with_suffix(".png") if out else None
    if plot is not None:
        draw(summ, plot)
        console.print(f"plot: {plot}")
    return 0


def _play(tour: Tournament, ns: argparse.Namespace, results: Path | None, console: Console) -> list[dict[str, Any]]:
    jobs = ns.ray_cpus if ns.ray == "local" else ns.jobs
    where = f"Ray {ns.ray}" if ns.ray else f"{jobs} process{'es' if jobs > 1 else ''}"
    label = escape(f"{tour.game} [{'/'.join(tour.agents)}] on {where}")
    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                   console=console, disable=ns.quiet)
    task = bar.add_task("games", total=ns.games)

    def start(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)
        if done:
            console.print(f"resuming: {done} of {total} games already in {results}")

    with bar:
        return run(tour, ns.games, jobs=jobs, ray=ns.ray, results=results,
                   on_start=start, on_result=lambda _: bar.advance(task))


def ratings_table(summ: dict[str, Any]) -> Table:
    anchor = summ["anchor"]
    note = f"{anchor['name']} fixed at {anchor['rating']:.0f}" if "name" in anchor else "mean 1500"
    table = Table(title=f"{summ['game']}: {summ['games']} games, {summ['seats']} seats, Elo ({note}), 95% interval")
    for col in ("agent", "rating", "95% interval", "games", "score", "win rate", "wall s/move", "CPU s/move"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for row in summ["table"]:
        table.add_row(row["name"], f"{row['rating']:.0f}", f"{row['low']:.0f} .. {row['high']:.0f}", str(row["games"]),
                      f"{100 * row['score']:.1f}%", f"{100 * row['win_rate']:.1f}%", f"{row['seconds_per_move']:.3f}",
                      f"{row.get('cpu_per_move', 0.0):.3f}")
    return table


def draw(summ: dict[str, Any], path: Path) -> None:
    """A horizontal bar per agent at its rating, with the 95% interval as an error bar."""
    import matplotlib  # imported here: plotting is the only part of the command that needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(summ["table"]))
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(rows)))
    y = range(len(rows))
    ratings = [r["rating"] for r in rows]
    err = [[r["rating"] - r["low"] for r in rows], [r["high"] - r["rating"] for r in rows]]
    ax.errorbar(ratings, list(y), xerr=err, fmt="o", capsize=4)
    ax.set_yticks(list(y), [r["name"] for r in rows])
    ax.set_xlabel("Elo rating (95% interval)")
    ax.set_title(f"{summ['game']}: {summ['games']} games")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
