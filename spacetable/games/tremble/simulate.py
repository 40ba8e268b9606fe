"""Many AI games with a progress bar, JSON/CSV results and a balance report with plots.

``spacetable simulate tremble --players N --games K [--seed S] [--ai A,B,...] [--jobs J | --ray ADDRESS] [--out DIR]``.
Seats are rotated between games so every captain plays every seat. The report
(``report.md`` + PNG figures) shows win rate by seat and by AI, score spread, card
purchase and win-when-bought rates and battle frequency; it names the card set label.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from spacetable.ai.runner import run_tasks
from spacetable.core.rng import mix_seed

from .ai import make_agent
from .cards import get_set
from .game import GAME


def seat_assignment(players: int, ais: list[str], index: int) -> list[str]:
    """The captain of every seat in game ``index`` (rotated, see :func:`play_one`)."""
    return [ais[(i - index) % len(ais)] for i in range(players)]


def play_one(args: tuple[int, int, list[str], str, int, int]) -> dict[str, Any]:
    """One game; returns its record (winners, scores, purchases, battles). Seat i of game k gets
    ``ais[(i - k) % len(ais)]``: over ``len(ais)`` consecutive games every seat has every captain once,
    so seat win rates are not biased by who sat there, even when P is not a multiple of len(ais)
    (where len(ais) divides P this is the earlier rotation, so documented runs reproduce)."""
    players, seed, ais, card_set, iterations, index = args
    seat_ai = seat_assignment(players, ais, index)
    agents = [make_agent(seat_ai[i], mix_seed(seed, i), iterations=iterations or None) for i in range(players)]
    # ``card_set``: a catalogue name, or a player's own set as its canonical JSON (``cards.content_key``)
    config: dict[str, Any] = {"players": players, "card_set": card_set, "log_events": False}
    if card_set.startswith("{"):
        config.update(card_set="custom", card_set_content=json.loads(card_set))
    s = GAME.initial_state(config, seed)
    bought: list[list[str]] = [[] for _ in range(players)]
    battles = 0
    contests = 0
    slot_seen = (-1, -1)
    actions = 0
    while True:
        seats = GAME.to_act(s)
        if not seats:
            break
        seat = seats[0]
        if s.phase == "declare" and (s.turn, s.slot) != slot_seen:
            slot_seen = (s.turn, s.slot)
            battles += 1
        action = agents[seat].choose(GAME, s, seat)
        if action.get("type") == "buy":
            bought[seat].extend(x.split("#")[0] for x in action["buy"])
        if action.get("type") == "reward":
            contests += 1
        GAME.apply_in_place(s, seat, action)  # the simulation owns its state; every action is still validated
        actions += 1
    out = GAME.outcome(s)
    assert out is not None
    return {
        "seed": seed,
        "players": players,
        "ai": seat_ai,
        "scores": [int(x) for x in out.scores],
        "winners": list(out.winners),
        "bought": bought,
        "battles": battles,
        "rewards": contests,
        "trophies": out.details["trophies"],
        "actions": actions,
    }


def make_tasks(players: int, games: int, seed: int, ais: list[str], card_set: str = "house",
               iterations: int = 0) -> list[tuple[int, int, list[str], str, int, int]]:
    """The tasks of :func:`play_one` for a run of ``games`` games: game ``g`` gets the seed ``mix_seed(seed, g)``, so
    two runs with the same seed (the workbench's edited set and its bundled set) play the same deals."""
    return [(players, mix_seed(seed, g) % (1 << 62), ais, card_set, iterations, g) for g in range(games)]


def simulate(
    players: int,
    games: int,
    seed: int,
    ais: list[str],
    jobs: int = 1,
    card_set: str = "house",
    iterations: int = 0,
    progress: bool = True,
    ray: str | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` games here (``jobs`` processes) or on a Ray cluster (``ray``: an address or ``local``,
    :mod:`spacetable.ai.runner`); the records come back in game order whatever finished first."""
    tasks = make_tasks(players, games, seed, ais, card_set, iterations)
    order = {t[1]: i for i, t in enumerate(tasks)}
    results: list[dict[str, Any]] = []
    bar = Progress(TextColumn("tremble {task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   disable=not progress)
    task = bar.add_task(f"{players}p {'/'.join(ais)}", total=games)
    with bar:
        run_tasks(play_one, tasks, jobs=jobs, ray=ray, on_result=lambda r: (results.append(r), bar.advance(task)))
    results.sort(key=lambda r: order[r["seed"]])
    return results


def summarize(results: list[dict[str, Any]], label: str | None = None) -> dict[str, Any]:
    """The balance figures of a run (``label``: the card set's name; the house set's by default)."""
    if not results:
        return {}
    n = results[0]["players"]
    g = len(results)
    seat_wins = [0.0] * n
    ai_wins: dict[str, float] = {}
    ai_games: dict[str, int] = {}
    buys: dict[str, int] = {}
    buy_wins: dict[str, float] = {}
    for r in results:
        for w in r["winners"]:
            seat_wins[w] += 1 / len(r["winners"])
            ai_wins[r["ai"][w]] = ai_wins.get(r["ai"][w], 0) + 1 / len(r["winners"])
        for i, name in enumerate(r["ai"]):
            ai_games[name] = ai_games.get(name, 0) + 1
            for c in set(r["bought"][i]):
                buys[c] = buys.get(c, 0) + 1
                if i in r["winners"]:
                    buy_wins[c] = buy_wins.get(c, 0) + 1 / len(r["winners"])
    scores = sorted(x for r in results for x in r["scores"])
    return {
        "games": g,
        "players": n,
        "card_set": label or get_set("house").label,
        "seat_win_rate": [w / g for w in seat_wins],
        "max_seat_deviation": max(abs(w / g - 1 / n) for w in seat_wins),
        "ai_win_rate_per_seat": {k: ai_wins.get(k, 0) / ai_games[k] for k in ai_games},
        "score_mean": sum(scores) / len(scores),
        "score_p10": scores[len(scores) // 10],
        "score_p50": scores[len(scores) // 2],
        "score_p90": scores[9 * len(scores) // 10],
        "score_min": scores[0],
        "score_max": scores[-1],
        "battles_per_game": sum(r["battles"] for r in results) / g,
        "rewards_per_game": sum(r["rewards"] for r in results) / g,
        "purchase_rate": {c: buys[c] / (g * n) for c in sorted(buys)},
        "win_when_bought": {c: buy_wins.get(c, 0) / buys[c] for c in sorted(buys)},
    }


def write_outputs(results: list[dict[str, Any]], summary: dict[str, Any], out: Path, prefix: str = "tremble") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    (out / f"{prefix}-results.json").write_text(json.dumps({"summary": summary, "games": results}, indent=1) + "\n")
    files.append(out / f"{prefix}-results.json")
    with open(out / f"{prefix}-results.csv", "w", newline="") as f:
        w = csv.writer(f)
        n = summary["players"]
        w.writerow(["seed", "players", *[f"ai{i}" for i in range(n)], *[f"score{i}" for i in range(n)], "winners", "battles"])
        for r in results:
            w.writerow([r["seed"], r["players"], *r["ai"], *r["scores"], " ".join(map(str, r["winners"])), r["battles"]])
    files.append(out / f"{prefix}-results.csv")
    files.extend(plot(results, summary, out, prefix))
    return files


def plot(results: list[dict[str, Any]], summary: dict[str, Any], out: Path, prefix: str) -> list[Path]:
    # matplotlib loads slowly and must be switched to the Agg backend before pyplot is imported:
    # only a run that writes its report pays for it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = summary["players"]
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    label = f"{summary['card_set']} — {n} players, {summary['games']} games"
    ax = axes[0][0]
    ax.bar([f"seat {i}" for i in range(n)], summary["seat_win_rate"], color="#4a7")
    ax.axhline(1 / n, color="k", ls="--", lw=1)
    ax.axhspan(1 / n - 0.05, 1 / n + 0.05, color="#ccc", alpha=0.4)
    ax.set_title("win rate by seat (fair ± 5 points shaded)")
    ax = axes[0][1]
    names = sorted(summary["ai_win_rate_per_seat"])
    ax.bar(names, [summary["ai_win_rate_per_seat"][k] for k in names], color="#47a")
    ax.set_title("win rate by AI (per seat-game)")
    ax = axes[1][0]
    ax.hist([x / 1000 for r in results for x in r["scores"]], bins=40, color="#a74")
    ax.set_title("final score spread (thousand humans)")
    ax = axes[1][1]
    ax.hist([r["battles"] for r in results], bins=range(0, max(r["battles"] for r in results) + 2), color="#777")
    ax.set_title("battles per game")
    fig.suptitle(label)
    fig.tight_layout()
    p1 = out / f"{prefix}-{n}p-overview.png"
    fig.savefig(p1, dpi=80)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(11, 6))
    cards = sorted(summary["purchase_rate"], key=lambda c: -summary["purchase_rate"][c])
    x = range(len(cards))
    ax.bar([i - 0.2 for i in x], [summary["purchase_rate"][c] for c in cards], width=0.4, label="bought (per seat-game)")
    ax.bar([i + 0.2 for i in x], [summary["win_when_bought"][c] for c in cards], width=0.4, label="win when bought")
    ax.set_xticks(list(x))
    ax.set_xticklabels(cards, rotation=70, fontsize=7)
    ax.legend()
    ax.set_title(f"card purchase and win-when-bought rates — {label}")
    fig.tight_layout()
    p2 = out / f"{prefix}-{n}p-cards.png"
    fig.savefig(p2, dpi=80)
    plt.close(fig)
    return [p1, p2]


def report_markdown(summary: dict[str, Any], images: list[str]) -> str:
    n = summary["players"]
    lines = [
        f"### {n} players — {summary['games']} games ({summary['card_set']})",
        "",
        "| seat | win rate | fair |",
        "|---|---|---|",
    ]
    lines += [f"| {i} | {w:.3f} | {1 / n:.3f} |" for i, w in enumerate(summary["seat_win_rate"])]
    lines += [
        "",
        f"Largest seat deviation: **{100 * summary['max_seat_deviation']:.1f} points**; "
        f"battles per game {summary['battles_per_game']:.2f}; rewards per game {summary['rewards_per_game']:.2f}; "
        f"scores p10/p50/p90 {summary['score_p10']:,} / {summary['score_p50']:,} / {summary['score_p90']:,}.",
        "",
    ]
    lines += ["AI win rate per seat-game: " + ", ".join(f"{k} {v:.3f}" for k, v in summary["ai_win_rate_per_seat"].items()), ""]
    lines += [f"![{Path(i).name}]({i})" for i in images]
    return "\n".join(lines) + "\n"


def run_cli(players: int, games: int, seed: int, ais: list[str], jobs: int, out: str | None, iterations: int = 0,
            ray: str | None = None) -> int:
    t0 = time.perf_counter()
    results = simulate(players, games, seed, ais, jobs, iterations=iterations, ray=ray)
    dt = time.perf_counter() - t0
    summary = summarize(results)
    summary["seconds"] = dt
    print(f"{summary['card_set']}: {games} games, {players} players, AI {', '.join(ais)} (rotated over the seats), "
          f"{dt:.1f} s")
    for i, w in enumerate(summary["seat_win_rate"]):
        print(f"  seat {i}: win rate {w:.3f} (fair {1 / players:.3f})")
    for k, v in summary["ai_win_rate_per_seat"].items():
        print(f"  {k}: win rate per seat-game {v:.3f}")
    print(f"  battles/game {summary['battles_per_game']:.2f}, score median {summary['score_p50']:,}")
    if out:
        files = write_outputs(results, summary, Path(out))
        imgs = [str(f.name) for f in files if f.suffix == ".png"]
        (Path(out) / "report.md").write_text(report_markdown(summary, imgs))
        print("  wrote " + ", ".join(str(f) for f in files) + f", {Path(out) / 'report.md'}")
    return 0
