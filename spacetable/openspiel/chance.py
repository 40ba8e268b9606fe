"""Explicit chance nodes for the engines' dice, draws and shuffles, without touching the games.

Every game draws its randomness through :class:`~spacetable.core.rng.Rng` (``randbelow`` for dice,
draws and choices; ``shuffle`` for decks). While :func:`scripted` is active, those draws read their
values from a *script* instead: the list of chance outcomes chosen so far. A draw beyond the end of
the script raises :class:`ChancePending` with its number of equally likely outcomes (a die: 6; the
i-th step of a Fisher–Yates shuffle of n cards: i + 1).

The OpenSpiel state runs a pure engine call (``initial_state`` or ``apply``) under a script;
when it stops on :class:`ChancePending` the state becomes a chance node with ``n`` outcomes of
probability ``1/n``; choosing outcome ``k`` appends it to the script and the call runs again from
its start (engine calls are pure), until it completes. A shuffle is thus a series of chance
nodes with the exact uniform law over orderings, and a die roll is one node.

``Rng.next_u64`` and ``Rng.random`` (continuous draws: only the Full Metal map generator uses
them) are left alone: they follow the game's ``seed`` parameter and are not chance nodes.

The routing is the core's chance seam (:func:`spacetable.core.rng.chance_scope`): a context
variable, so a script is private to the thread (and asyncio task) that runs it; OpenSpiel states
of any games may be stepped from several threads at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TypeVar

from spacetable.core.rng import chance_scope

T = TypeVar("T")


class ChancePending(BaseException):
    """An engine call needs one more chance outcome: ``n`` equally likely values ``0..n-1``.

    A ``BaseException`` so that no ``except Exception`` inside an engine swallows it."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class _Script:
    __slots__ = ("pos", "values")

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values
        self.pos = 0

    def draw(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if n == 1:
            return 0  # a certain outcome is no chance node
        if self.pos < len(self.values):
            v = self.values[self.pos]
            self.pos += 1
            if not 0 <= v < n:
                raise ValueError(f"chance outcome {v} outside 0..{n - 1}")
            return v
        raise ChancePending(n)


def scripted(values: Sequence[int]) -> contextlib.AbstractContextManager[_Script]:
    """Route every ``Rng`` draw of this thread to ``values`` while the block runs (see the module docstring)."""
    return chance_scope(_Script(values))  # type: ignore[return-value]


def attempt(call: Callable[[], T], values: Sequence[int]) -> T | ChancePending:
    """Run a pure engine call under a script: its result, or the :class:`ChancePending` it stopped on.
    A completed call must have used every scripted value."""
    with scripted(values) as script:
        try:
            result = call()
        except ChancePending as pending:
            return pending
    if script.pos != len(values):
        raise RuntimeError(f"the engine used {script.pos} of {len(values)} chance outcomes: it is not deterministic")
    return result
