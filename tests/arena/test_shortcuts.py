"""The shortcuts the server's hot path takes through Cosmic Arena's rules (issue 26) agree with the plain
definitions they stand for: the first-open-teleport test with the full list, the face's name table with its
parser, the copied state with a state that shares nothing mutable."""

from __future__ import annotations

import random

import pytest

from spacetable.games.arena import GAME
from spacetable.games.arena.board import FACES, get_face
from spacetable.games.arena.teleports import PERMUTATIONS, ROTATIONS, TELEPORTS, any_available, available

pytestmark = pytest.mark.hotpath


@pytest.mark.parametrize("names", [TELEPORTS, PERMUTATIONS, ROTATIONS])
def test_any_available_says_whether_the_list_is_empty(names: tuple[str, ...]) -> None:
    rng = random.Random(5)
    seen = set()
    for _ in range(3000):
        banished = rng.choice([24, 25])
        own = [banished if rng.random() < 0.7 else rng.randrange(banished) for _ in range(8)]  # many banished
        listed = bool(available(own, banished, names))
        assert any_available(own, banished, names) == listed, own
        seen.add(listed)
    assert seen == {True, False}, "positions with and without a teleport"


@pytest.mark.parametrize("face", sorted(FACES))
def test_every_cell_name_reads_back_and_others_are_parsed_as_before(face: str) -> None:
    f = get_face(face)
    assert [f.parse_cell(name) for name in f.names] == list(range(f.size))
    assert [f.cell_name(c) for c in range(f.size)] == list(f.names)
    assert f.parse_cell(" " + f.names[1].upper() + " ") == 1  # not in the table: the general parser
    assert [f.parse_cell(x) for x in ("", "a", "a0", "z9", "1a")] == [-1] * 5


def test_a_clone_equals_its_state_and_shares_nothing_mutable() -> None:
    rng = random.Random(2)
    for config in ({}, {"setup": "free"}):
        state = GAME.initial_state(config, 4)
        for _ in range(60):
            if GAME.outcome(state) is not None:
                break
            clone = GAME.clone(state)
            assert clone == state and type(clone) is type(state)
            assert clone.loc is not state.loc and all(a is not b for a, b in zip(clone.loc, state.loc, strict=True))
            assert clone.rng is not state.rng
            assert state.sealed is None or clone.sealed is not state.sealed
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
