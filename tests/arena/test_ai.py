"""AI players: registry, legality, tactics of the alpha-beta search (AR-10.1, AR-D7)."""

from __future__ import annotations

import pytest

from spacetable.ai.base import play_game
from spacetable.games.arena import GAME, fast
from spacetable.games.arena.ai import AGENTS, DEFAULT_AGENT, AlphaBetaAgent, evaluate

from .arena_helpers import make, play


def test_registry_shapes() -> None:
    assert DEFAULT_AGENT in AGENTS and set(AGENTS) == {"random", "mcts", "alphabeta", "endgame", "shallow", "playouts"}
    for name, factory in AGENTS.items():
        agent = factory(1, 0.05)
        assert agent.name == name


@pytest.mark.rule("AR-10.1", "AR-5.4")
def test_alphabeta_takes_the_corvette() -> None:
    """AR-10.1: a corvette capture in one is found."""
    st = make("6x4 111a1,222c4,112d1 111c6,112a6,122d6 r 0 -")
    agent = AlphaBetaAgent(0, 0.2)
    action = agent.choose(GAME, st, 0)
    assert GAME.action_text(st, 0, action) == "c4xc6"
    assert GAME.outcome(GAME.apply(st, 0, action)).kind == "corvette"


@pytest.mark.rule("AR-11.1", "AR-11.2")
def test_alphabeta_wins_two_corvette_race() -> None:
    """AR-11: from a won two-corvette position the search keeps the parity and wins."""
    st = make("5x5 111c1 111c4 r 0 -")  # distance 3, odd: Red to move wins
    agent = AlphaBetaAgent(0, 0.3)
    for _ in range(30):
        if GAME.outcome(st) is not None:
            break
        seat = st.seat_of(st.to_move)
        st = GAME.apply(st, seat, agent.choose(GAME, st, seat))
    out = GAME.outcome(st)
    assert out is not None and out.details["winner_colour"] == "red" and out.kind == "corvette"


@pytest.mark.rule("AR-D7", "AR-10.4")
def test_alphabeta_accepts_only_good_offers() -> None:
    """AR-D7: accept an offer only when continuing is worth less than the agreed result."""
    # Red captured last (semi-victory for Red if accepted) and is a cruiser down: accepting is good for Red.
    st = make("6x4 111a1,112b1 111d6,222c6,221d5 b 3 r")
    offered = play(st, "c6-c5=")
    choice = AlphaBetaAgent(0, 0.2).choose(GAME, offered, 0)
    assert choice == {"type": "accept_end"}
    # Blue would be the semi-winner: Red, with a large material edge, keeps playing.
    st = make("6x4 111a1,222b2,221c2,212d2 111d6,112a6 b 3 -")
    offered = play(st, "a6-a5=")
    choice = AlphaBetaAgent(0, 0.2).choose(GAME, offered, 0)
    assert choice != {"type": "accept_end"}


def test_evaluation_symmetry() -> None:
    """The static evaluation is from the side to move: mirrored files give the same value (a file mirror keeps every rule)."""
    st = make("6x4 111a1,222b2,221c2 111d6,112a6 r 3 -")
    mirror = make("6x4 111d1,222c2,221b2 111a6,112d6 r 3 -")
    geo, nb = fast.tables("6x4")
    from spacetable.games.arena.ai import SHIP_VALUE

    assert evaluate(fast.to_array(st), geo, nb, SHIP_VALUE) == evaluate(fast.to_array(mirror), geo, nb, SHIP_VALUE)


@pytest.mark.rule("AR-0.1")
def test_agents_play_legal_games() -> None:
    for names in (("alphabeta", "random"), ("random", "mcts")):
        agents = [AGENTS[n](3, 0.02) for n in names]
        state, log = play_game(GAME, agents, {"board": "5x5", "red_seat": 0}, seed=2, max_actions=700)
        assert GAME.outcome(state) is not None and 0 < len(log) <= 600


@pytest.mark.rule("AR-2.7")
def test_agents_place_in_free_setup() -> None:
    agents = [AGENTS["alphabeta"](1, 0.02), AGENTS["random"](2, 0.02)]
    state, log = play_game(GAME, agents, {"setup": "free", "red_seat": 0}, seed=5, max_actions=40)
    assert [a["type"] for _, a in log[:16]] == ["place"] * 16 and [p for p, _ in log[:16]] == [0, 1] * 8
    assert len(log) > 16 and log[16][0] == 0 and state.phase in ("play", "over")


@pytest.mark.rule("AR-D1", "AR-2.6")
def test_AR_D1_default_layouts_have_no_forced_corvette_capture_within_5_plies() -> None:
    """AR-D1: from the default layouts Red has no forced corvette capture within 5 plies (exact
    depth-5 alpha-beta: a forced capture would score a full victory, 100000 − plies)."""
    from spacetable.games.arena.ai import search

    for board in ("6x4", "5x5"):
        state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 1)
        _code, value, depth, _nodes = search(fast.to_array(state), board, 600.0, max_depth=5)
        assert depth == 5 and value < 99000
    # positive control: the same search proves a forced capture on ply 3 (cruiser c4 vs a lone corvette on d6)
    st = make("6x4 111a1,222c4 111d6 r 0 -")
    _code, value, _depth, _nodes = search(fast.to_array(st), "6x4", 600.0, max_depth=5)
    assert value == 100000 - 3
