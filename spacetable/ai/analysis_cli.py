"""``spacetable analyse MATCH.json``: the post-game analysis (:mod:`spacetable.ai.analysis`) at the terminal.

Prints one row per move (seat, move, the viewer's chances before and after, the move the evaluator preferred
and the loss, flagged decisions marked ``!``) and with ``--plot FILE`` draws the chances chart as a PNG, chance
events (dice, draws, reveals) marked with dotted lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from spacetable.core.errors import ConfigError
from spacetable.core.match import Match
from spacetable.games import get_game

from .analysis import Analysis, Budget, analyse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a finished match (spacetable-match/1): `save FILE` at the play prompt, or --save")
    p.add_argument("--seat", type=int, default=None,
                   help="analyse from this seat's knowledge (games with hidden information; default: every seat)")
    p.add_argument("--plot", metavar="FILE", help="write the chances chart to this PNG file")
    p.add_argument("--samples", type=int, default=Budget.samples, help="playouts per position")
    p.add_argument("--max-steps", type=int, default=Budget.max_steps, help="longest playout, in actions")
    p.add_argument("--seed", type=int, default=0, help="the analysis's seed (same seed, same analysis)")
    p.add_argument("--quiet", action="store_true", help="no progress line")


_shown: list[int] = [-1]


def _progress(done: int, total: int) -> None:
    pct = 100 * done // max(1, total)
    if pct // 5 == _shown[0] // 5 and done < total:
        return
    _shown[0] = pct
    sys.stderr.write(f"\ranalysing… {pct:3d}%")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def table(analysis: Analysis) -> str:
    """The analysis as a text table (the viewer's seat's chances, or each seat's for a shared analysis)."""
    flagged = set(analysis.flagged)
    rows = [f"{'#':>4} {'seat':>4}  {'chances before':>14} {'after':>14}  {'loss':>5}  move  [preferred]"]
    for p in analysis.points:
        fmt = "/".join(f"{round(100 * c):d}" for c in p.before)
        fmt_after = "/".join(f"{round(100 * c):d}" for c in p.after)
        mark = "!" if p.index in flagged else ("*" if p.chance else " ")
        pref = f"  [{p.preferred}]" if p.preferred else ""
        loss = f"{100 * p.loss:5.1f}" if p.loss else "     "
        rows.append(f"{p.index + 1:>4}{mark}{p.seat:>4}  {fmt:>14} {fmt_after:>14}  {loss}  {p.move}{pref}")
    rows.append("chances in % per seat (seat 0/seat 1/...); ! a flagged decision, * a chance event (dice, draw)")
    return "\n".join(rows)


def plot(analyses: list[Analysis], path: str | Path, names: list[str]) -> None:
    """Draw every analysis's chances per seat on one PNG (one panel per viewer)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(analyses), 1, figsize=(9, 2.6 * len(analyses) + 0.6), squeeze=False)
    for ax, a in zip(axes[:, 0], analyses, strict=True):
        series = a.chances()
        xs = list(range(len(series)))
        for seat in range(a.seats):
            ax.plot(xs, [100 * row[seat] for row in series], label=names[seat] if seat < len(names) else f"{seat}")
        for p in a.points:
            if p.chance:
                ax.axvline(p.index + 1, color="grey", linestyle=":", linewidth=0.8)
            if p.index in a.flagged:
                ax.plot([p.index + 1], [100 * p.after[p.seat]], "rv")
        ax.set_ylim(0, 100)
        ax.set_ylabel("chances (%)")
        ax.set_title(f"{a.game}: " + ("every seat" if a.viewer is None else f"as seat {a.viewer} knew it"))
        ax.legend(loc="upper left", fontsize="small")
    axes[-1, 0].set_xlabel("move (dotted: dice, draws and reveals; ▼ flagged decision)")
    fig.tight_layout()
    fig.savefig(str(path), format="png")
    plt.close(fig)


def run_command(ns: argparse.Namespace) -> int:
    path = Path(ns.file)
    try:
        match = Match.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    game = get_game(match.game)
    match.attach(game)
    if ns.samples < 1 or ns.max_steps < 1:
        raise ConfigError("--samples and --max-steps must be at least 1")
    budget = Budget(samples=ns.samples, max_steps=ns.max_steps)
    seats = game.num_players(match.config)
    if ns.seat is not None and not 0 <= ns.seat < seats:
        raise ConfigError(f"--seat must be a seat of this match, 0..{seats - 1}")
    viewers: list[Any] = [None] if not game.hidden_information else (
        [ns.seat] if ns.seat is not None else list(range(seats)))
    analyses = []
    for k, viewer in enumerate(viewers):
        def progress(done: int, total: int, k: int = k) -> None:
            if not ns.quiet:
                _progress(k * total + done, len(viewers) * total)
        analyses.append(analyse(match, viewer, budget, ns.seed, progress))
    names = game.player_names(match.config)
    for a in analyses:
        print(f"== {game.name}: " + ("every seat" if a.viewer is None else f"{names[a.viewer]} (seat {a.viewer}), "
                                     "judged from what this seat knew"))
        print(table(a))
    if ns.plot:
        plot(analyses, ns.plot, names)
        print(f"chart written to {ns.plot}")
    return 0
