"""The analysis panel of a finished match's replay for Worlds & Suns, Battleship Galaxies, Tremble and Full Metal
Planète (Cosmic Arena's is in test_analysis_page.py): the chances chart, one curve per seat, the circled decisions
with the move the evaluator preferred, no console error, no serious or critical axe violation.

Each match is made short through the API: a few legal moves, then the players resign (a resignation when other moves
were open is always a costly decision, so a "better" move must show)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from .pages import HTTP, errors_of, goto, open_page
from .test_accessibility import serious

pytestmark = [pytest.mark.learn, pytest.mark.timeout(900)]

#: never chosen as one of the few moves: they would end or stall the match early
#: seconds an API call may take on a busy machine
T = 120
SKIP = {"resign", "offer_draw", "accept_draw", "decline_draw", "offer_end", "accept_end"}


#: the matches' seed: a deal where every game's analysis flags a decision at every budget of its suggesting player
#: (tried from 0.5 ms to 0.5 s a decision: the server's 50 ms buys fewer iterations on a busy machine). With a
#: random deal, a Tremble match sometimes had no costly decision at all (one deal of the first twelve).
SEED = 3


def finished_match(server: str, game: str, config: dict[str, Any], first: int) -> tuple[str, int]:
    """A match of ``game`` (dealt from :data:`SEED`) played by the API: ``first`` legal moves, then each seat resigns
    on its turn until it is over."""
    r = HTTP.post(f"{server}/api/matches", json={"game": game, "config": config, "join_seat": 0, "player_name": "Ann",
                                                 "seed": SEED, "open_seed": True}, timeout=T)
    assert r.status_code == 201, r.text
    mid, tokens = r.json()["match"]["id"], {0: r.json()["token"]}
    seats = len(r.json()["match"]["seats"])
    for s in range(1, seats):
        tokens[s] = HTTP.post(f"{server}/api/matches/{mid}/seats/{s}/join", json={"name": f"P{s}"}, timeout=T).json()["token"]
    moves = 0
    for _ in range(40):
        st = HTTP.get(f"{server}/api/matches/{mid}/state", params={"seat": 0}, headers={"X-Seat-Token": tokens[0]},
                       timeout=T).json()
        if st["match"]["status"] == "finished":
            return mid, seats
        assert st["to_act"], (game, "nobody to act in a running match")
        seat, version = st["to_act"][0], st["version"]
        action: dict[str, Any] = {"type": "resign"}
        if moves < first:
            legal = HTTP.get(f"{server}/api/matches/{mid}/legal", params={"seat": seat},
                              headers={"X-Seat-Token": tokens[seat]}, timeout=T).json()["actions"]
            action = next(a for a in legal if a["type"] not in SKIP)
            moves += 1
        r = HTTP.post(f"{server}/api/matches/{mid}/actions",
                       json={"seat": seat, "token": tokens[seat], "version": version, "action": action}, timeout=T)
        assert r.status_code == 200, (game, r.text)
    raise AssertionError(f"the {game} match did not end")


def test_analysis_chart_and_best_moves_for_the_other_four_games(server: str, browser: Browser) -> None:
    # Full Metal Planète: both landings and both deployments first (the play phase), then the resignations
    games = [("worlds", {}, 1), ("galaxies", {}, 2), ("tremble", {"players": 2}, 2), ("fullmetal", {}, 4)]
    made = [(game, *finished_match(server, game, config, first)) for game, config, first in games]
    for _, mid, _ in made:  # queued one after the other on the server's analysis worker
        assert HTTP.post(f"{server}/api/matches/{mid}/analysis", timeout=T).status_code == 202
    page = open_page(browser)
    for game, mid, seats in made:
        goto(page, f"{server}/replay/{mid}")
        page.wait_for_selector("[data-testid=replay-page]")
        page.wait_for_selector("[data-testid=analysis-chart] polyline", timeout=600_000)
        assert page.locator("[data-testid=analysis-chart] polyline").count() == seats, game
        assert page.locator("[data-testid=analysis-best-mark]").count() >= 1, game
        preferred = page.locator("[data-testid=analysis-flags] [data-testid=analysis-preferred]")
        assert preferred.count() >= 1 and preferred.first.inner_text().strip() != "", game
        assert serious(page) == [], game
    assert errors_of(page) == []
