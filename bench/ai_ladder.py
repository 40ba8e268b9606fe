"""Rebuild the rated AI ladder of every game (issue 13): a tournament between each game's levels, Elo
ratings anchored at the random player (1000), written to ``spacetable/games/<id>/ladder.json`` (which the
lobby, the terminal and ``spacetable games -v`` read through ``AgentSpec``) and to the tables of
``docs/ai.md`` (between its ``<!-- ladder:begin -->`` and ``<!-- ladder:end -->`` marks).

Every rated agent runs on a fixed budget (nodes, playouts, iterations, plans), so the games are
reproducible; seconds per move are CPU seconds of the worker process per decision (robust on a busy
machine; a decision is one action: for Full Metal Planète, whose turns hold about 15 actions, the planner
thinks at the first action of each turn). Games are appended to ``out/ladder/<game>.jsonl`` (ignored by git) as they
finish, so an interrupted run resumes where it stopped.

    .venv/bin/python bench/ai_ladder.py [GAME ...] [--scale 1.0] [--jobs 2 | --ray ADDRESS] [--dry-run]

``--scale`` multiplies every game's number of games (the defaults below give intervals of roughly
+-60 to +-120 Elo); ``--dry-run`` prints the ratings without writing the ladder files or the docs.
"""

from __future__ import annotations

import argparse
import math
import re
import time
from pathlib import Path
from typing import Any

from spacetable.ai.agents import agent_specs
from spacetable.ai.ladder import write
from spacetable.ai.tournament import make_tournament, run, summary
from spacetable.games import available, get_game
from spacetable.games.arena import tables

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "out" / "ladder"
DOC = ROOT / "docs" / "ai.md"
ANCHOR = ("random", 1000.0)

#: Per game: the configuration, the agents to rate (the levels and the random baseline) and the games to play.
LADDERS: dict[str, dict[str, Any]] = {
    "arena": {"config": {}, "agents": ["endgame", "shallow", "playouts", "random"], "games": 240},
    "worlds": {"config": {}, "agents": ["advised", "search", "playouts", "advisor", "random"], "games": 120},
    # tremble: two seats (every pair of levels meets head to head; a 4-seat mix of three agents needs 48 games
    # per block, too many for the hard level's full-game rollouts); the 4-seat goal is measured apart (docs/ai.md)
    "tremble": {"config": {"players": 2}, "agents": ["mcts", "heuristic", "random"], "games": 60},
    "fullmetal": {"config": {"players": 2}, "agents": ["planner", "commander", "greedy", "random"], "games": 48},
    "galaxies": {"config": {}, "agents": ["tactician", "policy", "greedy", "random"], "games": 60},
}


def rate_game(gid: str, spec: dict[str, Any], scale: float, jobs: int, ray: str | None) -> dict[str, Any]:
    game = get_game(gid)
    names = {s.name for s in agent_specs(game)}
    unknown = [a for a in spec["agents"] if a not in names]
    if unknown:
        raise SystemExit(f"{gid}: no agent called {', '.join(unknown)} (known: {', '.join(sorted(names))})")
    agents = list(dict.fromkeys(spec["agents"]))
    tour = make_tournament(gid, agents, config=spec["config"], seed=1)
    per_block = tour.seats * len(tour.tables)
    games = max(per_block, math.ceil(spec["games"] * scale / per_block) * per_block)
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    done = [0]

    def tick(_: dict[str, Any]) -> None:
        done[0] += 1
        if done[0] % max(1, games // 10) == 0:
            print(f"  {gid}: {done[0]} new games, {time.perf_counter() - t0:.0f} s", flush=True)

    records = run(tour, games, jobs=jobs, ray=ray, results=OUT / f"{gid}.jsonl", on_result=tick)
    anchor = ANCHOR if ANCHOR[0] in tour.agents else None
    summ = summary(tour, records, anchor=anchor, bootstrap=300)
    levels = {s.name: s.level for s in agent_specs(game)}
    rows = {r["name"]: {"rating": r["rating"], "interval": [r["low"], r["high"]], "seconds_per_move": r["cpu_per_move"],
                        "wall_per_move": r["seconds_per_move"], "score": r["score"], "win_rate": r["win_rate"],
                        "level": levels.get(r["name"], "")} for r in summ["table"]}
    return {"game": gid, "config": summ["config"], "seats": summ["seats"], "games": summ["games"], "seed": summ["seed"],
            "anchor": summ["anchor"], "agents": rows, "head_to_head": summ["head_to_head"],
            "command": "bench/ai_ladder.py", "measured": time.strftime("%Y-%m-%d")}


def markdown(data: dict[str, Any]) -> str:
    game = get_game(data["game"])
    cfg = ", ".join(f"{k}={v}" for k, v in data["config"].items() if k in ("players", "board", "scenario"))
    lines = [f"### {game.name} (`{data['game']}`)", "",
             f"{data['games']} games, {data['seats']} seats{', ' + cfg if cfg else ''}; Elo with the random player "
             "at 1000; 95% intervals from a bootstrap over seed blocks; CPU seconds per decision.", "",
             "| agent | level | rating | 95% interval | score | CPU s/move |", "|---|---|---|---|---|---|"]
    for name, row in sorted(data["agents"].items(), key=lambda kv: -kv[1]["rating"]):
        lo, hi = row["interval"]
        lines.append(f"| `{name}` | {row['level'] or '(baseline)'} | {row['rating']:.0f} | {lo:.0f} .. {hi:.0f} | "
                     f"{100 * row['score']:.0f}% | {row['seconds_per_move']:.3f} |")
    return "\n".join(lines) + "\n"


def update_doc(sections: dict[str, str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = "<!-- ladder:begin -->", "<!-- ladder:end -->"
    inner = text.split(begin, 1)[1].split(end, 1)[0]
    old = {m.group(1): m.group(0) for m in re.finditer(r"<!-- game:(\w+) -->.*?<!-- /game -->\n", inner, re.S)}
    for gid, md in sections.items():
        old[gid] = f"<!-- game:{gid} -->\n{md}<!-- /game -->\n"
    order = [g for g in LADDERS if g in old]
    body = "\n" + "\n".join(old[g] for g in order)
    DOC.write_text(text.replace(begin + inner + end, begin + body + end), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help=f"games to rate (default: every available one of {', '.join(LADDERS)})")
    ap.add_argument("--scale", type=float, default=1.0)
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=2)
    where.add_argument("--ray", metavar="ADDRESS")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    gids = args.games or [g for g in LADDERS if g in available()]
    sections = {}
    for gid in gids:
        if gid == "arena":
            tables.ensure("6x4")  # the hard level's (2, 2) table, built once into the cache folder
        print(f"{gid}: rating {', '.join(LADDERS[gid]['agents']) or 'every level'}", flush=True)
        data = rate_game(gid, LADDERS[gid], args.scale, args.jobs, args.ray)
        md = markdown(data)
        print(md, flush=True)
        sections[gid] = md
        if not args.dry_run:
            path = write(get_game(gid), data)
            print(f"wrote {path}")
    if sections and not args.dry_run:
        update_doc(sections)
        print(f"updated {DOC}")


if __name__ == "__main__":
    main()
