"""One seat's decision as a short series of small choices (game-agnostic).

An encoder (``spacetable/rl/encoders/<game>.py``) writes each legal action of a seat as a
sequence of *tokens*, integers in ``[1, n)`` of the game's fixed vocabulary (token 0 is
``WAIT``: "not my decision now"). :class:`Decision` stores the sequences of every legal action
in a trie, so that

* the choices offered after a prefix are exactly the tokens that extend it towards at least
  one legal action (every allowed series completes to a legal action);
* a series ends as soon as it names one action (sequences are prefix-free, checked here);
* the action is found back from its series without any decoding rule.

A seat's progress through one decision is a :class:`Progress` (the prefix chosen so far).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

WAIT = 0

Action = dict[str, Any]


class EncodingError(ValueError):
    """The encoder wrote two legal actions the same way, or one as a prefix of another."""


class Decision:
    """The legal actions of one seat at one moment, as a trie of token sequences."""

    __slots__ = ("actions", "root", "sequences")

    def __init__(self, actions: Sequence[Action], sequences: Sequence[tuple[int, ...]]) -> None:
        if len(actions) != len(sequences):
            raise EncodingError("one token sequence per action")
        self.actions = list(actions)
        self.sequences = [tuple(s) for s in sequences]
        root: dict[int, Any] = {}
        for index, seq in enumerate(self.sequences):
            if not seq:
                raise EncodingError(f"action {actions[index]!r} has an empty token sequence")
            node = root
            for depth, tok in enumerate(seq):
                if tok <= WAIT:
                    raise EncodingError(f"token {tok} of {actions[index]!r} is not a choice (tokens start at 1)")
                last = depth == len(seq) - 1
                child = node.get(tok)
                if last:
                    if child is not None:
                        other = child if isinstance(child, int) else _first_leaf(child)
                        raise EncodingError(
                            f"{actions[index]!r} and {actions[other]!r} share the token series {seq} (or one extends the other)")
                    node[tok] = index
                else:
                    if isinstance(child, int):
                        raise EncodingError(
                            f"the series of {actions[child]!r} is a prefix of the series of {actions[index]!r}")
                    if child is None:
                        child = node[tok] = {}
                    node = child
        self.root = root

    def __len__(self) -> int:
        return len(self.actions)

    def node(self, prefix: Sequence[int]) -> dict[int, Any]:
        node: Any = self.root
        for tok in prefix:
            node = node[tok]
        if not isinstance(node, dict):
            raise KeyError("the prefix already names an action")
        return node  # type: ignore[no-any-return]

    def choices(self, prefix: Sequence[int] = ()) -> list[int]:
        """Tokens allowed after ``prefix``, ascending."""
        return sorted(self.node(prefix))

    def lookup(self, sequence: Sequence[int]) -> Action:
        """The action written as ``sequence`` (KeyError if none)."""
        node: Any = self.root
        for tok in sequence:
            node = node[tok]
        if not isinstance(node, int):
            raise KeyError("incomplete series")
        return self.actions[node]


def _first_leaf(node: dict[int, Any]) -> int:
    while True:
        value = next(iter(node.values()))
        if isinstance(value, int):
            return value
        node = value


@dataclass
class Progress:
    """A seat's series in progress: the decision and the tokens chosen so far."""

    decision: Decision
    prefix: list[int] = field(default_factory=list)

    def choices(self) -> list[int]:
        return sorted(self._node())

    def _node(self) -> dict[int, Any]:
        node: Any = self.decision.root
        for tok in self.prefix:
            node = node[tok]
        return node  # type: ignore[no-any-return]

    def allows(self, token: int) -> bool:
        return token in self._node()

    def push(self, token: int) -> Action | None:
        """Choose ``token`` (must be allowed); returns the action when the series is complete."""
        node = self._node()
        nxt = node[token]
        self.prefix.append(token)
        if isinstance(nxt, int):
            return self.decision.actions[nxt]
        return None

    def copy(self) -> Progress:
        return Progress(self.decision, list(self.prefix))
