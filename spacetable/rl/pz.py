"""PettingZoo environments over :class:`~spacetable.rl.session.Session` (needs ``spacetable[rl]``).

* :class:`SpacetableAEC` – agents act one at a time: the selected agent is the first seat the
  engine waits for; during a sealed simultaneous decision the waiting seats choose one after
  the other, each seeing only its own view (the others' commits stay hidden, as in the engine).
* :class:`SpacetableParallel` – every live agent sends an action each step; the seats the engine
  waits for choose their next token together (sealed buys, plans, events), the others send
  ``WAIT`` (token 0; any action of a seat that is not deciding is ignored).

Observations are ``{"observation": float32[obs_size] in [0, 1], "action_mask": int8[n_actions]}``
built from the seat's own view; the action space is ``Discrete(n_actions)``. Rewards are 0 until
the game ends, then the engine's ``returns``. ``max_steps`` (engine actions) and ``max_turns``
(the game's own turn counter, e.g. Full Metal turns) truncate a match (rewards 0).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from spacetable.games import get_game

from .decision import WAIT
from .encoders import encoder_class
from .session import Session

ILLEGAL = ("raise", "lose", "random")


class _Core:
    """What both environment kinds share: configuration, spaces, the session and its ending."""

    def _setup(self, game_id: str, render_mode: str | None, max_steps: int | None, max_turns: int | None,
               illegal_action: str, config: dict[str, Any]) -> None:
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action must be one of {ILLEGAL}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode is None, 'ansi' or 'human'")
        self.game = get_game(game_id)
        self.config = self.game.normalize_config(config)
        self.encoder = encoder_class(game_id)(self.game, self.config)
        if max_turns is not None and not self.encoder.has_turns:
            raise ValueError(f"{game_id} has no turn counter; use max_steps")
        self.game_id = game_id
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.max_turns = max_turns
        self.illegal_action = illegal_action
        n = self.game.num_players(self.config)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoder.n_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoder.n_actions) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self.session: Session | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]  # the same object every time (space seeding relies on it)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_session(self, seed: int | None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seed_rng.integers(0, 2**62))
        self._pick_rng = np.random.default_rng(game_seed)
        self.session = Session(self.game, self.encoder, self.game.initial_state(self.config, game_seed))

    def _obs(self, seat: int) -> dict[str, np.ndarray]:
        assert self.session is not None
        s = self.session
        return {"observation": s.observation(seat), "action_mask": s.mask(seat)}

    def _finished(self) -> tuple[bool, bool]:
        """(terminated, truncated) of the match now."""
        assert self.session is not None
        if self.session.over():
            return True, False
        if self.max_steps is not None and self.session.actions >= self.max_steps:
            return False, True
        if self.max_turns is not None and self.encoder.turn_of(self.session.state) > self.max_turns:
            return False, True
        return False, False

    def _returns(self) -> list[float]:
        assert self.session is not None
        return [float(x) for x in self.game.returns(self.session.state)]

    def _resolve_token(self, seat: int, action: Any) -> int | None:
        """The token to play for ``seat``; ``None`` means the seat loses by an illegal action."""
        assert self.session is not None
        token = int(action)
        choices = self.session.choices(seat)
        if token in choices:
            return token
        if self.illegal_action == "raise":
            names = ", ".join(self.encoder.token_name(t) for t in choices[:8]) + (" ..." if len(choices) > 8 else "")
            raise ValueError(f"player_{seat}: action {token} is not allowed now (allowed: {names})")
        if self.illegal_action == "random":
            return int(choices[int(self._pick_rng.integers(len(choices)))])
        return None

    def render(self) -> str | None:
        if self.render_mode is None or self.session is None:
            return None
        text = self.game.render_text(self.session.state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.session = None


class SpacetableAEC(_Core, AECEnv):  # type: ignore[misc]
    """PettingZoo AEC environment of one spacetable game (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "is_parallelizable": True, "name": "spacetable"}

    def __init__(self, game_id: str, *, render_mode: str | None = None, max_steps: int | None = None,
                 max_turns: int | None = None, illegal_action: str = "raise", **config: Any) -> None:
        super().__init__()
        self._setup(game_id, render_mode, max_steps, max_turns, illegal_action, config)
        self.metadata = {**self.metadata, "name": f"spacetable_{game_id}"}
        self.agents: list[str] = []

    def __str__(self) -> str:
        return f"spacetable_{self.game_id}"

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_session(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _select(self) -> None:
        assert self.session is not None
        seats = self.session.deciding()
        if seats:
            self.agent_selection = self.possible_agents[seats[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._obs(self._index[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.session is not None
        seat = self._index[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        token = self._resolve_token(seat, action)
        if token is None:  # illegal_action="lose"
            for a in self.agents:
                self.rewards[a] = -1.0 if a == agent else 0.0
                self.terminations[a] = True
        else:
            self.session.push(seat, token)
            terminated, truncated = self._finished()
            if terminated:
                for a, r in zip(self.possible_agents, self._returns(), strict=True):
                    self.rewards[a] = r
            if terminated or truncated:
                for a in self.agents:
                    self.terminations[a] = terminated
                    self.truncations[a] = truncated
            else:
                self._select()
        self._accumulate_rewards()


class SpacetableParallel(_Core, ParallelEnv):  # type: ignore[misc]
    """PettingZoo Parallel environment of one spacetable game (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "spacetable"}

    def __init__(self, game_id: str, *, render_mode: str | None = None, max_steps: int | None = None,
                 max_turns: int | None = None, illegal_action: str = "raise", **config: Any) -> None:
        self._setup(game_id, render_mode, max_steps, max_turns, illegal_action, config)
        self.metadata = {**self.metadata, "name": f"spacetable_{game_id}"}
        self.agents: list[str] = []

    def __str__(self) -> str:
        return f"spacetable_{self.game_id}"

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._new_session(seed)
        self.agents = list(self.possible_agents)
        return {a: self._obs(i) for i, a in enumerate(self.possible_agents)}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
                                                     dict[str, dict[str, Any]]]:
        assert self.session is not None
        rewards = dict.fromkeys(self.agents, 0.0)
        loser: str | None = None
        for seat in self.session.deciding():  # seat order; the others' actions are ignored (WAIT)
            agent = self.possible_agents[seat]
            if seat not in self.session.deciding():  # resolved by an earlier seat's action this step
                continue
            token = self._resolve_token(seat, actions.get(agent, WAIT))
            if token is None:
                loser = agent
                break
            self.session.push(seat, token)
            if self.session.over():
                break
        if loser is not None:
            terminated, truncated = True, False
            rewards = {a: (-1.0 if a == loser else 0.0) for a in self.agents}
        else:
            terminated, truncated = self._finished()
            if terminated:
                rewards = dict(zip(self.possible_agents, self._returns(), strict=True))
        obs = {a: self._obs(self._index[a]) for a in self.agents}
        terms = dict.fromkeys(self.agents, terminated)
        truncs = dict.fromkeys(self.agents, truncated)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if terminated or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos
