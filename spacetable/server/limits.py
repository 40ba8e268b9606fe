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

from limits import RateLimitItem, parse_many
from limits.aio import storage, strategies

from .errors import ServiceError

log = logging.getLogger("spacetable.server")


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
    #: finished matches leave memory after this idle time; others after ``evict_idle`` (seconds)
    evict_finished: float = 120.0
    evict_idle: float = 900.0
    #: the most matches kept in memory; above it the least recently used idle ones leave first
    max_live_matches: int = 2000
    #: the largest lobby page
    lobby_page_max: int = 200


class RateLimiter:
    """Per-client moving-window rate limits for ``create``, ``join`` and ``act`` (SRV-B2); shared by all
    processes through Redis when ``redis_url`` is given (SRV-X4)."""

    def __init__(self, limits: Limits, redis_url: str | None = None) -> None:
        if redis_url:
            uri = "async+" + redis_url if not redis_url.startswith("async+") else redis_url
            store: storage.Storage = storage.RedisStorage(uri, implementation="redispy", key_prefix="spacetable-limits")
        else:
            store = storage.MemoryStorage()
        self._limiter = strategies.MovingWindowRateLimiter(store)
        self._failing = False
        self._rules: dict[str, list[RateLimitItem]] = {
            "create": parse_many(limits.rate_create) if limits.rate_create else [],
            "join": parse_many(limits.rate_join) if limits.rate_join else [],
            "act": parse_many(limits.rate_act) if limits.rate_act else [],
            "signin": parse_many(limits.rate_signin) if limits.rate_signin else [],
            "signin_account": parse_many(limits.rate_signin_account) if limits.rate_signin_account else [],
            "mail": parse_many(limits.rate_mail) if limits.rate_mail else [],
            "account": parse_many(limits.rate_account) if limits.rate_account else [],
        }

    async def hit(self, what: str, client: str | None, subject: str = "from your address") -> None:
        """Count one ``what`` request of ``client``; raise 429 (with ``Retry-After``) once over a limit. When the
        shared store (Redis) cannot be reached the request is let through (play must not stop with Redis)."""
        for item in self._rules[what]:
            try:
                allowed = await self._limiter.hit(item, what, client or "-")
            except Exception:
                if not self._failing:
                    log.warning("rate limits cannot be counted (Redis unreachable): requests are let through")
                self._failing = True
                return
            self._failing = False
            if not allowed:
                reset = (await self._limiter.get_window_stats(item, what, client or "-")).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise ServiceError(429, "rate_limited", f"too many {what} requests {subject}; "
                                   f"try again in {wait} s", headers={"Retry-After": str(wait)})


def check_rate(text: str | None) -> str | None:
    """Validate a rate-limit flag (``none`` or ``off`` disable it); raise ``ValueError`` if malformed."""
    if text is None or text.strip().lower() in ("", "none", "off", "0"):
        return None
    parse_many(text)
    return text
