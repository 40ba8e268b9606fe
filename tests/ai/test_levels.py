"""Levels for every game (issue 13): easy, medium and hard players named through AgentSpec, found by level
name, rated from the game's ladder file, shown in the lobby; level players run on fixed budgets, so their
games are reproducible."""

from __future__ import annotations

import pytest

from spacetable.ai import ladder
from spacetable.ai.agents import LEVELS, agent_specs, find_agent, level_agent
from spacetable.ai.tournament import deterministic, make_tournament, play_task
from spacetable.core.hooks import AgentSpec
from spacetable.games import available, get_game
from spacetable.server.presentation_routes import agents_of

GAMES = [g for g in ("arena", "worlds", "tremble", "fullmetal", "galaxies") if g in available()]


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_names_easy_medium_and_hard(gid: str) -> None:
    game = get_game(gid)
    for level in LEVELS:
        spec = level_agent(game, level)
        assert spec is not None, f"{gid} has no {level} player"
        assert find_agent(game, level) == spec
    assert len({s.name for s in agent_specs(game)}) == len(agent_specs(game))


def test_the_ladder_fills_ratings_and_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("arena")
    fake = {"format": ladder.FORMAT, "agents": {"endgame": {"rating": 1900.0, "seconds_per_move": 0.5}}}
    monkeypatch.setattr(ladder, "_load", lambda package: fake)
    specs = {s.name: s for s in agent_specs(game)}
    assert specs["endgame"].rating == 1900.0 and specs["endgame"].seconds_per_move == 0.5
    assert specs["shallow"].rating is None
    assert ladder.describe(specs["endgame"]) == "hard, rating 1900, 0.5 CPU s/move"
    own = AgentSpec("x", lambda **_: None, rating=10.0)
    assert ladder.rated(game, [own])[0].rating == 10.0  # a spec's own figures win


@pytest.mark.parametrize("gid", GAMES)
def test_lobby_offers_the_levels(gid: str) -> None:
    listed = agents_of(get_game(gid))
    assert {a["level"] for a in listed} >= set(LEVELS)
    assert any(a["default"] for a in listed)


@pytest.mark.parametrize(("gid", "config", "agents", "steps"), [
    ("arena", {}, ["endgame", "shallow"], 30),
    ("arena", {}, ["playouts", "random"], 30),
    ("fullmetal", {"players": 2}, ["planner", "greedy"], 120),
    ("worlds", {}, ["playouts", "random"], 40),
])
def test_level_games_are_reproducible(gid: str, config: dict, agents: list[str], steps: int) -> None:
    task = make_tournament(gid, agents, config=config, seed=3, max_steps=steps).task(0)
    assert deterministic(play_task(task)) == deterministic(play_task(task))


@pytest.mark.parametrize("gid", GAMES)
def test_a_published_ladder_names_the_games_own_players(gid: str) -> None:
    """A ladder file written by bench/ai_ladder.py rates players the game still offers, at their levels,
    with the random player as the anchor; every level of the game is on it."""
    game = get_game(gid)
    data = ladder.ladder(game)
    if not data:
        pytest.skip(f"{gid} has no ladder file yet")
    specs = {s.name: s for s in agent_specs(game)}
    assert data["anchor"] == {"name": "random", "rating": 1000.0}
    for name, row in data["agents"].items():
        assert name in specs, f"{gid} ladder rates {name!r}, which the game no longer offers"
        assert row["level"] == specs[name].level
        assert specs[name].rating == row["rating"]
        low, high = row["interval"]
        assert low <= row["rating"] <= high
    assert {specs[n].level for n in data["agents"]} >= set(LEVELS)
