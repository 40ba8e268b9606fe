"""The server's own counters of its hot path: CPU time per step of an action, and how often per-viewer work ran.

One process-wide :data:`METER` (the event loop is one thread; every step below runs on it) adds the CPU time of the
event loop's thread spent in each step of an action (``time.thread_time``: a busy machine preempting the process
does not inflate it, as wall time would). It is off unless the server runs with
``spacetable serve --meter`` (the environment variable ``SPACETABLE_METER=1``; ``bench/server_load.py`` sets it).
Each reading is a system call (about 2 us on the development machine, more on a loaded one or a virtual machine)
and an action takes about twenty, so the meter *samples*: the loop's time from the start of one action in
:data:`EVERY` (``act``) to the start of the next is measured, the rest is not (two readings' worth of checks).
One in 8 still cost some 3 % of the event loop under the benchmark's load (a py-spy profile), one in 32 a quarter of
that; a 20-second run still measures about a thousand windows. In a steady load each window
holds on average one action's worth of every step, so ``cpu / windows`` is the CPU per action of each step. The
counts of computations (``computed``) are always kept (they cost nothing). The process's total CPU time
(``/proc``, what the bench reports as server CPU) is the reference; "other" there is the rest: HTTP and WebSocket
protocol, JSON decoding of requests, the event loop itself, lobby calls and match set-ups.

* ``apply``: normalising, checking and applying the action (``game.apply``, ``outcome``, ``to_act``);
* ``legal``: listing legal actions (``game.legal_actions``) and choosing what a message carries;
* ``views``: what each seat may see (``game.view``, ``game.action_view``) and encoding the per-seat messages;
* ``texts``: sentences of actions in the clients' languages (``describe_action``, notation);
* ``storage``: storing the action (the SQLite transaction, or the PostgreSQL group commit on the loop);
* ``sending``: writing the messages to the sockets (WebSocket frames, ``ws.py``'s sender).

Work done in a worker thread for one action is not sampled but counted every time (:attr:`Meter.worker`, ``/health``
``worker_cpu_seconds``; the bench divides it by the stored actions): a slow game's legal lists (SRV-L4, Tremble's
plans) take from a tenth of a millisecond to a third of a second each, and one window in 32 of such a spread gave
estimates several times off (more CPU in the steps than the process used). Counting each costs two clock readings
of a computation that takes milliseconds.

``/health`` reports them (``hotpath``) with the number of stored actions; ``bench/server_load.py`` prints them per
action. ``computed`` counts per-viewer computations by kind (``view``, ``legal``, ``texts``, ``entry_texts``,
``message``): the tests of the once-per-version-and-seat discipline read it.
"""

from __future__ import annotations

import collections
import os
import time
from typing import Any

STEPS = ("apply", "legal", "views", "texts", "storage", "sending")
ENV = "SPACETABLE_METER"
#: one action's window in this many is measured
EVERY = 32
_thread_time = time.thread_time
_enabled = os.environ.get(ENV, "") not in ("", "0")
_on = False  # measuring now (a sampled window)
_ticks = 0


def enable(on: bool = True) -> None:
    """Turn the CPU counters on or off (``serve --meter``)."""
    global _enabled, _on
    _enabled = on
    _on = _on and on


def clock() -> float:
    """The event loop thread's CPU time in a measured window, else ``0.0`` (no system call)."""
    return _thread_time() if _on else 0.0


def tick() -> None:
    """An action starts: the window until the next one is measured once in :data:`EVERY`."""
    global _on, _ticks
    if _enabled:
        _ticks += 1
        _on = _ticks % EVERY == 0
        if _on:
            METER.windows += 1


class Meter:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = dict.fromkeys(STEPS, 0.0)
        self.actions = 0
        #: measured windows (``tick``): the CPU of each step per action is ``cpu[step] / windows``
        self.windows = 0
        #: CPU seconds of steps run in worker threads, counted for every action (not sampled): per action, divide
        #: by :attr:`actions`
        self.worker: dict[str, float] = dict.fromkeys(STEPS, 0.0)
        self.computed: collections.Counter[str] = collections.Counter()

    def add(self, step: str, since: float) -> float:
        """Add the CPU time since ``since`` (a :data:`clock` reading) to ``step``; returns the clock now."""
        if not since:  # started outside a measured window
            return clock()
        now = _thread_time()
        self.cpu[step] += now - since
        return now if _on else 0.0

    def count(self, kind: str, n: int = 1) -> None:
        self.computed[kind] += n

    def snapshot(self) -> dict[str, Any]:
        return {"actions": self.actions, "metered": _enabled, "windows": self.windows,
                "cpu_seconds": {k: round(v, 6) for k, v in self.cpu.items()},
                "worker_cpu_seconds": {k: round(v, 6) for k, v in self.worker.items()},
                "computed": dict(self.computed)}

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]


#: the process's meter
METER = Meter()
