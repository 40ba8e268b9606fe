"""Elo by maximum likelihood (spacetable.ai.ratings): places from outcomes, the fit recovers known
ratings, a perfect record stays finite, anchors and bootstrap intervals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.ai.ratings import block_matrices, expected_score, fit, places, rate


def test_places_rank_winners_then_scores_and_share_equal_results() -> None:
    assert places([3.0, 5.0], [1]) == [1, 0]
    assert places([10.0, 40.0, 40.0, 5.0], [1, 2]) == [2, 0, 0, 3]  # a shared win, then by score
    assert places([1.0, 9.0, 4.0], [0]) == [0, 1, 2]  # the winner first even with a lower score
    assert places([0.5, 0.5], []) == [0, 0]  # a draw


def _records(true: dict[str, float], per_pair: int) -> list[dict]:
    """Pairwise games whose win fractions are exactly the model's expectations (one block per game)."""
    recs, idx = [], 0
    for a, b in itertools.combinations(true, 2):
        wins = round(per_pair * expected_score(true[a], true[b]))
        for g in range(per_pair):
            first = g < wins
            recs.append({"index": idx, "block": idx, "seats": [a, b], "places": [0, 1] if first else [1, 0]})
            idx += 1
    return recs


def test_fit_recovers_the_ratings_behind_the_results() -> None:
    true = {"a": 0.0, "b": 200.0, "c": 400.0}
    got = {r.name: r.rating for r in rate(_records(true, 2000), list(true), anchor=("a", 0.0), bootstrap=0, prior=0.0)}
    assert got["b"] == pytest.approx(200, abs=3) and got["c"] == pytest.approx(400, abs=3)


def test_a_perfect_record_is_finite_and_mean_anchor_is_1500() -> None:
    recs = [{"index": i, "block": i, "seats": ["x", "y"], "places": [0, 1]} for i in range(50)]
    out = {r.name: r for r in rate(recs, ["x", "y"], bootstrap=50)}
    assert out["x"].rating > out["y"].rating and out["x"].rating - out["y"].rating < 2000
    assert (out["x"].rating + out["y"].rating) / 2 == pytest.approx(1500)
    assert out["x"].score == 1.0 and out["x"].games == 50


def test_intervals_contain_the_rating_and_the_anchor_is_a_point() -> None:
    rng = np.random.default_rng(3)
    recs = []
    for i in range(300):
        a_wins = rng.random() < expected_score(100, 0)
        recs.append({"index": i, "block": i // 2, "seats": ["a", "b"], "places": [0, 1] if a_wins else [1, 0]})
    out = {r.name: r for r in rate(recs, ["a", "b"], anchor=("b", 1000.0), bootstrap=100)}
    assert out["b"].rating == out["b"].low == out["b"].high == 1000.0
    assert out["a"].low < out["a"].rating < out["a"].high
    assert out["a"].low < 1100 < out["a"].high  # the truth lies inside the 95% interval here


def test_multi_seat_games_count_every_pair_and_skip_same_agent_pairs() -> None:
    rec = {"index": 0, "block": 0, "seats": ["h", "r", "r", "r"], "places": [0, 2, 1, 2]}
    w, _ = block_matrices([rec], ["h", "r"])
    assert w[0].tolist() == [[0.0, 3.0], [0.0, 0.0]]  # h beat each r; the r-r pairs are not compared


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from([0, 0.5, 1])), min_size=1, max_size=30))
def test_fit_is_a_stationary_point_and_centred(games: list[tuple[int, int, float]]) -> None:
    """Property: the fitted ratings have mean 0 and zero gradient of the penalised likelihood."""
    w = np.zeros((3, 3))
    for a, b, s in games:
        if a != b:
            w[a, b] += s
            w[b, a] += 1 - s
    r = fit(w, prior=1.0)
    assert abs(r.mean()) < 1e-6
    met = (w + w.T) > 0
    wp = w + np.where(met, 0.5, 0.0)
    x = r / (400 / np.log(10))
    sig = 1 / (1 + np.exp(-(x[:, None] - x[None, :])))
    grad = (wp * (1 - sig) - wp.T * sig).sum(axis=1)
    assert np.all(np.abs(grad) < 1e-3 * (1 + wp.sum()))
