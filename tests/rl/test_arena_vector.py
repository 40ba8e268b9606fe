"""The compiled batch API equals the reference engine: random batches are played token by token
in both and compared state by state, mask by mask and observation by observation."""

from __future__ import annotations

import numpy as np
import pytest

from spacetable.games import get_game
from spacetable.rl import arena_vector
from spacetable.rl.encoders import make_encoder
from spacetable.rl.session import Session


@pytest.mark.rule("AR-3.2", "AR-4.1", "AR-5.1", "AR-6.2", "AR-7.3", "AR-8.1", "AR-9.2", "AR-10.6")
@pytest.mark.parametrize("board", ["6x4", "5x5"])
def test_batch_equals_engine(board: str) -> None:
    game = get_game("arena")
    enc = make_encoder("arena", {"board": board})
    vec = arena_vector(12, seed=4, board=board)
    obs, mask = vec.reset()
    sessions = [Session(game, enc, vec.to_state(i)) for i in range(vec.n)]
    finished = 0
    for _ in range(300):
        for i, s in enumerate(sessions):
            seat = s.deciding()[0]
            assert seat == vec.current_player[i]
            assert np.array_equal(mask[i], s.mask(seat))
            assert np.array_equal(obs[i], s.observation(seat)[: enc.game_size])
            assert s.observation(seat)[enc.game_size] == 1.0  # the AEC decision block: deciding, no prefix
        actions = vec.sample_actions()
        expected = []
        for i, s in enumerate(sessions):
            seat = s.deciding()[0]
            s.push(seat, int(actions[i]))
            expected.append(game.returns(s.state) if s.over() else [0.0, 0.0])
        obs, mask, rewards, terminated = vec.step(actions)
        for i, s in enumerate(sessions):
            assert bool(terminated[i]) == s.over()
            assert list(rewards[i]) == pytest.approx(expected[i])
            if s.over():
                finished += 1
                sessions[i] = Session(game, enc, vec.to_state(i))  # auto-reset: a new game
            else:
                ref = vec.to_state(i)
                assert (ref.loc, ref.to_move, ref.quiet, ref.last_capturer, ref.plies) == (
                    s.state.loc, s.state.to_move, s.state.quiet, s.state.last_capturer, s.state.plies)
    assert finished > 24  # about 60 plies a game: every slot finished several games


def test_without_auto_reset_a_finished_game_waits() -> None:
    vec = arena_vector(8, seed=1, auto_reset=False)
    vec.reset()
    done = np.zeros(8, dtype=bool)
    for _ in range(2000):
        _, mask, _, term = vec.step(vec.sample_actions())
        done |= term
        if done.all():
            break
    assert done.all()
    assert np.all(mask[:, 0] == 1) and np.all(mask[:, 1:].sum(axis=1) == 0)
    with pytest.raises(ValueError):
        vec.step(np.ones(8, dtype=np.int64))
    vec.reset()
    assert not vec.terminated.any() and np.all(vec.mask[:, 0] == 0)


def test_illegal_tokens_are_refused_and_change_nothing() -> None:
    vec = arena_vector(4, seed=2)
    vec.reset()
    before = vec.states.copy()
    actions = vec.sample_actions()
    actions[2] = 0
    with pytest.raises(ValueError, match="game 2"):
        vec.step(actions)
    assert np.array_equal(before, vec.states)


def test_same_seed_same_games() -> None:
    a, b = arena_vector(16, seed=9), arena_vector(16, seed=9)
    a.reset()
    b.reset()
    for _ in range(50):
        a.step(a.sample_actions())
        b.step(b.sample_actions())
    assert np.array_equal(a.states, b.states) and np.array_equal(a.red_seat, b.red_seat)
