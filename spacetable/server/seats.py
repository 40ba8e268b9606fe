"""Step 2 of a message's way through the server, authorise (``docs/architecture.md``): only the holder of a
seat's token acts for it (SRV-A3), and a socket acts only while it still holds the seat it connected to (SRV-A4).
"""

from __future__ import annotations

import secrets

from .errors import ServiceError
from .live import LiveMatch, Subscriber, bound, hash_token


def check_token(m: LiveMatch, seat: int, token: str | None) -> str:
    """SRV-A3: only the holder of a seat's token acts for it; returns the token's hash."""
    if not 0 <= seat < len(m.seats):
        raise ServiceError(404, "no_such_seat", f"match {m.id} has seats 0..{len(m.seats) - 1}")
    s = m.seats[seat]
    digest = hash_token(token) if isinstance(token, str) and token else ""
    if s.kind != "human" or not digest or s.token_hash is None or not secrets.compare_digest(s.token_hash, digest):
        raise ServiceError(403, "bad_token", f"wrong or missing token for seat {seat} (SRV-A3)")
    return digest


def check_seat(m: LiveMatch, seat: int, token: str | None, sub: Subscriber | None) -> None:
    """SRV-A3 for a request: a socket's seat was checked when it connected and still holds it (its token's hash
    is compared, not computed again); a REST request shows the token."""
    if sub is None:
        check_token(m, seat, token)
    elif sub.seat != seat or not bound(m, sub):
        raise ServiceError(403, "bad_token", f"this connection no longer holds seat {seat} (SRV-A4)")
