"""The encodings: every offered token series completes to a legal action the engine accepts, the
decision block identifies the prefix, observations are fixed-size, in [0, 1] and made from views."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.core.rng import Rng
from spacetable.games import get_game
from spacetable.rl.decision import Decision, EncodingError, Progress
from spacetable.rl.encoders import make_encoder
from spacetable.rl.session import Session

GAMES = [
    ("arena", {}, 6, None),
    ("arena", {"setup": "free", "placement": "simultaneous", "board": "5x5"}, 4, None),
    ("arena", {"setup": "free"}, 3, None),
    ("worlds", {"scenario": "grand-melee"}, 6, None),
    ("worlds", {"scenario": "border-worlds"}, 6, None),
    ("worlds", {"scenario": "native-uprising"}, 6, None),
    ("tremble", {"players": 2}, 2, None),
    pytest.param("tremble", {"players": 5}, 1, None, marks=pytest.mark.slow),
    ("fullmetal", {}, 1, 250),
    ("fullmetal", {"players": 3, "map": "generated", "map_size": "small"}, 1, 150),
    ("galaxies", {}, 2, None),
    ("galaxies", {"mission": "m1-first-contact"}, 1, None),
    ("galaxies", {"players": 3}, 1, 200),
    ("galaxies", {"players": 4}, 1, 200),
    ("galaxies", {"mission": "x-mirror-duel"}, 1, 200),
]


def _walk(game_id: str, cfg: dict[str, object], games: int, max_actions: int | None) -> tuple[int, set[str]]:
    game = get_game(game_id)
    enc = make_encoder(game_id, cfg)
    rng = np.random.default_rng(7)
    played = 0
    kinds: set[str] = set()
    for seed in range(games):
        s = Session(game, enc, game.initial_state(game.normalize_config(cfg), seed))
        while not s.over() and (max_actions is None or s.actions < max_actions):
            seat = s.deciding()[0]
            prog = s.progress_of(seat)
            if not prog.prefix:
                seen: dict[frozenset[int], tuple[int, ...]] = {}
                for action, seq in zip(prog.decision.actions, prog.decision.sequences, strict=True):
                    assert len(set(seq)) == len(seq), f"a token repeats in {seq} ({action})"
                    assert len(seq) <= enc.max_depth
                    for k in range(1, len(seq) + 1):  # the set of chosen tokens names the prefix
                        key = frozenset(seq[:k])
                        assert seen.setdefault(key, seq[:k]) == seq[:k]
            obs = s.observation(seat)
            assert obs.shape == (enc.obs_size,) and obs.dtype == np.float32
            assert np.all((obs >= 0) & (obs <= 1))
            choices = prog.choices()
            assert choices and 0 not in choices
            action = s.push(seat, int(rng.choice(choices)))  # the engine validates the completed action
            if action is not None:
                played += 1
                kinds.add(action["type"])
    return played, kinds


@pytest.mark.parametrize("game_id,cfg,games,max_actions", GAMES)
def test_every_series_completes_to_a_legal_action(game_id: str, cfg: dict[str, object], games: int,
                                                  max_actions: int | None) -> None:
    played, kinds = _walk(game_id, cfg, games, max_actions)
    assert played > 0 and kinds


def test_decision_rejects_ambiguous_encodings() -> None:
    a, b = {"type": "a"}, {"type": "b"}
    with pytest.raises(EncodingError):
        Decision([a, b], [(1, 2), (1, 2)])
    with pytest.raises(EncodingError):
        Decision([a, b], [(1,), (1, 2)])
    with pytest.raises(EncodingError):
        Decision([a], [(0,)])
    dec = Decision([a, b], [(1, 2), (1, 3)])
    prog = Progress(dec)
    assert prog.choices() == [1]
    assert prog.push(1) is None and prog.choices() == [2, 3]
    assert prog.push(3) == b


@pytest.mark.rule("AR-1.2", "AR-2.5")
def test_arena_observation_is_the_same_for_both_colours_at_the_start() -> None:
    """Each seat sees the board from its own side (turned by 180° for Blue); Blue's default layout is
    Red's reflected across the middle rank (AR-2.5), so Blue sees Red's start mirrored left-right."""
    game = get_game("arena")
    enc = make_encoder("arena")
    state = game.initial_state(game.normalize_config({"red_seat": 0}), 0)
    red, blue = (enc.split(enc.observe(game.view(state, s), s)) for s in (0, 1))
    w = 4  # the 6x4 face has 4 files
    assert np.array_equal(red["ships"][..., :w], blue["ships"][..., :w][..., ::-1])
    assert np.array_equal(red["cells"], blue["cells"]) and np.array_equal(red["off_board"], blue["off_board"])
    assert red["scalars"][1] == 1 and blue["scalars"][1] == 0


@pytest.mark.rule("TH-4.3", "TH-6.1")
def test_tremble_observation_ignores_what_the_seat_cannot_see() -> None:
    """Observations come from views only: resampling the other seats' hidden cards and the future
    draws (``determinize``) leaves seat 0's observation unchanged."""
    game = get_game("tremble")
    enc = make_encoder("tremble", {"players": 3})
    state = game.initial_state(game.normalize_config({"players": 3}), 11)
    rng = Rng(5)
    for _ in range(40):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, legal[rng.randbelow(len(legal))])
    other = game.determinize(state, 0, Rng(99))
    assert other.players[1].hand != state.players[1].hand or other.blue_deck != state.blue_deck
    assert np.array_equal(enc.observe(game.view(state, 0), 0), enc.observe(game.view(other, 0), 0))


def test_worlds_allocation_is_a_series_of_small_choices() -> None:
    """WS-4.2: an allocation is chosen piece by piece; every first choice offered can be completed."""
    game = get_game("worlds")
    enc = make_encoder("worlds", {"scenario": "grand-melee"})
    state = game.initial_state(game.normalize_config({"scenario": "grand-melee"}), 0)
    state = game.apply(state, 0, {"type": "declare_combat", "card": "G.w1"})
    s = Session(game, enc, state)
    seat = s.deciding()[0]
    prog = s.progress_of(seat)
    assert prog.decision.actions[0]["type"] == "allocate" and len(prog.decision) > 1
    assert {len(seq) for seq in prog.decision.sequences} == {8}  # one choice per allocated piece
    assert len(prog.choices()) <= 8  # the first piece: one of the 8 battles


@given(st.sets(st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)), min_size=1, max_size=30),
       st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_decision_walks_reach_exactly_the_encoded_actions(seqs: set[tuple[int, int, int]], rnd: Any) -> None:
    """Any walk through the masks ends on an encoded action, and each action has its own walk."""
    ordered = sorted(seqs)
    actions = [{"type": "x", "n": i} for i in range(len(ordered))]
    dec = Decision(actions, ordered)
    for action, seq in zip(actions, ordered, strict=True):
        prog = Progress(dec)
        for k, tok in enumerate(seq):
            assert tok in prog.choices()
            done = prog.push(tok)
            assert (done is None) == (k < len(seq) - 1)
        assert done == action
    prog = Progress(dec)
    while (done := prog.push(rnd.choice(prog.choices()))) is None:
        pass
    assert dec.lookup(prog.prefix) == done


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.lists(st.integers(1, 5), min_size=0, max_size=3))
@settings(max_examples=60, deadline=None)
def test_decision_refuses_a_series_that_extends_another(head: list[int], tail: list[int]) -> None:
    with pytest.raises(EncodingError):
        Decision([{"type": "a"}, {"type": "b"}], [tuple(head), tuple(head + tail)])
