"""The generic search's hooks (``spacetable/ai/mcts.py``): action pruning, world sampling, final returns,
and in-place stepping for games that offer ``apply_in_place``."""

from __future__ import annotations

import copy
from typing import Any

from spacetable.ai.mcts import InPlaceGame, MCTSAgent

from .toygames import Nim, NimState, SealedDuel


class InPlaceNim(Nim):
    """Nim that can also play a move on the state it is handed (counting the calls)."""

    def __init__(self) -> None:
        self.in_place_calls = 0
        self.apply_calls = 0

    def apply(self, state: NimState, player: int, action: dict[str, Any]) -> NimState:
        self.apply_calls += 1
        return super().apply(state, player, action)

    def apply_in_place(self, state: NimState, player: int, action: dict[str, Any]) -> None:
        self.in_place_calls += 1
        new = Nim.apply(self, state, player, action)
        state.__dict__.update(copy.deepcopy(new.__dict__))


def _search(game: Any, in_place: bool | None, **hooks: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    agent = MCTSAgent(iterations=300, seed=5, in_place=in_place, **hooks)
    state = game.initial_state(game.normalize_config({"pile": 7}), 0)
    return agent.choose(game, state, 0), agent.last_stats


def test_a_game_offering_apply_in_place_is_stepped_in_place_with_the_same_result() -> None:
    pure, stepped = InPlaceNim(), InPlaceNim()
    assert isinstance(stepped, InPlaceGame) and not isinstance(Nim(), InPlaceGame)
    a_pure, _ = _search(pure, in_place=False)
    a_auto, _ = _search(stepped, in_place=None)
    assert a_pure == a_auto == {"type": "take", "n": 3}  # leave 4: a lost position for the opponent
    assert pure.in_place_calls == 0 and pure.apply_calls > 0
    assert stepped.in_place_calls > 0 and stepped.apply_calls == 0


def test_action_hook_prunes_what_the_search_considers() -> None:
    seen: list[int] = []

    def only_one(game: Any, state: NimState, seat: int) -> list[dict[str, Any]]:
        seen.append(state.pile)
        return [{"type": "take", "n": 1}] if state.pile > 0 else []

    action, _ = _search(Nim(), None, actions=only_one)
    assert action == {"type": "take", "n": 1} and seen


def test_world_and_returns_hooks_replace_the_games_own() -> None:
    calls = {"world": 0, "returns": 0}

    def world(game: Any, state: Any, seat: int, rng: Any) -> Any:
        calls["world"] += 1
        return game.determinize(state, seat, rng)

    def inverted(game: Any, state: Any) -> list[float]:
        calls["returns"] += 1
        return [-r for r in game.returns(state)]

    game = SealedDuel()
    state = game.initial_state(game.normalize_config({}), 1)
    agent = MCTSAgent(iterations=50, seed=2, determinize=world, returns=inverted)
    agent.choose(game, state, 0)
    assert calls["world"] == 50 and calls["returns"] > 0
    # with inverted rewards Nim's search prefers the losing move to the winning one
    bad, _ = _search(Nim(), None, returns=lambda g, s: [-r for r in g.returns(s)])
    assert bad != {"type": "take", "n": 3}
