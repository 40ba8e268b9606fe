"""The core draw agreement of the move table: offer, accept, decline, lapse, refusals, saving and replay."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.game import Action, Game, Outcome
from spacetable.core.i18n import LANGUAGES, render
from spacetable.core.match import Match
from spacetable.core.moves import (
    DRAW_TYPES,
    DrawOffer,
    Move,
    MoveTable,
    NoParams,
    agent_actions,
)


@dataclass
class Race:
    """A race to 5 steps; seats take turns (``turn``); ``players`` seats, all of whom must agree to a draw."""

    num_players: int = 2
    turn: int = 0
    steps: list[int] = field(default_factory=lambda: [0, 0])
    over: bool = False
    drawn: bool = False
    flow: list[int] = field(default_factory=list)
    draw: DrawOffer = field(default_factory=DrawOffer)


def _step(s: Race, seat: int, a: Action) -> None:
    s.steps[seat] += 1
    if s.steps[seat] >= 5:
        s.over = True


def _after(s: Race, seat: int, move: Move, a: Action) -> None:
    s.flow.append(seat)
    s.turn = (s.turn + 1) % s.num_players


def _agree(s: Race, seat: int, a: Action) -> None:
    s.over = s.drawn = True


TABLE: MoveTable[Race] = MoveTable(
    "race", [Move("step", "RACE-1", _step, NoParams, legal=lambda s, p: [{"type": "step"}] if p == s.turn else [])],
    phase_of=lambda s: "over" if s.over else "play", after=_after,
    resign=lambda s, p, a: setattr(s, "over", True), draw=_agree, draw_offer=lambda s: s.draw,
)


class RaceGame(Game[Race]):
    id: ClassVar[str] = "race"
    name: ClassVar[str] = "race"
    max_players: ClassVar[int] = 3
    state_type: ClassVar[type] = Race
    moves: ClassVar[MoveTable[Any] | None] = TABLE

    def initial_state(self, config: dict[str, Any], seed: int) -> Race:
        n = self.num_players(config)
        return Race(num_players=n, steps=[0] * n)

    def to_act(self, state: Race) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def legal_actions(self, state: Race, player: int) -> list[Action]:
        return TABLE.legal_actions(state, player) if not state.over else []

    def clone(self, state: Race) -> Race:
        return replace(state, steps=list(state.steps), flow=list(state.flow), draw=state.draw.copy())

    def view(self, state: Race, player: int | None) -> dict[str, Any]:
        return {"steps": state.steps, "draw_offer": state.draw.view()}

    def outcome(self, state: Race) -> Outcome | None:
        if not state.over:
            return None
        if state.drawn:
            return Outcome(scores=(0.5,) * state.num_players, winners=(), kind="agreement")
        best = max(range(state.num_players), key=lambda p: state.steps[p])
        return Outcome(scores=tuple(float(p == best) for p in range(state.num_players)), winners=(best,), kind="race")


GAME = RaceGame()


def types(state: Race, seat: int) -> list[str]:
    return [a["type"] for a in GAME.legal_actions(state, seat)]


def play(state: Race, seat: int, kind: str) -> Race:
    return GAME.apply(state, seat, {"type": kind})


def refused(state: Race, seat: int, kind: str) -> str:
    with pytest.raises(RuleError) as err:
        play(state, seat, kind)
    return err.value.rule


@pytest.mark.rule("CORE-DRAW")
def test_an_offer_out_of_turn_is_seen_by_every_seat_and_accepted_by_the_other():
    s = GAME.initial_state({}, 0)
    assert types(s, 0) == ["step", "offer_draw"] and types(s, 1) == ["offer_draw"]
    s = play(s, 1, "offer_draw")  # seat 1 offers while seat 0 is to act
    assert s.flow == [] and s.turn == 0
    for viewer in (0, 1, None):
        assert GAME.view(s, viewer)["draw_offer"] == {"by": 1, "accepted": [], "barred": [], "agreed": False}
    assert types(s, 0) == ["step", "accept_draw", "decline_draw"] and types(s, 1) == []
    s = play(s, 0, "accept_draw")
    out = GAME.outcome(s)
    assert out is not None and out.kind == "agreement" and out.winners == () and s.draw.agreed
    assert GAME.to_act(s) == () and types(s, 0) == [] and refused(s, 1, "offer_draw") == "CORE-TURN"


@pytest.mark.rule("CORE-DRAW")
def test_a_declined_seat_offers_again_only_after_a_move_of_its_own():
    s = play(GAME.initial_state({}, 0), 0, "offer_draw")
    assert refused(s, 0, "offer_draw") == "CORE-DRAW"  # already pending
    assert refused(s, 1, "offer_draw") == "CORE-DRAW"  # pending: answer it
    assert refused(s, 0, "accept_draw") == "CORE-DRAW" and refused(s, 0, "decline_draw") == "CORE-DRAW"
    s = play(s, 1, "decline_draw")
    assert s.draw == DrawOffer(by=None, accepted=[], barred=[0]) and GAME.outcome(s) is None
    assert refused(s, 0, "offer_draw") == "CORE-DRAW" and "offer_draw" not in types(s, 0)
    assert refused(s, 1, "accept_draw") == "CORE-DRAW"  # nothing pending
    s = play(s, 1, "offer_draw")  # the other seat is not barred
    s = play(s, 0, "decline_draw")
    assert s.draw.barred == [0, 1]
    s = play(s, 0, "step")  # seat 0 moved: it may offer again, seat 1 still may not
    assert s.draw.barred == [1] and "offer_draw" in types(s, 0) and "offer_draw" not in types(s, 1)
    s = play(s, 0, "offer_draw")
    s = play(s, 1, "accept_draw")
    assert GAME.outcome(s) is not None and GAME.outcome(s).kind == "agreement"  # type: ignore[union-attr]


@pytest.mark.rule("CORE-DRAW")
def test_an_offer_lapses_when_another_seat_moves_not_when_the_offering_seat_does():
    s = play(GAME.initial_state({}, 0), 0, "offer_draw")
    s = play(s, 0, "step")  # the offering seat's own move keeps the offer
    assert s.draw.by == 0 and s.flow == [0]
    s = play(s, 1, "step")  # the opponent moves instead of answering: the offer lapses, nobody is barred
    assert s.draw == DrawOffer() and s.flow == [0, 1]
    assert refused(s, 1, "accept_draw") == "CORE-DRAW"
    assert "offer_draw" in types(s, 0) and "offer_draw" in types(s, 1)


@pytest.mark.rule("CORE-DRAW")
def test_with_three_seats_every_other_seat_must_accept():
    s = GAME.initial_state({"players": 3}, 0)
    s = play(s, 2, "offer_draw")
    s = play(s, 0, "accept_draw")
    assert GAME.outcome(s) is None and s.draw.accepted == [0]
    assert refused(s, 0, "accept_draw") == "CORE-DRAW" and types(s, 0) == ["step"]
    assert types(s, 1) == ["accept_draw", "decline_draw"]
    declined = play(s, 1, "decline_draw")
    assert declined.draw == DrawOffer(barred=[2]) and GAME.outcome(declined) is None
    agreed = play(s, 1, "accept_draw")
    assert GAME.outcome(agreed) is not None and agreed.draw.accepted == [0, 1]


@pytest.mark.rule("CORE-DRAW")
def test_seats_outside_the_agreement_and_finished_games_are_refused():
    table = MoveTable("race", list(TABLE.moves[:1]), phase_of=TABLE.phase_of, after=_after,
                      resign=TABLE.resign, may_resign=lambda s, p: p != 1, draw=_agree, draw_offer=lambda s: s.draw)
    s = Race(num_players=3, steps=[0, 0, 0])
    assert table.drawing_seats(s) == [0, 2] and table.legal_actions(s, 1) == []
    with pytest.raises(RuleError) as err:
        table.play(s, 1, {"type": "offer_draw"}, to_act=(0,), copy=GAME.clone)
    assert err.value.rule == "CORE-DRAW"
    s2, _ = table.play(s, 0, {"type": "offer_draw"}, to_act=(0,), copy=GAME.clone)
    s3, _ = table.play(s2, 2, {"type": "accept_draw"}, to_act=(0,), copy=GAME.clone)  # seat 1 is not asked
    assert s3.drawn and s3.draw.agreed
    with pytest.raises(ValueError):
        MoveTable("half", [], phase_of=lambda s: "play", draw=_agree)
    with pytest.raises(RuleError) as err:
        TABLE.normalize({"type": "offer_draw", "to": 1})
    assert err.value.rule == "CORE-ACTION"


def test_a_table_without_a_draw_declares_no_draw_moves():
    table = MoveTable("plain", list(TABLE.moves[:1]), phase_of=TABLE.phase_of, resign=TABLE.resign)
    assert not DRAW_TYPES & set(table.types())
    with pytest.raises(RuleError) as err:
        table.normalize({"type": "offer_draw"})
    assert err.value.rule == "CORE-ACTION"


@pytest.mark.rule("CORE-DRAW")
def test_offers_are_saved_and_replayed_bit_exactly():
    match = Match.new(GAME, {}, 3)
    s = match.initial_state()
    for seat, kind in [(0, "offer_draw"), (1, "decline_draw"), (0, "step"), (1, "offer_draw"), (1, "step")]:
        s = match.play(s, seat, {"type": kind})
    assert s.draw == DrawOffer(by=1) and s.flow == [0, 1]
    again = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(s))))
    assert again == s
    back = Match.from_json(json.loads(json.dumps(match.to_json())), lambda gid: GAME)
    assert back.replay() == s
    s = match.play(s, 0, {"type": "accept_draw"})
    assert match.replay() == s and GAME.outcome(match.replay()).kind == "agreement"  # type: ignore[union-attr]


def test_draw_moves_are_written_translated_and_kept_from_agents():
    s = play(GAME.initial_state({}, 0), 0, "offer_draw")
    assert GAME.action_text(s, 1, {"type": "accept_draw"}) == "accept draw"
    assert TABLE.phrase(s, 0, {"type": "offer_draw"}) == ("core.move.offer_draw", {})
    assert TABLE.rules()["decline_draw"] == "CORE-DRAW"
    for kind in DRAW_TYPES:
        texts = {render(("spacetable.core",), f"core.move.{kind}", {}, lang) for lang in LANGUAGES}
        assert len(texts) == len(LANGUAGES) and f"core.move.{kind}" not in texts
    assert agent_actions(GAME.legal_actions(s, 1)) == []
    assert agent_actions(GAME.legal_actions(s, 0)) == [{"type": "step"}]


@pytest.mark.rule("CORE-DRAW")
def test_a_partners_move_keeps_the_offer_in_team_games():
    table = MoveTable("race", list(TABLE.moves[:1]), phase_of=TABLE.phase_of, after=_after, resign=TABLE.resign,
                      draw=_agree, draw_offer=lambda s: s.draw, draw_side=lambda s, p: p % 2)
    s = Race(num_players=4, steps=[0] * 4, turn=2)
    s, _ = table.play(s, 0, {"type": "offer_draw"}, to_act=(2,), copy=GAME.clone)
    s, _ = table.play(s, 2, {"type": "step"}, to_act=(2,), copy=GAME.clone)  # seat 2 is seat 0's partner
    assert s.draw.by == 0
    s, _ = table.play(s, 3, {"type": "step"}, to_act=(3,), copy=GAME.clone)  # an opponent moves: it lapses
    assert s.draw.by is None
