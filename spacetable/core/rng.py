"""Seeded deterministic random numbers carried inside game states.

The generator is SplitMix64: one 64-bit integer of state, so a state holding an
:class:`Rng` copies, serialises and resumes exactly. ``forced`` is a queue of
values that tests use to script dice: while it is not empty, ``randint`` and
``die`` return its values in order (each checked against the requested range)
instead of drawing.

**Chance seam.** :func:`chance_scope` routes the draws of *every* ``Rng`` in the current context
(``randbelow`` and everything built on it: ``randint``, ``die``, ``choice``; and ``shuffle``,
``sample``) to a :class:`ChanceSource` instead of the generator: research interfaces use it to turn
dice, draws and shuffles into explicit chance nodes without touching the games. The active source
lives in a :class:`contextvars.ContextVar`, so a scope is private to its thread and to its asyncio
task; outside a scope the cost is one context-variable lookup per draw. ``next_u64`` and ``random``
(continuous draws) are never routed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, MutableSequence, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def mix_seed(*parts: int | str) -> int:
    """Derive a 64-bit seed from integers and strings (stable across runs)."""
    h = 0x9E3779B97F4A7C15
    for part in parts:
        data = part.encode() if isinstance(part, str) else int(part).to_bytes(16, "little", signed=True)
        for byte in data:
            h ^= byte
            h = (h * 0x100000001B3) & _MASK
        h = _splitmix(h)[1]
    return h


class ChanceSource(Protocol):
    """Where routed draws come from (see :func:`chance_scope`)."""

    def draw(self, n: int) -> int:
        """One of ``n`` equally likely outcomes ``0..n-1`` (``n >= 1``)."""
        ...


_CHANCE: ContextVar[ChanceSource | None] = ContextVar("spacetable_chance", default=None)


@contextlib.contextmanager
def chance_scope(source: ChanceSource) -> Iterator[ChanceSource]:
    """Route every ``Rng`` draw of this thread / asyncio task to ``source`` while the block runs:
    ``randbelow(n)`` returns ``source.draw(n)``; ``shuffle`` is the Fisher–Yates shuffle of the
    generator, drawing ``source.draw(i + 1)`` for ``i`` from the last index down to 1. Scopes nest
    (the innermost source wins) and end with the block, even on an exception."""
    token = _CHANCE.set(source)
    try:
        yield source
    finally:
        _CHANCE.reset(token)


def active_chance() -> ChanceSource | None:
    """The source of the innermost :func:`chance_scope` of this context, if any."""
    return _CHANCE.get()


def _splitmix(state: int) -> tuple[int, int]:
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return state, z ^ (z >> 31)


@dataclass
class Rng:
    """A small, copyable, JSON-friendly random generator."""

    state: int = 0
    forced: list[int] = field(default_factory=list)

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        return cls(state=mix_seed(seed))

    def copy(self) -> Rng:
        return Rng(self.state, list(self.forced))

    def next_u64(self) -> int:
        self.state, out = _splitmix(self.state)
        return out

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias: SplitMix64 outputs
        at or above the largest multiple of ``n`` are rejected."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        source = _CHANCE.get()
        if source is not None:
            return source.draw(n)
        limit = _TWO64 - (_TWO64 % n)
        state = self.state
        while True:
            state, x = _splitmix(state)
            if x < limit:
                self.state = state
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in ``[lo, hi]`` (both included); honours ``forced``."""
        if self.forced:
            value = self.forced.pop(0)
            if not lo <= value <= hi:
                raise ValueError(f"forced value {value} outside [{lo}, {hi}]")
            return value
        return lo + self.randbelow(hi - lo + 1)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        return [self.die(sides) for _ in range(count)]

    def random(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place: for i from the end, swap with a uniform index in ``[0, i]``
        drawn as :meth:`randbelow` draws it (SplitMix64 outputs at or above the largest multiple of
        ``i + 1`` rejected); the loop calls the step directly, one call per draw. Inside a
        :func:`chance_scope` the swap indices come from the scope's source instead."""
        source = _CHANCE.get()
        if source is not None:
            for i in range(len(items) - 1, 0, -1):
                j = source.draw(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - (_TWO64 % n)
            state, x = _splitmix(state)
            while x >= limit:
                state, x = _splitmix(state)
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]

    def split(self, label: int | str = 0) -> Rng:
        """An independent generator derived from this one (this one advances)."""
        return Rng(mix_seed(self.next_u64(), label))
