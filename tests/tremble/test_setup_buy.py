"""Setup, buying, credits and card-set loading (TH-2, TH-4, TH-13, TH-C; scenarios TH-A1 to TH-A7 and TH-A25)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.rng import Rng
from spacetable.games.tremble import GAME
from spacetable.games.tremble.buying import draw_ships
from spacetable.games.tremble.cards import DEFAULT_RULES, FUEL_PRESETS, HOUSE_DIR, CardSetError, get_set, load_set, set_document
from spacetable.games.tremble.credits import settle
from spacetable.games.tremble.flow import start_turn

from .tremble_helpers import buy, buy_position, sample

H = get_set("house")


@pytest.mark.rule("TH-A1", "TH-2.1", "TH-2.2", "TH-2.3", "TH-2.4", "TH-2.5", "TH-2.6", "TH-2.7", "TH-4.1", "TH-15")
def test_TH_A1_setup_two_players() -> None:
    s = GAME.initial_state({"players": 2}, 11)
    assert len(s.city_deck) == 30 and all(H.cities[c].min_players == 2 for c in s.city_deck)
    assert all(H.deck_of[c] == "blue" for c in s.blue_deck) and all(H.deck_of[c] == "red" for c in s.red_deck)
    assert all(len(p.drawn) == 2 for p in s.players)  # TH-4.1
    assert sorted(s.army_deck) == sorted(H.armies) and sorted(s.comp_deck) == sorted(H.comps)
    assert sorted(s.out) == sorted(c for c in H.ships if H.ships[c].deck == "training")[2:]
    assert [H.cities[c].deck for c in s.city_deck[-15:]] == ["blue"] * 15  # top of the deck (pop from the end)
    assert [H.cities[c].deck for c in s.city_deck[:15]] == ["red"] * 15
    assert len(s.missions) == 3 and all(H.missions[m].min_players <= 2 for m in s.missions)
    for p in s.players:
        assert p.humans == 100000 and len(p.hand) == 1 and H.ships[p.hand[0]].deck == "training"
    assert s.fuel[0] == 4 and s.phase in ("buy", "redraw")


@pytest.mark.rule("TH-A1", "TH-2.2", "TH-3.1", "TH-5.1", "TH-15", "TH-1.2")
def test_TH_A1_setup_five_players_and_city_flow() -> None:
    s = GAME.initial_state({"players": 5}, 12)
    assert len(s.city_deck) == 60 and len(s.missions) == 5
    seen = []
    rng_seed = 0
    rng = Rng.from_seed(rng_seed)
    while GAME.to_act(s):
        if s.phase == "plan" and len(s.slots) == 6 and (not seen or seen[-1][0] != s.turn):
            seen.append((s.turn, [H.cities[c].deck for c in s.slots]))
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, sample(s, seat, rng))
    assert [t for t, _ in seen] == list(range(1, 11))
    assert all(d == ["blue"] * 6 for t, d in seen if t <= 5) and all(d == ["red"] * 6 for t, d in seen if t >= 6)
    assert s.city_deck == []


@pytest.mark.rule("TH-A3", "TH-4.4", "TH-13.1", "TH-D8")
def test_TH_A3_credit_question() -> None:
    s = buy_position(60000, ["training#1", "spark_saucer#1"], ["reaper_tripod#1", "hammer_cruiser#1"])
    with pytest.raises(RuleError, match=r"TH-4\.4"):
        GAME.apply(s, 0, buy(buy=["reaper_tripod#1", "hammer_cruiser#1"]))
    with pytest.raises(RuleError, match=r"TH-13\.1"):
        GAME.apply(s, 0, buy(credits=1, buy=["reaper_tripod#1", "hammer_cruiser#1"]))
    s2 = GAME.apply(s, 0, buy(buy=["hammer_cruiser#1"]))
    s2 = GAME.apply(s2, 1, buy())
    assert s2.players[0].humans == 10000 and len(s2.players[0].hand) == 3
    nxt = buy_position(10000, ["training#1", "spark_saucer#1", "hammer_cruiser#1"], ["spark_saucer#2", "reaper_tripod#2"])
    with pytest.raises(RuleError, match=r"TH-13\.1"):
        GAME.apply(nxt, 0, buy(credits=1))


@pytest.mark.rule("TH-A4", "TH-13.1", "TH-13.2", "TH-13.3", "TH-13.4", "TH-4.4", "TH-D12", "TH-D5")
def test_TH_A4_credit_granted_and_settled() -> None:
    s = buy_position(40000, ["training#1", "spark_saucer#1"], ["hammer_cruiser#1", "watch_saucer#1"])
    with pytest.raises(RuleError, match=r"TH-13\.1"):
        GAME.apply(s, 0, buy(credits=2))
    s = GAME.apply(s, 0, buy(credits=1, buy=["hammer_cruiser#1", "watch_saucer#1"]))
    s = GAME.apply(s, 1, buy())
    p = s.players[0]
    assert p.humans == 20000 and len(p.hand) == 4 and p.credits == 1 and p.credits_taken == 1
    assert settle(p, H.rules) == -60000
    later = buy_position(70000, p.hand, [])
    later.players[0].credits = 1
    with pytest.raises(RuleError, match=r"TH-4\.4"):
        GAME.apply(later, 0, buy(credits=1, repay=1))
    done = GAME.apply(later, 0, buy(repay=1))
    assert done.sealed.own(0)["repay"] == 1
    done = GAME.apply(done, 1, buy())
    assert done.players[0].credits == 0 and done.players[0].humans == 10000
    assert settle(done.players[0], H.rules) == 0


@pytest.mark.rule("TH-A5", "TH-13.3", "TH-D12", "TH-D5")
def test_TH_A5_chained_credits() -> None:
    s = buy_position(0, ["training#1"], [])
    with pytest.raises(RuleError, match=r"TH-13\.1"):
        GAME.apply(s, 0, buy(credits=3))
    s = GAME.apply(s, 0, buy(credits=2))
    s = GAME.apply(s, 1, buy())
    assert s.players[0].humans == 100000 and s.players[0].credits == 2
    assert settle(s.players[0], H.rules) == -120000


@pytest.mark.rule("TH-A6", "TH-4.5", "TH-4.6", "TH-D11", "TH-D29", "TH-11.1")
def test_TH_A6_limits_discards() -> None:
    hand = ["training#1", "spark_saucer#1", "spark_saucer#2", "watch_saucer#1", "reaper_tripod#1"]
    s = buy_position(200000, hand, ["hammer_cruiser#1", "amplifier#1"], stations=["amplifier#2"])
    with pytest.raises(RuleError, match=r"TH-4\.6"):
        GAME.apply(s, 0, buy(buy=["hammer_cruiser#1"]))
    with pytest.raises(RuleError, match=r"TH-4\.6"):
        GAME.apply(s, 0, buy(buy=["hammer_cruiser#1"], discard=["spark_saucer#1", "spark_saucer#2"]))
    with pytest.raises(RuleError, match=r"TH-4\.6"):  # same station id owned
        GAME.apply(s, 0, buy(buy=["amplifier#1"]))
    ok = GAME.apply(s, 0, buy(buy=["hammer_cruiser#1", "amplifier#1"], discard=["training#1", "amplifier#2"]))
    ok = GAME.apply(ok, 1, buy())
    assert "training#1" in ok.out and "training#1" not in ok.ship_discard  # TH-D11
    assert "amplifier#2" in ok.ship_discard and ok.players[0].stations == ["amplifier#1"]
    two = buy_position(200000, ["training#1"], ["jammer#1", "spark_saucer#1"], stations=["amplifier#1", "fuel_depot#1"])
    with pytest.raises(RuleError, match=r"TH-4\.6"):
        GAME.apply(two, 0, buy(buy=["jammer#1"]))
    assert GAME.apply(two, 0, buy(buy=["jammer#1"], discard=["fuel_depot#1"]))


@pytest.mark.rule("TH-A7", "TH-4.2", "TH-H2")
def test_TH_A7_station_redraw() -> None:
    s = GAME.initial_state({"players": 2}, 5)
    s.turn, s.phase, s.queue = 2, "redraw", [0]
    s.players[0].drawn = ["amplifier#1", "jammer#1"]
    s.players[1].drawn = []
    s.blue_deck += ["reaper_tripod#2", "fuel_depot#1"]  # next two draws: station + ship
    s2 = GAME.apply(s, 0, {"type": "redraw_stations"})
    assert "amplifier#1" in s2.ship_discard and "jammer#1" in s2.ship_discard
    assert sorted(s2.players[0].drawn) == ["fuel_depot#1", "reaper_tripod#2"] and s2.phase == "buy"
    s3 = GAME.apply(s2, 0, buy(buy=["reaper_tripod#2"]))
    assert "reaper_tripod#2" in s3.sealed.own(0)["buy"]


@pytest.mark.rule("TH-A25", "TH-3.2", "TH-2.4", "TH-D17")
def test_TH_A25_ship_deck_switch_and_rebuild() -> None:
    s = GAME.initial_state({"players": 2, "log_events": False}, 9)
    rng = Rng.from_seed(1)
    while s.turn < 6:
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, sample(s, seat, rng))
    assert s.blue_deck == [] and all(H.deck_of[c] == "red" for p in s.players for c in p.drawn)
    assert sum(1 for c in s.out if H.deck_of[c] == "blue") >= 1
    s.red_deck = []
    s.ship_discard = ["storm_saucer#1", "spark_saucer#1", "swarm_saucer#1"]
    got = draw_ships(s, H, H.rules, 2)
    assert all(H.deck_of[c] == "red" for c in got) and s.ship_discard == ["spark_saucer#1"]


@pytest.mark.rule("TH-C5", "TH-C6", "TH-0.3", "TH-1.1")
def test_TH_6_5_house_set_passes_hard_checks_and_guidelines() -> None:
    cards = load_set(HOUSE_DIR)
    assert cards.source == "house" and "not the published cards" in cards.label
    assert cards.warnings == []
    for rec in json.loads((HOUSE_DIR / "ships.json").read_text()):
        assert rec["source"] == "house" and rec["name_ru"] and rec["name"]


@pytest.mark.rule("TH-C2", "TH-C3", "TH-C5")
def test_TH_6_2_owner_set_errors_are_clear(tmp_path: Path) -> None:
    dst = tmp_path / "owner"
    shutil.copytree(HOUSE_DIR, dst)
    ships = json.loads((dst / "ships.json").read_text())
    ships[1]["abilities"] = [{"op": "laser_eyes", "n": 2}]
    ships[2]["price"] = 12345
    (dst / "ships.json").write_text(json.dumps(ships))
    with pytest.raises(CardSetError) as err:
        load_set(dst)
    text = str(err.value)
    assert "unknown op 'laser_eyes'" in text and "multiple of 10,000" in text
    man = json.loads((dst / "set.json").read_text())
    man["source"] = "owner"
    (dst / "set.json").write_text(json.dumps(man))
    (dst / "ships.json").write_text((HOUSE_DIR / "ships.json").read_text())
    cities = json.loads((dst / "cities.json").read_text())
    cities[0]["deck"] = "red"
    (dst / "cities.json").write_text(json.dumps(cities))
    with pytest.raises(CardSetError, match="half blue"):
        load_set(dst)


@pytest.mark.rule("TH-D1", "TH-0.2")
def test_TH_D1_fuel_presets_and_config_errors() -> None:
    """TH-D1: the fuel table comes from the rules config/presets; tests read it, never hard-code it."""
    for name, table in FUEL_PRESETS.items():
        s = GAME.initial_state({"players": 3, "fuel": name}, 1)
        assert s.fuel == (H.rules["fuel_by_turn"] if name == "default" else table)
    with pytest.raises(ConfigError):
        GAME.normalize_config({"players": 6})
    with pytest.raises(ConfigError):
        GAME.normalize_config({"players": 3, "fuel": "hyperdrive"})
    with pytest.raises(ConfigError):
        GAME.normalize_config({"players": 3, "card_set": "/nonexistent/set"})


@pytest.mark.rule("TH-0.3", "TH-0.1", "TH-C1")
def test_TH_0_3_owner_set_plays_a_whole_game(tmp_path: Path) -> None:
    """An owner-entered set (source owner, different numbers) is sent as content (read from its folder) and played."""
    dst = tmp_path / "owner"
    shutil.copytree(HOUSE_DIR, dst)
    man = json.loads((dst / "set.json").read_text())
    man.update({"set_id": "my_table", "name": "Our own cards", "source": "owner"})
    (dst / "set.json").write_text(json.dumps(man))
    ships = json.loads((dst / "ships.json").read_text())
    for rec in ships:
        if rec["deck"] != "training":
            rec["strength"] += 1
    (dst / "ships.json").write_text(json.dumps(ships))
    s = GAME.initial_state({"players": 3, "card_set": "custom", "card_set_content": set_document(dst)}, 4)
    assert GAME.view(s, 0)["card_set"] == "Our own cards" and GAME.cards(s).ships["reaper_tripod#1"].strength == 6
    rng = Rng.from_seed(4)
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, sample(s, seat, rng))
    assert GAME.outcome(s) is not None


@pytest.mark.rule("TH-D7")
def test_TH_D7_split_unit_option() -> None:
    s = GAME.initial_state({"players": 4, "split_unit": 1}, 2)
    assert s.split_unit == 1


@pytest.mark.rule("TH-H1", "TH-4.1", "TH-4.4")
def test_TH_H1_automatic_station_uses() -> None:
    """TH-H1: an untapped ``price_discount`` station lowers the dearest card of a purchase and taps; an untapped
    ``extra_draw`` station draws its extra cards at the start of the turn and taps."""
    s = buy_position(60000, ["training#1"], ["reaper_tripod#1", "watch_saucer#1"], stations=["shipyard#1"])
    price = H.price("reaper_tripod#1") + H.price("watch_saucer#1") - H.stations["shipyard#1"].effect["amount"]
    s = GAME.apply(s, 0, buy(buy=["reaper_tripod#1", "watch_saucer#1"]))
    s = GAME.apply(s, 1, buy())
    assert s.players[0].humans == 60000 - price and "shipyard#1" in s.players[0].tapped
    s = GAME.initial_state({"players": 2}, 4)
    s.players[1].stations = ["cargo_scanner#1"]
    s.turn += 1
    start_turn(s, H)
    assert len(s.players[1].drawn) == 2 + H.stations["cargo_scanner#1"].effect["n"] and s.players[1].tapped == ["cargo_scanner#1"]


@pytest.mark.rule("TH-C1", "TH-C4", "TH-D1")
def test_TH_C4_house_rules_and_copies() -> None:
    """TH-C1: records with ``copies: n`` expand to ``id#1..n``; TH-C4: the house rules are the defaults."""
    assert {"amplifier#1", "amplifier#2"} <= set(H.stations) and "amplifier#3" not in H.stations
    assert H.rules == DEFAULT_RULES
    assert H.rules["fuel_by_turn"] == FUEL_PRESETS["default"]


@pytest.mark.rule("TH-C6")
def test_TH_C6_guidelines_only_warn(tmp_path: Path) -> None:
    """TH-C6: an owner set off the house guidelines loads, with warnings."""
    dst = tmp_path / "owner"
    shutil.copytree(HOUSE_DIR, dst)
    cities = json.loads((dst / "cities.json").read_text())
    for rec in cities:
        if rec["catch"] - rec["raid"] >= 20000:
            rec["catch"] = rec["raid"] + 10000
    (dst / "cities.json").write_text(json.dumps(cities))
    cards = load_set(dst)
    assert any("catch - raid < 20,000" in w for w in cards.warnings)
