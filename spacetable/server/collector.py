"""The garbage collector of a server process: its settings, and the pauses it makes (SRV-B1, issue 26).

Every action allocates a new game state, its views, legal lists and messages (many small containers), and every
socket message a chain of coroutines. Reference counting frees almost all of them at once; the cyclic collector
only finds a few dozen objects in cycles a second (a closed connection's). But each of its passes stops the event
loop while it walks every object of the generations it collects, live or not, so its pauses reach the latency
of the actions that wait behind them. :func:`tune` sets it once per process, after the app is built:

* everything alive then (imported modules, catalogues, the app) is frozen out of the collector (``gc.freeze``);
* the young generation is collected after 20,000 net allocations rather than 700, the middle one after 50 of
  those, the oldest after 100 middle ones (and CPython's own rule: a quarter of the long-lived objects new).

``serve`` calls it before uvicorn starts; each process of ``serve --workers N`` calls it in its app factory.

:data:`PAUSES` counts every pass through ``gc.callbacks``: passes and pause time per generation, and how many
pauses reached each of :data:`BUCKETS` (cumulative counters, so that a reader can take the difference of two
readings over a window). ``/health`` reports them (``gc``) and ``bench/server_load.py`` prints them per phase.

What the benchmark showed (docs/architecture.md, "Where the time goes", twenty-second stop): under the paced Cosmic
Arena load the young passes come about once a second and walk 20,000 to 90,000 objects each (the net count that
starts a pass is lowered by every old object freed meanwhile: finished matches, answered messages), 5 to 60 ms of
stopped loop each, and they make the paced p99; a server without the collector answered with p99 15 to 21 ms
where it had 33 to 54. Other thresholds (3,000, 100,000, 1,000,000) and young passes on a timer (every 100 or
250 ms) were measured and were worse or no better, so the settings above stay.
"""

from __future__ import annotations

import gc
import time
from typing import Any

#: young, middle and old generation thresholds (``gc.set_threshold``)
THRESHOLDS = (20_000, 50, 100)
#: pause lengths (seconds) counted apart: how many pauses reached each
BUCKETS = (0.001, 0.005, 0.01, 0.02, 0.05, 0.1)

_tuned = False


class Pauses:
    """The collector's passes of this process, counted from ``gc.callbacks`` (two clock readings a pass)."""

    def __init__(self) -> None:
        self.passes = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.at_least = [0] * len(BUCKETS)
        self.longest = 0.0
        self._started = 0.0
        self._installed = False

    def install(self) -> None:
        if not self._installed:
            gc.callbacks.append(self._callback)
            self._installed = True

    def uninstall(self) -> None:
        if self._installed:
            gc.callbacks.remove(self._callback)
            self._installed = False

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        generation = info.get("generation", 0)
        self.passes[generation] += 1
        self.seconds[generation] += pause
        self.longest = max(self.longest, pause)
        for k, edge in enumerate(BUCKETS):
            if pause < edge:
                break
            self.at_least[k] += 1

    def snapshot(self) -> dict[str, Any]:
        return {"thresholds": list(gc.get_threshold()), "frozen": gc.get_freeze_count(), "enabled": gc.isenabled(),
                "passes": list(self.passes), "pause_seconds": [round(s, 6) for s in self.seconds],
                "pauses_at_least_ms": {f"{edge * 1000:g}": n for edge, n in zip(BUCKETS, self.at_least, strict=True)},
                "longest_ms": round(self.longest * 1000, 3)}


#: this process's counts
PAUSES = Pauses()


def tune() -> None:
    """Collect once, freeze what is alive, set :data:`THRESHOLDS` and count the pauses from now on. Once per
    process: a second call (tests that build several apps) changes nothing."""
    global _tuned
    if _tuned:
        return
    _tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    PAUSES.install()
