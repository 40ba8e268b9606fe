"""Arena's hard level in the endgame (issue 13): with at most two ships a side it plays from the retrograde
solver's tables (AR-11) and keeps the solved value of the position: a win stays a win, an undecided
position never becomes a loss, a loss resists. `bench/arena_endgame.py` measures 1,000 positions."""

from __future__ import annotations

import numpy as np
import pytest

from spacetable.core.rng import Rng
from spacetable.games.arena import GAME, fast, tables
from spacetable.games.arena.ai import EndgameAgent
from spacetable.games.arena.board import get_face
from spacetable.games.arena.solver import LOSS, WIN, solve
from spacetable.games.arena.tables import kept, sample_positions


def test_probe_agrees_with_the_reference_solver() -> None:
    ref = solve("6x4", 2, 1)
    tb = tables.load("6x4", 2, 1)
    assert tb is not None
    n = get_face("6x4").size
    rng = Rng.from_seed(4)
    keys = list(ref.index)
    for _ in range(300):
        key = keys[rng.randbelow(len(keys))]
        st = np.zeros(24, dtype=np.int64)
        st[0:16] = key[:16]
        st[16] = key[16]
        status, plies = tables.probe(tb, st)
        assert (("undecided", "win", "loss")[status], plies) == ref.probe_loc((key[:8], key[8:16]), key[16])
        assert tables.counts(st, n)[0] <= 2


@pytest.mark.rule("AR-11.1", "AR-A22")
@pytest.mark.parametrize("board", ["6x4", "5x5"])
def test_hard_level_keeps_the_solved_value_two_against_one(board: str) -> None:
    agent = EndgameAgent(1, seconds=1e9, node_limit=20_000)
    states = sample_positions(GAME, board, 60, Rng.from_seed(board), red=2, blue=1) + \
        sample_positions(GAME, board, 60, Rng.from_seed(board + "b"), red=1, blue=2)
    results = [kept(GAME, s, agent.choose(GAME, s, s.seat_of(s.to_move))) for s in states]
    assert all(results), f"{results.count(False)} of {len(results)} moves lost the solved value"


def test_a_won_position_is_converted_quickly() -> None:
    agent = EndgameAgent(1, seconds=1e9, node_limit=20_000)
    for s in sample_positions(GAME, "6x4", 40, Rng.from_seed(9), red=2, blue=1):
        tb = tables.load("6x4", 2, 1)
        status, plies = tables.probe(tb, fast.to_array(s))
        if status != WIN or plies >= fast.QUIET_LIMIT:
            continue
        a = agent.choose(GAME, s, s.seat_of(s.to_move))
        child = GAME.apply(s, s.seat_of(s.to_move), a)
        if child.phase == "over":
            continue
        c_status, c_plies = tables.probe(tb, fast.to_array(child))
        assert c_status == LOSS and c_plies == plies - 1  # the table's fastest line


@pytest.mark.slow
def test_hard_level_keeps_the_solved_value_two_a_side() -> None:
    """Builds the (2, 2) table into the cache folder the first time (about a minute, 1.5 GB)."""
    tables.ensure("6x4", 2, 2)
    agent = EndgameAgent(1, seconds=1e9, node_limit=20_000)
    states = sample_positions(GAME, "6x4", 100, Rng.from_seed(22), red=2, blue=2)
    results = [kept(GAME, s, agent.choose(GAME, s, s.seat_of(s.to_move))) for s in states]
    assert sum(results) >= 0.99 * len(results)
