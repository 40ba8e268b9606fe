"""Tremble's balance runs in the designer's workbench (lent to the server as
:class:`~spacetable.core.hooks.BalanceHooks`): the games, seats and records of ``spacetable simulate tremble``
(:mod:`.simulate`) for a card set, with the figures the browser draws (intervals and histograms)."""

from __future__ import annotations

import functools
from typing import Any

from spacetable.core.hooks import BalanceHooks
from spacetable.core.stats import histogram, wilson

from . import simulate as sim
from .cards import HOUSE_DIR, CardSetError, content_key, get_set, set_document


def figures(records: list[dict[str, Any]], summary: dict[str, Any]) -> dict[str, Any]:
    """What the browser draws beside ``simulate``'s summary: intervals and the histograms of its plots."""
    g = summary["games"]
    summary["seat_win_ci"] = [list(wilson(w * g, g)) for w in summary["seat_win_rate"]]
    bought_n: dict[str, int] = {}
    for r in records:
        for seat in r["bought"]:
            for c in set(seat):
                bought_n[c] = bought_n.get(c, 0) + 1
    summary["win_when_bought_ci"] = {c: list(wilson(summary["win_when_bought"][c] * n, n)) for c, n in bought_n.items()}
    summary["score_histogram"] = histogram([x // 1000 for r in records for x in r["scores"]])
    summary["battles_histogram"] = histogram([r["battles"] for r in records], bins=30)
    summary["length_histogram"] = histogram([r.get("actions", 0) for r in records])
    summary["actions_per_game"] = sum(r.get("actions", 0) for r in records) / max(1, g)
    return summary


def tasks(players: int, games: int, seed: int, ai: str, card_set: str) -> list[Any]:
    return sim.make_tasks(players, games, seed, [ai], card_set)


def summarize(records: list[dict[str, Any]], label: str) -> dict[str, Any]:
    return figures(records, sim.summarize(records, label))


def label(key: str) -> str:
    return get_set(key).label


@functools.cache
def _house() -> str:
    return content_key(set_document(HOUSE_DIR))


def key(doc: Any) -> str:
    k = content_key(doc)
    if k == _house():
        return "house"  # the bundled set sent as content: the same games as the bundled run
    try:
        get_set(k)
    except CardSetError as exc:
        raise ValueError(str(exc)) from None
    return k


HOOKS = BalanceHooks(kind="card_sets", bundled="house", players=(2, 5, 4), ais=("random", "heuristic"),
                     default_ai="heuristic", content_key=key, label=label, tasks=tasks, play=sim.play_one,
                     summarize=summarize)
