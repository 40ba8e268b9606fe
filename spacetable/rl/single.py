"""A Gymnasium single-agent environment: one seat learns, the game's own AI plays every other seat.

    env = rl.single_agent_env("arena", seat=0, opponent="easy")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

The observation is the seat's AEC observation (``Box(0, 1, (obs_size,), float32)``), the action a token
(``Discrete(n_actions)``) and :meth:`SingleAgentEnv.action_masks` the tokens allowed now (a bool
array: what sb3-contrib's ``MaskablePPO`` asks an environment for; ``info["action_mask"]`` holds the
same). Rewards are 0 until the game ends, then the seat's ``returns``. The other seats are played by
the AI player ``opponent`` (a level ``easy``, ``medium``, ``hard``, or any player name the game lists,
e.g. ``random``), from views determinised for their seat, so they never read the learner's hidden
cards or sealed choices; each plays a whole engine action when the engine waits for it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from spacetable.ai.agents import choose_for_seat, find_agent
from spacetable.core.errors import ConfigError
from spacetable.core.rng import mix_seed
from spacetable.games import get_game

from .encoders import encoder_class
from .pz import ILLEGAL, ActionError, as_token
from .session import Session


class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of a spacetable game against AI players (see the module docstring).

    Keywords: ``seat`` (the learner's seat), ``opponent`` (the other seats' AI player),
    ``opponent_seconds`` (its clock per move, for players on the clock; the levels have fixed
    budgets), ``render_mode``, ``max_steps``, ``max_turns``, ``illegal_action`` (as in
    :func:`spacetable.rl.env`); every other keyword is a game option."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"]}

    def __init__(self, game_id: str, *, seat: int = 0, opponent: str = "easy", opponent_seconds: float = 0.1,
                 render_mode: str | None = None, max_steps: int | None = None, max_turns: int | None = None,
                 illegal_action: str = "raise", **config: Any) -> None:
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action must be one of {ILLEGAL}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode is None, 'ansi' or 'human'")
        self.game = get_game(game_id)
        self.config = self.game.normalize_config(config)
        n = self.game.num_players(self.config)
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be an integer in 0..{n - 1}")
        self.encoder = encoder_class(game_id)(self.game, self.config)
        if max_turns is not None and not self.encoder.has_turns:
            raise ValueError(f"{game_id} has no turn counter; use max_steps")
        try:
            self.opponent_spec = find_agent(self.game, opponent)
        except ConfigError as exc:  # names the choices
            raise ValueError(str(exc)) from exc
        self.game_id = game_id
        self.seat = seat
        self.opponent = opponent
        self.opponent_seconds = opponent_seconds
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.max_turns = max_turns
        self.illegal_action = illegal_action
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.obs_size,), np.float32)
        self.action_space = spaces.Discrete(self.encoder.n_actions)
        self.session: Session | None = None
        self._opponents: dict[int, Any] = {}
        self._seed = 0
        self._moves = 0
        self._replaced = 0
        self._done = False

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**62))
        self._seed = game_seed
        self._pick = np.random.default_rng(game_seed)
        self.session = Session(self.game, self.encoder, self.game.initial_state(self.config, game_seed))
        n = self.game.num_players(self.config)
        self._opponents = {s: self.opponent_spec.make(seed=mix_seed(game_seed, f"opponent-{s}"), seconds=self.opponent_seconds)
                           for s in range(n) if s != self.seat}
        self._moves = 0
        self._replaced = 0
        self._done = False
        self._advance()
        terminated, truncated = self._finished()
        self._done = terminated or truncated
        return self._observation(), self._info(False)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.session is None or self._done:
            raise RuntimeError("the match is over (or not started): call reset()")
        s = self.session
        who = f"player_{self.seat}"
        token = as_token(action, self.encoder.n_actions, who)
        choices = s.choices(self.seat)
        replaced = False
        if token not in choices:
            if self.illegal_action == "raise":
                shown = ", ".join(f"{t} {self.encoder.token_name(t)}" for t in choices[:8]) + (" ..." if len(choices) > 8 else "")
                raise ActionError(f"{who}: action {token} is not allowed now (allowed: {shown})")
            if self.illegal_action == "lose":
                self._done = True
                return self._observation(), -1.0, True, False, self._info(False)
            token = int(choices[int(self._pick.integers(len(choices)))])
            self._replaced += 1
            replaced = True
        s.push(self.seat, token)
        self._advance()
        terminated, truncated = self._finished()
        self._done = terminated or truncated
        reward = float(self.game.returns(s.state)[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info(replaced)

    def action_masks(self) -> np.ndarray:
        """The tokens the learner may choose now, as booleans (``MaskablePPO``'s ``action_masks``)."""
        if self.session is None:
            raise RuntimeError("call reset() first")
        return self.session.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.session is None:
            return None
        text = self.game.render_text(self.session.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return str(text)

    def close(self) -> None:
        self.session = None

    # ------------------------------------------------------------------ internals
    def _advance(self) -> None:
        """Let the AI seats play until the learner decides or the match ends (or is cut)."""
        s = self.session
        assert s is not None
        while not any(self._finished()):
            others = [seat for seat in s.deciding() if seat != self.seat]
            if not others:
                return
            seat = others[0]
            self._moves += 1
            action = choose_for_seat(self.game, s.state, seat, self._opponents[seat],
                                     mix_seed(self._seed, f"move-{self._moves}"))
            s.play(seat, action)

    def _finished(self) -> tuple[bool, bool]:
        s = self.session
        assert s is not None
        if s.over():
            return True, False
        if self.max_steps is not None and s.actions >= self.max_steps:
            return False, True
        if self.max_turns is not None and self.encoder.turn_of(s.state) > self.max_turns:
            return False, True
        return False, False

    def _observation(self) -> np.ndarray:
        assert self.session is not None
        return self.session.observation(self.seat)

    def _info(self, replaced: bool) -> dict[str, Any]:
        assert self.session is not None
        mask = self.session.mask(self.seat) if not self._done else self.encoder.wait_mask()
        return {"action_mask": mask, "replaced": replaced, "illegal_replaced": self._replaced}
