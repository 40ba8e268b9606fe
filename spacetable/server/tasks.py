"""Ending background tasks when a server process stops, in bounded time.

A task is cancelled and awaited; a library may swallow the cancellation (redis-py's timeouts did while Redis
was restarting: the task went on waiting and the process never stopped), so the cancellation is repeated, and
after ``tries`` rounds the stop goes on without the task, with a warning. Nothing here waits unboundedly.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("spacetable.server")


async def stop_tasks(tasks: Iterable[asyncio.Task[Any]], what: str, tries: int = 5, wait: float = 1.0) -> None:
    """Cancel ``tasks`` until they end: at most ``tries`` rounds of ``wait`` seconds."""
    pending = {t for t in tasks if not t.done()}
    for _ in range(tries):
        if not pending:
            return
        for t in pending:
            t.cancel()
        _, pending = await asyncio.wait(pending, timeout=wait)
    if pending:
        log.warning("%d %s did not stop within %.0f s; going on without them", len(pending), what, tries * wait)
