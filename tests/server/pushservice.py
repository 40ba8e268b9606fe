"""A Web Push service on loopback for the tests: it checks each request's VAPID signature (RFC 8292) and
decrypts its payload with the subscription's keys (RFC 8291, aes128gcm), as a browser vendor's push service
and the browser would. Each subscription made here holds its own P-256 key pair and auth secret."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Subscription:
    id: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    def info(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}


@dataclass
class Received:
    subscription: str
    message: dict[str, Any]
    claims: dict[str, Any]
    vapid_key: str
    headers: dict[str, str]


@dataclass
class PushService:
    host: str = "127.0.0.1"
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    #: requests refused (bad signature, undecryptable payload): the reason
    rejected: list[str] = field(default_factory=list)
    #: the status to answer for a subscription (default 201)
    status: dict[str, int] = field(default_factory=dict)
    server: ThreadingHTTPServer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        assert self.server is not None
        return f"http://{self.host}:{self.server.server_address[1]}"

    def subscribe(self) -> Subscription:
        sid = b64url(os.urandom(9))
        sub = Subscription(sid, f"{self.origin}/push/{sid}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.subscriptions[sid] = sub
        return sub

    def verify(self, headers: dict[str, str]) -> tuple[dict[str, Any], str]:
        """RFC 8292: ``Authorization: vapid t=<JWT>, k=<public key>``; the JWT signed ES256 by that key, its
        ``aud`` this service's origin, ``exp`` in the next 24 hours, ``sub`` a contact."""
        auth = headers.get("authorization", "")
        if not auth.startswith("vapid "):
            raise ValueError("no vapid authorization")
        params = dict(p.strip().split("=", 1) for p in auth[6:].split(","))
        token, k = params["t"], params["k"]
        head_b64, claims_b64, sig_b64 = token.split(".")
        header = json.loads(unb64url(head_b64))
        if header.get("alg") != "ES256":
            raise ValueError("JWT alg is not ES256")
        sig = unb64url(sig_b64)
        if len(sig) != 64:
            raise ValueError("ES256 signature is not 64 bytes")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(k))
        der = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
        try:
            public.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("bad VAPID signature") from None
        claims = json.loads(unb64url(claims_b64))
        if claims.get("aud") != self.origin:
            raise ValueError(f"aud {claims.get('aud')!r} is not {self.origin!r}")
        now = time.time()
        if not now < int(claims.get("exp", 0)) <= now + 86400:
            raise ValueError("exp not within the next 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:", "http:")):
            raise ValueError("sub is not a contact")
        return claims, k

    def handle(self, path: str, headers: dict[str, str], body: bytes) -> int:
        sid = path.rsplit("/", 1)[-1]
        sub = self.subscriptions.get(sid)
        if sub is None:
            return 404
        status = self.status.get(sid, 201)
        if status >= 300:
            return status
        try:
            claims, k = self.verify(headers)
            if headers.get("content-encoding") != "aes128gcm":
                raise ValueError("content encoding is not aes128gcm")
            if "ttl" not in headers:
                raise ValueError("no TTL header")
            plain = http_ece.decrypt(body, private_key=sub.key, auth_secret=sub.auth, version="aes128gcm")
            message = json.loads(plain)
        except Exception as exc:  # the request is refused as a push service would
            with self.lock:
                self.rejected.append(f"{type(exc).__name__}: {exc}")
            return 400
        with self.lock:
            self.received.append(Received(sid, message, claims, k, headers))
        return 201

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # connections kept open between pushes, as real push services do

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                status = service.handle(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((self.host, 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
