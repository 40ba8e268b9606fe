"""WS-D25 (house rule): a draw by agreement, the core draw offer wired into the skirmish."""

from __future__ import annotations

import json

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.match import Match, state_fingerprint
from spacetable.games.worlds import GAME
from spacetable.games.worlds.ai import AdvisorAgent

from .helpers import act, s1, start

OFFER, ACCEPT, DECLINE = {"type": "offer_draw"}, {"type": "accept_draw"}, {"type": "decline_draw"}


def draw_moves(st, seat: int) -> list[dict]:
    return [a for a in GAME.legal_actions(st, seat) if a["type"].endswith("_draw")]


@pytest.mark.rule("WS-D25", "CORE-DRAW")
def test_either_side_offers_at_any_time_and_every_seat_sees_the_offer() -> None:
    st = start(s1())
    assert GAME.to_act(st) == (0,)
    assert draw_moves(st, 0) == [OFFER] and GAME.legal_actions(st, 1) == [OFFER]  # the side not to act may offer
    st = act(st, 1, OFFER)
    assert GAME.to_act(st) == (0,) and st.energy == start(s1()).energy  # an offer is not a move of the skirmish
    for viewer in (0, 1, None):
        assert GAME.view(st, viewer)["draw_offer"] == {"by": 1, "accepted": [], "barred": [], "agreed": False}
    assert draw_moves(st, 0) == [ACCEPT, DECLINE] and GAME.legal_actions(st, 1) == []
    with pytest.raises(RuleError) as err:
        act(st, 1, ACCEPT)
    assert err.value.rule == "CORE-DRAW"
    done = act(st, 0, ACCEPT)
    out = GAME.outcome(done)
    assert out is not None and out.kind == "agreement" and out.winners == () and GAME.returns(done) == [0.0, 0.0]
    assert done.over and GAME.to_act(done) == () and GAME.legal_actions(done, 0) == []
    assert GAME.view(done, None)["result"]["kind"] == "agreement" and "agree to a draw" in done.log[-1]


@pytest.mark.rule("WS-D25", "CORE-DRAW")
def test_a_decline_bars_the_offering_side_until_it_moves_and_a_move_lets_an_offer_lapse() -> None:
    st = act(start(s1()), 0, OFFER)
    st = act(st, 1, DECLINE)
    assert draw_moves(st, 0) == [] and draw_moves(st, 1) == [OFFER] and GAME.outcome(st) is None
    with pytest.raises(RuleError) as err:
        act(st, 0, OFFER)
    assert err.value.rule == "CORE-DRAW"
    st = act(st, 0, {"type": "end_turn"})  # a move of its own: side 0 may offer again
    assert draw_moves(st, 0) == [OFFER]
    st = act(st, 0, OFFER)
    assert draw_moves(st, 1)[-2:] == [ACCEPT, DECLINE]
    st = act(st, 1, {"type": "end_turn"})  # side 1 plays on instead of answering: the offer lapses
    assert st.draw.by is None and st.draw.barred == []


@pytest.mark.rule("WS-D25")
def test_the_advisor_never_offers_or_answers_and_its_move_lets_the_offer_lapse() -> None:
    st = act(start(s1()), 1, OFFER)
    action = AdvisorAgent().choose(GAME, st, 0)
    assert not action["type"].endswith("_draw")
    assert act(st, 0, action).draw.by is None


@pytest.mark.rule("WS-D25")
def test_draw_moves_have_notation_sentences_and_replay() -> None:
    st = start(s1())
    assert GAME.parse_action(st, 0, "offer draw") == OFFER and GAME.parse_action(st, 1, "decline") == DECLINE
    with pytest.raises(RuleError):
        GAME.parse_action(st, 0, "offer peace")
    assert GAME.action_text(st, 1, ACCEPT) == "accept draw"
    assert GAME.describe_action(st, 0, OFFER, "fr") == "propose la nulle"
    assert GAME.describe_action(st, 0, ACCEPT, "ru") == "принимает ничью"
    match = Match.new(GAME, {"scenario": "s1-example"}, 1)
    state = match.initial_state()
    for seat, action in [(0, OFFER), (1, DECLINE), (0, {"type": "end_turn"}), (1, OFFER), (0, ACCEPT)]:
        state = match.play(state, seat, action)
    assert GAME.outcome(state).kind == "agreement"  # type: ignore[union-attr]
    back = Match.from_json(json.loads(json.dumps(match.to_json())), lambda gid: GAME)
    assert state_fingerprint(GAME, back.replay()) == state_fingerprint(GAME, state)
