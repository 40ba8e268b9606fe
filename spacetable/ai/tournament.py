"""Round-robin tournaments between AI players, with a resumable results file and Elo ratings.

A tournament plays *tables* (which agents sit at one game) in *blocks*: every block has one game
seed and plays its table once per rotation of the seats, so each agent of the table sits in every
seat on the same deal, tides and dice sequence (paired seeds). Game ``i`` is block ``i // P``
(``P`` seats), rotation ``i % P``; the block's table is ``tables[block % len(tables)]`` and its seed
``seed + block``. The schedule of game ``i`` depends only on the agents, the seats and the seed, never
on the number of games, so a longer run extends a shorter one.

Tables (:func:`default_tables`): with at least as many agents as seats, every set of distinct agents
(a 2-player game with A, B, C: AB, AC, BC); with fewer agents than seats, every mix of them with
repetition that has at least two different agents (A, B in a 4-player game: ABBB, AABB, AAAB).
``tables`` may also be given (``hard,heuristic,heuristic,heuristic``).

:func:`play_task` plays one game from its task alone (a pure function of the task: the same
task gives the same record in any process or machine, timing fields apart); every agent moves
through :func:`~spacetable.ai.agents.choose_for_seat`, on a state determinised for its seat.

Results are appended to a JSON-lines file as games finish: a header line naming the tournament,
then one line per game. Running the same command again skips the games already in the file
(an interrupted run resumes; a larger ``--games`` extends it). :func:`summary` rates the agents
(:mod:`spacetable.ai.ratings`).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from spacetable.core.errors import ConfigError
from spacetable.core.rng import mix_seed
from spacetable.games import get_game

from .agents import choose_for_seat, find_agent, make_agent
from .ratings import places, rate
from .runner import run_tasks

#: Fields of a game record that measure time (they differ between runs; everything else is reproducible).
TIMING_FIELDS = ("think", "cpu", "wall")
FORMAT = "spacetable-tournament/1"


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs (picklable, so it can run in another process or machine)."""

    index: int
    block: int
    game: str
    config: dict[str, Any]
    seed: int
    seats: tuple[str, ...]
    seconds: float = 1.0
    max_steps: int | None = None


@dataclass
class Tournament:
    """What a results file's header records: a run with the same header may resume it."""

    game: str
    agents: list[str]
    config: dict[str, Any]
    seed: int
    seconds: float
    tables: list[list[str]]
    max_steps: int | None = None
    format: str = field(default=FORMAT)

    @property
    def seats(self) -> int:
        return len(self.tables[0])

    def header(self) -> dict[str, Any]:
        return asdict(self)

    def task(self, index: int) -> GameTask:
        """The ``index``-th game (see the module doc)."""
        p = self.seats
        block, rotation = divmod(index, p)
        table = self.tables[block % len(self.tables)]
        seats = tuple(table[(i + rotation) % p] for i in range(p))
        return GameTask(index, block, self.game, self.config, self.seed + block, seats, self.seconds, self.max_steps)

    def tasks(self, games: int) -> list[GameTask]:
        return [self.task(i) for i in range(games)]


def default_tables(agents: Sequence[str], seats: int) -> list[list[str]]:
    """Who sits together (see the module doc), in a fixed order."""
    agents = list(dict.fromkeys(agents))
    if len(agents) < 2:
        raise ConfigError("a tournament needs at least two different agents")
    if len(agents) >= seats:
        return [list(c) for c in itertools.combinations(agents, seats)]
    return [list(c) for c in itertools.combinations_with_replacement(agents, seats) if len(set(c)) > 1]


def make_tournament(
    game_id: str,
    agents: Sequence[str],
    *,
    config: dict[str, Any] | None = None,
    seed: int = 1,
    seconds: float = 1.0,
    tables: Sequence[Sequence[str]] | None = None,
    max_steps: int | None = None,
) -> Tournament:
    """A tournament of ``game_id`` between ``agents`` (names of :func:`spacetable.ai.agents.agent_specs`)."""
    game = get_game(game_id)
    cfg = game.normalize_config(config)
    seats = game.num_players(cfg)
    names = [find_agent(game, a).name for a in agents]
    if tables:
        rows = [[find_agent(game, a).name for a in t] for t in tables]
        for row in rows:
            if len(row) != seats:
                raise ConfigError(f"a table names one agent per seat: {seats} for this configuration, got {len(row)}")
        names = list(dict.fromkeys([*names, *(a for row in rows for a in row)]))
    else:
        rows = default_tables(names, seats)
    if seconds <= 0:
        raise ConfigError("--seconds must be more than 0")
    return Tournament(game_id, names, cfg, seed, seconds, rows, max_steps)


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one game of a tournament and return its record (see the module doc)."""
    t_start = time.perf_counter()
    game = get_game(task.game)
    cfg = game.normalize_config(task.config)
    state = game.initial_state(cfg, task.seed)
    n = len(task.seats)
    agents = [make_agent(game, name, mix_seed(task.seed, "agent", name, seat), task.seconds)
              for seat, name in enumerate(task.seats)]
    think, cpu, decisions = [0.0] * n, [0.0] * n, [0] * n
    steps = 0
    while True:
        to_act = game.to_act(state)
        if not to_act:
            break
        if task.max_steps is not None and steps >= task.max_steps:
            break
        seat = to_act[0]
        t0, c0 = time.perf_counter(), time.process_time()
        action = choose_for_seat(game, state, seat, agents[seat], mix_seed(task.seed, "view", steps))
        think[seat] += time.perf_counter() - t0
        cpu[seat] += time.process_time() - c0
        decisions[seat] += 1
        state = game.apply(state, seat, action)
        steps += 1
    out = game.outcome(state)
    if out is None:  # cut off by max_steps: a draw between everybody
        scores, winners, kind = [0.0] * n, [], "max_steps"
    else:
        scores, winners, kind = [float(x) for x in out.scores], list(out.winners), out.kind
    return {
        "index": task.index, "block": task.block, "seed": task.seed, "seats": list(task.seats),
        "scores": scores, "winners": winners, "places": places(scores, winners), "kind": kind, "steps": steps,
        "decisions": decisions, "think": [round(x, 6) for x in think], "cpu": [round(x, 6) for x in cpu],
        "wall": round(time.perf_counter() - t_start, 6),
    }


def deterministic(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its timing fields (what must be equal between two runs of one task)."""
    return {k: v for k, v in record.items() if k not in TIMING_FIELDS}


# ------------------------------------------------------------------------------------- results file
def load_results(path: Path, tour: Tournament) -> dict[int, dict[str, Any]]:
    """The finished games of ``path`` by index ({} when the file does not exist). A file written by a
    different tournament (other game, agents, tables, config, seed or budget) is a :class:`ConfigError`."""
    if not path.exists():
        return {}
    done: dict[int, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    if not lines:
        return {}
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not a tournament results file ({exc})") from exc
    if header != json.loads(json.dumps(tour.header())):
        raise ConfigError(f"{path} holds the games of another tournament (different game, agents, tables, options, "
                          "seed or seconds); give another --json/--results file or delete it")
    for line in lines[1:]:
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short when the run was interrupted: that game is played again
        if isinstance(rec, dict) and isinstance(rec.get("index"), int):
            done[rec["index"]] = rec
    return done


class ResultsFile:
    """Appends one JSON line per finished game (flushed at once, so an interruption loses at most
    the games in progress)."""

    def __init__(self, path: Path, tour: Tournament, fresh: bool) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if fresh or not path.exists() or path.stat().st_size == 0:
            path.write_text(json.dumps(tour.header(), sort_keys=True) + "\n", encoding="utf-8")
        else:
            with path.open("rb+") as fh:  # drop a half-written last line
                data = fh.read()
                if data and not data.endswith(b"\n"):
                    fh.truncate(data.rfind(b"\n") + 1)
        self.fh = path.open("a", encoding="utf-8")

    def add(self, record: dict[str, Any]) -> None:
        self.fh.write(json.dumps(record, sort_keys=True) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def run(
    tour: Tournament,
    games: int,
    *,
    jobs: int = 1,
    ray: str | None = None,
    results: Path | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Play the first ``games`` games of ``tour`` that ``results`` does not hold yet; returns every
    record of the first ``games`` (old and new), by index. ``on_start(done, total)`` is called once
    before the first game, ``on_result`` for each new record."""
    if games < 1:
        raise ConfigError("--games must be 1 or more")
    done = load_results(results, tour) if results is not None else {}
    todo = [t for t in tour.tasks(games) if t.index not in done]
    if on_start is not None:
        on_start(games - len(todo), games)
    sink = ResultsFile(results, tour, fresh=not done) if results is not None else None

    def take(record: dict[str, Any]) -> None:
        done[record["index"]] = record
        if sink is not None:
            sink.add(record)
        if on_result is not None:
            on_result(record)

    try:
        run_tasks(play_task, todo, jobs=jobs, ray=ray, on_result=take)
    finally:
        if sink is not None:
            sink.close()
    return [done[i] for i in range(games) if i in done]


# ------------------------------------------------------------------------------------------- summary
def summary(
    tour: Tournament,
    records: Sequence[dict[str, Any]],
    *,
    anchor: tuple[str, float] | None = None,
    bootstrap: int = 200,
) -> dict[str, Any]:
    """The tournament's result: ratings with 95% intervals, win rates, seconds per move, head to head."""
    names = tour.agents
    ratings = rate(records, names, anchor=anchor, bootstrap=bootstrap)
    wins = {n: 0.0 for n in names}
    seats = {n: 0 for n in names}
    think = {n: 0.0 for n in names}
    cpu = {n: 0.0 for n in names}
    moves = {n: 0 for n in names}
    pairs: dict[str, list[int]] = {}
    for rec in records:
        for i, name in enumerate(rec["seats"]):
            seats[name] += 1
            if i in rec["winners"]:
                wins[name] += 1.0 / len(rec["winners"])
            think[name] += rec["think"][i]
            cpu[name] += rec["cpu"][i]
            moves[name] += rec["decisions"][i]
        for i, j in itertools.combinations(range(len(rec["seats"])), 2):
            a, b = rec["seats"][i], rec["seats"][j]
            if a == b:
                continue
            pa, pb = rec["places"][i], rec["places"][j]
            if a > b:
                a, b, pa, pb = b, a, pb, pa
            row = pairs.setdefault(f"{a} vs {b}", [0, 0, 0])
            row[0 if pa < pb else 2 if pa > pb else 1] += 1
    table = [{
        "name": r.name, "rating": round(r.rating, 1), "low": round(r.low, 1), "high": round(r.high, 1),
        "games": r.games, "score": round(r.score, 4),
        "win_rate": round(wins[r.name] / seats[r.name], 4) if seats[r.name] else 0.0,
        "seconds_per_move": round(think[r.name] / moves[r.name], 4) if moves[r.name] else 0.0,
        "cpu_per_move": round(cpu[r.name] / moves[r.name], 4) if moves[r.name] else 0.0,
    } for r in ratings]
    return {
        "format": FORMAT, "game": tour.game, "config": tour.config, "agents": names, "seats": tour.seats,
        "tables": tour.tables, "seed": tour.seed, "seconds": tour.seconds, "games": len(records),
        "anchor": {"name": anchor[0], "rating": anchor[1]} if anchor else {"mean": 1500.0},
        "ratings": {row["name"]: row["rating"] for row in table},
        "intervals": {row["name"]: [row["low"], row["high"]] for row in table},
        "table": table,
        "head_to_head": {k: {"wins": v[0], "draws": v[1], "losses": v[2]} for k, v in sorted(pairs.items())},
    }
