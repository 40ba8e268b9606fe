"""The declared moves of Tremble (``game.MOVES``): strict bounded schemas, windows and their rules, the
published JSON Schema, the core ``resign`` move (house rule), the agents hook and the server flag."""

from __future__ import annotations

import pytest

from spacetable.core.errors import NotYourTurn, RuleError
from spacetable.core.moves import CORE_ACTION
from spacetable.core.rng import Rng
from spacetable.games.tremble import GAME
from spacetable.games.tremble.flow import WINDOWS

from .tremble_helpers import buy, plan, position, sample


def _buy_state():
    s = GAME.initial_state({"players": 2}, 3)
    while s.phase != "buy":
        s = GAME.apply(s, GAME.to_act(s)[0], {"type": "keep"})
    return s


@pytest.mark.parametrize("bad", [
    {"type": "buy", "credits": 0, "buy": [], "discard": [], "repay": 0, "comp": [], "pad": "x"},
    {"type": "buy", "credits": "1"},
    {"type": "buy", "credits": True},
    {"type": "buy", "credits": 1.0},
    {"type": "buy", "credits": -1},
    {"type": "buy", "credits": 21},
    {"type": "buy", "buy": ["x"] * 9},
    {"type": "buy", "discard": [1]},
    {"type": "buy", "comp": ["x" * 65]},
    {"type": "buy", "repay": float("nan")},
    {"type": "plan"},
    {"type": "declare", "choice": "maybe"},
    {"type": "teleport"},
    [],
])
@pytest.mark.rule("TH-P1")
def test_malformed_actions_are_core_action_errors(bad: object) -> None:
    """Unknown fields, wrong JSON types, unbounded lists, non-finite numbers: ``CORE-ACTION`` (issue 9 item 4)."""
    s = _buy_state()
    with pytest.raises(RuleError) as err:
        GAME.apply(s, 0, bad)  # type: ignore[arg-type]
    assert err.value.rule == CORE_ACTION or (isinstance(bad, dict) and bad.get("type") == "plan")


@pytest.mark.parametrize("bad", [
    {"type": "plan", "groups": [{"slot": 1, "ships": ["training#1"], "extra": 1}]},
    {"type": "plan", "groups": [{"slot": "1", "ships": ["training#1"]}]},
    {"type": "plan", "groups": [{"slot": 1, "ships": ["training#1"]}] * 17},
    {"type": "plan", "stations": [{"station": "beacon#1", "slot": None}]},
    {"type": "plan", "fuel_cards": "spare_tank#1"},
])
@pytest.mark.rule("TH-P1")
def test_malformed_plans_are_core_action_errors(bad: dict) -> None:
    s = position(2, {0: ["training#1"]}, ["cairo", "london", "berlin"])
    with pytest.raises(RuleError) as err:
        GAME.apply(s, 0, bad)
    assert err.value.rule == CORE_ACTION


@pytest.mark.rule("TH-4.3", "TH-6.1", "TH-9.3")
def test_a_move_of_another_window_cites_the_open_window_rule() -> None:
    """A well-formed move played in the wrong window names the rule of the window that is open."""
    s = _buy_state()
    with pytest.raises(RuleError) as err:
        GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    assert err.value.rule == "TH-4.3"
    s = position(2, {0: ["training#1"]}, ["cairo", "london", "berlin"])
    with pytest.raises(RuleError) as err:
        GAME.apply(s, 0, buy())
    assert err.value.rule == "TH-6.1"
    with pytest.raises(NotYourTurn):
        GAME.apply(s, 1, plan({}))  # seat 1 holds no ship: it plans nothing (TH-D10)


@pytest.mark.rule("TH-P1", "TH-4.3")
def test_normalized_actions_are_what_the_engine_stores() -> None:
    """``normalize_action`` puts ``type`` first and keeps the declared fields; absent optional fields stay absent."""
    assert list(GAME.normalize_action({"credits": 0, "type": "buy"})) == ["type", "credits"]
    use = {"type": "use_station", "station": "amplifier#1"}
    assert GAME.normalize_action(dict(use)) == use
    s = _buy_state()
    s = GAME.apply(s, 0, {"type": "buy"})
    assert s.sealed.commits[0] == buy()  # sealed with every field (TH-4.3)


@pytest.mark.rule("TH-P1")
def test_json_schema_declares_every_action_with_its_rule_and_caps() -> None:
    schema = GAME.action_schema()
    variants = {v["title"]: v for v in schema["oneOf"]}
    assert set(variants) == {m.type for m in GAME.moves}
    assert all(v["additionalProperties"] is False for v in variants.values())
    assert variants["buy"]["properties"]["buy"]["maxItems"] == 8
    assert "(TH-4.3)" in variants["buy"]["description"] and "(CORE-RESIGN)" in variants["resign"]["description"]
    assert GAME.moves.rules()["claim_city"] == "TH-9.9"
    for phase in WINDOWS:
        assert GAME.moves.phase_rule[phase] == WINDOWS[phase].rule


@pytest.mark.rule("TH-P1", "TH-P2")
def test_every_window_is_served_by_declared_moves() -> None:
    """Each legal action of each window is a declared move open in that window."""
    for players, seed in ((2, 1), (4, 2), (5, 3)):
        s = GAME.initial_state({"players": players}, seed)
        rng = Rng(seed)
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            if s.phase not in ("buy", "plan"):
                for a in GAME.legal_actions(s, seat):
                    assert s.phase in GAME.moves[a["type"]].phases and GAME.normalize_action(a) == a
            s = GAME.apply(s, seat, sample(s, seat, rng))


# ------------------------------------------------------------------ resign (core move, house rule)
@pytest.mark.rule("TH-H7")
def test_resign_in_a_two_player_game_ends_it_at_once() -> None:
    s = _buy_state()
    s = GAME.apply(s, 1, {"type": "resign"})  # out of turn is allowed
    out = GAME.outcome(s)
    assert s.phase == "over" and GAME.to_act(s) == () and out is not None
    assert out.kind == "resignation" and out.winners == (0,) and out.ranking == (0, 1)
    assert out.details["resigned"] == [1] and GAME.view(s, None)["resigned"] == [1]
    with pytest.raises(RuleError) as err:
        GAME.apply(s, 0, {"type": "resign"})
    assert err.value.rule == "CORE-TURN"


@pytest.mark.rule("TH-H7", "TH-P3")
def test_a_resigned_captain_plays_the_timeout_defaults_and_cannot_win() -> None:
    """3 players: seat 2 resigns while the others must still commit; its later decisions are the window
    defaults (it never buys or attacks), the game goes on to the end and seat 2 ranks last."""
    s = GAME.initial_state({"players": 3}, 8)
    rng = Rng(4)
    s = GAME.apply(s, 2, {"type": "resign"})
    assert 2 not in GAME.to_act(s) and GAME.outcome(s) is None
    with pytest.raises(RuleError) as err:
        GAME.apply(s, 2, {"type": "resign"})
    assert err.value.rule == "CORE-RESIGN"
    humans = s.players[2].humans
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        assert seat != 2
        s = GAME.apply(s, seat, sample(s, seat, rng))
        assert not s.players[2].drawn or s.phase in ("buy", "redraw")
        assert s.players[2].trophies == []
    out = GAME.outcome(s)
    assert out is not None and out.kind == "score" and 2 not in out.winners and out.ranking[-1] == 2
    assert s.players[2].humans >= humans  # nothing bought, nothing lost; mission prizes only
    assert s.players[2].hand and len(s.players[2].hand) == 1  # the training saucer only


@pytest.mark.rule("TH-H7", "IM-4")
def test_resign_is_public_even_in_a_sealed_window() -> None:
    s = _buy_state()
    assert GAME.action_view(s, 1, {"type": "resign"}, 0) == {"type": "resign"}
    assert GAME.action_view(s, 1, buy(), 0) == {"type": "committed", "phase": "buy"}


@pytest.mark.rule("TH-H7")
def test_resign_through_apply_in_place() -> None:
    s = GAME.initial_state({"players": 3}, 9)
    GAME.apply_in_place(s, 0, {"type": "resign"})
    GAME.apply_in_place(s, 1, {"type": "resign"})
    assert s.phase == "over" and GAME.outcome(s).winners == (2,)  # type: ignore[union-attr]


# ------------------------------------------------------------------ hooks
@pytest.mark.rule("TH-0.1")
def test_agents_hook_offers_the_three_captains() -> None:
    specs = {a.name: a for a in GAME.agents()}
    assert [a.name for a in GAME.agents()] == ["mcts", "heuristic", "random"]  # the default first
    assert [specs[n].level for n in ("random", "heuristic", "mcts")] == ["easy", "medium", "hard"]
    s = GAME.initial_state({"players": 2}, 4)
    for spec in specs.values():
        agent = spec.make(seed=1, seconds=0.02)
        seat = GAME.to_act(s)[0]
        assert GAME.is_legal(s, seat, agent.choose(GAME, s, seat))


def test_slow_legal_actions_is_declared_for_the_server() -> None:
    """Issue 9 item 7: the plan decision lists thousands of plans; tremble says so as a class attribute."""
    assert GAME.slow_legal_actions is True
    assert type(GAME).slow_legal_actions is True
