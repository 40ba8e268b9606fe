"""Web Push (RFC 8030) with VAPID (RFC 8292) and encrypted payloads (RFC 8291).

* The VAPID key pair is made at the server's first start and kept in the database (``server_secrets``), so
  every process signs with the same key and browsers' subscriptions outlive restarts.
* A subscription's endpoint is where the server will send requests, so it is a client's input aimed at the
  operator's network (SSRF): it must be ``https``, on the default port or any port, with a host whose every
  address (resolved now, and again before each push) is a public one: no loopback, private, link-local,
  multicast, reserved or unspecified address. ``allow_loopback`` (``spacetable serve
  --push-allow-insecure-loopback``) lets tests use a push service of their own on ``http://127.0.0.1``; it is
  off by default and for tests only.
* A push service answering 404 or 410 says the subscription is gone: it is deleted.
* Sending: the payload is encrypted by ``pywebpush``/``http_ece`` (a new ephemeral key per message), the VAPID token
  is signed once per push service and reused until an hour before its end, and the request goes over connections
  kept per push service (``urllib3``), without redirects.
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
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import certifi
import urllib3
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPusher, WebPushException
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


#: signed VAPID headers per (push service origin, contact, key): (renew after, headers). A token names its push
#: service (``aud``) and its end (``exp``, at most 24 hours ahead, RFC 8292 section 2): one signature serves every push
#: to that service until it is renewed, an hour before its end (ECDSA signing per push was a tenth of the fan-out)
_SIGNED: dict[tuple[str, str, int], tuple[float, dict[str, str]]] = {}
_SIGNED_LOCK = threading.Lock()
#: how long a VAPID token lasts, and how long before its end it is renewed (seconds)
VAPID_LIFETIME = 12 * 3600
VAPID_MARGIN = 3600


def vapid_headers(vapid: Vapid, endpoint: str, contact: str, now: float | None = None) -> dict[str, str]:
    """The VAPID ``Authorization`` header for the push service of ``endpoint``, signed once per service and reused
    until :data:`VAPID_MARGIN` before its ``exp``."""
    parts = urlsplit(endpoint)
    aud = f"{parts.scheme}://{parts.netloc}"
    key = (aud, contact, id(vapid.signer))
    now = time.time() if now is None else now
    found = _SIGNED.get(key)
    if found is None or found[0] <= now:
        exp = int(now) + VAPID_LIFETIME
        headers = vapid.signer.sign({"sub": contact, "aud": aud, "exp": exp})
        with _SIGNED_LOCK:
            if len(_SIGNED) > 1000:
                _SIGNED.clear()
            found = _SIGNED[key] = (exp - VAPID_MARGIN, {str(k): str(v) for k, v in headers.items()})
    return dict(found[1])


class _Pools:
    """Kept HTTP connections to push services, shared by the delivery threads (``urllib3``'s pool manager: one
    pool of up to :data:`POOL_SIZE` kept connections per origin; thread-safe). Requests go through the proxy of
    ``HTTPS_PROXY``/``HTTP_PROXY`` where the environment names one (and ``NO_PROXY`` does not exempt the host),
    read once, as ``requests`` did. TLS is verified against ``certifi``'s authorities. No redirect is followed
    (a push service does not redirect, and a redirect could point inside the operator's network) and no request
    is sent twice by the pool (a try that fails is the dispatcher's to repeat, after its back-off)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._direct: urllib3.PoolManager | None = None
        self._proxied: dict[str, urllib3.ProxyManager] = {}
        self._proxies: dict[str, str] | None = None

    def _options(self) -> dict[str, Any]:
        return {"num_pools": 64, "maxsize": POOL_SIZE, "block": False, "ca_certs": certifi.where(),
                "retries": urllib3.Retry(total=0, read=False, redirect=False)}

    def manager(self, scheme: str, host: str) -> urllib3.PoolManager:
        with self._lock:
            if self._proxies is None:
                self._proxies = {k: v for k, v in urllib.request.getproxies().items() if k in ("http", "https")}
            proxy = self._proxies.get(scheme)
            if proxy and not urllib.request.proxy_bypass(host):
                found = self._proxied.get(proxy)
                if found is None:
                    found = self._proxied[proxy] = urllib3.ProxyManager(proxy, **self._options())
                return found
            if self._direct is None:
                self._direct = urllib3.PoolManager(**self._options())
            return self._direct

    def clear(self) -> None:
        with self._lock:
            for m in [self._direct, *self._proxied.values()]:
                if m is not None:
                    m.clear()
            self._direct, self._proxied, self._proxies = None, {}, None


#: kept connections to the push services per origin
POOL_SIZE = 16
POOLS = _Pools()


def encrypt(info: dict[str, Any], payload: bytes) -> bytes:
    """``payload`` encrypted for one subscription (RFC 8291, aes128gcm; ``pywebpush`` and ``http_ece``): a new
    ephemeral ECDH key and salt every time, as the RFC requires."""
    body: bytes = WebPusher(info).encode(payload, "aes128gcm")["body"]
    return body


def send(vapid: Vapid, info: dict[str, Any], message: dict[str, Any], contact: str, allow_loopback: bool) -> None:
    """Send ``message`` (JSON, encrypted with the subscription's keys) to one subscription. The endpoint's
    addresses are checked again first (a host that resolved to a public address may not any more)."""
    endpoint = info["endpoint"]
    try:
        check_endpoint(endpoint, allow_loopback)
    except ServiceError as exc:
        raise Refused(exc.message) from None
    try:
        body = encrypt(info, json.dumps(message, ensure_ascii=False).encode())
    except (WebPushException, ValueError) as exc:
        raise Refused(f"the subscription's keys cannot encrypt ({type(exc).__name__})") from None
    headers = {"Content-Encoding": "aes128gcm", "TTL": str(TTL), "Urgency": "normal",
               **vapid_headers(vapid, endpoint, contact)}
    parts = urlsplit(endpoint)
    try:
        response = POOLS.manager(parts.scheme, parts.hostname or "").request(
            "POST", endpoint, body=body, headers=headers, timeout=urllib3.Timeout(total=TIMEOUT), redirect=False)
    except (urllib3.exceptions.HTTPError, OSError) as exc:  # connection errors, timeouts
        raise PushFailed(type(exc).__name__) from None
    status = response.status
    if status <= 202:
        return
    if status in (404, 410):
        raise Gone(str(status))
    if status == 429 or status >= 500:
        raise PushFailed(f"push service answered {status}")
    raise Refused(f"push service answered {status}")
