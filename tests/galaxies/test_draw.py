"""D-23 (house rule): a draw by agreement, the core draw offer wired into Battleship Galaxies (BG-17.3 knows a
draw); in a team game every other seat, partners included, must accept."""

from __future__ import annotations

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.moves import agent_actions
from spacetable.games.galaxies import GAME

OFFER, ACCEPT, DECLINE = {"type": "offer_draw"}, {"type": "accept_draw"}, {"type": "decline_draw"}


def start(players: int):  # type: ignore[no-untyped-def]
    return GAME.initial_state(GAME.normalize_config({"players": players}), 1)


def draws(s, seat: int) -> list[dict]:  # type: ignore[no-untyped-def]
    return [a for a in GAME.legal_actions(s, seat) if a["type"].endswith("_draw")]


@pytest.mark.rule("D-23", "BG-17.3", "CORE-DRAW")
def test_two_seats_offer_decline_and_accept() -> None:
    s = start(2)
    assert draws(s, 0) == [OFFER] and draws(s, 1) == [OFFER]
    s = GAME.apply(s, 1, OFFER)
    for viewer in (0, 1, None):
        assert GAME.view(s, viewer)["draw_offer"] == {"by": 1, "accepted": [], "barred": [], "agreed": False}
    assert draws(s, 0) == [ACCEPT, DECLINE] and draws(s, 1) == []
    declined = GAME.apply(s, 0, DECLINE)
    assert declined.draw.barred == [1] and draws(declined, 1) == []
    with pytest.raises(RuleError) as err:
        GAME.apply(declined, 1, OFFER)
    assert err.value.rule == "CORE-DRAW"
    done = GAME.apply(s, 0, ACCEPT)
    out = GAME.outcome(done)
    assert out is not None and out.kind == "agreement" and out.winners == () and GAME.to_act(done) == ()
    assert GAME.view(done, 0)["result"]["kind"] == "agreement"


@pytest.mark.rule("D-23", "CORE-DRAW")
def test_teams_need_every_other_seat_and_an_opponents_move_lets_the_offer_lapse() -> None:
    s = start(4)
    assert [s.side_of(p) for p in range(4)] == [0, 1, 0, 1] and GAME.to_act(s) == (0, 1)
    s = GAME.apply(s, 0, OFFER)
    fleet = agent_actions(GAME.legal_actions(s, 1))[0]
    lapsed = GAME.apply(s, 1, fleet)  # an opponent plays on: the offer lapses
    assert lapsed.draw.by is None and lapsed.draw.barred == []
    for seat in (1, 3):
        s = GAME.apply(s, seat, ACCEPT)
        assert GAME.outcome(s) is None
    assert draws(s, 2) == [ACCEPT, DECLINE]  # the partner must agree too
    s = GAME.apply(s, 2, ACCEPT)
    assert GAME.outcome(s).kind == "agreement" and s.draw.accepted == [1, 3, 2]  # type: ignore[union-attr]


@pytest.mark.rule("D-23")
def test_draw_moves_are_written_and_read() -> None:
    s = start(2)
    for action, text in ((OFFER, "offer draw"), (ACCEPT, "accept draw"), (DECLINE, "decline draw")):
        assert GAME.action_text(s, 0, action) == text and GAME.parse_action(s, 0, text) == action
    assert GAME.describe_action(s, 0, OFFER, "nl") == "biedt remise aan"
