"""The declared moves of Worlds & Suns: strict schemas, the rule of an action played out of its window, the core
resignation, the published JSON Schema, and the small rules the move table makes visible."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.moves import CORE_RESIGN, DRAW_TYPES
from spacetable.games.worlds import GAME
from spacetable.games.worlds.ai import WORST_CASE_LIMIT, _opponent_model
from spacetable.games.worlds.events import deck_list, house_deck
from spacetable.games.worlds.game import MOVES
from spacetable.games.worlds.plans import FIXED, WORST_CASE
from spacetable.games.worlds.scenario import MAX_NAME, MAX_PIECES_PER_CARD, validate

from .helpers import act, s1, start, world_scenario

ACTIONS = {"declare_combat", "end_turn", "allocate", "play_event", "commit_energy", "choose_tie_loss", "retreat",
           "convert", "resign"}


def _energy_step() -> Any:
    """A 1P against 1P combat in its sealed energy step (both pools non-empty, no cards)."""
    st = start(world_scenario({"P": 1}, {"P": 1}, energy={"A": 2, "D": 1}, dice=[[3, 3]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, GAME.legal_actions(st, 0)[0])
    assert st.combat.step == "energy" and GAME.to_act(st) == (0, 1)
    return st


@pytest.mark.rule("WS-D11", "WS-0.1")
def test_the_actions_are_the_combat_chapter_and_the_skirmish_turn_only() -> None:
    """WS-D11: no movement and no production: the only actions are the combat's, ending the turn and resigning.
    WS-0.1: the package offers the engine, the skirmish, the odds calculator and the advisor, to the tools through
    the game's hooks."""
    assert set(MOVES.types()) == ACTIONS | DRAW_TYPES
    assert MOVES.rules()["declare_combat"] == "WS-3.1" and MOVES.rules()["resign"] == CORE_RESIGN
    assert {c.name for c in GAME.commands()} >= {"odds", "advise", "check"}
    assert GAME.agents()[0].name == "advised" and "advisor" in {a.name for a in GAME.agents()}


@pytest.mark.parametrize("bad", [
    {"type": "declare_combat"},
    {"type": "declare_combat", "card": 3},
    {"type": "declare_combat", "card": "x" * 65},
    {"type": "end_turn", "extra": 1},
    {"type": "allocate", "battles": "all"},
    {"type": "allocate", "battles": [{"anchor": "a", "pieces": ["b"], "order": 1}]},
    {"type": "allocate", "battles": [{"anchor": "a", "pieces": ["b"] * 101}]},
    {"type": "play_event", "card": 1},
    {"type": "commit_energy", "amount": -1},
    {"type": "commit_energy", "amount": True},
    {"type": "commit_energy", "amount": 1.5},
    {"type": "commit_energy", "amount": 10**7},
    {"type": "commit_energy"},
    {"type": "choose_tie_loss", "piece": None},
    {"type": "retreat"},
    {"type": "retreat", "pieces": "P1"},
    {"type": "convert", "factory": ["F1"]},
    {"type": "fly"},
])
@pytest.mark.rule("WS-D21")
def test_malformed_actions_are_core_action_errors(bad: dict[str, Any]) -> None:
    """WS-D21: a malformed action is refused as CORE-ACTION by the declared schema, before any rule."""
    with pytest.raises(RuleError) as err:
        GAME.apply(_energy_step(), 0, bad)
    assert err.value.rule == "CORE-ACTION"


@pytest.mark.rule("WS-D21", "WS-2.4", "WS-4.2", "WS-4.3", "WS-5.1", "WS-5.3", "WS-5.6", "WS-6.3", "WS-6.4")
def test_actions_out_of_their_window_name_the_rule_they_break() -> None:
    """WS-D21: a seat to act playing another step's action breaks that action's rule; declaring or ending the turn
    while a combat is open breaks WS-2.4; the side that does not allocate breaks WS-4.3 or WS-4.2; a seat not to act
    breaks CORE-TURN."""
    st = _energy_step()
    expected = {
        "play_event": ({"type": "play_event", "card": None}, "WS-5.1"),
        "choose_tie_loss": ({"type": "choose_tie_loss", "piece": "A.X.w1.P1"}, "WS-5.6"),
        "retreat": ({"type": "retreat", "pieces": []}, "WS-6.3"),
        "convert": ({"type": "convert", "factory": None}, "WS-6.4"),
        "allocate": ({"type": "allocate", "battles": []}, "WS-4.2"),
        "declare_combat": ({"type": "declare_combat", "card": "X.w1"}, "WS-2.4"),
    }
    for action, rule in expected.values():
        for seat in (0, 1):
            with pytest.raises(RuleError) as err:
                GAME.apply(st, seat, action)
            assert err.value.rule == rule, (action, seat)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, 1, {"type": "end_turn"})  # the defender, sealing its energy
    assert err.value.rule == "WS-2.4"
    done = act(st, 0, {"type": "commit_energy", "amount": 0})
    with pytest.raises(RuleError) as err:
        GAME.apply(done, 0, {"type": "commit_energy", "amount": 0})
    assert err.value.rule == "CORE-TURN"
    after = act(done, 1, {"type": "commit_energy", "amount": 1})  # 2+3 against 3+3: D wins, the combat is over
    assert after.combat is None
    with pytest.raises(RuleError) as err:
        GAME.apply(after, 0, {"type": "commit_energy", "amount": 0})
    assert err.value.rule == "WS-5.3"
    equal = start(world_scenario({"P": 1, "F": 1}, {"P": 1, "F": 1}))
    equal = act(equal, 0, {"type": "declare_combat", "card": "X.w1"})
    with pytest.raises(RuleError) as err:
        GAME.apply(equal, 1, GAME.legal_actions(equal, 0)[0])
    assert err.value.rule == "WS-4.3"


@pytest.mark.rule("WS-D20")
def test_resignation_is_the_core_move_and_the_other_side_wins() -> None:
    """WS-D20: either side may resign at any time, even while the other side is to act; it is never listed; the
    skirmish ends at once with the other side as winner; nothing is accepted afterwards."""
    st = _energy_step()
    assert all(a["type"] != "resign" for seat in (0, 1) for a in GAME.legal_actions(st, seat))
    sealed = act(st, 0, {"type": "commit_energy", "amount": 2})
    assert GAME.to_act(sealed) == (1,)
    over = act(sealed, 0, {"type": "resign"})  # seat 0 is not to act
    out = GAME.outcome(over)
    assert over.over and GAME.to_act(over) == () and out is not None
    assert out.kind == "resignation" and out.winners == (1,) and out.ranking == (1, 0)
    assert "A resigns" in over.end_reason and over.combat is None
    assert GAME.returns(over) == [-1.0, 1.0]
    with pytest.raises(RuleError) as err:
        GAME.apply(over, 1, {"type": "resign"})
    assert err.value.rule == "CORE-TURN"
    assert GAME.parse_action(st, 0, "resign") == {"type": "resign"}
    assert GAME.describe_action(st, 0, {"type": "resign"}, "fr") == "abandonne"


@pytest.mark.rule("WS-D21")
def test_json_schema_lists_every_action_with_its_rule() -> None:
    """The move table publishes one JSON Schema variant per action, with its rule id; normalisation keeps the
    declared field order."""
    schema = GAME.action_schema()
    variants = {v["title"]: v for v in schema["oneOf"]}
    assert set(variants) == ACTIONS | DRAW_TYPES
    assert "(WS-5.3)" in variants["commit_energy"]["description"]
    assert variants["commit_energy"]["properties"]["amount"]["minimum"] == 0
    json.dumps(schema)
    assert list(GAME.normalize_action({"amount": 2, "type": "commit_energy"})) == ["type", "amount"]
    assert GAME.normalize_action({"type": "play_event"}) == {"type": "play_event"}


@pytest.mark.rule("WS-2.5", "WS-3.1")
def test_every_piece_on_the_card_takes_part() -> None:
    """WS-2.5: all pieces of both sides on the card take part; pieces elsewhere do not."""
    extra = [{"id": "X.w2", "pieces": {"A": {"P": 2}, "D": {"F": 1}}}]
    st = start(world_scenario({"P": 2, "F": 1}, {"P": 1, "F": 2}, extra_worlds=extra))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    assert st.combat.participants == [["A.X.w1.P1", "A.X.w1.P2", "A.X.w1.F1"], ["D.X.w1.P1", "D.X.w1.F1", "D.X.w1.F2"]]


@pytest.mark.rule("WS-5.7", "WS-7.1", "WS-7.4")
def test_natives_leave_after_their_battle() -> None:
    """WS-5.7, WS-7.1: a native joins only the battle its card was played in; the next battle has none."""
    st = start(world_scenario({"P": 2}, {"P": 2}, hands={"A": ["CET"]}, dice=[[1, 1], [1, 1]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, GAME.legal_actions(st, 0)[0])
    st = act(st, 0, {"type": "play_event", "card": "CET"})
    battles = st.last_combat.battles if st.combat is None else st.combat.battles
    assert battles[0].power == [6, 2] and battles[1].power == [2, 2]
    assert st.discards[0] == ["CET"] and st.hands[0] == []


@pytest.mark.rule("WS-7.2", "WS-7.3", "WS-7.4", "WS-7.5")
def test_house_deck_is_labelled_data_with_the_two_effects() -> None:
    """WS-7.2: the deck is a data file labelled house content, 4 MG, 3 CET, 3 RI, effects only pop_bonus and
    add_native, conditions only those of WS-7.3, WS-7.4 and WS-7.5."""
    raw = json.loads(resources.files("spacetable.games.worlds").joinpath("data/events.json").read_text(encoding="utf-8"))
    assert raw["source"] == "house"
    for card in raw["cards"]:
        assert set(card["effect"]) <= {"pop_bonus", "add_native"}
        assert set(card["conditions"]) <= {"own_population", "defender", "world"}
    assert sorted(deck_list()) == sorted(["MG"] * 4 + ["CET"] * 3 + ["RI"] * 3)
    mg, cet, ri = house_deck()["MG"], house_deck()["CET"], house_deck()["RI"]
    assert mg.legal(1, False, False) and not mg.legal(0, True, True) and mg.bonus(3) == 3
    assert cet.legal(0, False, False) and cet.bonus(0) == 4
    assert ri.legal(0, True, True) and not ri.legal(2, False, True) and not ri.legal(2, True, False)


BOUNDS: list[tuple[str, Any]] = [
    ("long side name", lambda d: d.update(sides=["A" * (MAX_NAME + 1), "D"])),
    ("long card id", lambda d: d["systems"][0]["worlds"][0].update(id="w" * (MAX_NAME + 1))),
    ("too many pieces of a kind", lambda d: d["systems"][0]["worlds"][0]["pieces"]["A"].update(P=MAX_PIECES_PER_CARD + 1)),
    ("too many systems", lambda d: d.update(systems=[
        {"id": f"S{i}", "starting_system_of": None, "sun": {"id": f"S{i}.sun", "pieces": {}},
         "worlds": [{"id": f"S{i}.w", "pieces": {}}]} for i in range(51)])),
    ("too many Worlds", lambda d: d["systems"][0].update(worlds=[{"id": f"X.w{i}", "pieces": {}} for i in range(21)])),
    ("energy pool", lambda d: d.update(energy={"A": 1001})),
    ("rounds", lambda d: d.update(max_rounds=101)),
    ("long hand", lambda d: d.update(hands={"A": ["MG"] * 101})),
    ("boolean die", lambda d: d.update(dice_script=[[True, 6]])),
    ("long label", lambda d: d.update(label="x" * 201)),
    ("huge seed", lambda d: d.update(seed=2**70)),
]


@pytest.mark.parametrize(("why", "spoil"), BOUNDS, ids=[b[0] for b in BOUNDS])
@pytest.mark.rule("WS-D23")
def test_scenario_content_is_bounded(why: str, spoil: Any) -> None:
    """WS-D23: a scenario sent as content stays within bounds (a configuration error with a reason otherwise)."""
    data = copy.deepcopy(world_scenario({"P": 1}, {"P": 1}))
    validate(data)
    spoil(data)
    with pytest.raises(ConfigError):
        validate(data)


@pytest.mark.rule("WS-D23")
def test_piece_ids_of_the_longest_names_fit_an_action() -> None:
    """WS-D23: with the longest side name and card id, a piece id is still a valid name in an action."""
    side, card = "s" * MAX_NAME, "c" * MAX_NAME
    data = world_scenario({"P": MAX_PIECES_PER_CARD}, {"P": 1})
    data["sides"] = [side, "D"]
    data["first_player"] = side
    data["systems"][0]["worlds"][0] = {"id": card, "pieces": {side: {"P": MAX_PIECES_PER_CARD}, "D": {"P": 1}}}
    st = start(data)
    st = act(st, 0, {"type": "declare_combat", "card": card})
    assert st.combat is not None and max(len(p.id) for p in st.pieces) <= 64
    st = act(st, 0, GAME.legal_actions(st, 0)[0])
    assert st.lost == [0, 1]


@pytest.mark.rule("WS-D24", "WS-10.3")
def test_ai_replaces_the_worst_case_by_an_even_all_in_reply_for_large_combats() -> None:
    """WS-D24: the AI plans against worst-case replies while (E_S+1)^k (E_O+1)^k, k capped at 4, stays within the
    limit, else against a fixed reply spreading the opponent's whole pool."""
    assert 6**8 <= WORST_CASE_LIMIT < 7**8
    assert _opponent_model(2, 6, 6) == WORST_CASE
    assert _opponent_model(8, 5, 5) == WORST_CASE and _opponent_model(8, 6, 6) == FIXED
    assert _opponent_model(4, 6, 6) == FIXED and _opponent_model(3, 6, 6) == WORST_CASE


@pytest.mark.rule("WS-D19", "WS-A1")
def test_the_log_tells_the_whole_combat() -> None:
    """WS-D19: the log shows revealed events and energy, dice and totals, the result, retreat and conversion."""
    st = start(s1(dice_script=[[2, 3], [2, 6]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, {"type": "allocate", "battles": [
        {"anchor": "grey.X.w1.P1", "pieces": ["white.X.w1.P1", "white.X.w1.P2", "white.X.w1.F1"]},
        {"anchor": "grey.X.w1.F1", "pieces": ["white.X.w1.P3", "white.X.w1.F2"]}]})
    for action in ({"type": "play_event", "card": "MG"}, {"type": "commit_energy", "amount": 0},
                   {"type": "commit_energy", "amount": 3}):
        st = act(st, 1, action)
    st = act(st, 0, {"type": "retreat", "pieces": []})
    st = act(st, 1, {"type": "convert", "factory": "white.X.w1.F1"})
    text = "\n".join(st.log)
    for words in ("battle 1 events: grey plays MG", "battle 2 energy revealed: white 0, grey 3",
                  "battle 1: white 5+2=7 vs grey 3+3=6", "white does not retreat", "grey converts Factory white.X.w1.F1"):
        assert words in text, words
