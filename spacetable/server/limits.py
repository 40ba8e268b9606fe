"""Every bound of the play server in one place (SRV-B2): defaults, and the per-client rate limits.

Each field of :class:`Limits` has a default, a ``spacetable serve`` flag (``server/cli.py``) and a
line in ``docs/server.md`` ("Security model"). Rate limits use the ``limits`` library (moving windows
per client address: the peer, or the real client named by a trusted proxy's forwarded headers, see
``--forwarded-allow-ips``), kept in the process's memory, or in Redis when the server has one
(``--redis-url``): then every process of the service counts the same windows (SRV-X4).
"""

from __future__ import annotations

import logging
import math
import resource
import time
from dataclasses import dataclass, field

from limits import RateLimitItem, WindowStats, parse_many
from limits import storage as sync_storage
from limits import strategies as sync_strategies
from limits.aio import storage, strategies

from .errors import ServiceError

log = logging.getLogger("spacetable.server")


def _nofile() -> int | None:
    try:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (OSError, ValueError):  # pragma: no cover - platform without rlimits
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


def default_max_pending() -> int:
    """1,024 connections waiting for a complete request, or a quarter of the open-file limit when that is lower."""
    soft = _nofile()
    return 1024 if soft is None else max(16, min(1024, soft // 4))


def default_max_sockets() -> int:
    """2,000 WebSockets, or fewer when the open-file limit is lower (64 descriptors stay free for the
    database, HTTP requests and ``/health``)."""
    try:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (OSError, ValueError):  # pragma: no cover - platform without rlimits
        return 2000
    if soft == resource.RLIM_INFINITY:
        return 2000
    return max(16, min(2000, soft - 64))


@dataclass
class Limits:
    """The server's bounds. ``None`` for a rate disables that limit."""

    #: largest request body (bytes); larger bodies get 413
    max_body: int = 1024 * 1024
    #: largest JSON text of a match configuration (bytes), player content (maps, card sets) included
    max_config: int = 768 * 1024
    #: per-client rate limits (``limits`` notation: ``"20/minute;200/hour"``)
    rate_create: str | None = "20/minute;200/hour"
    rate_join: str | None = "60/minute"
    rate_act: str | None = "30/second;900/minute"
    #: accounts (docs/accounts.md): sign-in attempts per address and per account (password sign-ins; the window
    #: moves, so an account attacked with wrong passwords is open to its owner again once the attack stops),
    #: mails (sign-up, reset) per address, and other account requests per address
    rate_signin: str | None = "10/minute;60/hour"
    rate_signin_account: str | None = "5/minute;30/hour"
    rate_mail: str | None = "5/minute;20/hour"
    rate_account: str | None = "120/minute"
    #: WebSockets on one match, and in all
    max_match_sockets: int = 64
    max_sockets: int = field(default_factory=default_max_sockets)
    #: largest WebSocket message from a client (bytes); larger text gets an error message. Frames over four
    #: times this are refused by the WebSocket layer itself (close code 1009).
    max_message: int = 64 * 1024
    #: a socket that sends nothing for this long is closed (seconds); the page reconnects when it is in use
    ws_idle: float = 1800.0
    #: protocol pings: a socket that does not answer within ``ws_ping_timeout`` (half-open) is closed
    ws_ping_interval: float = 20.0
    ws_ping_timeout: float = 20.0
    #: a seat socket opened without its token must send ``{"type": "auth"}`` within this (seconds)
    ws_auth_timeout: float = 10.0
    #: a connection must send its request headers within this (seconds): silent connections are closed
    header_timeout: float = 10.0
    #: a request body must arrive within ``body_timeout`` seconds plus one second per ``body_min_rate`` bytes
    #: received (408 and closed otherwise): a body trickling in cannot hold a connection
    body_timeout: float = 20.0
    body_min_rate: int = 500
    #: connections (HTTP and WebSocket) one client address may hold open at once (0: no cap); the addresses of
    #: trusted proxies (``--forwarded-allow-ips``) are not capped
    max_address_connections: int = 32
    #: connections waiting for a complete request at once; above it the longest-waiting one is closed, so idle
    #: and slow connections never keep a new request out
    max_pending_connections: int = field(default_factory=default_max_pending)
    #: finished matches leave memory after this idle time; others after ``evict_idle`` (seconds)
    evict_finished: float = 120.0
    evict_idle: float = 900.0
    #: the most matches kept in memory; above it the least recently used idle ones leave first
    max_live_matches: int = 2000
    #: the largest lobby page
    lobby_page_max: int = 200
    #: matches with computer seats only (SRV-AI5): unfinished ones per client address, and their largest AI
    #: budget per move (seconds); they think in their own lane, after people's matches
    ai_only_matches: int = 2
    ai_only_seconds: float = 10.0
    #: AI workers (processes, or threads with ``--ai-workers 0``) for computer-only matches, apart from those
    #: of matches with a person
    ai_only_workers: int = 1
    #: per-client rate limits of ``legal/check`` and ``check`` (SRV-L3), and of failed token checks (SRV-A3:
    #: once over it, every token check of that address is refused, right or wrong, until the window moves)
    rate_check: str | None = "120/minute;2000/hour"
    rate_auth_fail: str | None = "20/minute;200/hour"
    #: per WebSocket: messages per second (a burst of ``2 x`` that is allowed; over it the socket is closed, 4429)
    ws_rate: float = 20.0
    #: per WebSocket: messages answered with a whole snapshot (``lang``, ``texts``, ``auth``) per minute (a burst
    #: of this many); over it they are refused with an error and no snapshot
    ws_snapshots: int = 12
    #: per WebSocket: the most bytes of messages waiting to be sent; over it the socket is closed (1013)
    ws_backlog_bytes: int = 8 * 1024 * 1024


class SweptMemory(sync_storage.MemoryStorage):
    """The library's synchronous in-memory store, whose pass that drops expired entries runs on the calling thread
    at most once every :attr:`SWEEP` seconds.

    The library's own store starts a new timer thread 10 ms after any hit, and that thread goes through every key:
    with hits arriving all the time (every action of every seat), a hundred thread starts and key sweeps a second
    that take the interpreter's lock from the event loop. The answers do not depend on that pass (a moving window
    reads its entries' times); it only bounds memory, which a sweep every second does as well.

    The hook replaced is the library's private ``__schedule_expiry``; ``test_the_swept_store_keeps_the_librarys_hook``
    fails if a new version of the library renames it."""

    #: seconds between two passes that drop expired entries
    SWEEP = 1.0

    def __init__(self) -> None:
        super().__init__()
        self._swept = time.monotonic()

    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now - self._swept >= self.SWEEP:
            self._swept = now
            self._MemoryStorage__expire_events()


class LocalWindow:
    """The moving-window limiter of one process (no Redis): the library's synchronous in-memory store and strategy,
    called straight from the event loop (a dictionary under a lock; old entries dropped by :class:`SweptMemory`),
    behind the asynchronous limiter's methods. The library's asyncio in-memory store hops to a worker thread once
    per key on each of its expiry passes, which run again after every hit: 0.4 to 0.8 ms of CPU per rate-limited
    action with two rules (``bench/limits_store.py``), against 0.04 to 0.1 ms here, with the same moving-window
    counts."""

    #: the most keys of windows kept written (:meth:`_key`); beyond it the cache starts again
    KEYS = 4096

    def __init__(self) -> None:
        self._store = SweptMemory()
        self._limiter = sync_strategies.MovingWindowRateLimiter(self._store)
        self._keys: dict[tuple[RateLimitItem, tuple[str, ...]], str] = {}

    def _key(self, item: RateLimitItem, identifiers: tuple[str, ...]) -> str:
        """The library's key of ``item``'s window for ``identifiers`` (``RateLimitItem.key_for``), written once per
        rule and client rather than at every hit (a third of a hit's CPU)."""
        found = self._keys.get((item, identifiers))
        if found is None:
            if len(self._keys) >= self.KEYS:
                self._keys.clear()
            found = self._keys[item, identifiers] = item.key_for(*identifiers)
        return found

    async def hit(self, item: RateLimitItem, *identifiers: str, cost: int = 1) -> bool:
        # the moving-window strategy's ``hit``, with the key written once (:meth:`_key`)
        return self._store.acquire_entry(self._key(item, identifiers), item.amount, item.get_expiry(), amount=cost)

    async def test(self, item: RateLimitItem, *identifiers: str, cost: int = 1) -> bool:
        return self._limiter.test(item, *identifiers, cost=cost)

    async def get_window_stats(self, item: RateLimitItem, *identifiers: str) -> WindowStats:
        return self._limiter.get_window_stats(item, *identifiers)


#: connections of a process's rate-limit store in Redis, and the seconds a request waits for one of them
REDIS_CONNECTIONS = 32
REDIS_WAIT = 5.0


def window_limiter(redis_url: str | None, key_prefix: str) -> strategies.MovingWindowRateLimiter | LocalWindow:
    """A moving-window limiter: shared by every process through Redis when ``redis_url`` is given (SRV-X4), else
    this process's own (:class:`LocalWindow`)."""
    if not redis_url:
        return LocalWindow()
    from redis.asyncio import BlockingConnectionPool

    uri = "async+" + redis_url if not redis_url.startswith("async+") else redis_url
    # a burst of requests waits for one of a few connections: the library's own pool opens up to 1,000 and then
    # refuses ("Too many connections"), which the limiter would take for Redis being away and let requests through
    pool = BlockingConnectionPool.from_url(redis_url.removeprefix("async+"), max_connections=REDIS_CONNECTIONS,
                                           timeout=REDIS_WAIT)
    return strategies.MovingWindowRateLimiter(storage.RedisStorage(uri, implementation="redispy", key_prefix=key_prefix,
                                                                   connection_pool=pool))


#: the kinds counted by each process on its own, Redis or not: moves (over a socket or REST) come many a second to a
#: process, and two moving windows in Redis cost about 0.65 ms of the process's CPU per move (two round trips of the
#: Redis client, ``bench/limits_store.py --redis``), as much as the rest of a move; one address acting through P
#: processes may then make P times ``rate_act`` moves, each socket still bounded by its own ``ws_rate``
LOCAL_KINDS = frozenset({"act"})


class RateLimiter:
    """Per-client moving-window rate limits for ``create``, ``join``, ``act``, ``check`` and failed token checks
    (``auth_fail``, SRV-B2); shared by all processes through Redis when ``redis_url`` is given (SRV-X4), except the
    kinds of :data:`LOCAL_KINDS`, which each process counts in its memory."""

    def __init__(self, limits: Limits, redis_url: str | None = None) -> None:
        self._shared = window_limiter(redis_url, "spacetable-limits")
        self._local = self._shared if isinstance(self._shared, LocalWindow) else LocalWindow()
        self._failing = False
        self._rules: dict[str, list[RateLimitItem]] = {
            "create": parse_many(limits.rate_create) if limits.rate_create else [],
            "join": parse_many(limits.rate_join) if limits.rate_join else [],
            "act": parse_many(limits.rate_act) if limits.rate_act else [],
            "check": parse_many(limits.rate_check) if limits.rate_check else [],
            "auth_fail": parse_many(limits.rate_auth_fail) if limits.rate_auth_fail else [],
            "signin": parse_many(limits.rate_signin) if limits.rate_signin else [],
            "signin_account": parse_many(limits.rate_signin_account) if limits.rate_signin_account else [],
            "mail": parse_many(limits.rate_mail) if limits.rate_mail else [],
            "account": parse_many(limits.rate_account) if limits.rate_account else [],
        }

    def _limiter(self, what: str) -> strategies.MovingWindowRateLimiter | LocalWindow:
        return self._local if what in LOCAL_KINDS else self._shared

    async def over(self, what: str, client: str | None) -> None:
        """Raise 429 if ``client`` is already over a ``what`` limit, without counting a request (failed token
        checks are counted when they fail, :meth:`hit`, and refused beforehand here)."""
        limiter = self._limiter(what)
        for item in self._rules[what]:
            try:
                allowed = await limiter.test(item, what, client or "-")
            except Exception:
                return
            if not allowed:
                raise await self._refusal(item, what, client)

    async def _refusal(self, item: RateLimitItem, what: str, client: str | None,
                       subject: str = "from your address") -> ServiceError:
        reset = (await self._limiter(what).get_window_stats(item, what, client or "-")).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        return ServiceError(429, "rate_limited", f"too many {what} requests {subject}; "
                            f"try again in {wait} s", headers={"Retry-After": str(wait)})

    async def hit(self, what: str, client: str | None, subject: str = "from your address") -> None:
        """Count one ``what`` request of ``client``; raise 429 (with ``Retry-After``) once over a limit. When the
        shared store (Redis) cannot be reached the request is let through (play must not stop with Redis)."""
        limiter = self._limiter(what)
        for item in self._rules[what]:
            try:
                allowed = await limiter.hit(item, what, client or "-")
            except Exception:
                if not self._failing:
                    log.warning("rate limits cannot be counted (Redis unreachable): requests are let through",
                                exc_info=True)
                self._failing = True
                return
            self._failing = False
            if not allowed:
                raise await self._refusal(item, what, client, subject)


def check_rate(text: str | None) -> str | None:
    """Validate a rate-limit flag (``none`` or ``off`` disable it); raise ``ValueError`` if malformed."""
    if text is None or text.strip().lower() in ("", "none", "off", "0"):
        return None
    parse_many(text)
    return text


class Bucket:
    """A token bucket for one socket's own limits (``ws_rate``, ``ws_snapshots``): ``rate`` tokens a second up to
    ``burst``; :meth:`take` is ``False`` when none is left. In memory, per socket: nothing to share."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
