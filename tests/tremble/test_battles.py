"""Planning, battles, rewards, armies, stations, missions and scoring (TH-6 to TH-14 and their scenarios TH-A)."""

from __future__ import annotations

import pytest

from spacetable.core.errors import RuleError
from spacetable.games.tremble import GAME
from spacetable.games.tremble.battle import check_choose_loss, draw_comp, strength, total
from spacetable.games.tremble.cards import Army, get_set
from spacetable.games.tremble.flow import end_game, start_turn
from spacetable.games.tremble.missions import final_scoring, mission_count, split_prizes

from .tremble_helpers import FIXTURE_KEY, fixture_set, plan, position

H = get_set("house")
BS, BT, ZC, ZT = "watch_saucer#1", "reaper_tripod#1", "hammer_cruiser#1", "scholar_tripod#1"
TRAIN = "training#1"


def seoul_battle():
    s = position(2, {0: [BS, BT], 1: [ZC, ZT]}, ["seoul", "london", "berlin"], humans={0: 100000, 1: 100000})
    s = GAME.apply(s, 0, plan({1: [BS, BT]}))
    return GAME.apply(s, 1, plan({1: [ZC, ZT]}))


@pytest.mark.rule(
    "TH-A10", "TH-0.2", "TH-9.1", "TH-9.2", "TH-9.3", "TH-9.5", "TH-9.6", "TH-9.7", "TH-9.8", "TH-9.10", "TH-10.1",
    "TH-10.2", "TH-12.1", "TH-C3"
)
def test_TH_A10_seoul_battle_and_raid() -> None:
    s = seoul_battle()
    assert s.phase == "declare" and s.contest.order == [0, 1]  # Bender 14 declares before Zoidberg 17
    assert strength(s, H, 0, False) == 14 and strength(s, H, 1, False) == 17
    s.rng.forced = [4, 6, 2, 4]
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    assert s.phase == "loss" and s.sealed.required == [1]  # Zoidberg: 23 < 24
    assert "battle totals: seat 0 24, seat 1 23" in s.events
    assert GAME.legal_actions(s, 1) == [{"type": "choose_loss", "ship": ZC}, {"type": "choose_loss", "ship": ZT}]
    s = GAME.apply(s, 1, {"type": "choose_loss", "ship": ZT})
    assert ZT in s.ship_discard and len(s.players[1].comps) == 1 and s.players[1].comp_turns == [5]
    assert s.phase == "reward" and GAME.to_act(s) == (0,)
    s = GAME.apply(s, 0, {"type": "reward", "choice": "raid"})
    assert s.players[0].humans == 150000 and "seoul" in s.players[0].trophies


@pytest.mark.rule("TH-A9", "TH-0.3", "TH-D25", "TH-D13", "TH-D14", "TH-11.2", "TH-11.3", "TH-H3", "TH-D4")
def test_TH_A9_paris_with_stations() -> None:
    fixture_set()
    saucer, armada = "huntress_saucer#1", "armada_cruiser#1"
    s = position(
        2,
        {0: [saucer, ZT], 1: [armada]},
        ["paris", "london", "berlin"],
        stations={0: ["fx_boost3#1"], 1: ["jammer#1"]},
        card_set=FIXTURE_KEY,
    )
    s = GAME.apply(s, 0, plan({1: [saucer, ZT]}))
    s = GAME.apply(s, 1, plan({1: [armada]}))
    assert s.contest.order == [1, 0]  # 13 < 14: Zoidberg first
    s.rng.forced = [3, 4, 4, 5]
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    assert (total(s, GAME.cards(s), 0), total(s, GAME.cards(s), 1)) == (21, 22) and s.contest.offer == 0
    s = GAME.apply(s, 0, {"type": "use_station", "station": "fx_boost3#1", "target": saucer})
    assert (total(s, GAME.cards(s), 0), s.contest.offer) == (24, 1)
    variant = GAME.apply(s, 1, {"type": "use_station", "station": "jammer#1", "target": saucer})
    assert "battle totals: seat 0 21, seat 1 22" in variant.events and variant.contest.winner == 1  # variant: 21 vs 22
    s = GAME.apply(s, 1, {"type": "use_station", "station": "jammer#1", "target": ZT})
    assert s.phase == "loss" and s.contest.winner == 1  # both then pass silently
    assert "battle totals: seat 0 18, seat 1 22" in s.events
    assert "fx_boost3#1" in s.players[0].tapped and "jammer#1" in s.players[1].tapped
    s = GAME.apply(s, 0, {"type": "choose_loss", "ship": saucer})
    assert len(s.players[0].comps) == 1 and s.phase == "reward"


@pytest.mark.rule("TH-A11", "TH-9.6", "TH-6.4")
def test_TH_A11_tie_reroll_uses_fresh_dice() -> None:
    a = "spark_saucer#1"
    s = position(2, {0: ["bastion_cruiser#1", a], 1: ["bastion_cruiser#2", "drifter_saucer#1"]}, ["cairo", "london", "berlin"])
    s = GAME.apply(s, 0, plan({1: ["bastion_cruiser#1", a]}))  # 10 + 2 = 12
    s = GAME.apply(s, 1, plan({1: ["bastion_cruiser#2", "drifter_saucer#1"]}))  # 10 + 4 = 14
    s.support[0][1] = 1  # 15 via a token, as in the scenario
    s.rng.forced = [4, 5, 3, 3, 1, 3, 4, 4]
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    assert s.contest.winner == 1 and s.contest.dice == {0: 4, 1: 8}  # 21 vs 21 → 16 vs 23
    totals = [e for e in s.events if e.startswith("battle totals")]
    assert totals == ["battle totals: seat 0 21, seat 1 21", "battle totals: seat 0 16, seat 1 23"]


@pytest.mark.rule("TH-A12", "TH-D9", "TH-9.6", "TH-9.7", "TH-9.8", "TH-H4", "IM-5")
def test_TH_A12_three_captains() -> None:
    hands = {0: ["bastion_cruiser#1"], 1: ["bastion_cruiser#2", "spark_saucer#1"], 2: ["armada_cruiser#1", "spark_saucer#2"]}
    s = position(3, hands, ["cairo", "london", "berlin", "rome"])
    for i in range(3):
        s = GAME.apply(s, i, plan({1: hands[i]}))
    assert s.contest.order == [0, 1, 2]  # 10, 12, 15
    s.rng.forced = [4, 4, 3, 3, 1, 1, 2, 3, 1, 2, 4, 5, 2, 2]
    for i in range(3):
        s = GAME.apply(s, i, {"type": "declare", "choice": "fight"})
    assert s.contest.winner == 0 and sorted(s.contest.losers) == [1, 2]
    totals = [e for e in s.events if e.startswith("battle totals")]
    assert totals == [
        "battle totals: seat 0 18, seat 1 18, seat 2 17",
        "battle totals: seat 0 15, seat 1 15",
        "battle totals: seat 0 19, seat 1 16",
    ]
    assert s.phase == "loss" and s.sealed.required == [1, 2]
    s = GAME.apply(s, 1, {"type": "choose_loss", "ship": "spark_saucer#1"})
    s = GAME.apply(s, 2, {"type": "choose_loss", "ship": "spark_saucer#2"})
    assert len(s.players[1].comps) == 1 and len(s.players[2].comps) == 1


@pytest.mark.rule("TH-A13", "TH-A14", "TH-D16", "TH-9.7", "TH-D11", "TH-H3")
def test_TH_A13_A14_immortal_saucer() -> None:
    s = position(2, {0: [TRAIN], 1: ["bastion_cruiser#1"]}, ["cairo", "london", "berlin"])
    s = GAME.apply(s, 0, plan({1: [TRAIN]}))
    s = GAME.apply(s, 1, plan({1: ["bastion_cruiser#1"]}))
    s.rng.forced = [1, 1, 6, 6]
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    assert TRAIN in s.players[0].hand and len(s.players[0].comps) == 1  # TH-D16
    s = position(2, {0: [TRAIN, BT], 1: ["armada_cruiser#1"]}, ["cairo", "london", "berlin"])
    s = GAME.apply(s, 0, plan({1: [TRAIN, BT]}))
    s = GAME.apply(s, 1, plan({1: ["armada_cruiser#1"]}))
    s.rng.forced = [1, 1, 6, 6]
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    assert BT in s.ship_discard and TRAIN in s.players[0].hand  # only option: chosen automatically
    with pytest.raises(RuleError, match=r"TH-9\.7"):
        check_choose_loss(s, H, 0, {"type": "choose_loss", "ship": TRAIN})


@pytest.mark.rule("TH-A15", "TH-A16", "TH-9.3", "TH-9.4", "TH-D3")
def test_TH_A15_A16_flee() -> None:
    s = position(2, {0: ["spark_saucer#1"], 1: ["bastion_cruiser#1"]}, ["cairo", "london", "berlin"])
    s = GAME.apply(s, 0, plan({1: ["spark_saucer#1"]}))
    s = GAME.apply(s, 1, plan({1: ["bastion_cruiser#1"]}))
    f = GAME.apply(s, 0, {"type": "declare", "choice": "flee"})
    before = f.rng.state
    f = GAME.apply(f, 1, {"type": "declare", "choice": "fight"})
    assert f.phase == "reward" and f.rng.state == before and f.players[0].comps == []
    both = GAME.apply(GAME.apply(s, 0, {"type": "declare", "choice": "flee"}), 1, {"type": "declare", "choice": "flee"})
    assert "cairo" in both.city_discard and both.players[0].comps == [] and both.players[1].comps == []


@pytest.mark.rule("TH-A17", "TH-D4", "TH-9.2", "TH-2.8")
def test_TH_A17_declaration_tie_order() -> None:
    hands = {0: ["bastion_cruiser#1", TRAIN], 1: ["bastion_cruiser#2", "training#2"]}
    s = position(2, hands, ["cairo", "london", "berlin"], humans={0: 120000, 1: 70000})
    s = GAME.apply(s, 0, plan({1: hands[0]}))
    s = GAME.apply(s, 1, plan({1: hands[1]}))
    assert s.contest.order == [1, 0]
    s = position(2, hands, ["cairo", "london", "berlin"], humans={0: 100000, 1: 100000}, turn=4)  # lead seat 1
    s = GAME.apply(s, 0, plan({1: hands[0]}))
    s = GAME.apply(s, 1, plan({1: hands[1]}))
    assert s.contest.order == [1, 0]


def catch_position(ships: list[str], armies: list[str]):
    s = position(2, {0: ships}, ["seoul", "london", "berlin"])
    s = GAME.apply(s, 0, plan({1: ships}))
    s.army_deck = list(reversed(armies)) + s.army_deck[:0]
    return s


@pytest.mark.rule("TH-A18", "TH-10.3", "TH-10.4", "TH-10.5", "TH-10.6", "TH-D2")
def test_TH_A18_catch_with_exact_total() -> None:
    s = catch_position([ZC, ZT], ["no_army#1", "army_25#1"])
    s.contest = s.contest
    # the house set may already carry these armies: add (and later remove) only the missing ones, so
    # the shared cached set is left exactly as it was (later tests and memoised setups read it)
    added = [a for a in ("army_25#1", "army_26#1") if a not in H.armies]
    H.armies.setdefault("army_25#1", Army("army_25#1", "army_25", "Army 25", "Армия 25", 25))
    H.armies.setdefault("army_26#1", Army("army_26#1", "army_26", "Army 26", "Армия 26", 26))
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    assert s.phase == "army" and [H.armies[a].strength for a in s.contest.armies] == [25]
    s.rng.forced = [1, 1]
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    assert s.players[0].humans == 180000 and "seoul" in s.players[0].trophies
    s = catch_position([ZC, ZT], ["no_army#1", "army_26#1"])
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    s.rng.forced = [1, 1]
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    assert s.phase == "loss"
    s = GAME.apply(s, 0, {"type": "choose_loss", "ship": ZC})
    assert s.players[0].humans == 100000 and "seoul" in s.city_discard and s.players[0].comps == []
    for a in added:
        del H.armies[a]


@pytest.mark.rule("TH-A19", "TH-A20", "TH-10.6", "TH-10.7", "TH-10.8")
def test_TH_A19_A20_catch_failed_and_flee_mid_catch() -> None:
    s = catch_position(["bastion_cruiser#1", "spark_saucer#1"], ["army_20#1"])  # strength 12 (vs army)
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    s.rng.forced = [3, 4]
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    s = GAME.apply(s, 0, {"type": "choose_loss", "ship": "spark_saucer#1"})
    assert s.players[0].humans == 100000 and "army_20#1" in s.army_discard and "seoul" in s.city_discard
    s = catch_position(["bastion_cruiser#1", "drifter_saucer#1"], ["army_12#1", "no_army#2"])  # ×2 at Seoul
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    s.contest.armies.append("army_24#1")
    s.rng.forced = [2, 3]
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    assert s.phase == "army" and s.contest.army_pos == 1
    s = GAME.apply(s, 0, {"type": "army", "choice": "flee"})
    assert s.players[0].humans == 100000 and "seoul" in s.city_discard and len(s.players[0].hand) == 2


@pytest.mark.rule("TH-A2", "TH-6.3", "TH-D1", "TH-7.1", "TH-D10", "TH-12.2")
def test_TH_A2_fuel_limits() -> None:
    s = position(2, {0: [TRAIN, BT, "spark_saucer#1"]}, ["cairo", "london", "berlin"], turn=1)
    assert GAME.apply(s, 0, plan({2: [TRAIN, BT]}))
    with pytest.raises(RuleError, match=r"TH-6\.3"):
        GAME.apply(s, 0, plan({2: [TRAIN, BT], 3: ["spark_saucer#1"]}))
    s = position(2, {0: [BT, ZC]}, ["cairo", "london", "berlin"], turn=3)
    with pytest.raises(RuleError, match=r"TH-6\.3"):
        GAME.apply(s, 0, plan({1: [BT, ZC]}))
    s.players[0].comps, s.players[0].comp_turns = ["spare_tank#1"], [2]
    s2 = GAME.apply(s, 0, plan({1: [BT, ZC]}, fuel_cards=["spare_tank#1"]))
    assert s2.sealed.waiting() == ()  # seat 1 has no ships and plans nothing (TH-D10): plans are revealed
    assert "spare_tank#1" in s2.comp_discard
    assert s.fuel[8] == 12 and s.fuel[9] == 12


@pytest.mark.rule("TH-A27", "TH-6.1", "TH-6.2", "TH-D10", "TH-D21", "TH-11.1")
def test_TH_A27_illegal_plans() -> None:
    s = position(4, {0: [TRAIN, BT], 1: [ZC]}, ["cairo", "london", "berlin", "rome", "madrid"])
    bad = [
        {"type": "plan", "groups": [{"slot": 1, "ships": []}], "fuel_cards": [], "stations": []},
        plan({1: [TRAIN]}) | {"groups": [{"slot": 1, "ships": [TRAIN]}, {"slot": 1, "ships": [BT]}]},
        {
            "type": "plan",
            "groups": [{"slot": 1, "ships": [TRAIN]}, {"slot": 2, "ships": [TRAIN]}],
            "fuel_cards": [],
            "stations": [],
        },
        plan({6: [TRAIN]}),
        plan({1: ["amplifier#1"]}),
        plan({1: [ZC]}),
    ]
    for a in bad:
        with pytest.raises(RuleError):
            GAME.apply(s, 0, a)


@pytest.mark.rule("TH-A8", "TH-8.1", "TH-8.2", "TH-D23", "TH-5.1")
def test_TH_A8_resolution_order_four_players() -> None:
    hands = {
        0: ["spark_saucer#1"],
        1: ["spark_saucer#2", "spark_saucer#3"],
        2: ["bastion_cruiser#1", "watch_saucer#2"],
        3: ["spark_saucer#4", TRAIN],
    }
    cities = ["cairo", "london", "berlin", "rome", "madrid"]
    s = position(4, hands, cities, turn=1)
    s.fuel = [20] * 10
    s = GAME.apply(s, 0, plan({1: ["spark_saucer#1"]}))
    s = GAME.apply(s, 1, plan({1: ["spark_saucer#2"], 2: ["spark_saucer#3"]}))
    s = GAME.apply(s, 2, plan({4: ["bastion_cruiser#1"], 5: ["watch_saucer#2"]}))
    s = GAME.apply(s, 3, plan({5: ["spark_saucer#4", TRAIN]}))
    assert s.phase == "declare" and s.slot == 0 and sorted(s.contest.order) == [0, 1]
    s = GAME.apply(s, s.contest.order[0], {"type": "declare", "choice": "flee"})
    s = GAME.apply(s, s.contest.order[0], {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 1, {"type": "reward", "choice": "raid"})
    assert s.slot == 1 and s.phase == "reward" and GAME.to_act(s) == (1,)
    s = GAME.apply(s, 1, {"type": "reward", "choice": "raid"})
    assert "berlin" in s.city_discard and s.slot == 3 and GAME.to_act(s) == (2,)
    s = GAME.apply(s, 2, {"type": "reward", "choice": "raid"})
    assert s.slot == 4 and s.phase == "declare" and sorted(s.contest.order) == [2, 3]


@pytest.mark.rule("TH-A21", "TH-14.1", "TH-14.2", "TH-14.3", "TH-14.4", "TH-14.5", "TH-D6", "TH-D7")
def test_TH_A21_mission_splits() -> None:
    assert split_prizes([3, 3, 1, 0]) == [150000, 150000, 0, 0]
    assert split_prizes([4, 2, 2, 1]) == [200000, 50000, 50000, 0]
    assert split_prizes([2, 1, 1, 1]) == [200000, 30000, 30000, 30000]
    assert split_prizes([1, 1, 1, 1]) == [70000] * 4
    assert split_prizes([1, 0, 0, 0]) == [200000, 0, 0, 0]
    assert split_prizes([0, 0, 0, 0]) == [0] * 4
    assert split_prizes([2, 1, 1, 1], unit=1) == [200000, 33333, 33333, 33333]
    assert split_prizes([1, 1, 1, 1], unit=1) == [75000] * 4
    both = next(c for c in H.cities.values() if c.region == "asia" and c.city_type == "science")
    assert mission_count(H, H.missions["m_asia"], [both.id]) == 1 and mission_count(H, H.missions["m_science"], [both.id]) == 1


@pytest.mark.rule("TH-A28", "TH-D22", "TH-14.6")
def test_TH_A28_final_tie_breaks() -> None:
    s = GAME.initial_state({"players": 2}, 1)
    s.phase = "over"
    s.players[0].humans, s.players[1].humans = 620000, 620000
    s.players[0].trophies, s.players[1].trophies = ["cairo"] * 7, ["rome"] * 6
    assert GAME.outcome(s).winners == (0,)
    s.players[1].trophies = ["rome"] * 7
    s.players[0].credits_taken = 1
    assert GAME.outcome(s).winners == (1,)
    s.players[1].credits_taken = 1
    assert GAME.outcome(s).winners == (0, 1)


@pytest.mark.rule("TH-A22", "TH-11.2", "TH-12.2")
def test_TH_A22_once_per_turn_and_next_turn_comp() -> None:
    s = position(
        2, {0: ["bastion_cruiser#1"], 1: ["armada_cruiser#1"]}, ["cairo", "london", "berlin"], stations={0: ["amplifier#1"]}
    )
    s.players[0].comps, s.players[0].comp_turns = ["war_cry#1"], [5]  # received this turn: not usable
    s = GAME.apply(s, 0, plan({1: ["bastion_cruiser#1"]}))
    s = GAME.apply(s, 1, plan({1: ["armada_cruiser#1"]}))
    s.rng.forced = [1, 1, 6, 6]
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    acts = GAME.legal_actions(s, 0)
    assert {"type": "use_station", "station": "amplifier#1", "target": "bastion_cruiser#1"} in acts
    assert not any(a.get("card") == "war_cry#1" for a in acts)
    s = GAME.apply(s, 0, {"type": "use_station", "station": "amplifier#1", "target": "bastion_cruiser#1"})
    assert "amplifier#1" in s.players[0].tapped


@pytest.mark.rule("TH-A23", "TH-7.2", "TH-7.3", "TH-D24")
def test_TH_A23_relocation_breaks_partner_bonus() -> None:
    s = position(2, {0: [BS, BT], 1: ["bastion_cruiser#1"]}, ["seoul", "london", "berlin"], stations={1: ["gravity_grapple#1"]})
    s = GAME.apply(s, 0, plan({1: [BS, BT]}))
    s = GAME.apply(s, 1, plan({2: ["bastion_cruiser#1"]}))
    assert s.phase == "station_move"
    s = GAME.apply(s, 1, {"type": "relocate_enemy", "station": "gravity_grapple#1", "ship": BS, "to_slot": 3})
    assert s.groups[0] == {0: [BT]} and s.groups[2] == {0: [BS]}
    s.slot = 0
    assert strength(s, H, 0, False) == 5


@pytest.mark.rule("TH-A23", "TH-7.2", "TH-7.3")
def test_TH_A23c_simultaneous_self_moves() -> None:
    s = position(2, {0: ["hopper_tripod#1"], 1: ["hopper_tripod#2"]}, ["seoul", "london", "berlin"])
    s = GAME.apply(s, 0, plan({1: ["hopper_tripod#1"]}))
    s = GAME.apply(s, 1, plan({2: ["hopper_tripod#2"]}))
    assert s.phase == "self_move"
    s = GAME.apply(s, 0, {"type": "relocate_self", "moves": [{"ship": "hopper_tripod#1", "to_slot": 3}]})
    s = GAME.apply(s, 1, {"type": "relocate_self", "moves": [{"ship": "hopper_tripod#2", "to_slot": 3}]})
    assert s.slot == 2 and s.phase == "declare"


@pytest.mark.rule("TH-A24", "TH-9.9", "TH-D27", "TH-H4")
def test_TH_A24_take_city_after_loss() -> None:
    hands = {0: ["armada_cruiser#1"], 1: ["spark_saucer#1"], 2: ["spark_saucer#2"]}
    s = position(3, hands, ["berlin", "london", "cairo", "rome"])
    s.players[1].comps, s.players[1].comp_turns = ["sore_loser#1"], [1]
    s.players[2].comps, s.players[2].comp_turns = ["sore_loser#2"], [1]
    for i in range(3):
        s = GAME.apply(s, i, plan({1: hands[i]}))
    s.rng.forced = [1, 1, 1, 1, 6, 6]
    for seat in list(s.contest.order):
        s = GAME.apply(s, seat, {"type": "declare", "choice": "fight"})
    while s.phase == "respond":
        s = GAME.apply(s, s.contest.offer, {"type": "pass"})
    assert s.phase == "loss" and s.sealed.required == [1, 2]  # they hold usable cards: choices are sealed
    s = GAME.apply(s, 1, {"type": "choose_loss", "ship": "spark_saucer#1"})
    s = GAME.apply(s, 2, {"type": "choose_loss", "ship": "spark_saucer#2"})
    assert s.phase == "claim" and s.sealed.required == [1, 2]
    s.rng.forced = [5, 5, 2, 6]
    s = GAME.apply(s, 1, {"type": "claim_city", "card": "sore_loser#1"})
    s = GAME.apply(s, 2, {"type": "claim_city", "card": "sore_loser#2"})
    assert "berlin" in s.players[2].trophies and "sore_loser#1" in s.players[1].comps
    s = GAME.apply(s, 0, {"type": "reward", "choice": "raid"})
    assert s.players[0].humans == 100000 + H.cities["berlin"].raid and "berlin" not in s.players[0].trophies


@pytest.mark.rule("TH-A26", "TH-12.2")
def test_TH_A26_compensation_reshuffle() -> None:
    s = GAME.initial_state({"players": 2}, 1)
    s.comp_discard = s.comp_deck[:6]
    s.comp_deck = []
    draw_comp(s, 0)
    assert len(s.players[0].comps) == 1 and len(s.comp_deck) == 5 and s.comp_discard == []


@pytest.mark.rule("TH-A23", "TH-7.2", "TH-11.2")
def test_TH_A23b_station_move_before_self_move() -> None:
    s = position(
        2, {0: ["spark_saucer#1"], 1: ["hopper_tripod#1"]}, ["seoul", "london", "berlin"], stations={0: ["gravity_grapple#1"]}
    )
    s = GAME.apply(s, 0, plan({1: ["spark_saucer#1"]}))
    s = GAME.apply(s, 1, plan({2: ["hopper_tripod#1"]}))
    assert s.phase == "station_move" and s.sealed.required == [0]
    s = GAME.apply(s, 0, {"type": "relocate_enemy", "station": "gravity_grapple#1", "ship": "hopper_tripod#1", "to_slot": 3})
    assert s.phase == "self_move" and s.groups[2] == {1: ["hopper_tripod#1"]}
    s = GAME.apply(s, 1, {"type": "relocate_self", "moves": [{"ship": "hopper_tripod#1", "to_slot": 1}]})
    assert s.phase == "declare" and s.slot == 0 and sorted(s.groups[0]) == [0, 1]


@pytest.mark.rule("TH-A22", "TH-3.2", "TH-11.2")
def test_TH_A22_tapped_station_is_back_next_turn() -> None:
    s = position(
        2, {0: ["bastion_cruiser#1"], 1: ["armada_cruiser#1"]}, ["cairo", "london", "berlin"], stations={0: ["amplifier#1"]}
    )
    s.players[0].tapped = ["amplifier#1"]
    s = GAME.apply(s, 0, plan({1: ["bastion_cruiser#1"]}))
    s = GAME.apply(s, 1, plan({1: ["armada_cruiser#1"]}))
    s.rng.forced = [1, 1, 6, 6]
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    assert s.phase != "respond"  # tapped at an earlier slot: not offered again this turn
    s.turn += 1
    start_turn(s, H)
    assert s.players[0].tapped == []


@pytest.mark.rule("TH-14.1", "TH-14.6", "TH-13.4", "TH-D5")
def test_TH_14_final_scoring_missions_then_credits() -> None:
    """TH-14.1, TH-14.6: prizes from trophies (one trophy may count twice), then −60,000 per unpaid credit."""
    s = GAME.initial_state({"players": 3}, 1)
    s.missions = ["m_science", "m_asia"]
    sci_asia = next(c.id for c in H.cities.values() if c.region == "asia" and c.city_type == "science")
    sci_eu = next(c.id for c in H.cities.values() if c.region == "europe" and c.city_type == "science")
    asia_cu = next(c.id for c in H.cities.values() if c.region == "asia" and c.city_type == "culture")
    asia_in = next(c.id for c in H.cities.values() if c.region == "asia" and c.city_type == "industrial")
    sci_na = next(c.id for c in H.cities.values() if c.region == "north_america" and c.city_type == "science")
    asia_cu2 = next(c.id for c in H.cities.values() if c.region == "asia" and c.city_type == "culture" and c.id != asia_cu)
    a, b, c = s.players
    a.trophies, b.trophies, c.trophies = [sci_asia, sci_eu], [asia_cu, asia_in, sci_na], [asia_cu2]
    a.humans, b.humans, c.humans = 430000, 520000, 100000
    a.credits = 1
    final_scoring(s, H)
    end_game(s)
    # science: A 2, B 1, C 0 → 200k / 100k; asia: B 2, A 1, C 1 → B 200k, A and C 50k each
    assert s.final["m_science"] == [200000, 100000, 0] and s.final["m_asia"] == [50000, 200000, 50000]
    assert [p.humans for p in s.players] == [430000 + 250000 - 60000, 520000 + 300000, 150000]
    out = GAME.outcome(s)
    assert out is not None and out.winners == (1,) and out.details["credits"] == [-60000, 0, 0]


@pytest.mark.rule("TH-7.2", "TH-H4")
def test_TH_7_2a_competing_station_moves_roll_d6() -> None:
    """TH-7.2(a): two station moves on one ship → 1d6 each (ties rerolled); the loser's station stays untapped."""
    fixture_set()
    hands = {0: ["spark_saucer#1"], 1: ["spark_saucer#2"], 2: ["bastion_cruiser#1"]}
    s = position(
        3,
        hands,
        ["seoul", "london", "berlin", "rome"],
        stations={0: ["gravity_grapple#1"], 1: ["fx_grapple#1"]},
        card_set=FIXTURE_KEY,
    )
    for i in range(3):
        s = GAME.apply(s, i, plan({i + 1: hands[i]}))
    assert s.phase == "station_move" and s.sealed.required == [0, 1]
    s = GAME.apply(s, 0, {"type": "relocate_enemy", "station": "gravity_grapple#1", "ship": "bastion_cruiser#1", "to_slot": 1})
    s.rng.forced = [4, 4, 2, 5]
    s = GAME.apply(s, 1, {"type": "relocate_enemy", "station": "fx_grapple#1", "ship": "bastion_cruiser#1", "to_slot": 4})
    assert s.groups[3] == {2: ["bastion_cruiser#1"]} and s.groups[2] == {}
    assert "fx_grapple#1" in s.players[1].tapped and "gravity_grapple#1" not in s.players[0].tapped


@pytest.mark.rule("TH-10.3", "TH-10.5", "TH-H5")
def test_TH_10_3_ignore_army_card_before_the_fights() -> None:
    """TH-10.3: a usable ignore_army card discards one revealed army unfought; with none left the catch succeeds."""
    s = catch_position(["spark_saucer#1"], ["army_30#1", "no_army#1"])
    s.players[0].comps, s.players[0].comp_turns = ["smoke_screen#1"], [1]
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    assert s.phase == "ignore_army"
    assert GAME.legal_actions(s, 0) == [{"type": "pass"}, {"type": "ignore_army", "card": "smoke_screen#1", "army_index": 0}]
    s = GAME.apply(s, 0, {"type": "ignore_army", "card": "smoke_screen#1", "army_index": 0})
    seoul = H.cities["seoul"]
    assert s.players[0].humans == 100000 + seoul.catch and "seoul" in s.players[0].trophies
    assert "smoke_screen#1" in s.comp_discard and "army_30#1" in s.army_discard


@pytest.mark.rule("TH-D2", "TH-10.6", "TH-12.1", "TH-9.7", "TH-H3")
def test_TH_D2_salvage_and_army_loss_gives_no_compensation() -> None:
    """TH-10.6 / TH-D2 with a usable salvage card: no ship destroyed, no humans, no compensation card."""
    s = catch_position(["spark_saucer#1", "watch_saucer#1"], ["army_30#1"])
    s.players[0].comps, s.players[0].comp_turns = ["repair_drones#1"], [1]
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    s.rng.forced = [1, 1]
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    assert s.phase == "respond" and GAME.legal_actions(s, 0) == [{"type": "pass"}]  # holds a card: asked, not skipped
    s = GAME.apply(s, 0, {"type": "pass"})
    assert s.phase == "loss"
    s = GAME.apply(s, 0, {"type": "use_compensation", "card": "repair_drones#1"})
    assert len(s.players[0].hand) == 2 and s.players[0].comps == [] and s.players[0].humans == 100000


@pytest.mark.rule("TH-D28", "TH-10.2")
def test_TH_D28_humans_have_no_upper_cap() -> None:
    """TH-D28: the printed track ends at 740,000; the engine counts on."""
    s = position(2, {0: [ZC]}, ["seoul", "london", "berlin"], humans={0: 900000})
    s = GAME.apply(s, 0, plan({1: [ZC]}))
    s = GAME.apply(s, 0, {"type": "reward", "choice": "raid"})
    assert s.players[0].humans == 900000 + H.cities["seoul"].raid
