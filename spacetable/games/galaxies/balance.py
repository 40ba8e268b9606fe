"""Battleship Galaxies' simulated games and its balance runs in the designer's workbench (lent to the server as
:class:`~spacetable.core.hooks.BalanceHooks` for the content kind ``galaxies/packs``).

One seeded game of a pack is :func:`play_one` (a module-level function: it runs in worker processes or on Ray, and
the same task always gives the same record); ``spacetable simulate galaxies`` plays its games with it too. A record
says who won (seats, side, how the game ended), how long it took (rounds, actions, attacks), the round-limit scores
(the destroyed or taken enemy fleet's value, D-15) and which ship cards each seat launched and which tactic cards it
played. :func:`summarize` turns a run's records into the figures the browser draws, in the shape of Tremble's
(seat win rates with 95% Wilson intervals, each card's use and win rates, histograms of game length).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from spacetable.ai.agents import make_agent
from spacetable.core.hooks import BalanceHooks
from spacetable.core.rng import mix_seed
from spacetable.core.stats import histogram, wilson

from .game import GAME
from .packs import HOUSE_LABEL, _bundled_document, _canonical, load_pack_content

#: the players a balance run may seat (every seat gets the same one): ``greedy`` is the cheap default (under a
#: second a game; it plays no tactic cards), ``policy`` the hard level's heuristic (plays them; about 3 s a game),
#: ``random`` a rough first look
BALANCE_AIS = ("greedy", "policy", "random")
#: the browser panel's words for Galaxies' figures: Tremble's figure name -> the suffix of a ``wb.run.*`` key
TERMS = {"battles": "gx_attacks", "battles_chart": "gx_attacks_chart", "score_chart": "gx_score_chart",
         "score_median": "gx_score_median", "thousand_humans": "gx_points", "cards_caption": "gx_cards_caption",
         "cards_chart": "gx_cards_chart", "bought_mine": "gx_used_mine", "bought_bundled": "gx_used_bundled",
         "won_mine": "gx_won_mine", "won_bundled": "gx_won_bundled"}
#: one task: (pack: ``house`` or the owner pack's canonical JSON, game seed, the AI of each seat, each seat's AI seed,
#: players, mission id or ``""`` for the default of the seat count)
Task = tuple[str, int, tuple[str, ...], tuple[int, ...], int, str]


@functools.lru_cache(maxsize=8)
def _config(pack: str, players: int, mission: str) -> str:
    cfg: dict[str, Any] = {"players": players, "mission": mission}
    if pack != "house":
        cfg["pack_content"] = json.loads(pack)
    return json.dumps(GAME.normalize_config(cfg))


def play_one(task: Task) -> dict[str, Any]:
    """One game of ``task`` (see :data:`Task`); returns its record (JSON)."""
    pack, seed, seats, agent_seeds, players, mission = task
    cfg = json.loads(_config(pack, players, mission))
    n = GAME.num_players(cfg)
    agents = [make_agent(GAME, seats[i], agent_seeds[i]) for i in range(n)]
    s = GAME.initial_state(cfg, seed)
    launched: list[list[str]] = [[] for _ in range(n)]
    played: list[list[str]] = [[] for _ in range(n)]
    actions = attacks = 0
    while True:
        to_act = GAME.to_act(s)
        if not to_act:
            break
        seat = to_act[0]
        a = agents[seat].choose(GAME, s, seat)
        kind = a.get("type")
        if kind in ("launch", "launch_from_hold"):
            launched[seat].append(s.cards[a["card"]].key)
        elif kind in ("play_tactic", "respond"):
            played[seat].append(s.tactics[a["card"]].key)
        elif kind == "attack":
            attacks += 1
        s = GAME.apply(s, seat, a)
        actions += 1
    out = GAME.outcome(s)
    assert out is not None
    return {
        "seed": seed,
        "players": n,
        "mission": cfg["mission"],
        "ai": list(seats[:n]),
        "sides": [s.side_of(i) for i in range(n)],
        "winners": list(out.winners),
        "winner_side": out.details["winner_side"],
        "end": out.kind,
        "scores": [round(x, 3) for x in out.scores],
        "rounds": int(s.round),
        "actions": actions,
        "attacks": attacks,
        "launched": launched,
        "played": played,
    }


def make_tasks(players: int, games: int, seed: int, ais: list[str], pack: str = "house", mission: str = "") -> list[Task]:
    """The tasks of a run of ``games`` games: game ``g`` gets the seed ``mix_seed(seed, g)`` (the edited pack and the
    bundled one play the same deals and dice), seat ``i`` the AI ``ais[(i - g) % len(ais)]`` (rotated, so that every
    AI sits in every seat)."""
    out: list[Task] = []
    for g in range(games):
        gs = mix_seed(seed, g) % (1 << 62)
        seats = tuple(ais[(i - g) % len(ais)] for i in range(players))
        out.append((pack, gs, seats, tuple(mix_seed(gs, 1 + i) % (1 << 62) for i in range(players)), players, mission))
    return out


def summarize(records: list[dict[str, Any]], label: str = HOUSE_LABEL) -> dict[str, Any]:
    """A run's figures in the shape the browser's balance panel reads (Tremble's): ``seat_win_rate`` and
    ``seat_win_ci`` (a shared win, a side of two seats, counts for each of its seats), ``purchase_rate`` (for each
    ship card, the share of seat-games that launched it; for each tactic card, that played it), ``win_when_bought``
    (how often such a seat's side won), ``battles_per_game`` (attacks made), ``score_*`` (the round-limit score,
    D-15: the value of the enemy fleet destroyed or taken), game length in actions and rounds."""
    if not records:
        return {}
    n = records[0]["players"]
    g = len(records)
    seat_wins = [0] * n
    used: dict[str, int] = {}
    used_wins: dict[str, int] = {}
    ai_wins: dict[str, int] = {}
    ai_games: dict[str, int] = {}
    ends: dict[str, int] = {}
    draws = 0
    for r in records:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
        draws += not r["winners"]
        for i in range(n):
            won = i in r["winners"]
            seat_wins[i] += won
            ai_games[r["ai"][i]] = ai_games.get(r["ai"][i], 0) + 1
            ai_wins[r["ai"][i]] = ai_wins.get(r["ai"][i], 0) + won
            for c in set(r["launched"][i]) | set(r["played"][i]):
                used[c] = used.get(c, 0) + 1
                used_wins[c] = used_wins.get(c, 0) + won
    scores = sorted(x for r in records for x in r["scores"])
    rates = [w / g for w in seat_wins]
    return {
        "games": g,
        "players": n,
        "card_set": label,
        "missions": sorted({r["mission"] for r in records}),
        "seat_win_rate": rates,
        "seat_win_ci": [list(wilson(w, g)) for w in seat_wins],
        # two sides: a fair game gives each side, hence each of its seats, half of the decisive games
        "max_seat_deviation": max(abs(r - (1 - draws / g) / 2) for r in rates),
        "draw_rate": draws / g,
        "ends": dict(sorted(ends.items())),
        "ai_win_rate_per_seat": {k: ai_wins[k] / ai_games[k] for k in sorted(ai_games)},
        "score_mean": sum(scores) / len(scores),
        "score_p10": scores[len(scores) // 10],
        "score_p50": scores[len(scores) // 2],
        "score_p90": scores[9 * len(scores) // 10],
        "score_min": scores[0],
        "score_max": scores[-1],
        "battles_per_game": sum(r["attacks"] for r in records) / g,
        "rounds_per_game": sum(r["rounds"] for r in records) / g,
        "actions_per_game": sum(r["actions"] for r in records) / g,
        "purchase_rate": {c: used[c] / (g * n) for c in sorted(used)},
        "win_when_bought": {c: used_wins[c] / used[c] for c in sorted(used)},
        "win_when_bought_ci": {c: list(wilson(used_wins[c], used[c])) for c in sorted(used)},
        "score_histogram": histogram([round(x) for x in scores]),
        "battles_histogram": histogram([r["attacks"] for r in records], bins=30),
        "length_histogram": histogram([r["actions"] for r in records]),
        "rounds_histogram": histogram([r["rounds"] for r in records]),
        # the panel's fair line: each side, hence each of its seats, wins half of the decisive games
        "fair_share": (1 - draws / g) / 2,
        # the panel's words for this game's figures (wb.run.<term> in the browser's catalogues)
        "terms": dict(TERMS),
    }


# ------------------------------------------------------------------------------------------- the hooks
@functools.cache
def _house() -> str:
    return _canonical(_bundled_document("house"))


def content_key(doc: Any) -> str:
    """``house`` for the bundled pack's own content, else the pack's canonical JSON once it loads (a pack that
    does not raises ``ValueError`` with its problem)."""
    text = _canonical(doc)
    if text == _house():
        return "house"
    try:
        load_pack_content(doc, "pack_content")
    except Exception as exc:  # PackError, CatalogError: the pack's own reason
        raise ValueError(str(exc)) from None
    return text


def label(key: str) -> str:
    if key == "house":
        return HOUSE_LABEL
    return f"{json.loads(key).get('pack_id', 'pack')} (owner pack)"


def tasks(players: int, games: int, seed: int, ai: str, key: str) -> list[Any]:
    return make_tasks(players, games, seed, [ai], key)


HOOKS = BalanceHooks(kind="packs", bundled="house", players=(2, 4, 2), ais=BALANCE_AIS, default_ai="greedy",
                     content_key=content_key, label=label, tasks=tasks, play=play_one, summarize=summarize)
