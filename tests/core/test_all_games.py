"""Protocol properties that every registered game must keep (core contract):

* random legal play never raises, and every seat's view is plain JSON;
* a state survives a JSON round trip unchanged;
* replaying seed + action log gives the same state, bit for bit;
* a malformed action and an action by a seat not to act are rejected with a
  rule id and leave the state unchanged;
* no view ever contains the RNG state;
* a game that splits its views (``public_view``, ``own_view``) has every viewer's view equal to the public fields
  with its own, the two with no key in common, and no public field differing between viewers.
"""

from __future__ import annotations

import gc
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacetable.core import Match, Rng, RuleError, state_fingerprint
from spacetable.games import REGISTRY, UnknownGame, get_game

MAX_ACTIONS = 250


def _games() -> list[str]:
    out = []
    for gid in REGISTRY:
        try:
            get_game(gid)
        except UnknownGame:
            continue
        out.append(gid)
    return out


GAMES = _games()


def _configs(game: Any) -> list[dict[str, Any]]:
    if game.min_players == game.max_players:
        return [{}]
    return [{"players": n} for n in range(game.min_players, game.max_players + 1)]


def _rng_states(state: Any) -> list[int]:
    rng = getattr(state, "rng", None)
    return [rng.state] if isinstance(rng, Rng) else []


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_play_round_trip_and_replay(game_id: str, seed: int, data: st.DataObject) -> None:
    game = get_game(game_id)
    config = data.draw(st.sampled_from(_configs(game)))
    match = Match.new(game, config, seed)
    state = match.initial_state()
    rng = Rng.from_seed(seed)
    for step in range(MAX_ACTIONS):
        seats = game.to_act(state)
        if not seats:
            assert game.outcome(state) is not None
            break
        assert game.outcome(state) is None
        seat = seats[rng.randbelow(len(seats))]
        legal = game.legal_actions(state, seat)
        assert legal, f"{game_id}: seat {seat} must act but has no legal action"
        if step % 25 == 0:
            _check_views_and_round_trip(game, state)
            _check_rejections(game, state, seat)
        state = match.play(state, seat, legal[rng.randbelow(len(legal))])
    _check_views_and_round_trip(game, state)
    replayed = match.replay()
    assert state_fingerprint(game, replayed) == state_fingerprint(game, state)
    back = Match.from_json(json.loads(json.dumps(match.to_json())), get_game)
    assert state_fingerprint(game, back.replay()) == state_fingerprint(game, state)


@pytest.mark.hotpath
@pytest.mark.parametrize("game_id", GAMES)
def test_legal_lists_views_and_moves_leave_nothing_to_the_collector(game_id: str) -> None:
    """The server holds the garbage collector back under load (docs/architecture.md, "Where the time goes"): what a
    call leaves in a reference cycle (a closure that calls itself, an exception kept with its frame) stays until a
    full pass. Over random play, after a first match that fills the game's caches, a legal list, every view and a
    move leave nothing for the collector."""
    game = get_game(game_id)
    rng = Rng.from_seed(5)
    for match in range(2):
        state = game.initial_state(game.normalize_config({}), 100 + match)
        for step in range(40):
            seats = game.to_act(state)
            if not seats:
                break
            seat = seats[0]
            gc.collect(0)  # what the calls below leave is young: a young pass finds it
            gc.disable()
            try:
                legal = game.legal_actions(state, seat)
                for viewer in [None, *range(game.seats(state))]:
                    game.view(state, viewer)
                calm = [a for a in legal if a.get("type") != "resign"] or legal
                after = game.apply(state, seat, calm[rng.randbelow(len(calm))])
                left = gc.collect(0)
            finally:
                gc.enable()
            assert match == 0 or left == 0, f"{game_id}: step {step} left {left} objects in reference cycles"
            state = after


def _check_views_and_round_trip(game: Any, state: Any) -> None:
    data = game.state_to_json(state)
    again = game.state_from_json(json.loads(json.dumps(data)))
    assert state_fingerprint(game, again) == state_fingerprint(game, state)
    secrets = [str(s) for s in _rng_states(state)]
    public = game.public_view(state)
    for seat in [None, *range(game.seats(state))]:
        view = game.view(state, seat)
        text = json.dumps(view)
        for secret in secrets:
            assert secret not in text, "a view leaks the RNG state"
        if public is not None:
            own = game.own_view(state, seat)
            assert not set(public) & set(own), "a field both public and the viewer's own"
            assert view == {**public, **own}, "a view is not its public fields with the viewer's own"


def _check_rejections(game: Any, state: Any, seat: int) -> None:
    before = state_fingerprint(game, state)
    for bad in ({"type": "no-such-action"}, {}):
        with pytest.raises(RuleError) as err:
            game.apply(state, seat, bad)
        assert err.value.rule
    others = [p for p in range(game.seats(state)) if p not in game.to_act(state)]
    if others:
        legal = game.legal_actions(state, seat)
        with pytest.raises(RuleError):
            game.apply(state, others[0], legal[0])
    assert state_fingerprint(game, state) == before
