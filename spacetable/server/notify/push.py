"""Web Push (RFC 8030) with VAPID (RFC 8292) and encrypted payloads (RFC 8291), through ``pywebpush``.

* The VAPID key pair is made at the server's first start and kept in the database (``server_secrets``), so
  every process signs with the same key and browsers' subscriptions outlive restarts.
* A subscription's endpoint is where the server will send requests, so it is a client's input aimed at the
  operator's network (SSRF): it must be ``https``, on the default port or any port, with a host whose every
  address (resolved now, and again before each push) is a public one: no loopback, private, link-local,
  multicast, reserved or unspecified address. ``allow_loopback`` (``spacetable serve
  --push-allow-insecure-loopback``) lets tests use a push service of their own on ``http://127.0.0.1``; it is
  off by default and for tests only.
* A push service answering 404 or 410 says the subscription is gone: it is deleted.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import json
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection, Engine

from ..errors import ServiceError
from . import store
from .models import PushSubscriptionRow
from .store import begin as store_begin

#: the most subscriptions one account keeps (a new one beyond it replaces the oldest)
MAX_SUBSCRIPTIONS = 10
MAX_ENDPOINT = 2048
#: seconds a push request may take
TIMEOUT = 10.0
#: how long a push service keeps an undelivered message (seconds)
TTL = 86400


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Vapid:
    """The server's VAPID key: the signer and the public key browsers subscribe with."""

    signer: Vapid02
    #: the uncompressed P-256 point, base64url (``applicationServerKey``)
    public_key: str

    @classmethod
    def load(cls, engine: Engine) -> Vapid:
        def make() -> str:
            v = Vapid02()
            v.generate_keys()
            return str(v.private_pem().decode())

        pem = store.secret(engine, "vapid", make)
        signer = Vapid02.from_pem(pem.encode())
        point = signer.public_key.public_bytes(encoding=_serialization().Encoding.X962,
                                               format=_serialization().PublicFormat.UncompressedPoint)
        return cls(signer, b64url(point))


def _serialization() -> Any:
    from cryptography.hazmat.primitives import serialization

    return serialization


# ------------------------------------------------------------------------ the SSRF guard
def _bad(message: str) -> ServiceError:
    return ServiceError(422, "bad_subscription", message)


def address_allowed(addr: str, allow_loopback: bool) -> bool:
    ip = ipaddress.ip_address(addr.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return allow_loopback
    return bool(ip.is_global) and not (ip.is_multicast or ip.is_private or ip.is_link_local or ip.is_reserved
                                       or ip.is_unspecified)


def check_endpoint(endpoint: str, allow_loopback: bool = False) -> None:
    """Refuse (422) an endpoint the server must not send to: not ``https``, no host, credentials in the URL, or
    a host with any address that is not public (loopback only with ``allow_loopback``, and then plain ``http``
    is allowed for loopback hosts only)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise _bad(f"a subscription endpoint is a URL of at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise _bad("the subscription endpoint is not a valid URL") from None
    host = parts.hostname
    if not host or parts.username is not None or parts.password is not None:
        raise _bad("the subscription endpoint needs a host and no credentials")
    if parts.scheme not in ("https", "http"):
        raise _bad("a subscription endpoint must be an https URL")
    try:
        infos = socket.getaddrinfo(host, port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise _bad("the subscription endpoint's host does not resolve") from None
    addresses = {str(info[4][0]) for info in infos}
    if not addresses:
        raise _bad("the subscription endpoint's host does not resolve")
    if not all(address_allowed(a, allow_loopback) for a in addresses):
        raise _bad("a subscription endpoint must be a public push service, not a private, loopback or "
                   "link-local address")
    loopback = all(ipaddress.ip_address(a.split("%", 1)[0]).is_loopback for a in addresses)
    if parts.scheme != "https" and not (allow_loopback and loopback):
        raise _bad("a subscription endpoint must be an https URL")


def check_keys(p256dh: str, auth: str) -> None:
    try:
        point = unb64url(p256dh)
        secret = unb64url(auth)
    except (binascii.Error, ValueError):
        raise _bad("the subscription keys are not base64url") from None
    if len(secret) != 16:
        raise _bad("the subscription's auth secret must be 16 bytes")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise _bad("the subscription's p256dh key is not a P-256 point") from None


# ------------------------------------------------------------------------ subscriptions
def subscribe(engine: Engine, account_id: str, endpoint: str, p256dh: str, auth: str,
              allow_loopback: bool = False) -> str:
    """Store a browser's subscription for ``account_id`` after the checks; returns its id. The same endpoint
    again updates its keys (and moves it to this account: the browser's owner signed in)."""
    if len(p256dh) > 128 or len(auth) > 64:
        raise _bad("the subscription keys are too long")
    check_keys(p256dh, auth)
    check_endpoint(endpoint, allow_loopback)
    digest = hashlib.sha256(endpoint.encode()).hexdigest()
    with store_begin(engine) as conn:
        conn.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.endpoint_hash == digest))
        n = conn.execute(select(func.count()).select_from(PushSubscriptionRow).where(
            PushSubscriptionRow.account_id == account_id)).scalar_one()
        if n >= MAX_SUBSCRIPTIONS:
            oldest = conn.execute(select(PushSubscriptionRow.id).where(PushSubscriptionRow.account_id == account_id)
                                  .order_by(PushSubscriptionRow.created_at).limit(n - MAX_SUBSCRIPTIONS + 1)).scalars()
            conn.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id.in_(list(oldest))))
        sub_id = secrets.token_hex(12)
        conn.execute(PushSubscriptionRow.__table__.insert().values(
            id=sub_id, account_id=account_id, endpoint=endpoint, endpoint_hash=digest, p256dh=p256dh, auth=auth,
            created_at=time.time()))
    return sub_id


def unsubscribe(engine: Engine, account_id: str, endpoint: str) -> bool:
    digest = hashlib.sha256(endpoint.encode()).hexdigest()
    with store_begin(engine) as conn:
        return bool(conn.execute(delete(PushSubscriptionRow).where(
            PushSubscriptionRow.endpoint_hash == digest, PushSubscriptionRow.account_id == account_id)).rowcount)


def subscriptions(conn: Connection, sub_ids: list[str]) -> dict[str, dict[str, Any] | None]:
    """The endpoint and keys of each of ``sub_ids``, in one query (``None``: removed meanwhile)."""
    out: dict[str, dict[str, Any] | None] = dict.fromkeys(sub_ids)
    for k in range(0, len(sub_ids), 500):
        for row in conn.execute(select(PushSubscriptionRow.id, PushSubscriptionRow.endpoint, PushSubscriptionRow.p256dh,
                                       PushSubscriptionRow.auth).where(PushSubscriptionRow.id.in_(sub_ids[k:k + 500]))):
            out[row.id] = {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}}
    return out


def forget(engine: Engine, sub_id: str) -> None:
    with store_begin(engine) as conn:
        conn.execute(delete(PushSubscriptionRow).where(PushSubscriptionRow.id == sub_id))


# ---------------------------------------------------------------------------- sending
class Gone(Exception):
    """The push service says the subscription no longer exists (404, 410)."""


class PushFailed(Exception):
    """A failure worth trying again (network, 429, 5xx)."""


class Refused(Exception):
    """The push service refused the message for good (400, 403, 413: a bad key, a payload too large)."""


#: signed VAPID headers per (push service origin, contact), reused for an hour (a token is good for 12 h, RFC 8292)
_SIGNED: dict[tuple[str, str, int], tuple[float, dict[str, str]]] = {}
_LOCAL = threading.local()


def vapid_headers(vapid: Vapid, endpoint: str, contact: str) -> dict[str, str]:
    """The VAPID ``Authorization`` header for the push service of ``endpoint``: signed once an hour per service
    rather than once per push."""
    parts = urlsplit(endpoint)
    aud = f"{parts.scheme}://{parts.netloc}"
    key = (aud, contact, id(vapid.signer))
    now = time.time()
    found = _SIGNED.get(key)
    if found is None or found[0] < now:
        headers = vapid.signer.sign({"sub": contact, "aud": aud, "exp": int(now) + 12 * 3600})
        if len(_SIGNED) > 1000:
            _SIGNED.clear()
        found = _SIGNED[key] = (now + 3600, {str(k): str(v) for k, v in headers.items()})
    return dict(found[1])


def _session() -> requests.Session:
    """A kept HTTP session per delivery thread: connections to a push service are reused."""
    session = getattr(_LOCAL, "session", None)
    if session is None:
        session = _LOCAL.session = requests.Session()
    return session


def send(vapid: Vapid, info: dict[str, Any], message: dict[str, Any], contact: str, allow_loopback: bool) -> None:
    """Send ``message`` (JSON, encrypted with the subscription's keys) to one subscription. The endpoint's
    addresses are checked again first (a host that resolved to a public address may not any more)."""
    try:
        check_endpoint(info["endpoint"], allow_loopback)
    except ServiceError as exc:
        raise Refused(exc.message) from None
    try:
        webpush(info, json.dumps(message, ensure_ascii=False), ttl=TTL, timeout=TIMEOUT,
                headers={"Urgency": "normal", **vapid_headers(vapid, info["endpoint"], contact)},
                requests_session=_session())
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            raise Gone(str(status)) from None
        if status is not None and (status == 429 or status >= 500):
            raise PushFailed(f"push service answered {status}") from None
        if status is not None:
            raise Refused(f"push service answered {status}") from None
        raise PushFailed("push request failed") from None
    except OSError as exc:  # connection errors, timeouts (requests' errors are OSErrors)
        raise PushFailed(type(exc).__name__) from None
