"""The garbage collector of a server process: its settings, and the pauses it makes (SRV-B1, issue 26).

Every action allocates a new game state, its views, legal lists and messages (many small containers), and every socket
message a chain of coroutines. Reference counting frees all of them at once: under the benchmark's load of Cosmic
Arena, Tremble or Battleship Galaxies the cyclic collector finds nothing (the last cycles, some forty objects every
two seconds, were the notification claim's SQLAlchemy statement, now built once: ``notify.store.claim``;
``tests/server/test_garbage.py``). But each of its passes stops the event loop while it walks every object of the
generations it collects, live or not, so its pauses reach the latency of the actions that wait behind them.
:func:`tune` sets it once per process, after the app is built:

* everything alive then (imported modules, catalogues, the app) is frozen out of the collector (``gc.freeze``);
* the young generation is collected after 1,000,000 net allocations rather than 700 (a bound for a burst on a
  stalled loop, never reached under load), the middle one after 50 of those, the oldest after 100 middle ones.

``serve`` calls it before uvicorn starts; each process of ``serve --workers N`` calls it in its app factory. Then,
in a tuned process, the app's start-up starts the :class:`Freezer` on the event loop (:func:`start`), which does
the collector's work in its place:

* every :data:`FREEZE_EVERY` seconds it freezes what is alive (``gc.freeze``, a constant-time move of the
  generations' lists), so that no pass walks the live matches, caches and sockets; a freeze also restarts the young
  generation's count. Reference counting still frees a frozen object when its last reference goes, so only a
  *cycle* waits: the next full pass;
* a full pass (everything unfrozen, collected, frozen again) runs when the frozen objects are more than
  :data:`FULL_GROWTH` above their count after the last one (live objects and such cycles), so memory stays within
  that share of the live heap, as CPython's own rule keeps the oldest generation. Counting them walks them (about
  3 ms for 350,000), so the freezer keeps an upper bound of their growth for nothing: the young count it reads
  before each freeze (net allocations since the last one: every tracked object made, less every one freed while
  the count is above zero). It counts them every :data:`CHECK_EVERY` seconds, and at once when that bound says
  they may have grown by :data:`BOUND_GROWTH` and by :data:`BOUND_MIN` objects (a flood of dead cycles: between two
  counts they stay below the live heap or a million objects), then running a full pass only if they did grow that
  much; a count sets the bound back to what it found. While the live heap grows (a server filling up), a full
  pass comes at each such doubling and at most once every periodic count, each walking it all (130 to 550 ms under
  the benchmark's load).

:data:`PAUSES` counts every pass through ``gc.callbacks``: passes and pause time per generation, and how many
pauses reached each of :data:`BUCKETS` (cumulative counters, so that a reader can take the difference of two
readings over a window), with the freezer's freezes, counts and full passes. ``/health`` reports them (``gc``) and
``bench/server_load.py`` prints them per phase.

What the benchmark showed (docs/architecture.md, "Where the time goes"): under the paced Cosmic Arena load the young
passes came about once a second and walked 20,000 to 90,000 objects each (the net count that starts a pass is
lowered by every old object freed meanwhile: finished matches, answered messages), 5 to 60 ms of stopped loop
each; other thresholds (3,000, 100,000, 1,000,000) and young passes on a timer were worse or no better (twenty-second
stop). With the freezer (twenty-third stop) the collector took 0.0 to 0.3 % of Cosmic Arena's time instead of 1.4 to
2.6 %, with no pause of 50 ms or more where there were one or two a window, and a third to two thirds less of the
heavier games' time; their young passes, 4 to 10 a second (a worker thread listing Tremble's thousands of plans
makes 20,000 objects within one interval), still took 6 to 13 % of it, and found nothing. With no young pass
under load (twenty-fourth stop: the threshold out of reach, the growth bounded by the freezer's count) no game's
measured windows had a pass (the periodic count's full passes remain, one every 30 s at most); the table is in the
architecture document.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

#: young, middle and old generation thresholds (``gc.set_threshold``)
THRESHOLDS = (1_000_000, 50, 100)
#: pause lengths (seconds) counted apart: how many pauses reached each
BUCKETS = (0.001, 0.005, 0.01, 0.02, 0.05, 0.1)
#: seconds between two freezes of what is alive (:class:`Freezer`)
FREEZE_EVERY = 0.25
#: seconds between two counts of the frozen objects (a count walks them: about 3 ms for 350,000), whatever the bound
CHECK_EVERY = 30.0
#: the growth of the frozen objects, a share of their count after the last full pass, that starts a full pass
FULL_GROWTH = 0.25
#: the growth that the freezer's bound must reach to count them before the periodic count (:class:`Freezer`): a
#: share of their count after the last full pass, and at least a number of objects (a server just started, whose
#: heap doubles as it fills, is not walked at each doubling)
BOUND_GROWTH = 1.0
BOUND_MIN = 1_000_000

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
        #: the freezer's work: freezes, counts of the frozen objects, full passes, and the frozen objects at its last
        #: count (None: never counted)
        self.freezes = 0
        self.counts = 0
        self.full_passes = 0
        self.frozen: int | None = None

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
        frozen = gc.get_freeze_count() if self.frozen is None else self.frozen
        return {"thresholds": list(gc.get_threshold()), "frozen": frozen, "enabled": gc.isenabled(),
                "freezes": self.freezes, "counts": self.counts, "full_passes": self.full_passes,
                "passes": list(self.passes), "pause_seconds": [round(s, 6) for s in self.seconds],
                "pauses_at_least_ms": {f"{edge * 1000:g}": n for edge, n in zip(BUCKETS, self.at_least, strict=True)},
                "longest_ms": round(self.longest * 1000, 3)}


#: this process's counts
PAUSES = Pauses()


class Freezer:
    """Freezes what is alive every ``every`` seconds on the event loop, and runs a full pass when the frozen objects
    grew by ``growth`` of their count after the last one: counted every ``check_every`` seconds, and at once when an
    upper bound of that growth kept at each freeze passes ``bound_growth`` and ``bound_min`` objects. Counts its work
    in ``pauses`` (the module's docstring says why)."""

    def __init__(self, every: float = FREEZE_EVERY, check_every: float = CHECK_EVERY, growth: float = FULL_GROWTH,
                 bound_growth: float = BOUND_GROWTH, bound_min: int = BOUND_MIN, pauses: Pauses = PAUSES) -> None:
        self.every, self.check_every, self.growth, self.pauses = every, check_every, growth, pauses
        self.bound_growth, self.bound_min = bound_growth, bound_min
        self.base = 0  # the frozen objects after the last full pass
        #: at least the frozen objects now: their last count, plus the young count read before each freeze since
        self.bound = 0
        self._next_check = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.base = self.bound = self.pauses.frozen = gc.get_freeze_count()
        self._next_check = loop.time() + self.check_every
        self._timer = loop.call_later(self.every, self._run)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._loop = None

    def _run(self) -> None:
        loop = self._loop
        assert loop is not None  # set by start; stop cancels the timer that calls this
        self.tick()
        if loop.time() >= self._next_check:
            self._next_check = loop.time() + self.check_every
            self.check()
        elif self.bound > self.prompt_limit():
            self.check(prompt=True)
        self._timer = loop.call_later(self.every, self._run)

    def tick(self) -> None:
        """Freeze what is alive now; the young count (net allocations since the last freeze, which restarts it) is
        added to :attr:`bound`."""
        self.bound += gc.get_count()[0]
        gc.freeze()
        self.pauses.freezes += 1

    def prompt_limit(self) -> int:
        """The frozen objects past which the bound's count comes (and its full pass): ``bound_growth`` more than
        after the last full pass, and at least ``bound_min`` more."""
        return self.base + max(int(self.base * self.bound_growth), self.bound_min)

    def check(self, prompt: bool = False) -> bool:
        """Count the frozen objects; a full pass when they grew by more than ``growth`` (``prompt``: past
        :meth:`prompt_limit`, so that a live heap growing under churn, which the bound overstates, is walked at the
        bound's count only when it did grow that much, and else at the periodic count). True when it ran one."""
        self.bound = self.pauses.frozen = gc.get_freeze_count()
        self.pauses.counts += 1
        if self.bound <= (self.prompt_limit() if prompt else self.base * (1 + self.growth)):
            return False
        self.full_pass()
        return True

    def full_pass(self) -> None:
        """Unfreeze everything, collect every generation, freeze what is left."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.base = self.bound = self.pauses.frozen = gc.get_freeze_count()
        self.pauses.full_passes += 1


_freezer: Freezer | None = None


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


def start() -> Freezer | None:
    """In a process :func:`tune` set (``serve`` and its workers; the app's start-up calls this on its event loop):
    start its :class:`Freezer`. Elsewhere (an app built in a test, an embedding program) nothing: the collector
    stays the process's own."""
    global _freezer
    if not _tuned or _freezer is not None:
        return _freezer
    _freezer = Freezer()
    _freezer.start(asyncio.get_running_loop())
    return _freezer


def stop() -> None:
    """Stop the freezer (the app's shutdown)."""
    global _freezer
    if _freezer is not None:
        _freezer.stop()
        _freezer = None
