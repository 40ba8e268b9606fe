"""The AI players of a game, as every tool lists them (server seats, terminal, simulations).

A game declares its own players with :meth:`Game.agents` (:class:`AgentSpec`, the default
one first). :func:`agent_specs` adds the generic ones of this package (``mcts``, ``random``)
under names the game does not use, so every game can be played against an AI.
:func:`choose_for_seat` is how a seat's AI is asked for a move: from a determinised copy of
the state, so that it cannot read what its seat may not see (hands, sealed commits, future
dice).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from spacetable.core.errors import ConfigError
from spacetable.core.game import Action, Game
from spacetable.core.hooks import AgentSpec
from spacetable.core.rng import Rng

from .base import RandomAgent
from .ladder import rated
from .mcts import MCTSAgent


def _mcts(seed: int = 0, seconds: float = 1.0, **_: Any) -> MCTSAgent:
    return MCTSAgent(iterations=None, seconds=seconds, seed=seed)


def _random(seed: int = 0, seconds: float = 0.0, **_: Any) -> RandomAgent:
    return RandomAgent(seed)


#: The players every game gets: generic information-set MCTS and a uniform random player.
GENERIC = (
    AgentSpec("mcts", _mcts, level="medium", description="generic Monte Carlo tree search over the seat's view"),
    AgentSpec("random", _random, level="easy", description="a uniformly random legal action"),
)


#: The levels a game offers players in the lobby, weakest first.
LEVELS = ("easy", "medium", "hard")


def agent_specs(game: Game[Any]) -> list[AgentSpec]:
    """The game's own players (its default first), then the generic ones it does not name, with the
    measured rating and seconds per move of the game's ladder (:mod:`spacetable.ai.ladder`). When the
    game's own players already cover every level, the generic ones are listed as tools (no level), so
    the lobby names one player per level."""
    own = list(game.agents())
    names = {a.name for a in own}
    covered = set(LEVELS) <= {a.level for a in own}
    generic = [dataclasses.replace(g, level="") if covered else g for g in GENERIC if g.name not in names]
    return rated(game, own + generic)


def level_agent(game: Game[Any], level: str) -> AgentSpec | None:
    """The first listed player of ``level`` (``easy``, ``medium``, ``hard``), if any."""
    return next((s for s in agent_specs(game) if s.level == level), None)


def default_agent(game: Game[Any]) -> str:
    """The name of the game's default AI player: its first declared one, else generic MCTS."""
    return agent_specs(game)[0].name


def find_agent(game: Game[Any], name: str) -> AgentSpec:
    """The player called ``name`` (``ai`` is the default one, and a level name ``easy``, ``medium`` or
    ``hard`` the first player of that level); :class:`ConfigError` names the choices."""
    specs = agent_specs(game)
    if name == "ai":
        return specs[0]
    if name in LEVELS and not any(s.name == name for s in specs):
        found = level_agent(game, name)
        if found is not None:
            return found
    for spec in specs:
        if spec.name == name or name in spec.aliases:
            return spec
    raise ConfigError(f"unknown AI {name!r} for {game.id}; choose from: {', '.join(s.name for s in specs)}")


def make_agent(game: Game[Any], name: str, seed: int, seconds: float = 1.0) -> Any:
    """A fresh player ``name`` of ``game`` (see :func:`find_agent`)."""
    return find_agent(game, name).make(seed=seed, seconds=seconds)


def choose_for_seat(game: Game[Any], state: Any, seat: int, agent: Any, seed: int) -> Action:
    """``agent``'s move for ``seat``, computed on a copy of ``state`` determinised from that
    seat's point of view (hidden cards, others' sealed commits and the dice resampled with
    ``seed``) whenever the game hides anything or draws chance from the state."""
    if game.hidden_information or isinstance(getattr(state, "rng", None), Rng):
        state = game.determinize(state, seat, Rng.from_seed(seed))
    action: Action = agent.choose(game, state, seat)
    return action
