"""A compiled masked sampler (numba): one allowed action per row of a mask, uniformly or from a
policy's logits (softmax restricted to the allowed actions).

    actions = masked_sample(mask)                     # uniform over each row's allowed actions
    actions = masked_sample(mask, logits, rng=rng)    # P(a) ∝ exp(logits[a]) over the allowed a

``mask`` is ``[N, A]`` (or ``[A]``) of 0/1 integers or booleans, e.g. the masks of the batch API or
the ``action_mask`` of the PettingZoo environments; ``logits`` the same shape, float32 or float64.
The random numbers are one uniform draw per row from ``rng`` (a ``numpy.random.Generator``, a seed,
or ``None`` for a generator of this module), so a seeded generator gives reproducible actions.

A row is read eight entries at a time and only the words that hold an allowed entry are scanned;
the dense mask of one arena game (2,410 bytes) costs some 0.5 µs of memory traffic; the batch API's own
:meth:`~spacetable.rl.arena_vector.ArenaVector.sample_actions` reads only its legal-token lists and
is faster still.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

_DEFAULT = np.random.default_rng()
_BLOCK = 64


@njit(cache=True)
def _allowed(row: np.ndarray, idx: np.ndarray) -> int:
    """Write the columns of the allowed (non-zero) bytes of ``row`` into ``idx``; returns their count.
    The row is read eight bytes at a time and only non-zero words are scanned byte by byte."""
    a = row.shape[0]
    full = (a // 8) * 8
    words = row[:full].view(np.uint64)
    k = 0
    for b in range(words.shape[0]):
        if words[b]:
            for j in range(b * 8, b * 8 + 8):
                if row[j]:
                    idx[k] = j
                    k += 1
    for j in range(full, a):
        if row[j]:
            idx[k] = j
            k += 1
    return k


@njit(cache=True)
def _uniform(mask: np.ndarray, u: np.ndarray, out: np.ndarray) -> int:
    """Fill ``out``; returns −1, or the first row with nothing allowed."""
    idx = np.empty(mask.shape[1], dtype=np.int64)
    for i in range(mask.shape[0]):
        k = _allowed(mask[i], idx)
        if k == 0:
            return i
        out[i] = idx[min(int(u[i] * k), k - 1)]
    return -1


@njit(cache=True)
def _softmax(mask: np.ndarray, logits: np.ndarray, u: np.ndarray, out: np.ndarray) -> int:
    """Fill ``out`` by inverse transform over exp(logit − max) of the allowed entries; returns −1, or the
    first row with nothing allowed (or a non-finite allowed logit)."""
    idx = np.empty(mask.shape[1], dtype=np.int64)
    w = np.empty(mask.shape[1], dtype=np.float64)
    for i in range(mask.shape[0]):
        k = _allowed(mask[i], idx)
        if k == 0:
            return i
        top = -np.inf
        for a in range(k):
            v = logits[i, idx[a]]
            if not np.isfinite(v):
                return i
            top = max(top, v)
        total = 0.0
        for a in range(k):
            w[a] = np.exp(logits[i, idx[a]] - top)
            total += w[a]
        target = u[i] * total
        acc = 0.0
        out[i] = idx[k - 1]
        for a in range(k):
            acc += w[a]
            if acc > target:
                out[i] = idx[a]
                break
    return -1


def _generator(rng: Any) -> np.random.Generator:
    if rng is None:
        return _DEFAULT
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


def masked_sample(mask: Any, logits: Any = None, rng: Any = None) -> Any:
    """One allowed action per row of ``mask`` (see the module docstring): an int64 array ``[N]``, or an
    ``int`` for a 1-D mask. Raises ``ValueError`` for a row that allows nothing."""
    m = np.asarray(mask)
    single = m.ndim == 1
    if single:
        m = m[None, :]
    if m.ndim != 2:
        raise ValueError("mask is [N, A] or [A]")
    if m.dtype == np.bool_ or m.dtype == np.int8:
        m = m.view(np.uint8)
    elif np.issubdtype(m.dtype, np.integer):
        m = (m != 0).view(np.uint8)
    else:
        raise ValueError("mask holds 0/1 integers or booleans")
    m = np.ascontiguousarray(m)
    u = _generator(rng).random(m.shape[0])
    out = np.empty(m.shape[0], dtype=np.int64)
    if logits is None:
        bad = _uniform(m, u, out)
    else:
        lg = np.asarray(logits)
        if single:
            lg = lg[None, :]
        if lg.shape != m.shape:
            raise ValueError(f"logits have shape {lg.shape[1:] if single else lg.shape}, the mask {mask.shape}")
        if lg.dtype not in (np.float32, np.float64):
            lg = lg.astype(np.float64)
        bad = _softmax(m, lg, u, out)
    if bad >= 0:
        raise ValueError(f"row {bad} of the mask allows no action" + ("" if logits is None else " with a finite logit"))
    return int(out[0]) if single else out
