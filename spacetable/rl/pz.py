"""PettingZoo environments over :class:`~spacetable.rl.session.Session` (needs ``spacetable[rl]``).

* :class:`SpacetableAEC` – agents act one at a time. With ``agent_order="turns"`` (default) the
  selected agent is the first seat the engine waits for; during a sealed simultaneous decision the
  waiting seats choose one after the other, each seeing only its own view (the others' commits stay
  hidden, as in the engine). With ``agent_order="cycle"`` every live agent is selected once per
  cycle, in seat order; the actions of a cycle are played together when it ends (the seats that
  are not deciding send ``WAIT``), exactly one step of :class:`SpacetableParallel`, so only this
  order declares ``is_parallelizable`` and PettingZoo's ``aec_to_parallel`` applies to it.
* :class:`SpacetableParallel` – every live agent sends an action each step; the seats the engine
  waits for choose their next token together (sealed buys, plans, events), the others send
  ``WAIT`` (token 0; any action of a seat that is not deciding is ignored).

Observations are ``{"observation": float32[obs_size] in [0, 1], "action_mask": int8[n_actions]}``
built from the seat's own view; the action space is ``Discrete(n_actions)``. Rewards are 0 until
the game ends, then the engine's ``returns``. ``max_steps`` (engine actions), ``max_turns`` (the
game's own turn counter, e.g. Full Metal turns) and ``max_cycles`` (PettingZoo's cycles: steps of
the Parallel form, see :class:`_Core`) truncate a match (rewards 0). ``state()`` is the global
state for centralised critics: every seat's observation, one after the other.
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
ORDERS = ("turns", "cycle")


class ActionError(ValueError):
    """An action that is not a token, or a token the seat may not choose now (``illegal_action="raise"``)."""


def as_token(action: Any, n_actions: int, who: str) -> int:
    """``action`` as a token: a Python or NumPy integer (what ``Discrete.contains`` accepts, also a 0-d
    integer array). Anything else (``2.7``, ``None``, ``"3"``, ``True``) raises :class:`ActionError`."""
    integer = isinstance(action, (int, np.integer)) or (
        isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer))
    if integer and not isinstance(action, (bool, np.bool_)):
        return int(action)
    raise ActionError(f"{who}: action {action!r} ({type(action).__name__}) is not a token; "
                      f"an action is an integer in 0..{n_actions - 1} allowed by the action mask")


class _Core:
    """What both environment kinds share: configuration, spaces, the session, one parallel round and
    the match's ending.

    ``max_cycles`` (a keyword, or an attribute set later, as PettingZoo's ``parallel_api_test`` does)
    counts PettingZoo cycles, "a step for each agent": a :class:`SpacetableParallel` step, a whole
    cycle of the ``"cycle"`` AEC order; in the ``"turns"`` AEC order one agent acts per cycle and the
    others wait, as in PettingZoo's ``turn_based_aec_to_parallel``, so a cycle is one AEC step. After
    ``max_cycles`` cycles every agent is truncated (rewards 0)."""

    def _setup(self, game_id: str, render_mode: str | None, max_steps: int | None, max_turns: int | None,
               max_cycles: int | None, illegal_action: str, config: dict[str, Any]) -> None:
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action must be one of {ILLEGAL}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode is None, 'ansi' or 'human'")
        for name, value in (("max_steps", max_steps), ("max_turns", max_turns), ("max_cycles", max_cycles)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"{name} is a positive integer or None")
        self.game = get_game(game_id)
        self.config = self.game.normalize_config(config)
        self.encoder = encoder_class(game_id)(self.game, self.config)
        if max_turns is not None and not self.encoder.has_turns:
            raise ValueError(f"{game_id} has no turn counter; use max_steps or max_cycles")
        self.game_id = game_id
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.max_turns = max_turns
        self.max_cycles = max_cycles
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
        self.state_space = spaces.Box(0.0, 1.0, (n * self.encoder.obs_size,), np.float32)
        self._seed_rng = np.random.default_rng()
        self.session: Session | None = None
        self._cycles = 0
        self._replaced: dict[str, int] = {}

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
        self._cycles = 0
        self._replaced = dict.fromkeys(self.possible_agents, 0)

    def _obs(self, seat: int) -> dict[str, np.ndarray]:
        assert self.session is not None
        s = self.session
        return {"observation": s.observation(seat), "action_mask": s.mask(seat)}

    def state(self) -> np.ndarray:
        """The global state for a centralised critic: the observations of every seat (seat order),
        concatenated (``state_space``). It holds what any seat sees, nothing that no seat sees."""
        if self.session is None:
            raise RuntimeError("call reset() before state()")
        return np.concatenate([self.session.observation(seat) for seat in range(len(self.possible_agents))])

    def _finished(self) -> tuple[bool, bool]:
        """(terminated, truncated) of the match now."""
        assert self.session is not None
        if self.session.over():
            return True, False
        if self.max_steps is not None and self.session.actions >= self.max_steps:
            return False, True
        if self.max_turns is not None and self.encoder.turn_of(self.session.state) > self.max_turns:
            return False, True
        if self.max_cycles is not None and self._cycles >= self.max_cycles:
            return False, True
        return False, False

    def _returns(self) -> list[float]:
        assert self.session is not None
        return [float(x) for x in self.game.returns(self.session.state)]

    def _loss_rewards(self, offender: int) -> dict[str, float]:
        """``illegal_action="lose"``: every seat of the offender's side gets −1 (teams lose together), the
        others 0."""
        assert self.session is not None
        st = self.session.state
        side = self.encoder.team_of(st, offender)
        return {a: (-1.0 if self.encoder.team_of(st, i) == side else 0.0) for i, a in enumerate(self.possible_agents)}

    def _resolve_token(self, seat: int, action: Any) -> int | None:
        """The token to play for ``seat``; ``None`` means the seat loses by an illegal action."""
        assert self.session is not None
        agent = self.possible_agents[seat]
        token = as_token(action, self.encoder.n_actions, agent)
        choices = self.session.choices(seat)
        if token in choices:
            return token
        if self.illegal_action == "raise":
            shown = ", ".join(f"{t} {self.encoder.token_name(t)}" for t in choices[:8]) + (" ..." if len(choices) > 8 else "")
            raise ActionError(f"{agent}: action {token} is not allowed now (allowed: {shown})")
        if self.illegal_action == "random":
            self._replaced[agent] += 1
            return int(choices[int(self._pick_rng.integers(len(choices)))])
        return None

    def _info(self, agent: str, replaced: bool) -> dict[str, Any]:
        """``replaced``: this step's action was illegal and replaced by a random allowed token
        (``illegal_action="random"``); ``illegal_replaced``: how many of the agent's actions were replaced
        since ``reset``."""
        return {"replaced": replaced, "illegal_replaced": self._replaced.get(agent, 0)}

    def _round(self, actions: dict[str, Any]) -> tuple[dict[str, float], bool, bool, set[str]]:
        """One parallel step: every deciding seat's action, in seat order (the others' are ignored).
        Returns the rewards, (terminated, truncated) and the agents whose action was replaced."""
        assert self.session is not None
        rewards = dict.fromkeys(self.possible_agents, 0.0)
        replaced: set[str] = set()
        loser: int | None = None
        for seat in self.session.deciding():
            agent = self.possible_agents[seat]
            if seat not in self.session.deciding():  # resolved by an earlier seat's action this step
                continue
            before = self._replaced[agent]
            token = self._resolve_token(seat, actions.get(agent, WAIT))
            if self._replaced[agent] != before:
                replaced.add(agent)
            if token is None:
                loser = seat
                break
            self.session.push(seat, token)
            if self.session.over():
                break
        self._cycles += 1
        if loser is not None:
            return self._loss_rewards(loser), True, False, replaced
        terminated, truncated = self._finished()
        if terminated:
            rewards = dict(zip(self.possible_agents, self._returns(), strict=True))
        return rewards, terminated, truncated, replaced

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

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "is_parallelizable": False, "name": "spacetable"}

    def __init__(self, game_id: str, *, render_mode: str | None = None, max_steps: int | None = None,
                 max_turns: int | None = None, max_cycles: int | None = None, illegal_action: str = "raise",
                 agent_order: str = "turns", **config: Any) -> None:
        super().__init__()
        if agent_order not in ORDERS:
            raise ValueError(f"agent_order must be one of {ORDERS}")
        self._setup(game_id, render_mode, max_steps, max_turns, max_cycles, illegal_action, config)
        self.agent_order = agent_order
        self.metadata = {**self.metadata, "name": f"spacetable_{game_id}", "is_parallelizable": agent_order == "cycle"}
        self.agents: list[str] = []
        self._pending: dict[str, Any] = {}

    def __str__(self) -> str:
        return f"spacetable_{self.game_id}"

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_session(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: self._info(a, False) for a in self.agents}
        self._skip_agent_selection = None
        self._pending = {}
        if self.agent_order == "cycle":
            self.agent_selection = self.agents[0]
        else:
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
        if self.agent_order == "cycle":
            self._cycle_step(agent, action)
            return
        assert self.session is not None
        seat = self._index[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        before = self._replaced[agent]
        token = self._resolve_token(seat, action)
        self.infos[agent] = self._info(agent, self._replaced[agent] != before)
        self._cycles += 1
        if token is None:  # illegal_action="lose"
            self.rewards.update(self._loss_rewards(seat))
            for a in self.agents:
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

    def _cycle_step(self, agent: str, action: Any) -> None:
        """``agent_order="cycle"``: keep the action; the last live agent of the cycle plays the round."""
        assert self.session is not None
        seat = self._index[agent]
        if seat in self.session.deciding():
            as_token(action, self.encoder.n_actions, agent)  # a malformed action is refused at its own step
            if self.illegal_action == "raise":
                self._resolve_token(seat, action)
        self._pending[agent] = action
        self._cumulative_rewards[agent] = 0.0
        position = self.agents.index(agent)
        if position < len(self.agents) - 1:
            self._clear_rewards()
            self.agent_selection = self.agents[position + 1]
            return
        rewards, terminated, truncated, replaced = self._round(self._pending)
        self._pending = {}
        for a in self.agents:
            self.rewards[a] = rewards[a]
            self.infos[a] = self._info(a, a in replaced)
            self.terminations[a] = terminated
            self.truncations[a] = truncated
        self.agent_selection = self.agents[0]
        self._accumulate_rewards()


class SpacetableParallel(_Core, ParallelEnv):  # type: ignore[misc]
    """PettingZoo Parallel environment of one spacetable game (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "spacetable"}

    def __init__(self, game_id: str, *, render_mode: str | None = None, max_steps: int | None = None,
                 max_turns: int | None = None, max_cycles: int | None = None, illegal_action: str = "raise",
                 **config: Any) -> None:
        self._setup(game_id, render_mode, max_steps, max_turns, max_cycles, illegal_action, config)
        self.metadata = {**self.metadata, "name": f"spacetable_{game_id}"}
        self.agents: list[str] = []

    def __str__(self) -> str:
        return f"spacetable_{self.game_id}"

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._new_session(seed)
        self.agents = list(self.possible_agents)
        return {a: self._obs(i) for i, a in enumerate(self.possible_agents)}, {a: self._info(a, False) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
                                                     dict[str, dict[str, Any]]]:
        if self.session is None or not self.agents:
            raise RuntimeError("the match is over (or not started): call reset()")
        rewards, terminated, truncated, replaced = self._round(actions)
        obs = {a: self._obs(self._index[a]) for a in self.agents}
        rew = {a: rewards[a] for a in self.agents}
        terms = dict.fromkeys(self.agents, terminated)
        truncs = dict.fromkeys(self.agents, truncated)
        infos = {a: self._info(a, a in replaced) for a in self.agents}
        if terminated or truncated:
            self.agents = []
        return obs, rew, terms, truncs, infos
