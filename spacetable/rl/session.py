"""A match played token by token (game-agnostic): the engine state plus each deciding seat's
series in progress. The PettingZoo environments and the OpenSpiel games are thin layers over it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spacetable.core.game import Game
from spacetable.core.serial import action_key

from .decision import WAIT, Progress
from .encoders.base import Action, Encoder


class Session:
    """Engine state + per-seat :class:`Progress`; ``push`` a token, the action is applied once its
    series is complete. Copies share the (immutable) engine state and decisions."""

    __slots__ = ("_obs", "_views", "actions", "encoder", "game", "progress", "state")

    def __init__(self, game: Game[Any], encoder: Encoder, state: Any) -> None:
        self.game = game
        self.encoder = encoder
        self.state = state
        self.progress: dict[int, Progress] = {}
        self.actions = 0  # engine actions applied
        self._views: dict[int, Any] = {}  # seat -> view of the current state (states are immutable)
        self._obs: dict[int, np.ndarray] = {}  # seat -> game part of its observation of the current state

    def copy(self) -> Session:
        new = Session(self.game, self.encoder, self.state)
        new.progress = {s: p.copy() for s, p in self.progress.items()}
        new.actions = self.actions
        return new

    # ------------------------------------------------------------------ queries
    def deciding(self) -> tuple[int, ...]:
        return tuple(self.game.to_act(self.state))

    def over(self) -> bool:
        return self.game.outcome(self.state) is not None

    def progress_of(self, seat: int) -> Progress:
        prog = self.progress.get(seat)
        if prog is None:
            prog = self.progress[seat] = Progress(self.encoder.decision(self.state, seat, self.view(seat)))
            if not len(prog.decision):
                raise RuntimeError(f"{self.game.id}: seat {seat} must act but has no encodable legal action")
        return prog

    def choices(self, seat: int) -> list[int]:
        """Allowed tokens of ``seat`` now (``[WAIT]`` when it is not deciding)."""
        if seat not in self.deciding():
            return [WAIT]
        return self.progress_of(seat).choices()

    def prefix(self, seat: int) -> list[int]:
        prog = self.progress.get(seat)
        return list(prog.prefix) if prog is not None else []

    def view(self, seat: int) -> Any:
        """The seat's view of the current state (built once per state)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.view(self.state, seat)
        return view

    def observation(self, seat: int) -> np.ndarray:
        deciding = seat in self.deciding()
        part = self._obs.get(seat)
        if part is None:
            part = self._obs[seat] = self.encoder.game_observation(self.view(seat), seat)
        return self.encoder.with_decision(part, deciding, self.prefix(seat) if deciding else ())

    def mask(self, seat: int) -> np.ndarray:
        return self.encoder.mask(self.choices(seat))

    # ------------------------------------------------------------------ actions
    def push(self, seat: int, token: int) -> Action | None:
        """Choose ``token`` for ``seat`` (must be allowed); applies and returns the action when the
        series completes, else ``None``."""
        prog = self.progress_of(seat)
        if not prog.allows(token):
            raise ValueError(f"token {token} ({self.encoder.token_name(token)}) is not allowed for seat {seat} now")
        action = prog.push(token)
        if action is not None:
            self.play(seat, action)
        return action

    def play(self, seat: int, action: Action) -> None:
        """Apply a whole engine action for ``seat`` (its series, if any, is dropped)."""
        self.state = self.game.apply(self.state, seat, action)
        self._views = {}
        self._obs = {}
        self.actions += 1
        self.progress.pop(seat, None)
        if self.progress:
            still = set(self.deciding())
            for other in [s for s in self.progress if s not in still]:
                del self.progress[other]

    def tokens_of(self, seat: int, action: Action) -> tuple[int, ...]:
        """The token series of one of ``seat``'s legal actions now."""
        dec = self.progress_of(seat).decision
        key = action_key(action)
        for a, seq in zip(dec.actions, dec.sequences, strict=True):
            if action_key(a) == key:
                return seq
        raise KeyError(f"{action!r} is not among the encoded legal actions of seat {seat}")

