"""The agent interface and the random agent.

An agent chooses an action for one seat from what that seat may see. Agents
receive the full state for speed but must only use ``game.view`` or
``game.determinize(state, player, rng)`` to look at hidden parts; the server's
AI seats are given a determinised copy, never the live state.
"""

from __future__ import annotations

from typing import Any, Protocol

from spacetable.core.game import Action, Game
from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng


class Agent(Protocol):
    name: str

    def choose(self, game: Game[Any], state: Any, player: int) -> Action: ...


class RandomAgent:
    """Uniformly random legal action (seeded), never a draw-agreement move (:func:`~spacetable.core.moves.agent_actions`)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        actions = agent_actions(game.legal_actions(state, player))
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        return self.rng.choice(actions)


def play_game(
    game: Game[Any],
    agents: list[Agent],
    config: dict[str, Any] | None = None,
    seed: int = 0,
    max_actions: int = 1_000_000,
) -> tuple[Any, list[tuple[int, Action]]]:
    """Play a whole game between agents; returns the final state and the log.
    With several seats to act at once, each acts in seat order."""
    cfg = game.normalize_config(config)
    state = game.initial_state(cfg, seed)
    log: list[tuple[int, Action]] = []
    for _ in range(max_actions):
        seats = game.to_act(state)
        if not seats:
            break
        player = seats[0]
        action = agents[player].choose(game, state, player)
        state = game.apply(state, player, action)
        log.append((player, action))
    return state, log
