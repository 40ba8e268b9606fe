"""The game protocol, matches and replays, sealed commits and the generic AI,
exercised on two small test games (tests/core/toygames.py)."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import spacetable.core
from spacetable.ai import MCTSAgent, RandomAgent, play_game
from spacetable.core import ConfigError, Match, NotYourTurn, RuleError, SealedCommits, SpacetableError, state_fingerprint
from spacetable.core.match import LogEntry
from spacetable.core.undo import UndoRefused, undo_point
from spacetable.games import available, register_game, unregister_game

from .toygames import Nim, SealedDuel

NIM, DUEL = Nim(), SealedDuel()


@pytest.fixture(scope="module", autouse=True)
def _toy_games_registered() -> Iterator[None]:
    """The toy games are in the registry only while this module runs."""
    register_game(NIM)
    register_game(DUEL)
    yield
    unregister_game(NIM.id)
    unregister_game(DUEL.id)


def test_config_defaults_and_errors() -> None:
    assert NIM.normalize_config(None) == {"pile": 10}
    assert NIM.normalize_config({"pile": 7}) == {"pile": 7}
    for bad in ({"pile": 0}, {"pile": "7"}, {"heap": 3}, {"players": 3}):
        with pytest.raises(ConfigError):
            NIM.normalize_config(bad)


def test_apply_is_pure_and_rejections_name_rules() -> None:
    s = NIM.initial_state({"pile": 5}, 0)
    before = state_fingerprint(NIM, s)
    with pytest.raises(RuleError) as err:
        NIM.apply(s, 0, {"type": "take", "n": 4})
    assert err.value.rule == "NIM-1"
    with pytest.raises(NotYourTurn):
        NIM.apply(s, 1, {"type": "take", "n": 1})
    with pytest.raises(RuleError) as err:
        NIM.apply(s, 0, {"type": "grab"})
    assert err.value.rule == "CORE-ACTION"
    NIM.apply(s, 0, {"type": "take", "n": 2})
    assert state_fingerprint(NIM, s) == before


def test_match_replay_and_file_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    m = Match.new(DUEL, {"rounds": 4}, seed=99)
    state = m.initial_state()
    agents = [RandomAgent(1), RandomAgent(2)]
    while DUEL.to_act(state):
        p = DUEL.to_act(state)[0]
        state = m.play(state, p, agents[p].choose(DUEL, state, p))
    path = tmp_path / "m.json"
    m.save(path)
    loaded = json.loads(path.read_text())
    assert loaded["format"] == "spacetable-match/1"
    back = Match.from_json(loaded, {"toy-duel": DUEL}.__getitem__)
    assert back.log == m.log and back.game_obj() is DUEL
    s2 = back.replay()
    assert state_fingerprint(DUEL, back.replay(upto=2)) != state_fingerprint(DUEL, s2)
    assert state_fingerprint(DUEL, s2) == state_fingerprint(DUEL, state)
    assert DUEL.outcome(s2) == DUEL.outcome(state)
    assert isinstance(back.log[0], LogEntry)
    assert "toy-duel" in available()


def test_match_takes_its_game_from_the_caller_never_from_the_registry(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Core does not import the game registry: a loaded match plays only once given its game."""
    m = Match.new(DUEL, {"rounds": 2}, seed=5)
    path = tmp_path / "m.json"
    m.save(path)
    bare = Match.load(path)
    with pytest.raises(SpacetableError, match="no game attached"):
        bare.replay()
    with pytest.raises(SpacetableError, match="not 'other'"):
        bare.attach(type("Other", (), {"id": "other"})())  # type: ignore[arg-type]
    assert bare.attach(DUEL).game_obj() is DUEL
    assert Match.load(path, lambda gid: DUEL).replay() == m.initial_state()
    core = Path(spacetable.core.__file__).parent
    for source in core.glob("*.py"):
        assert "spacetable.games" not in "\n".join(
            line for line in source.read_text().splitlines() if line.lstrip().startswith(("import", "from"))), source


def test_sealed_commits_hide_and_resolve() -> None:
    s = DUEL.initial_state(DUEL.normalize_config({}), 3)
    assert DUEL.to_act(s) == (0, 1)
    s = DUEL.apply(s, 1, {"type": "bid", "amount": 4})
    assert DUEL.to_act(s) == (0,)
    assert DUEL.view(s, 0)["commits"] == {"committed": {"0": False, "1": True}, "own": None}
    assert DUEL.view(s, 1)["commits"]["own"] == {"type": "bid", "amount": 4} or DUEL.view(s, 1)["commits"]["own"] == 4
    assert "4" not in json.dumps(DUEL.view(s, 0)["commits"])
    with pytest.raises(RuleError):
        DUEL.apply(s, 1, {"type": "bid", "amount": 1})
    s = DUEL.apply(s, 0, {"type": "bid", "amount": 2})
    assert s.points == [0, 1] and s.budgets == [3, 1] and DUEL.to_act(s) == (0, 1)
    box = SealedCommits.open([2, 0])
    box.submit(0, "a")
    with pytest.raises(RuntimeError):
        box.revealed()


def test_determinize_resamples_hidden_and_rng() -> None:
    from spacetable.core import Rng

    s = DUEL.initial_state(DUEL.normalize_config({}), 3)
    s = DUEL.apply(s, 1, {"type": "bid", "amount": 5})
    seen = {DUEL.determinize(s, 0, Rng.from_seed(i)).commits.commits[1] for i in range(40)}
    assert len(seen) > 1
    assert DUEL.determinize(s, 0, Rng.from_seed(1)).rng.state != s.rng.state


def test_mcts_plays_nim_perfectly_from_winning_positions() -> None:
    """Piles not divisible by 4 are wins: take pile mod 4."""
    agent = MCTSAgent(iterations=600, seed=1)
    for pile in (5, 6, 7, 9, 10):
        s = NIM.initial_state({"pile": pile}, 0)
        assert agent.choose(NIM, s, 0) == {"type": "take", "n": pile % 4}


def test_mcts_beats_random_in_sealed_duel() -> None:
    wins = 0
    for g in range(12):
        mcts_seat = g % 2
        agents = [RandomAgent(g), RandomAgent(g + 100)]
        agents[mcts_seat] = MCTSAgent(iterations=150, seed=g)  # type: ignore[call-overload]
        state, _ = play_game(DUEL, agents, {"rounds": 3, "budget": 5}, seed=g)
        out = DUEL.outcome(state)
        assert out is not None
        wins += mcts_seat in out.winners
    assert wins >= 7


def test_mcts_roots_on_the_asking_seat_in_a_sealed_phase() -> None:
    """Both seats must bid; seat 1 asks first. Bids above the rival's budget win outright."""
    s = DUEL.initial_state(DUEL.normalize_config({"rounds": 1, "budget": 3}), 5)
    s.budgets = [1, 3]  # seat 0's options differ, so a search rooted on seat 0 would answer 0 or 1
    assert DUEL.to_act(s) == (0, 1)
    choice = MCTSAgent(iterations=400, seed=2).choose(DUEL, s, 1)
    assert choice["amount"] >= 2  # any bid above seat 0's whole budget wins outright


def test_undoable_defaults_to_true_for_games_without_their_own_rule() -> None:
    """The core hook the server's undo asks: a game that declares nothing leaves the decision to the server."""
    s = NIM.initial_state({"pile": 5}, 0)
    assert NIM.undoable(s, 0, {"type": "take", "n": 1}) is True


def test_undo_point_asks_the_game_which_actions_may_be_taken_back() -> None:
    """core.undo: a game's ``undoable`` bars an action even when the RNG and the views say nothing."""
    class Guarded(Nim):
        def undoable(self, state, player, action):  # type: ignore[no-untyped-def]
            return action.get("n") != 2

    nim = Guarded()
    start = nim.initial_state({"pile": 9}, 0)
    assert undo_point(nim, start, [(0, {"type": "take", "n": 1})], 0) == 0
    with pytest.raises(UndoRefused):
        undo_point(nim, start, [(0, {"type": "take", "n": 2})], 0)
