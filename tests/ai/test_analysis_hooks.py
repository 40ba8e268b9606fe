"""What each game lends the post-game analysis (issue 22, core.hooks.AnalysisHooks): Cosmic Arena's exact endgame
values replace playouts and judge a decision exactly, Tremble's playouts draw their moves directly (always legal),
Worlds & Suns' preferred move comes from the WS-10 advisor."""

from __future__ import annotations

import pytest

from spacetable.ai import analysis
from spacetable.ai.analysis import Budget, analyse
from spacetable.core.match import Match
from spacetable.core.rng import Rng
from spacetable.example_matches import example_path
from spacetable.games import get_game
from spacetable.games.arena import fast, tables
from spacetable.games.arena.notation import format_position
from spacetable.games.arena.solver import LOSS, WIN

pytestmark = pytest.mark.learn


def test_arena_exact_values_come_from_the_endgame_tables() -> None:
    game = get_game("arena")
    hooks = game.analysis_hooks()
    assert hooks.exact is not None
    table = tables.table_for("6x4", 1, 1)
    assert table is not None
    decided = 0
    for state in tables.sample_positions(game, "6x4", 12, Rng.from_seed(3), red=1, blue=1):
        value = hooks.exact(state)
        status, _ = tables.probe(table, fast.to_array(state))
        if value is None:  # undecided, or a win longer than the quiet limit allows
            continue
        decided += 1
        mover = 0 if state.colour_of(0) == state.to_move else 1
        assert status in (WIN, LOSS)
        assert value[mover] == (1.0 if status == WIN else 0.0) and sum(value) == 1.0
        # a playout from a decided position is not played: its exact value is the result (with max_steps 0 an
        # unplayed position would otherwise count as a draw)
        assert analysis._playout(game, hooks, state, Rng.from_seed(1), 0) == [2 * v - 1 for v in value]
    assert decided > 0


def test_arena_a_decided_endgame_is_judged_exactly() -> None:
    """A match from a decided table position, played by the tables' own moves and then resigned: every position the
    tables decide shows its exact chances, no table move is called costly, the resignation is."""
    game = get_game("arena")
    hooks = game.analysis_hooks()
    assert hooks.exact is not None
    start = next(s for s in tables.sample_positions(game, "6x4", 40, Rng.from_seed(5), red=1, blue=1)
                 if hooks.exact(s) is not None)
    match = Match.new(game, game.normalize_config({"board": "6x4", "position": format_position(start)}), 0)
    state = match.initial_state()
    player = analysis.suggester(game, 0, 0.0)  # the endgame player: the tables' moves
    for _ in range(3):
        if not game.to_act(state):
            break
        seat = game.to_act(state)[0]
        state = match.play(state, seat, player.choose(game, state, seat))
    if game.to_act(state):
        state = match.play(state, game.to_act(state)[0], {"type": "resign"})
    states = list(match.states())
    result = analyse(match, 0, Budget(samples=2, max_steps=5))
    for i, point in enumerate(result.points):
        exact = hooks.exact(states[i])
        if exact is not None:
            assert point.before == exact
        if point.move != "resign" and point.seat == 0:
            assert point.loss == 0.0


def test_tremble_playouts_draw_legal_moves_directly() -> None:
    game = get_game("tremble")
    hooks = game.analysis_hooks()
    assert hooks.playout is not None
    match = Match.load(example_path("tremble"), get_game)
    rng = Rng.from_seed(9)
    for i, state in enumerate(match.states()):
        if i % 7 or not game.to_act(state):
            continue
        seat = game.to_act(state)[0]
        assert game.is_legal(state, seat, hooks.playout(state, seat, rng))


def test_worlds_suggestions_come_from_the_advisor() -> None:
    game = get_game("worlds")
    assert game.analysis_hooks().suggester == "advisor"
    assert type(analysis.suggester(game, 0, 0.05)).__name__ == "AdvisorAgent"
    assert analysis.suggester(game, 0, 0.05, name="random").__class__.__name__ != "AdvisorAgent"


def test_fullmetal_judges_positions_by_the_planners_potentials() -> None:
    game = get_game("fullmetal")
    hooks = game.analysis_hooks()
    assert hooks.suggester == "commander" and hooks.evaluate is not None
    states = list(Match.load(example_path("fullmetal"), get_game).states())
    for state in states[::20]:
        chances = hooks.evaluate(state)
        assert len(chances) == state.num_players and abs(sum(chances) - 1.0) < 1e-9
        assert all(0.0 <= c <= 1.0 for c in chances)
    # a position's estimate is the evaluation: no random playout is played from it
    state = states[60]
    assert analysis._playout(game, hooks, state, Rng.from_seed(1), 150) == [2 * v - 1 for v in hooks.evaluate(state)]
