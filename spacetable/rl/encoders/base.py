"""What every game encoder provides (game-agnostic).

An encoder turns one game into fixed-size arrays:

* **observation**: a float32 vector built *only* from ``game.view(state, seat)``, made of named
  blocks (:class:`Block`, documented per game in ``docs/research.md``), followed by the
  *decision* block that every game shares (:meth:`Encoder.decision_block`);
* **actions**: a fixed vocabulary of ``n_actions`` tokens made of named segments
  (:class:`Segment`); token 0 is ``WAIT``. Each legal action is written as a short token
  series (:meth:`Encoder.sequences`); :class:`~spacetable.rl.decision.Decision` turns the series of
  all legal actions into per-step masks.

Token series follow one rule that makes the decision block unambiguous: a token never repeats
inside one series and carries its role (a *source* cell token is not a *destination* cell
token), so the set of tokens chosen so far identifies the prefix.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from spacetable.core.game import Game
from spacetable.core.moves import agent_actions

from ..decision import WAIT, Decision

Action = dict[str, Any]
View = dict[str, Any]


@dataclass(frozen=True)
class Block:
    """One named part of the observation vector: ``shape`` values, row-major."""

    name: str
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


@dataclass(frozen=True)
class Segment:
    """``count`` consecutive tokens with one meaning (``doc``), e.g. 30 destination cells."""

    name: str
    count: int
    doc: str


class Encoder(ABC):
    """Observation and action encoding of one game (one instance per game configuration)."""

    game_id: ClassVar[str]
    #: Longest token series of any action (the decision block's depth one-hot has max_depth + 1 entries).
    max_depth: ClassVar[int]
    #: Whether :meth:`turn_of` reads a turn counter (for ``max_turns`` truncation).
    has_turns: ClassVar[bool] = False

    def __init__(self, game: Game[Any], config: dict[str, Any]) -> None:
        self.game = game
        self.config = config
        self.segments: list[Segment] = [Segment("wait", 1, "not this seat's decision now (token 0)"), *self.action_segments()]
        self.offsets: dict[str, int] = {}
        self.counts: dict[str, int] = {}
        at = 0
        for seg in self.segments:
            if seg.name in self.offsets:
                raise ValueError(f"{self.game_id}: token segment {seg.name!r} declared twice")
            self.offsets[seg.name] = at
            self.counts[seg.name] = seg.count
            at += seg.count
        self.n_actions = at
        self.blocks: list[Block] = [*self.game_blocks(), *self.decision_blocks()]
        self.game_size = sum(b.size for b in self.game_blocks())
        self.obs_size = sum(b.size for b in self.blocks)

    # ------------------------------------------------------------ declarations
    @abstractmethod
    def action_segments(self) -> list[Segment]:
        """The token segments after ``WAIT``, in order."""

    @abstractmethod
    def game_blocks(self) -> list[Block]:
        """The observation blocks filled by :meth:`observe_view`, in order."""

    def decision_blocks(self) -> list[Block]:
        return [
            Block("deciding", (1,), "1 when this seat is choosing now"),
            Block("depth", (self.max_depth + 1,), "one-hot: tokens chosen so far in the current series"),
            Block("chosen", (self.n_actions,), "multi-hot: the tokens chosen so far in the current series"),
        ]

    def turn_of(self, state: Any) -> int:
        """The game's own turn counter (rounds, game turns) for ``max_turns``."""
        raise NotImplementedError(f"{self.game_id} has no turn counter")

    def team_of(self, state: Any, seat: int) -> int:
        """The side ``seat`` plays for: seats of one side win and lose together (every seat is its own
        side unless the game has teams)."""
        return seat

    # ----------------------------------------------------------------- tokens
    def token(self, segment: str, index: int = 0) -> int:
        """The token ``index`` of a segment (IndexError outside it)."""
        count = self.counts[segment]
        if not 0 <= index < count:
            raise IndexError(f"{self.game_id}: {segment} token {index} outside 0..{count - 1}")
        return self.offsets[segment] + index

    def token_name(self, token: int) -> str:
        for seg in self.segments:
            base = self.offsets[seg.name]
            if base <= token < base + seg.count:
                return seg.name if seg.count == 1 else f"{seg.name}[{token - base}]"
        raise IndexError(token)

    # ----------------------------------------------------------------- actions
    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """The actions offered to agents: the game's legal list without ``resign`` and the draw-agreement
        moves (platform features that a learning agent would find first and use badly)."""
        return [a for a in agent_actions(self.game.legal_actions(state, seat)) if a.get("type") != "resign"]

    @abstractmethod
    def sequences(self, view: View, seat: int, actions: Sequence[Action]) -> list[tuple[int, ...]]:
        """The token series of each action, using only the seat's ``view``."""

    def decision(self, state: Any, seat: int, view: View | None = None) -> Decision:
        actions = self.legal_actions(state, seat)
        if view is None:
            view = self.game.view(state, seat)
        return Decision(actions, self.sequences(view, seat, actions))

    # ------------------------------------------------------------ observation
    @abstractmethod
    def observe_view(self, view: View, seat: int, out: np.ndarray) -> None:
        """Fill ``out`` (float32, ``game_size`` zeros) from the seat's view."""

    def observe(self, view: View, seat: int, deciding: bool = False, prefix: Sequence[int] = ()) -> np.ndarray:
        return self.with_decision(self.game_observation(view, seat), deciding, prefix)

    def game_observation(self, view: View, seat: int) -> np.ndarray:
        """The game part of the observation (``game_size`` values, clipped to [0, 1]); it depends only on
        the view, so a caller may keep it while the seat chooses the tokens of one series."""
        part = np.zeros(self.game_size, dtype=np.float32)
        self.observe_view(view, seat, part)
        np.clip(part, 0.0, 1.0, out=part)
        return part

    def with_decision(self, game_part: np.ndarray, deciding: bool, prefix: Sequence[int]) -> np.ndarray:
        """A full observation: ``game_part`` followed by the decision block."""
        out = np.zeros(self.obs_size, dtype=np.float32)
        out[: self.game_size] = game_part
        self.fill_decision(out, deciding, prefix)
        return out

    def fill_decision(self, out: np.ndarray, deciding: bool, prefix: Sequence[int]) -> None:
        at = self.game_size
        out[at] = 1.0 if deciding else 0.0
        out[at + 1 + min(len(prefix), self.max_depth)] = 1.0
        base = at + 2 + self.max_depth
        for tok in prefix:
            out[base + tok] = 1.0

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The named blocks of an observation vector, reshaped."""
        out = {}
        at = 0
        for b in self.blocks:
            out[b.name] = obs[..., at : at + b.size].reshape(*obs.shape[:-1], *b.shape)
            at += b.size
        return out

    def mask(self, tokens: Sequence[int]) -> np.ndarray:
        m = np.zeros(self.n_actions, dtype=np.int8)
        if tokens:
            m[list(tokens)] = 1
        return m

    def wait_mask(self) -> np.ndarray:
        m = np.zeros(self.n_actions, dtype=np.int8)
        m[WAIT] = 1
        return m

