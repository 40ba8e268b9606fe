"""Decisions of the spec that no TH-A scenario pins down (TH-D15, TH-D18, TH-D19, TH-D20, TH-D27, TH-D30)."""

from __future__ import annotations

import pytest

from spacetable.games.tremble import GAME
from spacetable.games.tremble.battle import draw_comp
from spacetable.games.tremble.cards import get_set

from .tremble_helpers import plan, position

H = get_set("house")


def _catch(ships: list[str], armies: list[str]):
    """Seat 0 alone at Seoul (×2) with ``ships``; the army deck reveals ``armies`` in this order."""
    s = position(2, {0: ships}, ["seoul", "london", "berlin"])
    s = GAME.apply(s, 0, plan({1: ships}))
    assert s.phase == "reward"
    s.army_deck = list(reversed(armies))
    return s


@pytest.mark.rule("TH-D15", "TH-10.4", "TH-10.6")
def test_TH_D15_group_modifier_lasts_for_one_army_fight_only() -> None:
    """TH-D15 / TH-10.4: a boost_group played in the first army fight does not help in the second."""
    cruiser = "bastion_cruiser#1"  # strength 10, no abilities
    s = _catch([cruiser], ["army_12#1", "army_20#1"])
    s.players[0].comps, s.players[0].comp_turns = ["war_cry#1"], [1]
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    assert s.phase == "army"
    s.rng.forced = [1, 1]
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    assert s.phase == "respond" and s.contest.offer == 0
    s = GAME.apply(s, 0, {"type": "use_compensation", "card": "war_cry#1"})
    assert s.phase == "army" and s.contest.army_pos == 1  # 10 + 2 + 3 = 15 >= 12
    s.rng.forced = [4, 4]  # 10 + 8 = 18 < 20; with the old +3 it would be 21
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    assert s.players[0].humans == 100000 and "seoul" in s.city_discard and "seoul" not in s.players[0].trophies
    assert cruiser in s.ship_discard and s.players[0].comps == []  # TH-10.6: the loss, no compensation


@pytest.mark.rule("TH-D18", "TH-10.8", "TH-10.7")
def test_TH_D18_empty_army_deck_is_rebuilt_from_its_discard() -> None:
    """TH-10.8 / TH-D18: an empty army deck is rebuilt by shuffling the discard during a reveal;
    the revealed cards go to the discard once the catch is over."""
    s = _catch(["bastion_cruiser#1"], ["army_12#1"])
    s.army_discard = ["army_20#1", "army_30#1"]
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    revealed = list(s.contest.revealed)
    assert len(revealed) == 2 and revealed[0] == "army_12#1" and revealed[1] in ("army_20#1", "army_30#1")
    assert s.army_discard == [] and len(s.army_deck) == 1 and s.army_deck[0] not in revealed
    s = GAME.apply(s, 0, {"type": "army", "choice": "flee"})  # TH-10.7
    assert sorted(s.army_discard) == sorted(revealed) and "seoul" in s.city_discard


@pytest.mark.rule("TH-D19")
def test_TH_D19_no_compensation_when_deck_and_discard_are_empty() -> None:
    """TH-D19: compensation deck and discard both empty → the loser gets no card."""
    s = GAME.initial_state({"players": 2}, 1)
    s.comp_deck, s.comp_discard = [], []
    draw_comp(s, 0)
    assert s.players[0].comps == [] and s.players[0].comp_turns == []


@pytest.mark.rule("TH-D20", "TH-4.2", "TH-H2")
def test_TH_D20_station_redraw_repeats_while_two_stations() -> None:
    """TH-4.2 / TH-D20: after a redraw that again shows two stations the player may redraw again."""
    s = GAME.initial_state({"players": 2}, 3)
    s.turn = 1
    p = s.players[0]
    p.drawn = ["amplifier#1", "jammer#1"]
    s.players[1].drawn = ["spark_saucer#2", "watch_saucer#1"]
    s.blue_deck = ["spark_saucer#1", "fuel_depot#1", "beacon#1", "amplifier#2"]  # drawn from the end
    s.queue, s.phase = [0], "redraw"
    assert GAME.to_act(s) == (0,) and GAME.legal_actions(s, 0) == [{"type": "redraw_stations"}, {"type": "keep"}]
    s = GAME.apply(s, 0, {"type": "redraw_stations"})
    assert s.players[0].drawn == ["amplifier#2", "beacon#1"] and s.phase == "redraw" and GAME.to_act(s) == (0,)
    s = GAME.apply(s, 0, {"type": "redraw_stations"})
    assert s.players[0].drawn == ["fuel_depot#1", "spark_saucer#1"] and s.phase == "buy"
    assert {"amplifier#1", "jammer#1", "amplifier#2", "beacon#1"} <= set(s.ship_discard)


@pytest.mark.rule("TH-D27", "TH-9.9")
def test_TH_D27_claimed_city_stays_with_the_loser_when_the_winner_fails_the_catch() -> None:
    """TH-9.9 / TH-D27: a loser takes the city with take_city_after_loss; the winner then fails a catch:
    no humans for the winner, the card player keeps the trophy and the city is not discarded."""
    s = position(2, {0: ["armada_cruiser#1"], 1: ["spark_saucer#1"]}, ["berlin", "london", "cairo"])
    s.players[1].comps, s.players[1].comp_turns = ["sore_loser#1"], [1]
    s = GAME.apply(s, 0, plan({1: ["armada_cruiser#1"]}))
    s = GAME.apply(s, 1, plan({1: ["spark_saucer#1"]}))
    assert s.contest.order == [1, 0]
    s.rng.forced = [1, 1, 1, 1]  # 13 + 2 vs 2 + 2
    s = GAME.apply(s, 1, {"type": "declare", "choice": "fight"})
    s = GAME.apply(s, 0, {"type": "declare", "choice": "fight"})
    assert s.phase == "respond" and s.contest.offer == 1
    s = GAME.apply(s, 1, {"type": "pass"})
    assert s.phase == "loss" and s.contest.winner == 0
    s = GAME.apply(s, 1, {"type": "choose_loss", "ship": "spark_saucer#1"})
    assert s.phase == "claim"
    s = GAME.apply(s, 1, {"type": "claim_city", "card": "sore_loser#1"})
    assert "berlin" in s.players[1].trophies and s.phase == "reward"
    s.army_deck = ["no_army#1", "army_30#1"]
    s = GAME.apply(s, 0, {"type": "reward", "choice": "catch"})
    s.rng.forced = [1, 1]  # 13 + 2 < 30
    s = GAME.apply(s, 0, {"type": "army", "choice": "fight"})
    assert s.players[0].humans == 100000 and "berlin" not in s.players[0].trophies
    assert "berlin" in s.players[1].trophies and "berlin" not in s.city_discard


@pytest.mark.rule("TH-D30", "TH-9.6", "TH-11.3", "TH-D9")
def test_TH_D30_a_captain_below_a_tie_is_out_of_the_reroll_window() -> None:
    """TH-9.6 / TH-D30 / TH-11.3: a fighter below a shared top total has lost; the tied captains reroll
    and only they are offered effects; the loser keeps his unused card."""
    hands = {0: ["spark_saucer#1"], 1: ["spark_saucer#2"], 2: ["watch_saucer#1"]}
    s = position(3, hands, ["london", "berlin", "cairo", "rome"])
    s.players[2].comps, s.players[2].comp_turns = ["war_cry#1"], [1]
    for i in range(3):
        s = GAME.apply(s, i, plan({1: hands[i]}))
    s.rng.forced = [5, 5, 5, 5, 1, 1, 6, 6, 1, 1]  # 12 / 12 / 5, then the reroll 14 / 4
    for seat in list(s.contest.order):
        s = GAME.apply(s, seat, {"type": "declare", "choice": "fight"})
    assert s.phase == "respond" and s.contest.offer == 2  # lowest total first
    s = GAME.apply(s, 2, {"type": "pass"})
    assert s.contest.winner == 0 and 2 not in s.contest.seats
    assert s.phase == "loss" and s.sealed.required == [2]  # seat 1 lost its only ship at once; seat 2 holds a card
    assert s.players[2].comps == ["war_cry#1"]
    assert "spark_saucer#2" in s.ship_discard
