"""Worlds & Suns balance runs: seeded AI-against-AI skirmishes of one scenario (``spacetable simulate worlds``), and
the same games lent to the designer's workbench (:class:`~spacetable.core.hooks.BalanceHooks` of the kind
``scenarios``) with the figures the browser draws.

A scenario is asymmetric (its two sides start with different pieces, energy and hands), so the seat win rates are
the sides' win rates: what a designer balances. Game ``g`` of a run plays the seed ``mix_seed(seed, g)``, and its seat
``i`` gets ``ais[(i - g) % len(ais)]``, so an edited scenario and the bundled one play the same seeds.

A record says who won (WS-8.4, house rule: more material), the final material (the score), the combats declared
(``battles``), the actions played, why the skirmish ended, and for each side and piece type (Population, Factory)
how many pieces it had at the start and at the end. The summary has the shape of Tremble's (the workbench panel
draws both): the per-card table holds each side's piece types, with ``purchase_rate`` the share of those pieces
that survived and ``win_when_bought`` the side's win rate in games where at least one of them survived.
"""

from __future__ import annotations

import json
from typing import Any

from spacetable.ai.runner import run_tasks
from spacetable.core import catalog
from spacetable.core.errors import ConfigError
from spacetable.core.hooks import BalanceHooks
from spacetable.core.rng import mix_seed
from spacetable.core.stats import histogram, wilson

from . import scenario as scen
from .ai import AGENTS
from .game import GAME
from .pieces import POPULATION

#: The bundled scenario a run is compared with (the game's default scenario).
BUNDLED = "s1-example"
#: The players a run may seat: the cheap ones (a balance run plays hundreds of games). ``advisor`` re-plans every
#: combat with the WS-10 advisor; ``random`` plays uniformly at random.
AIS = ("advisor", "random")
DEFAULT_AI = "advisor"
TYPE_NAMES = {POPULATION: "Population", "F": "Factory"}

Task = tuple[str, int, tuple[str, ...], int]


def config_of(key: str) -> dict[str, Any]:
    """The match configuration of a scenario key: a catalogue name, or a scenario's canonical JSON."""
    if key.startswith("{"):
        return {"scenario_json": json.loads(key)}
    return {"scenario": key}


def seat_ais(ais: tuple[str, ...] | list[str], index: int) -> list[str]:
    """The AI of each seat in game ``index``: ``ais[(seat - index) % len(ais)]``."""
    return [ais[(i - index) % len(ais)] for i in range(2)]


def _pieces(state: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in state.pieces:
        k = f"{state.sides[p.owner]} {TYPE_NAMES.get(p.kind, p.kind)}"
        out[k] = out.get(k, 0) + 1
    return out


def play_one(task: Task) -> dict[str, Any]:
    """One seeded skirmish of a scenario; its JSON record (a pure function of its task: the same record in any
    process or on Ray)."""
    key, seed, ais, index = task
    cfg = GAME.normalize_config(config_of(key))
    seats = seat_ais(ais, index)
    agents = [AGENTS[seats[i]](seed=mix_seed(seed, i)) for i in range(2)]
    state = GAME.initial_state(cfg, seed)
    start = _pieces(state)
    combats = 0
    actions = 0
    while True:
        to_act = GAME.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        action = agents[seat].choose(GAME, state, seat)
        if action.get("type") == "declare_combat":
            combats += 1
        state = GAME.apply(state, seat, action)
        actions += 1
    out = GAME.outcome(state)
    assert out is not None
    end = _pieces(state)
    return {
        "seed": seed,
        "players": 2,
        "ai": seats,
        "sides": list(state.sides),
        "scores": [int(x) for x in out.scores],
        "winners": list(out.winners),
        "reason": str(out.kind),
        "battles": combats,
        "rounds": int(state.round),
        "actions": actions,
        "pieces": {k: [start.get(k, 0), end.get(k, 0)] for k in sorted(set(start) | set(end))},
        "lost": [int(x) for x in state.lost],
    }


#: the balance panel's words for a scenario's figures (keys of ``wb.run.*``, in place of a card set's)
TERMS = {"battles": "ws_combats", "battles_chart": "ws_combats", "score_chart": "ws_score_chart",
         "score_median": "ws_score_median", "thousand_humans": "ws_material", "cards_caption": "ws_pieces_caption",
         "cards_chart": "ws_pieces_chart", "bought_mine": "ws_survived_mine", "bought_bundled": "ws_survived_bundled",
         "won_mine": "ws_won_mine", "won_bundled": "ws_won_bundled"}


def make_tasks(games: int, seed: int, ais: list[str] | tuple[str, ...], key: str = BUNDLED) -> list[Task]:
    """The tasks of a run of ``games`` games: game ``g`` plays the seed ``mix_seed(seed, g)``."""
    return [(key, mix_seed(seed, g) % (1 << 62), tuple(ais), g) for g in range(games)]


def summarize(records: list[dict[str, Any]], label: str) -> dict[str, Any]:
    """The run's figures, in the shape of Tremble's (see the module's docstring)."""
    if not records:
        return {}
    g = len(records)
    wins = [0.0, 0.0]
    for r in records:
        for w in r["winners"]:
            wins[w] += 1 / len(r["winners"])
    start: dict[str, int] = {}
    kept: dict[str, int] = {}
    held: dict[str, int] = {}
    held_wins: dict[str, float] = {}
    for r in records:
        for k, (a, b) in r["pieces"].items():
            start[k] = start.get(k, 0) + a
            kept[k] = kept.get(k, 0) + b
            if b:
                side = r["sides"].index(k.split(" ")[0])
                held[k] = held.get(k, 0) + 1
                if side in r["winners"]:
                    held_wins[k] = held_wins.get(k, 0) + 1 / len(r["winners"])
    scores = sorted(x for r in records for x in r["scores"])
    rates = [w / g for w in wins]
    reasons: dict[str, int] = {}
    for r in records:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    return {
        "games": g,
        "players": 2,
        "scenario": label,
        "terms": dict(TERMS),
        "sides": records[0]["sides"],
        "seat_win_rate": rates,
        "seat_win_ci": [list(wilson(w, g)) for w in wins],
        "draw_rate": sum(1 for r in records if not r["winners"]) / g,
        "max_seat_deviation": max(abs(x - 0.5) for x in rates),
        "score_mean": sum(scores) / len(scores),
        "score_p50": scores[len(scores) // 2],
        "score_histogram": histogram(scores),
        "battles_per_game": sum(r["battles"] for r in records) / g,
        "battles_histogram": histogram([r["battles"] for r in records], bins=30),
        "actions_per_game": sum(r["actions"] for r in records) / g,
        "length_histogram": histogram([r["actions"] for r in records]),
        "rounds_per_game": sum(r["rounds"] for r in records) / g,
        "lost_per_game": {k: (start[k] - kept[k]) / g for k in sorted(start)},
        "purchase_rate": {k: kept[k] / start[k] for k in sorted(start) if start[k]},
        "win_when_bought": {k: held_wins.get(k, 0) / held[k] for k in sorted(held)},
        "win_when_bought_ci": {k: list(wilson(held_wins.get(k, 0), held[k])) for k in sorted(held)},
        "end_reasons": dict(sorted(reasons.items())),
    }


def simulate(games: int, seed: int, ais: list[str], key: str = BUNDLED, jobs: int = 1,
             ray: str | None = None) -> list[dict[str, Any]]:
    """Play a run here (``jobs`` processes) or on Ray; the records in game order."""
    tasks = make_tasks(games, seed, ais, key)
    order = {t[1]: i for i, t in enumerate(tasks)}
    out = run_tasks(play_one, tasks, jobs=jobs, ray=ray)
    return sorted(out, key=lambda r: order[r["seed"]])


# ------------------------------------------------------------------- the workbench's hooks
def content_key(doc: Any) -> str:
    """The key of a scenario sent as content: the name of the bundled scenario when it is that one, else its
    canonical JSON; ``ValueError`` naming every problem when it is not a valid scenario."""
    try:
        catalog.check_content(scen.SCENARIOS, doc)
        scen.validate(doc)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    if doc == scen.named(BUNDLED):
        return BUNDLED
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def label(key: str) -> str:
    """A scenario's title: its label, else its id, else its catalogue name (``your scenario`` for content)."""
    data = json.loads(key) if key.startswith("{") else scen.named(key)
    return str(data.get("label") or data.get("id") or (key if not key.startswith("{") else "your scenario"))[:200]


def tasks(players: int, games: int, seed: int, ai: str, key: str) -> list[Any]:
    return make_tasks(games, seed, [ai], key)


HOOKS = BalanceHooks(kind="scenarios", bundled=BUNDLED, players=(2, 2, 2), ais=AIS, default_ai=DEFAULT_AI,
                     content_key=content_key, label=label, tasks=tasks, play=play_one, summarize=summarize)
