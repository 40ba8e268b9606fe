"""The server's own counters of its hot path: CPU time per step of an action, and how often per-viewer work ran.

One process-wide :data:`METER` (the event loop is one thread; every step below runs on it) adds the thread's CPU
time (``time.thread_time``, not wall time: a busy machine does not inflate it) spent in each step of an action:

* ``apply``: normalising, checking and applying the action (``game.apply``, ``outcome``, ``to_act``);
* ``legal``: listing legal actions (``game.legal_actions``) and choosing what a message carries;
* ``views``: what each seat may see (``game.view``, ``game.action_view``) and encoding the per-seat messages;
* ``texts``: sentences of actions in the clients' languages (``describe_action``, notation);
* ``storage``: storing the action (the SQLite transaction, or the PostgreSQL group commit on the loop);
* ``sending``: handing the messages to the sockets (queues and WebSocket frames).

``/health`` reports them (``hotpath``) with the number of stored actions; ``bench/server_load.py`` prints them per
action. ``computed`` counts per-viewer computations by kind (``view``, ``legal``, ``texts``, ``entry_texts``,
``message``): the tests of the once-per-version-and-seat discipline read it.
"""

from __future__ import annotations

import collections
import time
from typing import Any

STEPS = ("apply", "legal", "views", "texts", "storage", "sending")
clock = time.thread_time


class Meter:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = dict.fromkeys(STEPS, 0.0)
        self.actions = 0
        self.computed: collections.Counter[str] = collections.Counter()

    def add(self, step: str, since: float) -> float:
        """Add the CPU time since ``since`` (a :data:`clock` reading) to ``step``; returns the clock now."""
        now = clock()
        self.cpu[step] += now - since
        return now

    def count(self, kind: str, n: int = 1) -> None:
        self.computed[kind] += n

    def snapshot(self) -> dict[str, Any]:
        return {"actions": self.actions, "cpu_seconds": {k: round(v, 6) for k, v in self.cpu.items()},
                "computed": dict(self.computed)}

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]


#: the process's meter
METER = Meter()
