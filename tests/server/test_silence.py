"""The silence timeout of a match socket's receive (``ws.Silence``, issue 26): one timer per connection, moved
lazily, with ``asyncio.timeout``'s results. The timer is fired by hand where the test needs it early or late, so
that nothing here depends on how busy the machine is."""

from __future__ import annotations

import asyncio

import pytest

from spacetable.server.ws import Silence

pytestmark = pytest.mark.hotpath


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def expire(s: Silence, loop: asyncio.AbstractEventLoop) -> None:
    """Fire ``s``'s timer as if a minute of silence had passed since the last wait."""
    s.deadline = loop.time() - 1
    s._fire(loop)


def test_a_message_before_the_deadline_is_returned_and_one_timer_serves_every_wait() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        s = Silence()
        timers = []
        for i in range(5):
            fut: asyncio.Future[int] = loop.create_future()
            loop.call_soon(fut.set_result, i)
            assert await s.wait(fut, 60.0) == i
            timers.append(s._timer)
        assert timers[0] is not None and all(t is timers[0] for t in timers)  # armed once, not per message
        s.close()
        assert s._timer is None and timers[0].cancelled()

    run(main())


def test_a_timer_that_fires_before_the_current_deadline_waits_again() -> None:
    """A message came after the timer was armed: the deadline moved, so the early timer re-arms and the wait goes
    on until its message comes."""
    async def main() -> None:
        loop = asyncio.get_running_loop()
        s = Silence()
        fut: asyncio.Future[str] = loop.create_future()
        waiting = asyncio.ensure_future(s.wait(fut, 60.0))
        await asyncio.sleep(0)
        first = s._timer
        s._fire(loop)  # early: the deadline is a minute away
        assert not waiting.done() and s._timer is not None and s._timer is not first
        fut.set_result("hello")
        assert await waiting == "hello"
        s.close()

    run(main())


def test_a_wait_past_its_deadline_times_out() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        s = Silence()
        with pytest.raises(TimeoutError):
            await s.wait(loop.create_future(), 0.01)  # the real timer
        fut: asyncio.Future[None] = loop.create_future()
        waiting = asyncio.ensure_future(s.wait(fut, 60.0))
        await asyncio.sleep(0)
        expire(s, loop)
        with pytest.raises(TimeoutError):
            await waiting
        assert fut.cancelled()
        s.close()

    run(main())


def test_a_timer_that_fires_between_waits_does_nothing_and_the_next_wait_arms_it() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        s = Silence()
        fut: asyncio.Future[int] = loop.create_future()
        fut.set_result(1)
        assert await s.wait(fut, 60.0) == 1
        expire(s, loop)  # nobody is waiting: nothing to cancel
        assert s._timer is None
        fut2: asyncio.Future[int] = loop.create_future()
        loop.call_soon(fut2.set_result, 2)
        assert await s.wait(fut2, 60.0) == 2
        assert s._timer is not None
        s.close()

    run(main())


def test_a_cancellation_from_outside_stays_a_cancellation() -> None:
    """A server shutting down cancels the socket's task: that is not a timeout, even when the deadline passed at
    the same moment."""
    async def main() -> None:
        loop = asyncio.get_running_loop()
        for expired_too in (False, True):
            s = Silence()
            waiting = asyncio.ensure_future(s.wait(loop.create_future(), 60.0))
            await asyncio.sleep(0)
            waiting.cancel()
            if expired_too:
                expire(s, loop)
            with pytest.raises(asyncio.CancelledError):
                await waiting
            s.close()

    run(main())


def test_a_cancellation_the_awaitable_swallows_is_taken_back() -> None:
    """As ``asyncio.timeout``: when what was awaited ends normally although the deadline cancelled it, its result
    is returned and the task is left with no pending cancellation."""
    async def main() -> None:
        loop = asyncio.get_running_loop()
        s = Silence()

        async def stubborn() -> str:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                return "kept going"
            return "slept"

        waiting = asyncio.ensure_future(s.wait(stubborn(), 60.0))
        await asyncio.sleep(0)
        expire(s, loop)
        assert await waiting == "kept going"
        assert waiting.cancelling() == 0
        s.close()

    run(main())
