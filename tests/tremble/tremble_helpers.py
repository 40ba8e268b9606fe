"""Helpers for Tremble scenario tests: build positions directly and script dice with ``Rng.forced``."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from spacetable.games.tremble import GAME
from spacetable.games.tremble.cards import Station, get_set, register_set
from spacetable.games.tremble.sampling import Draws, sample_action
from spacetable.games.tremble.state import TState

FIXTURE_KEY = "fixture-s1"


def sample(s: TState, seat: int, rng: Draws) -> dict[str, Any]:
    """A random legal action of an acting seat (the random captain's sampler, TH-4.3, TH-6.1, TH-7.2)."""
    return sample_action(s, GAME.cards(s), seat, rng)


def fixture_set() -> Any:
    """The house set plus S1 fixture cards (TH-0.3 ``fixture``): a boost_own_ship n=3 station (TH-D25)."""
    house = get_set("house")
    fx = dataclasses.replace(
        house,
        set_id="fixture",
        source="fixture",
        label="S1 fixture set (tests only)",
        stations=dict(house.stations),
        deck_of=dict(house.deck_of),
    )
    fx.stations["fx_boost3#1"] = Station(
        "fx_boost3#1",
        "fx_boost3",
        "Fixture Booster",
        "Фикстурный усилитель",
        "blue",
        30000,
        {"op": "boost_own_ship", "n": 3},
        False,
        "fixture",
    )
    fx.deck_of["fx_boost3#1"] = "blue"
    fx.stations["fx_grapple#1"] = Station(
        "fx_grapple#1",
        "fx_grapple",
        "Fixture Grapple",
        "Фикстурный захват",
        "blue",
        30000,
        {"op": "relocate_enemy_ship"},
        False,
        "fixture",
    )
    fx.deck_of["fx_grapple#1"] = "blue"
    register_set(FIXTURE_KEY, fx)
    return fx


@pytest.fixture
def fx() -> Any:
    return fixture_set()


def position(
    players: int,
    hands: dict[int, list[str]],
    cities: list[str],
    turn: int = 5,
    humans: dict[int, int] | None = None,
    stations: dict[int, list[str]] | None = None,
    card_set: str = "house",
) -> TState:
    """A planning-phase position with the given hands, slots and stations."""
    s = GAME.initial_state({"players": players}, 7)
    s.card_set = card_set
    s.turn = turn
    s.phase = "plan"
    s.slots = list(cities)
    s.groups = [{} for _ in cities]
    s.support = [{} for _ in cities]
    for i, p in enumerate(s.players):
        p.hand = list(hands.get(i, []))
        p.drawn = []
        p.stations = list((stations or {}).get(i, []))
        if humans and i in humans:
            p.humans = humans[i]
    s.sealed.required = [i for i, p in enumerate(s.players) if p.hand]
    s.sealed.commits = {}
    return s


def plan(
    groups: dict[int, list[str]], fuel_cards: list[str] | None = None, stations: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "type": "plan",
        "groups": [{"slot": k, "ships": v} for k, v in sorted(groups.items())],
        "fuel_cards": fuel_cards or [],
        "stations": stations or [],
    }


def buy_position(humans: int, hand: list[str], drawn: list[str], turn: int = 2, stations: list[str] | None = None) -> TState:
    s = GAME.initial_state({"players": 2}, 3)
    s.turn = turn
    for p in s.players:
        p.drawn = []
    p = s.players[0]
    p.humans, p.hand, p.drawn, p.stations = humans, list(hand), list(drawn), list(stations or [])
    s.phase = "buy"
    s.sealed.required, s.sealed.commits = [0, 1], {}
    return s


def buy(**kw: Any) -> dict[str, Any]:
    a = {"type": "buy", "credits": 0, "buy": [], "discard": [], "repay": 0, "comp": []}
    a.update(kw)
    return a
