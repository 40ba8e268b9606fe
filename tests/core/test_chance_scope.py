"""The core chance seam (:func:`spacetable.core.rng.chance_scope`): routed draws, nesting, and
isolation between threads and asyncio tasks (a context variable, never a class-wide patch)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from spacetable.core.rng import Rng, active_chance, chance_scope


class Fixed:
    """A source that answers ``value`` (clamped to ``n - 1``) and records what it was asked."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.asked: list[int] = []

    def draw(self, n: int) -> int:
        self.asked.append(n)
        return min(self.value, n - 1)


def test_scope_routes_randbelow_and_what_is_built_on_it() -> None:
    rng = Rng.from_seed(1)
    before = rng.state
    src = Fixed(2)
    with chance_scope(src):
        assert rng.randbelow(6) == 2
        assert rng.die(6) == 3  # randint(1, 6) = 1 + randbelow(6)
        assert rng.choice("abcd") == "c"
    assert src.asked == [6, 6, 4]
    assert rng.state == before  # the generator did not advance
    assert active_chance() is None


def test_scope_routes_shuffle_as_fisher_yates() -> None:
    """Index ``i`` from the end down to 1 swaps with ``draw(i + 1)``: all zeros is a fixed permutation."""
    items = list(range(5))
    src = Fixed(0)
    with chance_scope(src):
        Rng(7).shuffle(items)
    assert src.asked == [5, 4, 3, 2]
    assert items == [1, 2, 3, 4, 0]
    items = list(range(5))
    with chance_scope(Fixed(99)):  # always the last index: nothing moves
        Rng(7).shuffle(items)
    assert items == list(range(5))


def test_next_u64_and_random_are_never_routed() -> None:
    a, b = Rng(3), Rng(3)
    with chance_scope(Fixed(0)):
        x, y = a.next_u64(), a.random()
    assert (x, y) == (b.next_u64(), b.random())


def test_scopes_nest_and_end_on_exceptions() -> None:
    outer, inner = Fixed(1), Fixed(3)
    rng = Rng(0)
    with chance_scope(outer):
        with pytest.raises(RuntimeError), chance_scope(inner):
            assert rng.randbelow(10) == 3
            raise RuntimeError
        assert rng.randbelow(10) == 1
    assert active_chance() is None
    assert Rng(0).randbelow(10) == rng.randbelow(10)  # the generator again


def test_a_scope_is_private_to_its_thread() -> None:
    """While one thread holds a scope, another thread's draws still come from its generator."""
    inside, done = threading.Event(), threading.Event()
    seen: list[int] = []

    def holder() -> None:
        with chance_scope(Fixed(0)):
            inside.set()
            done.wait(10)
            seen.append(Rng(5).randbelow(1000))

    t = threading.Thread(target=holder)
    t.start()
    inside.wait(10)
    free = [Rng(5).randbelow(1000) for _ in range(3)]
    done.set()
    t.join()
    expected = Rng(5).randbelow(1000)
    assert expected != 0 and free == [expected] * 3
    assert seen == [0]


def test_a_scope_is_private_to_its_asyncio_task() -> None:
    async def task(value: int, out: list[int]) -> None:
        with chance_scope(Fixed(value)):
            for _ in range(5):
                await asyncio.sleep(0)  # interleave with the other task
                out.append(Rng(1).randbelow(100))

    async def main() -> tuple[list[int], list[int]]:
        a: list[int] = []
        b: list[int] = []
        await asyncio.gather(task(11, a), task(22, b))
        return a, b

    a, b = asyncio.run(main())
    assert a == [11] * 5 and b == [22] * 5
