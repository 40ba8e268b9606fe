"""Elo ratings by maximum likelihood, with bootstrap confidence intervals.

Every finished game is read as *pairwise* results between the agents at its table: the seat placed
higher (see :func:`places`) beats the one placed lower, equal places are a draw, and two seats of
the same agent are not compared. That reads 2-player games as they are and multi-seat games
(a 4-player Tremble game, a 3-player Full Metal game, team games) by their ranking.

The model is Bradley–Terry on the Elo scale: the expected score of ``a`` against ``b`` is
``1 / (1 + 10 ** ((R_b - R_a) / 400))``. The ratings maximise the likelihood of all pairwise
results (draws count half a win each way) plus ``prior`` virtual draws between every two agents
that met, which keeps a perfect record finite (an agent that won every game gets a high rating,
not an infinite one). Ratings are relative: they are shifted so that the ``anchor`` agent has the
anchor rating, or so that their mean is 1500.

Confidence intervals come from a bootstrap over *blocks* of games (a block is the set of games
that share one seed with the seats rotated), so the pairing of seeds and the dependence between
the pairs of one multi-seat game are kept; the interval of each agent is the 2.5–97.5 percentile
range of its rating over the resamples (for the anchor agent it is a single point by definition).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Elo points per natural unit of log-odds.
SCALE = 400.0 / math.log(10.0)


def places(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Place of every seat, 0 = best, equal places for equal results: winners first, then by score.
    A game without winners is a draw between everybody."""
    n = len(scores)
    if not winners:
        return [0] * n
    key = [(1 if i in winners else 0, float(scores[i])) for i in range(n)]
    return [sum(1 for j in range(n) if key[j] > key[i]) for i in range(n)]


@dataclass(frozen=True)
class Rating:
    name: str
    rating: float
    low: float
    high: float
    #: games this agent sat in
    games: int
    #: its mean pairwise score against other agents (wins + half draws) / comparisons
    score: float


def block_matrices(records: Sequence[dict[str, Any]], names: Sequence[str]) -> tuple[np.ndarray, list[Any]]:
    """Per block, ``W[a, b]``: points of agent ``a`` against agent ``b`` (wins, half draws).
    Returns the ``(blocks, k, k)`` array and the block keys in order."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    blocks: dict[Any, np.ndarray] = {}
    for rec in records:
        w = blocks.setdefault(rec.get("block", rec.get("index")), np.zeros((k, k)))
        seats, pl = rec["seats"], rec["places"]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = index[seats[i]], index[seats[j]]
                if a == b:
                    continue
                if pl[i] < pl[j]:
                    w[a, b] += 1.0
                elif pl[i] > pl[j]:
                    w[b, a] += 1.0
                else:
                    w[a, b] += 0.5
                    w[b, a] += 0.5
    keys = list(blocks)
    arr = np.stack([blocks[key] for key in keys]) if keys else np.zeros((0, k, k))
    return arr, keys


def fit(w: np.ndarray, prior: float = 1.0) -> np.ndarray:
    """Maximum-likelihood ratings (Elo points, mean 0) from the points matrix ``w`` (``k x k``).

    The negative log-likelihood is convex (logistic in the rating differences), so Newton's method with
    a backtracking line search finds its minimum in a few steps; agent 0 is held at 0 (ratings are relative)."""
    k = w.shape[0]
    if k == 1:
        return np.zeros(1)
    met = (w + w.T) > 0
    wp = w + np.where(met, prior / 2.0, 0.0)
    n = wp + wp.T  # comparisons between each two agents
    ridge = 1e-6  # pins agents that never met anybody (and the common shift) without moving the others

    def nll(x: np.ndarray) -> float:
        r = np.concatenate(([0.0], x))
        d = r[:, None] - r[None, :]
        return -float(np.sum(wp * -np.logaddexp(0.0, -d))) + ridge * float(x @ x)  # log sigma(d), stably

    x = np.zeros(k - 1)
    value = nll(x)
    for _ in range(100):
        r = np.concatenate(([0.0], x))
        sig = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
        grad = -np.sum(wp * (1.0 - sig) - wp.T * sig, axis=1)[1:] + 2 * ridge * x
        c = n * sig * (1.0 - sig)  # curvature of each pair
        hess = (np.diag(c.sum(axis=1)) - c)[1:, 1:] + 2 * ridge * np.eye(k - 1)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-9:
            trial = x - t * step
            trial_value = nll(trial)
            if trial_value <= value:
                break
            t /= 2
        x, value = trial, trial_value
        if float(np.max(np.abs(t * step))) < 1e-10:
            break
    r = np.concatenate(([0.0], x)) * SCALE
    return r - r.mean()  # type: ignore[no-any-return]


def _shift(r: np.ndarray, names: Sequence[str], anchor: tuple[str, float] | None) -> np.ndarray:
    if anchor is None:
        return r - r.mean() + 1500.0
    return r - r[list(names).index(anchor[0])] + anchor[1]


def rate(
    records: Sequence[dict[str, Any]],
    names: Sequence[str],
    *,
    anchor: tuple[str, float] | None = None,
    prior: float = 1.0,
    bootstrap: int = 200,
    seed: int = 0,
) -> list[Rating]:
    """Ratings of ``names`` from game records (``seats``: agent name per seat, ``places``, ``block``),
    best first. ``anchor`` = (name, rating) fixes one agent's rating; otherwise the mean is 1500."""
    names = list(names)
    if anchor is not None and anchor[0] not in names:
        raise ValueError(f"anchor {anchor[0]!r} is not one of the agents ({', '.join(names)})")
    blocks, _ = block_matrices(records, names)
    total = blocks.sum(axis=0) if len(blocks) else np.zeros((len(names), len(names)))
    best = _shift(fit(total, prior), names, anchor)
    low, high = best.copy(), best.copy()
    if bootstrap > 0 and len(blocks) > 1:
        rng = np.random.default_rng(seed)
        samples = np.empty((bootstrap, len(names)))
        for b in range(bootstrap):
            counts = rng.multinomial(len(blocks), np.full(len(blocks), 1.0 / len(blocks)))
            samples[b] = _shift(fit(np.tensordot(counts, blocks, axes=1), prior), names, anchor)
        low, high = np.percentile(samples, 2.5, axis=0), np.percentile(samples, 97.5, axis=0)
    games = {n: 0 for n in names}
    for rec in records:
        for n in set(rec["seats"]):
            games[n] += 1
    comparisons = total + total.T
    out = []
    for i, n in enumerate(names):
        pts, cmp_ = float(total[i].sum()), float(comparisons[i].sum())
        out.append(Rating(n, float(best[i]), float(min(low[i], best[i])), float(max(high[i], best[i])), games[n],
                          pts / cmp_ if cmp_ else 0.0))
    return sorted(out, key=lambda r: -r.rating)


def expected_score(ra: float, rb: float) -> float:
    """The Elo model's expected score of a player rated ``ra`` against one rated ``rb``."""
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
