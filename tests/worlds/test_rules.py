"""Worlds & Suns combat rules: acceptance scenarios WS-A1, A7-A19 (engine side)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacetable.ai.base import RandomAgent, play_game
from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.match import Match, state_fingerprint
from spacetable.core.rng import Rng
from spacetable.games.worlds import GAME
from spacetable.games.worlds.pairing import count_splits
from spacetable.games.worlds.scenario import validate

from .helpers import act, ids, legal, s1, start, world_scenario

WHITE, GREY = 0, 1
A1_ALLOC = {
    "type": "allocate",
    "battles": [
        {"anchor": "grey.X.w1.P1", "pieces": ["white.X.w1.P1", "white.X.w1.P2", "white.X.w1.F1"]},
        {"anchor": "grey.X.w1.F1", "pieces": ["white.X.w1.P3", "white.X.w1.F2"]},
    ],
}


@pytest.mark.rule("WS-A1", "WS-3.1", "WS-4.2", "WS-4.4", "WS-5.1", "WS-5.2", "WS-5.3", "WS-5.4", "WS-5.5", "WS-5.7",
                  "WS-6.1", "WS-6.2", "WS-6.3", "WS-6.4", "WS-7.3", "WS-1.4", "WS-1.5", "WS-D13", "WS-D16")
def test_ws_a1_seed_worked_example_exact() -> None:
    """WS-A1: the seed's worked example, step by step, with its exact totals."""
    st = start(s1(dice_script=[[2, 3], [2, 6]]))
    st = act(st, WHITE, {"type": "declare_combat", "card": "X.w1"})
    assert st.combat is not None and st.combat.allocator == WHITE
    st = act(st, WHITE, A1_ALLOC)
    assert GAME.to_act(st) == (GREY,)  # white has no card: only grey seals an event
    st = act(st, GREY, {"type": "play_event", "card": "MG"})
    st = act(st, GREY, {"type": "commit_energy", "amount": 0})
    b1 = st.combat.battles[0]
    assert b1.totals == [7, 6] and b1.result == "0" and b1.lost[GREY] == ["grey.X.w1.P1"]
    st = act(st, GREY, {"type": "commit_energy", "amount": 3})
    b2 = st.combat.battles[1]
    assert b2.totals == [5, 10] and b2.result == "1" and sorted(b2.lost[WHITE]) == ["white.X.w1.F2", "white.X.w1.P3"]
    assert st.combat.losses == [2, 1] and st.combat.winner == GREY
    assert st.combat.step == "retreat" and GAME.to_act(st) == (WHITE,)
    st = act(st, WHITE, {"type": "retreat", "pieces": []})
    assert st.combat.step == "convert"
    st = act(st, GREY, {"type": "convert", "factory": "white.X.w1.F1"})
    assert st.combat is None
    assert ids(st, "X.w1", GREY) == ["grey.X.w1.F1", "white.X.w1.F1"]
    assert ids(st, "X.w1", GREY, "F") == ids(st, "X.w1", GREY)
    assert ids(st, "X.w1", WHITE) == ["white.X.w1.P1", "white.X.w1.P2"]
    assert st.energy[GREY] == 0 and st.hands[GREY] == [] and st.discards[GREY] == ["MG"]
    assert st.converted[GREY] == 1 and st.combats_won[GREY] == 1


@pytest.mark.rule("WS-A1", "WS-1.1", "WS-4.2")
def test_ws_a1_grey_attacking_gives_identical_results() -> None:
    """WS-A1: with grey as the attacker the totals and results are identical (white still allocates, WS-4.2)."""
    st = start(s1(first_player="grey", dice_script=[[3, 2], [6, 2]]))
    st = act(st, GREY, {"type": "declare_combat", "card": "X.w1"})
    assert st.combat.allocator == WHITE
    st = act(st, WHITE, A1_ALLOC)
    st = act(st, GREY, {"type": "play_event", "card": "MG"})
    st = act(st, GREY, {"type": "commit_energy", "amount": 0})
    st = act(st, GREY, {"type": "commit_energy", "amount": 3})
    assert [b.totals for b in st.combat.battles] == [[7, 6], [5, 10]]
    assert st.combat.losses == [2, 1] and st.combat.winner == GREY


@pytest.mark.rule("WS-A7", "WS-4.1", "WS-4.2", "WS-4.5")
def test_ws_a7_allocation_count_and_rejections() -> None:
    """WS-A7 / WS-4.5: 10 canonical splits against {P, F}, 5 against {P, P}; bad splits rejected (WS-4.2)."""
    assert count_splits(3, 2, ["P", "F"]) == 10
    assert count_splits(3, 2, ["P", "P"]) == 5
    st = act(start(s1()), WHITE, {"type": "declare_combat", "card": "X.w1"})
    assert len(legal(st, WHITE)) == 10
    empty = {
        "type": "allocate",
        "battles": [
            {
                "anchor": "grey.X.w1.P1",
                "pieces": ["white.X.w1.P1", "white.X.w1.P2", "white.X.w1.P3", "white.X.w1.F1", "white.X.w1.F2"],
            },
            {"anchor": "grey.X.w1.F1", "pieces": []},
        ],
    }
    with pytest.raises(RuleError) as e:
        act(st, WHITE, empty)
    assert e.value.rule == "WS-4.2"
    missing = {
        "type": "allocate",
        "battles": [
            {"anchor": "grey.X.w1.P1", "pieces": ["white.X.w1.P1"]},
            {"anchor": "grey.X.w1.F1", "pieces": ["white.X.w1.F2"]},
        ],
    }
    with pytest.raises(RuleError) as e:
        act(st, WHITE, missing)
    assert e.value.rule == "WS-4.2"


@pytest.mark.rule("WS-A7", "WS-4.4", "WS-D2", "WS-D15")
def test_ws_a7_any_resolution_order_accepted() -> None:
    """WS-4.4: the allocator lists battles in any resolution order."""
    st = act(start(s1()), WHITE, {"type": "declare_combat", "card": "X.w1"})
    rev = {"type": "allocate", "battles": list(reversed(A1_ALLOC["battles"]))}
    st = act(st, WHITE, rev)
    assert st.combat.battles[0].anchor == "grey.X.w1.F1"


@pytest.mark.rule("WS-A8", "WS-4.3", "WS-D1")
def test_ws_a8_equal_counts_attacker_matches() -> None:
    """WS-A8 / WS-4.3: {P, F} against {P, F}: 2 matchings, chosen by the attacker; the defender's allocate is rejected."""
    st = start(world_scenario({"P": 1, "F": 1}, {"P": 1, "F": 1}))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    allocations = legal(st, 0)
    assert len(allocations) == 2 and GAME.to_act(st) == (0,)
    with pytest.raises(RuleError) as e:
        act(st, 1, allocations[0])
    assert e.value.rule == "WS-4.3"


@pytest.mark.rule("WS-A9", "WS-2.1", "WS-2.2", "WS-2.3", "WS-2.4", "WS-D7", "WS-8.3a")
def test_ws_a9_where_combat_may_happen() -> None:
    """WS-A9 / WS-2.3 / WS-2.4: starting systems, absent pieces, second combat, open combat; end_turn without combat."""
    extra = [{"id": "X.w2", "pieces": {"A": {"P": 1}}}, {"id": "X.w3", "pieces": {"D": {"P": 1}}}]
    home = world_scenario({"P": 1}, {"P": 1}, extra_worlds=extra, start="D")
    assert start(home).over  # no eligible card anywhere: the skirmish ends at once (WS-8.3a)
    home["systems"].append(
        {
            "id": "Y",
            "starting_system_of": "A",
            "sun": {"id": "Y.sun", "pieces": {}},
            "worlds": [{"id": "Y.w1", "pieces": {"A": {"P": 1}, "D": {"P": 1}}}],
        }
    )
    home["systems"].append(
        {
            "id": "Z",
            "starting_system_of": None,
            "sun": {"id": "Z.sun", "pieces": {"A": {"P": 1}, "D": {"P": 1}}},
            "worlds": [{"id": "Z.w1", "pieces": {}}],
        }
    )
    st = start(home)
    for card in ("X.w1", "Y.w1"):
        with pytest.raises(RuleError) as e:
            act(st, 0, {"type": "declare_combat", "card": card})
        assert e.value.rule == "WS-2.3"
    assert [a.get("card") for a in legal(st, 0)] == ["Z.sun", None]
    base = world_scenario({"P": 2}, {"P": 2}, extra_worlds=extra)
    st = start(base)
    for card in ("X.w2", "X.w3", "X.sun"):
        with pytest.raises(RuleError) as e:
            act(st, 0, {"type": "declare_combat", "card": card})
        assert e.value.rule == "WS-2.3"
    st2 = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    with pytest.raises(RuleError) as e:
        act(st2, 0, {"type": "declare_combat", "card": "X.w1"})
    assert e.value.rule == "WS-2.4"
    assert {"type": "end_turn"} in legal(st, 0)
    st3 = act(st, 0, {"type": "end_turn"})
    assert not st3.over and st3.active == 1


@pytest.mark.rule("WS-A9", "WS-2.3", "WS-6.5", "WS-D8")
def test_ws_a9_same_card_twice_in_a_turn_rejected() -> None:
    """WS-A9 / WS-D8: a second combat on the same card in one turn is rejected."""
    st = start(world_scenario({"P": 2}, {"P": 2}, dice=[[6, 1], [1, 6]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    assert st.combat is None and ids(st, "X.w1", 0) and ids(st, "X.w1", 1)
    with pytest.raises(RuleError) as e:
        act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    assert e.value.rule == "WS-2.3"


@pytest.mark.rule("WS-A10", "WS-5.6", "WS-6.2", "WS-D14")
def test_ws_a10_tie_each_loses_no_winner() -> None:
    """WS-A10: 1P vs 1P, dice (4, 4), totals 6/6: each loses its Population; no retreat, no conversion."""
    st = start(
        world_scenario(
            {"P": 1}, {"P": 1, "F": 0}, dice=[[4, 4]], extra_worlds=[{"id": "X.w2", "pieces": {"A": {"P": 1}, "D": {"F": 1}}}]
        )
    )
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    assert st.combat is None
    assert ids(st, "X.w1", 0) == [] and ids(st, "X.w1", 1) == []
    assert st.lost == [1, 1] and st.combats_won == [0, 0] and st.converted == [0, 0]


@pytest.mark.rule("WS-A11", "WS-1.3", "WS-2.1", "WS-6.3", "WS-D9")
def test_ws_a11_sun_combat_has_no_aftermath() -> None:
    """WS-A11: on a Sun, 2P vs 1P; after any result there is no retreat or conversion step; a Factory on a Sun is rejected."""
    for dice in ([[1, 6]], [[6, 1]], [[3, 5]]):
        st = start(world_scenario({"P": 2}, {"P": 1}, sun=True, dice=dice))
        st = act(st, 0, {"type": "declare_combat", "card": "X.sun"})
        st = act(st, 0, legal(st, 0)[0])
        while st.combat is not None:
            assert st.combat.step not in ("retreat", "convert")
            seat = GAME.to_act(st)[0]
            st = act(st, seat, legal(st, seat)[0])

    bad = world_scenario({"P": 2}, {"P": 1, "F": 1}, sun=True)
    with pytest.raises(ConfigError):
        start(bad)


@pytest.mark.rule("WS-A12", "WS-4.2", "WS-5.6", "WS-6.3", "WS-6.4", "WS-D5", "WS-D9", "WS-D10")
def test_ws_a12_retreat_conversion_tie_choice() -> None:
    """WS-A12: 2P attack 3P+1F; D allocates; alpha D loses 1P; beta ties 8-8, D picks a Population; A wins;
    D retreats its P to the Sun; A converts D's Factory."""
    st = start(world_scenario({"P": 2}, {"P": 3, "F": 1}, dice=[[5, 2], [6, 3]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    assert st.combat.allocator == 1
    st = act(
        st,
        1,
        {
            "type": "allocate",
            "battles": [
                {"anchor": "A.X.w1.P1", "pieces": ["D.X.w1.P1"]},
                {"anchor": "A.X.w1.P2", "pieces": ["D.X.w1.P2", "D.X.w1.P3", "D.X.w1.F1"]},
            ],
        },
    )
    b = st.combat.battles
    assert b[0].totals == [7, 4] and b[1].totals == [8, 8]
    assert st.combat.step == "tie" and GAME.to_act(st) == (1,)  # A's only piece was removed for it
    kinds = sorted(a["piece"][-2] for a in legal(st, 1))
    assert kinds == ["F", "P"]
    alt = act(st, 1, {"type": "choose_tie_loss", "piece": "D.X.w1.F1"})
    st = act(st, 1, {"type": "choose_tie_loss", "piece": "D.X.w1.P2"})
    assert st.combat.losses == [1, 2] and st.combat.winner == 0 and st.combat.step == "retreat"
    st = act(st, 1, {"type": "retreat", "pieces": ["D.X.w1.P3"]})
    st = act(st, 0, {"type": "convert", "factory": "D.X.w1.F1"})
    assert st.combat is None
    assert ids(st, "X.w1", 0) == ["A.X.w1.P2", "D.X.w1.F1"] or ids(st, "X.w1", 0) == ["A.X.w1.P1", "D.X.w1.F1"]
    assert ids(st, "X.sun", 1) == ["D.X.w1.P3"]
    # had D removed its Factory in the tie, no conversion would be possible
    alt = act(alt, 1, {"type": "retreat", "pieces": []})
    assert alt.combat is None and alt.converted == [0, 0]


@pytest.mark.rule("WS-A13", "WS-6.4")
def test_ws_a13_no_factory_no_conversion() -> None:
    """WS-A13: 2P against 1F; A wins; D has no Factory left, so no conversion is offered."""
    st = start(
        world_scenario({"P": 2}, {"F": 1}, dice=[[6, 1]], extra_worlds=[{"id": "X.w2", "pieces": {"A": {"P": 1}, "D": {"P": 1}}}])
    )
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    assert st.combat is None and st.combats_won == [1, 0] and st.converted == [0, 0]


@pytest.mark.rule("WS-A14", "WS-5.1", "WS-7.3", "WS-D3")
def test_ws_a14_mobilisation_generale() -> None:
    """WS-A14 / WS-7: MG without an own Population is rejected; 2P + MG gives power 6; in A1, MG in battle 2 is rejected."""
    st = start(world_scenario({"P": 2}, {"P": 2}, hands={"A": ["MG"]}, dice=[[1, 1]] * 2))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(
        st,
        0,
        {
            "type": "allocate",
            "battles": [{"anchor": "D.X.w1.P1", "pieces": ["A.X.w1.P1"]}, {"anchor": "D.X.w1.P2", "pieces": ["A.X.w1.P2"]}],
        },
    )
    st = act(st, 0, {"type": "play_event", "card": "MG"})
    assert st.last_combat is not None and st.last_combat.battles[0].power == [3, 2]
    st = start(world_scenario({"P": 2}, {"P": 1}, hands={"D": ["MG"]}, dice=[[1, 1]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    st = act(st, 1, {"type": "play_event", "card": "MG"})
    assert st.last_combat.battles[0].power == [4, 3]
    grey = start(s1())
    grey = act(grey, WHITE, {"type": "declare_combat", "card": "X.w1"})
    grey = act(grey, WHITE, A1_ALLOC)
    grey = act(grey, GREY, {"type": "play_event", "card": None})
    grey = act(grey, GREY, {"type": "commit_energy", "amount": 0})
    assert grey.combat is not None and grey.combat.step == "event" and grey.combat.current == 1
    with pytest.raises(RuleError) as e:
        act(grey, GREY, {"type": "play_event", "card": "MG"})
    assert e.value.rule == "WS-7"
    st = start(world_scenario({"P": 1}, {"F": 1}, hands={"D": ["MG"]}))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    with pytest.raises(RuleError) as e:
        act(st, 1, {"type": "play_event", "card": "MG"})
    assert e.value.rule == "WS-7"
    assert legal(st, 1) == [{"type": "play_event", "card": None}]


@pytest.mark.rule("WS-A14", "WS-5.2", "WS-7.3")
def test_ws_a14_power_of_two_populations_with_mg() -> None:
    """WS-A14: grey 2P + MG gives power 6."""
    st = start(world_scenario({"P": 2}, {"P": 1}, hands={"A": ["MG"]}, dice=[[1, 1]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    st = act(st, 0, {"type": "play_event", "card": "MG"})
    assert st.combat is None
    assert st.last_combat.battles[0].power == [6, 2] and st.last_combat.battles[0].totals == [7, 3]


@pytest.mark.rule("WS-A15", "WS-6.1", "WS-7.1", "WS-7.4", "WS-D6")
def test_ws_a15_cet_native_is_not_a_loss_nor_a_tie_choice() -> None:
    """WS-A15: grey 1F + CET vs white 2P (5 vs 4); the native never counts as a loss nor as a tie choice."""
    # grey = A (attacker) with 1F, white = D with 2P: white allocates its 2P against grey's F
    lose = start(world_scenario({"F": 1}, {"P": 2}, hands={"A": ["CET"]}, dice=[[1, 6]]))
    lose = act(lose, 0, {"type": "declare_combat", "card": "X.w1"})
    lose = act(lose, 1, legal(lose, 1)[0])
    lose = act(lose, 0, {"type": "play_event", "card": "CET"})
    assert lose.lost == [1, 0]
    tie = start(world_scenario({"F": 1}, {"P": 2}, hands={"A": ["CET"]}, dice=[[4, 5]]))
    tie = act(tie, 0, {"type": "declare_combat", "card": "X.w1"})
    tie = act(tie, 1, legal(tie, 1)[0])
    tie = act(tie, 0, {"type": "play_event", "card": "CET"})
    assert tie.lost == [1, 1] and ids(tie, "X.w1", 0) == []


@pytest.mark.rule("WS-A16", "WS-7.5")
def test_ws_a16_revolte_indigene() -> None:
    """WS-A16: RI from the attacker or in a Sun battle is rejected; the defender's RI on a World adds 4."""
    st = start(world_scenario({"P": 1}, {"P": 1}, hands={"A": ["RI"], "D": ["RI"]}, dice=[[1, 1]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    with pytest.raises(RuleError) as e:
        act(st, 0, {"type": "play_event", "card": "RI"})
    assert e.value.rule == "WS-7"
    st = act(st, 0, {"type": "play_event", "card": None})
    st = act(st, 1, {"type": "play_event", "card": "RI"})
    assert st.last_combat.battles[0].power == [2, 6]
    sun = start(world_scenario({"P": 1}, {"P": 1}, sun=True, hands={"D": ["RI"]}))
    sun = act(sun, 0, {"type": "declare_combat", "card": "X.sun"})
    sun = act(sun, 0, legal(sun, 0)[0])
    with pytest.raises(RuleError) as e:
        act(sun, 1, {"type": "play_event", "card": "RI"})
    assert e.value.rule == "WS-7"


@pytest.mark.rule("WS-A17", "WS-1.4", "WS-5.3", "WS-D4")
def test_ws_a17_energy_sealed_and_spent() -> None:
    """WS-A17: over-commit rejected; the other seat sees only 'committed'; spent energy stays spent; pools public."""
    st = start(world_scenario({"P": 1}, {"P": 1}, energy={"A": 2, "D": 3}, dice=[[1, 6]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    assert GAME.to_act(st) == (0, 1)
    with pytest.raises(RuleError) as e:
        act(st, 0, {"type": "commit_energy", "amount": 3})
    assert e.value.rule == "WS-5.3"
    st = act(st, 0, {"type": "commit_energy", "amount": 2})
    other = GAME.view(st, 1)
    assert other["combat"]["sealed"] == {"committed": {"0": True, "1": False}, "own": None}
    assert "2" not in str(other["combat"]["battles"][0]["energy"])
    assert GAME.view(st, 0)["combat"]["sealed"]["own"] == 2
    assert GAME.action_view(st, 0, {"type": "commit_energy", "amount": 2}, 1) == {"type": "commit_energy", "sealed": True}
    assert other["energy"] == [2, 3]
    st = act(st, 1, {"type": "commit_energy", "amount": 0})
    assert st.energy == [0, 3] and st.lost == [1, 0]


@pytest.mark.rule("WS-A18", "WS-8.3", "WS-8.3a", "WS-8.3b", "WS-8.4")
def test_ws_a18_end_after_two_quiet_turns_and_score() -> None:
    """WS-A18: two consecutive end_turns without combat end it; 2P+1F = 5 against 2F = 2 wins; equal material draws."""
    st = start(world_scenario({"P": 2, "F": 1}, {"F": 2}))
    st = act(st, 0, {"type": "end_turn"})
    assert not st.over
    st = act(st, 1, {"type": "end_turn"})
    assert st.over
    out = GAME.outcome(st)
    assert out is not None and out.winners == (0,) and out.scores == (5.0, 2.0)
    st = start(world_scenario({"P": 1}, {"F": 2}))
    st = act(act(st, 0, {"type": "end_turn"}), 1, {"type": "end_turn"})
    assert GAME.outcome(st).winners == () and GAME.outcome(st).kind == "draw"
    none = start(world_scenario({"P": 1}, {}))
    assert none.over and GAME.to_act(none) == ()


@pytest.mark.rule("WS-8.3", "WS-8.3c")
def test_ws_8_3c_max_rounds() -> None:
    """WS-8.3(c): the skirmish ends after max_rounds complete rounds (combats keep it going)."""
    data = world_scenario({"P": 4}, {"P": 4}, dice=[[6, 1], [1, 6]] * 3)
    data["max_rounds"] = 1
    st = start(data)
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 0, legal(st, 0)[0])
    st = act(st, 0, {"type": "end_turn"})
    assert not st.over
    st = act(st, 1, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 1, legal(st, 1)[0])
    st = act(st, 1, {"type": "end_turn"})
    assert st.over and "rounds" in st.end_reason


@pytest.mark.rule("WS-8.2", "WS-D18")
def test_ws_8_2_energy_income() -> None:
    """WS-8.2: the active player receives its income at the start of its turn."""
    data = world_scenario({"P": 1}, {"P": 1}, energy={"A": 1})
    data["energy_income"] = {"A": 2, "D": 1}
    st = start(data)
    assert st.energy == [3, 0]
    st = act(st, 0, {"type": "end_turn"})
    assert st.energy == [3, 1]


@pytest.mark.rule("WS-A19", "WS-8.5")
def test_ws_a19_determinism_and_dice_script() -> None:
    """WS-A19: same scenario, seed and actions give a bit-identical log; dice_script overrides the RNG."""
    a, log_a = play_game(GAME, [RandomAgent(3), RandomAgent(4)], {"scenario": "border-worlds"}, seed=9)
    b, log_b = play_game(GAME, [RandomAgent(3), RandomAgent(4)], {"scenario": "border-worlds"}, seed=9)
    assert log_a == log_b and state_fingerprint(GAME, a) == state_fingerprint(GAME, b)
    m = Match.new(GAME, {"scenario": "border-worlds"}, 9)
    st = m.initial_state()
    for seat, action in log_a:
        st = m.play(st, seat, action)
    assert state_fingerprint(GAME, m.replay()) == state_fingerprint(GAME, a)
    for seed in (1, 2, 3):
        st = start(world_scenario({"P": 1}, {"P": 1}, dice=[[2, 5]]), seed)
        st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
        st = act(st, 0, legal(st, 0)[0])
        assert st.lost == [1, 0]


@pytest.mark.rule("WS-A20", "WS-0.2", "WS-0.3", "WS-0.4")
def test_ws_a20_labelling() -> None:
    """WS-A20 / WS-0.3: the title, views, outcome and rules page carry the combat-chapter-only notice; house cards say so."""
    st = start(s1())
    v = GAME.view(st, 0)
    assert "combat chapter only" in v["title"] and "not the full game" in v["title"]
    assert "Only the combat chapter" in v["notice"]
    assert all(c["label"] == "house rule" for c in v["cards"].values())
    assert "combat chapter" in GAME.render_text(st, 0).lower()
    assert "combat chapter" in st.log[0]
    done = act(act(start(world_scenario({"P": 1}, {"P": 1})), 0, {"type": "end_turn"}), 1, {"type": "end_turn"})
    assert "combat chapter" in GAME.outcome(done).details["notice"]

    doc = (Path(__file__).resolve().parents[2] / "docs/rules/worlds.md").read_text(encoding="utf-8")
    assert "combat chapter" in doc and "house rule" in doc


@pytest.mark.rule("WS-6.2", "WS-6.4")
def test_ws_6_2_conversion_is_optional() -> None:
    """WS-6.4 / WS-D10: the winner may decline conversion; only the loser's Factories on the card qualify."""
    st = start(world_scenario({"P": 2}, {"P": 1, "F": 1}, dice=[[6, 1], [6, 1]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(
        st,
        0,
        {
            "type": "allocate",
            "battles": [{"anchor": "D.X.w1.P1", "pieces": ["A.X.w1.P1"]}, {"anchor": "D.X.w1.F1", "pieces": ["A.X.w1.P2"]}],
        },
    )
    assert st.combat is None  # D lost everything: nothing to retreat or convert
    st = start(world_scenario({"P": 1}, {"P": 1, "F": 1}, dice=[[6, 1]]))
    st = act(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = act(st, 1, legal(st, 1)[0])
    assert st.combat is None


@pytest.mark.rule("WS-8.1", "WS-1.2", "WS-1.3", "WS-1.6")
def test_scenario_validation_rejects_bad_input() -> None:
    """§6: validation rejects two-side, id, Sun-Factory, count, starting-system and hand errors with a reason."""
    good = world_scenario({"P": 1}, {"P": 1})
    validate(good)
    bads = []
    b = dict(good, sides=["A"])
    bads.append(b)
    b = dict(good, hands={"A": ["XX"]})
    bads.append(b)
    b = world_scenario({"P": -1}, {"P": 1})
    bads.append(b)
    b = world_scenario({"P": 1}, {"P": 1}, extra_worlds=[{"id": "X.w1", "pieces": {}}])
    bads.append(b)
    b = dict(good, systems=good["systems"] + [dict(good["systems"][0], id="Y", starting_system_of="A")])
    bads.append(b)
    for bad in bads:
        with pytest.raises(ConfigError):
            validate(bad)
    two_starts = world_scenario({"P": 1}, {"P": 1}, start="A")
    second = {
        "id": "Y",
        "starting_system_of": "A",
        "sun": {"id": "Y.sun", "pieces": {}},
        "worlds": [{"id": "Y.w1", "pieces": {}}],
    }
    two_starts["systems"].append(second)
    with pytest.raises(ConfigError):
        validate(two_starts)


@pytest.mark.rule("WS-D17")
def test_random_hands_drawn_from_house_deck() -> None:
    """WS-7 / §6: {"random": n} hands are drawn from the 10-card house deck, reproducibly from the seed."""
    a = start(world_scenario({"P": 1}, {"P": 1}, hands={"A": {"random": 3}, "D": {"random": 3}}), 5)
    b = start(world_scenario({"P": 1}, {"P": 1}, hands={"A": {"random": 3}, "D": {"random": 3}}), 5)
    assert a.hands == b.hands and len(a.hands[0]) == 3 and len(a.deck) == 4
    counts = {c: (a.hands[0] + a.hands[1] + a.deck).count(c) for c in ("MG", "CET", "RI")}
    assert counts == {"MG": 4, "CET": 3, "RI": 3}


@pytest.mark.rule("WS-D22")
def test_ws_5_timeout_defaults_are_legal() -> None:
    """§5 timeout defaults (no event, 0 energy, default tie policy, no retreat, lowest-id Factory) are legal at every step."""
    for scenario in ("s1-example", "native-uprising", "border-worlds"):
        state = GAME.initial_state(GAME.normalize_config({"scenario": scenario}), 2)
        rng = Rng.from_seed(5)
        steps = 0
        while GAME.to_act(state) and steps < 300:
            seat = GAME.to_act(state)[0]
            action = GAME.timeout_action(state, seat) if steps % 2 else rng.choice(legal(state, seat))
            state = GAME.apply(state, seat, action)
            steps += 1
        assert GAME.outcome(state) is not None


@pytest.mark.rule("WS-8.1")
def test_config_options_and_player_names() -> None:
    """WS-8.1: the lobby options name the shipped scenarios; a bad inline scenario is a configuration error."""
    cfg = GAME.normalize_config({"scenario": "sun-orbit"})
    assert GAME.player_names(cfg) == ["amber", "teal"]
    assert "s1-example" in next(o for o in GAME.options() if o.name == "scenario").choices
    with pytest.raises(ConfigError):
        GAME.normalize_config({"scenario_json": {"format": "nope"}})
    with pytest.raises(ConfigError):
        GAME.normalize_config({"scenario": "no-such-scenario"})
