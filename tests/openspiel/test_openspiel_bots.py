"""OpenSpiel's algorithms on spacetable games: MCTS against our alpha-beta (arena), IS-MCTS (tremble),
and a sequence-form LP whose value equals our exact Worlds advisor's."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from spacetable.games.arena.ai import AlphaBetaAgent
from spacetable.games.worlds.advisor import Situation, advise
from spacetable.openspiel import EngineRollout, resampler
from spacetable.openspiel.lp import solve_zero_sum


@pytest.mark.rule("AR-10.6")
def test_openspiel_mcts_plays_arena_against_alphabeta() -> None:
    game = pyspiel.load_game("spacetable_arena", {"config": json.dumps({"red_seat": 0})})
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=30,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), random_state=np.random.RandomState(2))
    ab = AlphaBetaAgent(seed=0, node_limit=3000)
    state = game.new_initial_state()
    turns = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == 0:
            state.apply_action(bot.step(state))
        else:
            action = ab.choose(state.game_obj.engine, state.engine_state, seat)
            for token in state.tokens_for(seat, action):
                state.apply_action(token)
        turns += 1
    outcome = state.game_obj.engine.outcome(state.engine_state)
    assert outcome is not None and outcome.kind in ("corvette", "no_action", "quiet_limit")
    assert sorted(state.returns()) in ([-1.0, 1.0], [-0.5, 0.5])
    assert state.returns()[1] > 0  # alpha-beta (3000 nodes a move) beats a 30-simulation MCTS


@pytest.mark.rule("TH-6.1", "TH-9.3")
def test_openspiel_ismcts_plays_tremble() -> None:
    game = pyspiel.load_game("spacetable_tremble_turns", {"config": json.dumps({"players": 2})})
    bot = ismcts.ISMCTSBot(game, EngineRollout(1), uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(3))
    bot.set_resampler(resampler(7))
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
            decisions += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert decisions > 20
    assert state.game_obj.engine.outcome(state.engine_state) is not None


@pytest.mark.rule("TH-6.1")
def test_engine_rollout_draws_the_games_own_quick_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rollout plays the game's declared quick draw (``AnalysisHooks.playout``): Tremble's rollouts never list
    the thousands of sealed plans (``legal_actions``), and still end the game with its returns."""
    game = pyspiel.load_game("spacetable_tremble_turns", {"config": json.dumps({"players": 2})})
    engine = game.engine
    assert engine.analysis_hooks().playout is not None
    listed: list[int] = []
    plain = type(engine).legal_actions
    monkeypatch.setattr(type(engine), "legal_actions", lambda self, *a, **k: listed.append(1) or plain(self, *a, **k))
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    listed.clear()
    returns = EngineRollout(4).evaluate(state)
    assert listed == [], len(listed)
    assert len(returns) == 2 and max(returns) == 1.0 and all(-1.0 <= r <= 1.0 for r in returns), returns  # a winner


def _duel(white: dict[str, object], grey: dict[str, object], world: bool) -> dict[str, object]:
    card = {"white": {"P": 1}, "grey": {"P": 1}}
    sun = {"id": "S.sun", "pieces": {} if world else card}
    worlds = [{"id": "S.w1", "pieces": card if world else {}}]
    return {"format": "worlds-skirmish/1", "id": "lp-duel", "label": "one battle", "sides": ["white", "grey"],
            "first_player": "white", "systems": [{"id": "S", "starting_system_of": None, "sun": sun, "worlds": worlds}],
            "energy": {"white": white["energy"], "grey": grey["energy"]}, "energy_income": {"white": 0, "grey": 0},
            "hands": {"white": white["hand"], "grey": grey["hand"]}, "max_rounds": 1, "seed": 1, "dice_script": None}


@pytest.mark.rule("WS-5.1", "WS-5.3", "WS-5.5", "WS-9.2", "WS-10.3")
@pytest.mark.parametrize("white,grey,world", [
    ({"energy": 2, "hand": ["MG"]}, {"energy": 2, "hand": ["CET"]}, False),
    ({"energy": 3, "hand": []}, {"energy": 1, "hand": ["RI"]}, True),
    ({"energy": 1, "hand": ["CET"]}, {"energy": 2, "hand": ["MG"]}, True),
])
def test_sequence_form_lp_value_equals_the_advisor(white: dict[str, object], grey: dict[str, object], world: bool) -> None:
    """One battle (white attacks grey, one Population each): the equilibrium value of the game's
    result for white (+1 win, -1 loss, 0 tie: material, WS-8.4) equals P(win) - P(loss) of the
    advisor's exact worst-case plan (WS-10.3)."""
    card = "S.w1" if world else "S.sun"
    game = pyspiel.load_game("spacetable_worlds_turns", {
        "config": json.dumps({"scenario_json": _duel(white, grey, world)}), "setup_chance": "seeded",
        "opening": json.dumps([[0, {"type": "declare_combat", "card": card}]])})
    sol = solve_zero_sum(game)
    sit = Situation(s_is_attacker=True, on_world=world, s_pieces=(1, 0), o_pieces=(1, 0), anchors=[(f"grey.{card}.P1", "P")],
                    allocator="S", energy_s=int(white["energy"]), energy_o=int(grey["energy"]),  # type: ignore[call-overload]
                    hand_s=list(white["hand"]), hand_o=list(grey["hand"]),  # type: ignore[call-overload]
                    mode="ours", opponent="worst_case", objective="win")
    adv = advise(sit)
    exact = adv.odds.p_s_wins - adv.odds.p_o_wins
    assert isinstance(exact, Fraction)
    assert sol.value[0] == pytest.approx(float(exact), abs=1e-9)
    assert sol.value[1] == pytest.approx(-float(exact), abs=1e-9)
