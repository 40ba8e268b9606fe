"""Sequence-form linear programme of a two-player zero-sum game, solved with SciPy's HiGHS.

OpenSpiel's own ``sequence_form_lp`` needs CVXPY; this builds the same programme from OpenSpiel's
``sequence_form_utils`` (realization plans ``x``, ``y`` with ``E x = e``, ``F y = f``) and solves

    max_{x >= 0, q}  f·q   subject to   E x = e,   Fᵀ q <= Aᵀ x

for player 0 (and the mirror programme for player 1), where ``A`` is player 0's sequence-form
payoff matrix (von Stengel 1996). Any sequential zero-sum OpenSpiel game with explicit chance works;
for spacetable games use the ``_turns`` variants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from open_spiel.python.algorithms import sequence_form_utils as sfu
from scipy.optimize import linprog


@dataclass
class Solution:
    """Game values of both players and their optimal realization plans (sequence-form strategies)."""

    value: tuple[float, float]
    plans: tuple[np.ndarray, np.ndarray]
    infosets: tuple[int, int]
    sequences: tuple[int, int]


def _maxmin(a: np.ndarray, e: np.ndarray, e_rhs: np.ndarray, f: np.ndarray, f_rhs: np.ndarray) -> tuple[float, np.ndarray]:
    """max over x of min over y of xᵀ a y, x in {E x = e, x >= 0}, y in {F y = f, y >= 0}."""
    n, m = a.shape[0], f.shape[0]
    cost = np.concatenate([np.zeros(n), -f_rhs])
    a_eq = np.hstack([e, np.zeros((e.shape[0], m))])
    a_ub = np.hstack([-a.T, f.T])
    bounds = [(0, None)] * n + [(None, None)] * m
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(a.shape[1]), A_eq=a_eq, b_eq=e_rhs, bounds=bounds, method="highs")
    if not res.success:
        raise RuntimeError(f"sequence-form LP failed: {res.message}")
    return float(-res.fun), res.x[:n]


def solve_zero_sum(game: Any) -> Solution:
    """Both players' equilibrium values and realization plans."""
    infosets, isa_to_seq, isa_maps, parents, payoff, _ = sfu.construct_vars(game)
    cons = sfu.construct_constraint_vars(parents, isa_to_seq, isa_maps)
    (e, e_rhs), (f, f_rhs) = cons[0], cons[1]
    v0, x = _maxmin(payoff[0], e, e_rhs, f, f_rhs)
    v1, y = _maxmin(payoff[1].T, f, f_rhs, e, e_rhs)
    return Solution((v0, v1), (x, y), (len(infosets[0]), len(infosets[1])), (len(isa_to_seq[0]), len(isa_to_seq[1])))
