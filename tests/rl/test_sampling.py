"""The compiled masked samplers: ``rl.masked_sample`` on any mask and the batch API's ``sample_actions``
(uniform or from a policy's logits over the legal tokens)."""

from __future__ import annotations

import numpy as np
import pytest

from spacetable.rl import arena_vector, masked_sample

pytestmark = pytest.mark.hardening


def _mask(rows: int, cols: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    mask = (rng.random((rows, cols)) < 0.02).astype(np.int8)
    mask[np.arange(rows), rng.integers(0, cols, rows)] = 1  # at least one allowed per row
    return mask


def test_masked_sample_picks_allowed_entries_uniformly() -> None:
    mask = _mask(300, 2410, 0)
    for m in (mask, mask.astype(bool), mask.astype(np.int32), np.asfortranarray(mask)):
        out = masked_sample(m, rng=np.random.default_rng(1))
        assert out.dtype == np.int64 and out.shape == (300,)
        assert mask[np.arange(300), out].all()
    row = np.zeros(2410, dtype=np.int8)
    row[[3, 700, 701, 2409]] = 1
    draws = np.array([masked_sample(row, rng=rng) for rng in [np.random.default_rng(7)] for _ in range(4000)])
    counts = np.bincount(draws, minlength=2410)[[3, 700, 701, 2409]]
    assert counts.sum() == 4000 and counts.min() > 850  # 1000 expected each
    again = masked_sample(mask, rng=np.random.default_rng(1))
    assert np.array_equal(again, masked_sample(mask, rng=np.random.default_rng(1)))  # seeded: reproducible


def test_masked_sample_from_logits_follows_the_masked_softmax() -> None:
    row = np.zeros(50, dtype=np.int8)
    row[[4, 9, 30]] = 1
    logits = np.zeros(50, dtype=np.float32)
    logits[[4, 9, 30]] = [0.0, np.log(3.0), 0.0]
    logits[5] = 100.0  # not allowed: never drawn, however large
    logits[6] = np.inf
    rng = np.random.default_rng(3)
    batch = np.repeat(row[None, :], 5000, axis=0)
    out = masked_sample(batch, np.repeat(logits[None, :], 5000, axis=0), rng=rng)
    freq = np.bincount(out, minlength=50)[[4, 9, 30]] / 5000
    assert freq == pytest.approx([0.2, 0.6, 0.2], abs=0.03)
    assert masked_sample(row, logits, rng=rng) in (4, 9, 30)


def test_masked_sample_refuses_bad_input() -> None:
    mask = _mask(4, 20, 2)
    mask[2] = 0
    with pytest.raises(ValueError, match="row 2"):
        masked_sample(mask)
    with pytest.raises(ValueError, match="shape"):
        masked_sample(_mask(4, 20, 2), np.zeros((4, 19)))
    with pytest.raises(ValueError, match="0/1"):
        masked_sample(np.zeros((2, 3)))
    bad = np.zeros((1, 20))
    bad[0, :] = np.nan
    with pytest.raises(ValueError, match="finite"):
        masked_sample(_mask(1, 20, 5), bad)


def test_batch_sample_actions_from_logits() -> None:
    vec = arena_vector(64, seed=2)
    vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        logits = rng.standard_normal((64, vec.n_actions)).astype(np.float32)
        favourite = np.array([vec.legal_tokens(i)[-1] for i in range(64)])
        logits[np.arange(64), favourite] = 60.0
        logits[vec.mask == 0] = 1e9  # masked entries are never read
        actions = vec.sample_actions(logits)
        assert np.array_equal(actions, favourite)
        vec.step(vec.sample_actions(rng.standard_normal((64, vec.n_actions))))  # float64 logits too
    with pytest.raises(ValueError, match="shape"):
        vec.sample_actions(np.zeros((63, vec.n_actions)))
    with pytest.raises(ValueError, match="temperature"):
        vec.sample_actions(np.zeros((64, vec.n_actions)), temperature=0.0)


def test_batch_sample_actions_temperature_and_finished_games() -> None:
    vec = arena_vector(200, seed=3, auto_reset=False)
    vec.reset()
    logits = np.zeros((200, vec.n_actions))
    first = np.array([vec.legal_tokens(i)[0] for i in range(200)])
    logits[np.arange(200), first] = 2.0
    hot = (vec.sample_actions(logits, temperature=100.0) == first).mean()
    cold = (vec.sample_actions(logits, temperature=0.05) == first).mean()
    assert cold == 1.0 and hot < 0.5
    done = np.zeros(200, dtype=bool)
    while not done.all():
        _, _, _, terminated = vec.step(vec.sample_actions(logits))
        done |= terminated
    assert (vec.sample_actions(logits) == 0).all()  # every game waits for reset()
