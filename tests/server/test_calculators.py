"""A game's calculators (``Game.calculators()``, declared with ``Game.provide(calculators=...)``) answer through
``POST /api/games/<game>/calc/<name>``: worlds' exact odds (WS-9) are the game's own, bad queries are refused with 422
and unknown games or calculators with 404."""

from __future__ import annotations

from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from spacetable.games import get_game
from spacetable.games.worlds.odds import BattleInput, Group, combat_odds


def test_games_declare_their_calculators() -> None:
    assert set(get_game("worlds").calculators()) == {"odds"}
    assert get_game("arena").calculators() == {}


@pytest.mark.rule("WS-9.2", "WS-9.3", "WS-9.4", "WS-7.2")
def test_worlds_odds_are_the_games_own(client: TestClient) -> None:
    """Event effects come from the house deck: MG +1 per Population, CET a native of power 4."""
    query = {"battles": [{"s": {"P": 2, "F": 1, "event": "MG", "energy": 1}, "o": {"P": 1, "F": 1, "event": "CET"}},
                         {"s": {"P": 0, "F": 1}, "o": {"P": 1}}], "offsets": [1, 0]}
    r = client.post("/api/games/worlds/calc/odds", json=query)
    assert r.status_code == 200, r.text
    got = r.json()
    want = combat_odds([BattleInput(Group(2, 1, 0, 1, 1), Group(1, 1, 1, 0, 0)), BattleInput(Group(0, 1), Group(1, 0))],
                       offsets=(1, 0))
    assert Fraction(got["p_s_wins"]["fraction"]) == want.p_s_wins
    assert Fraction(got["p_no_winner"]["fraction"]) == want.p_no_winner
    assert Fraction(got["p_o_wins"]["fraction"]) == want.p_o_wins
    assert [(b["win"], b["tie"], b["loss"]) for b in got["battles"]] == list(want.per_battle)
    assert [(b["s_power"], b["o_power"]) for b in got["battles"]] == [(2 * 3 + 1 + 1, 2 + 1 + 4), (1, 2)]


@pytest.mark.parametrize("bad", [
    {"battles": []},
    {"battles": [{"s": {"P": -1}, "o": {}}]},
    {"battles": [{"s": {"P": 100}, "o": {}}]},
    {"battles": [{"s": {"event": "XX"}, "o": {}}]},
    {"battles": [{"s": {"P": 1, "hat": 1}, "o": {}}]},
    {"battles": [{"s": {"P": True}, "o": {}}]},
    {"battles": [{"s": {}, "o": {}}] * 25},
    {"battles": [{"s": {}, "o": {}}], "offsets": [0]},
])
def test_bad_queries_are_refused(client: TestClient, bad: dict) -> None:
    r = client.post("/api/games/worlds/calc/odds", json=bad)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "bad_query"


def test_unknown_game_or_calculator(client: TestClient) -> None:
    assert client.post("/api/games/worlds/calc/nothing", json={}).status_code == 404
    assert client.post("/api/games/arena/calc/odds", json={}).status_code == 404
    assert client.post("/api/games/nosuchgame/calc/odds", json={}).status_code == 404
