"""Post-game analysis (spacetable.ai.analysis): refused for a running match, repeatable, and for games with
hidden information it reveals to each seat nothing outside that seat's views at the time."""

from __future__ import annotations

from typing import Any

import pytest

from spacetable.ai import analysis
from spacetable.ai.agents import choose_for_seat, make_agent
from spacetable.ai.analysis import AnalysisRefused, Budget, analyse, analyse_match, for_viewer
from spacetable.core.match import Match
from spacetable.core.rng import mix_seed
from spacetable.example_matches import example_path
from spacetable.games import get_game

pytestmark = pytest.mark.learn

SMALL = Budget(samples=1, max_steps=15, agent="random")


def finished(game_id: str, agent: str = "random", limit: int = 3000) -> Match:
    """The example match of ``game_id``, played on to its end by ``agent`` players when it stopped early."""
    match = Match.load(example_path(game_id), get_game)
    game = match.game_obj()
    state = match.replay()
    seats = game.seats(state)
    players = [make_agent(game, agent, seed=s) for s in range(seats)]
    while game.to_act(state) and len(match.log) < limit:
        seat = game.to_act(state)[0]
        action = choose_for_seat(game, state, seat, players[seat], mix_seed(len(match.log), "on"))
        state = match.play(state, seat, action)
    assert game.is_terminal(state)
    return match


def test_running_match_refused() -> None:
    match = Match.load(example_path("worlds"), get_game)
    match.log = match.log[:5]
    with pytest.raises(AnalysisRefused):
        analyse(match, 0, SMALL)
    with pytest.raises(AnalysisRefused):
        analyse_match(match, SMALL)


def test_hidden_information_needs_a_seat_and_a_spectator_gets_nothing() -> None:
    match = Match.load(example_path("worlds"), get_game)
    with pytest.raises(AnalysisRefused):
        analyse(match, None, SMALL)
    result = analyse_match(match, SMALL)
    assert for_viewer(result, None) is None
    mine = for_viewer(result, 1)
    assert mine is not None and mine["viewer"] == 1
    assert len(mine["points"]) == len(match.log)


def test_repeatable_and_shaped() -> None:
    match = Match.load(example_path("worlds"), get_game)
    a = analyse(match, 0, SMALL, seed=3)
    b = analyse(match, 0, SMALL, seed=3)
    assert a.to_json() == b.to_json()
    assert len(a.chances()) == len(match.log) + 1
    for row in a.chances():
        assert len(row) == 2 and all(0.0 <= c <= 1.0 for c in row)
    # the final chances are the result: the winner at 1
    outcome = match.game_obj().outcome(match.replay())
    assert outcome is not None
    assert [a.chances()[-1][w] for w in outcome.winners] == [1.0] * len(outcome.winners)
    # only the viewer's own decisions are judged; flagged ones are its own and carry a preferred move
    assert all(p.loss == 0.0 and p.preferred is None for p in a.points if p.seat != 0)
    for i in a.flagged:
        assert a.points[i].seat == 0 and a.points[i].preferred and a.points[i].loss >= SMALL.threshold
    assert any(p.chance for p in a.points)


class Watch:
    """Instruments a game object while one seat's analysis runs: the true states of the match may only be
    read through what the viewer itself may read; every world handed on is sampled from the viewer's view."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, match: Match, viewer: int) -> None:
        self.game = game = match.game_obj()
        self.viewer = viewer
        self.true = list(match.states())
        self.true_ids = {id(s) for s in self.true}
        self.violations: list[str] = []
        self.determinized = 0
        monkeypatch.setattr(Match, "states", lambda m: iter(self.true))
        original_det, original_apply = game.determinize, game.apply
        original_legal, original_view = game.legal_actions, game.view

        def determinize(state: Any, player: int, rng: Any) -> Any:
            if player != viewer:
                self.violations.append(f"determinize for seat {player}")
            self.determinized += 1
            return original_det(state, player, rng)

        def apply(state: Any, player: int, action: Any) -> Any:
            if id(state) in self.true_ids:
                self.violations.append("a move played on the true state")
            return original_apply(state, player, action)

        def legal(state: Any, player: int) -> Any:
            if id(state) in self.true_ids and player != viewer:
                self.violations.append(f"seat {player}'s legal actions read on the true state")
            return original_legal(state, player)

        def view(state: Any, player: int | None) -> Any:
            if id(state) in self.true_ids and player != viewer:
                self.violations.append(f"seat {player}'s view of the true state")
            return original_view(state, player)

        monkeypatch.setattr(game, "determinize", determinize)
        monkeypatch.setattr(game, "apply", apply)
        monkeypatch.setattr(game, "legal_actions", legal)
        monkeypatch.setattr(game, "view", view)
        suggest = analysis.suggester

        def watched_suggester(g: Any, seed: int, seconds: float, name: str = "") -> Any:
            agent = suggest(g, seed, seconds, name)
            outer = self

            class Proxy:
                name = getattr(agent, "name", "agent")

                def choose(self, gm: Any, state: Any, seat: int) -> Any:
                    if id(state) in outer.true_ids:
                        outer.violations.append("the suggesting player saw the true state")
                    if seat != viewer:
                        outer.violations.append(f"a suggestion asked for seat {seat}")
                    return agent.choose(gm, state, seat)

            return Proxy()

        monkeypatch.setattr(analysis, "suggester", watched_suggester)


@pytest.mark.parametrize("game_id", ["tremble", "galaxies"])
def test_each_seat_judged_only_from_its_own_view(monkeypatch: pytest.MonkeyPatch, game_id: str) -> None:
    match = finished(game_id)
    seats = match.game_obj().seats(match.replay())
    for viewer in (0, seats - 1):
        with monkeypatch.context() as m:
            watch = Watch(m, match, viewer)
            # one playout step per sampled world: every world is still played on; the length of a playout does not
            # change what the analysis may read
            result = analyse(match, viewer, Budget(samples=1, max_steps=1, agent="random"), seed=1)
        assert watch.violations == [], watch.violations[:5]
        assert watch.determinized > 0
        # other seats' sealed or hidden moves are shown only as the viewer saw them
        game = match.game_obj()
        for p, entry, state in zip(result.points, match.log, watch.true, strict=False):
            if entry.player != viewer and game.action_view(state, entry.player, entry.action, viewer) is None:
                assert p.move == "?"
