"""Property tests (hypothesis): random legal play, JSON round trip, replay, honest views (WS-8, IM-1, IM-2, WS-A19)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacetable.core.match import Match, state_fingerprint
from spacetable.core.rng import Rng
from spacetable.games.worlds import GAME
from spacetable.games.worlds.scenario import shipped_names

SCENARIOS = shipped_names()


def _random_play(scenario: str, seed: int, max_actions: int = 400) -> tuple[Match, list]:
    match = Match.new(GAME, {"scenario": scenario}, seed)
    state = match.initial_state()
    rng = Rng.from_seed(seed)
    states = [state]
    for _ in range(max_actions):
        seats = GAME.to_act(state)
        if not seats:
            break
        seat = seats[rng.randbelow(len(seats))]
        legal = GAME.legal_actions(state, seat)
        assert legal, "a seat to act always has a legal action"
        state = match.play(state, seat, rng.choice(legal))
        states.append(state)
    return match, states


@pytest.mark.rule("WS-8.3", "WS-6.1", "WS-A19")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000))
def test_ws_8_random_legal_play_terminates_and_round_trips(scenario: str, seed: int) -> None:
    """WS-8.3: random legal play ends; every state survives a JSON round trip; the log replays bit-exactly (WS-A19)."""
    match, states = _random_play(scenario, seed)
    final = states[-1]
    assert GAME.outcome(final) is not None
    for s in [*states[:: max(1, len(states) // 8)], final]:
        data = json.loads(json.dumps(GAME.state_to_json(s)))
        back = GAME.state_from_json(data)
        assert state_fingerprint(GAME, back) == state_fingerprint(GAME, s)
        assert GAME.legal_actions(back, (GAME.to_act(back) or (0,))[0]) == GAME.legal_actions(s, (GAME.to_act(s) or (0,))[0])
    saved = Match.from_json(json.loads(json.dumps(match.to_json()))).attach(GAME)
    assert state_fingerprint(GAME, saved.replay()) == state_fingerprint(GAME, final)
    # conservation: pieces only leave play through battles
    m0 = len(states[0].pieces)
    assert len(final.pieces) + sum(final.lost) == m0


@pytest.mark.rule("IM-1", "IM-2")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000))
def test_im_2_views_hide_the_other_hand_and_sealed_choice(scenario: str, seed: int) -> None:
    """IM-1, IM-2: a seat's view is unchanged when the hidden parts (other hand, other sealed choice, dice) are resampled."""
    _, states = _random_play(scenario, seed)
    rng = Rng.from_seed(seed + 1)
    for s in states:
        for seat in (0, 1):
            other = GAME.determinize(s, seat, rng)
            assert GAME.view(other, seat) == GAME.view(s, seat)
            v = GAME.view(s, seat)
            assert v["hand"] == s.hands[seat]
            text = json.dumps(v)
            assert "rng" not in v and "dice_script" not in text and "deck" not in v
            if s.combat is not None and s.combat.step in ("event", "energy"):
                assert v["combat"]["sealed"]["own"] == s.combat.sealed.commits.get(seat)
        spectator = GAME.view(s, None)
        assert spectator["hand"] is None


@pytest.mark.rule("IM-2", "WS-5.1", "WS-5.3")
def test_im_2_action_view_hides_sealed_choices() -> None:
    """IM-2 / WS-A17: the other seat learns only that an event or energy choice was sent."""
    st_ = GAME.initial_state(GAME.normalize_config({"scenario": "s1-example"}), 1)
    for action in ({"type": "play_event", "card": "MG"}, {"type": "commit_energy", "amount": 3}):
        assert GAME.action_view(st_, 1, action, 0) == {"type": action["type"], "sealed": True}
        assert GAME.action_view(st_, 1, action, None) == {"type": action["type"], "sealed": True}
        assert GAME.action_view(st_, 1, action, 1) == action
    assert GAME.action_view(st_, 0, {"type": "end_turn"}, 1) == {"type": "end_turn"}
