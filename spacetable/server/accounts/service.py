"""Accounts: sign-up and sign-in (password with argon2id, optional TOTP; passkeys through WebAuthn), sessions
in the database, mailed single-use tokens, seats bound to accounts.

Everything lives in the database through the server's :class:`~spacetable.server.storage.Storage` (SQL written
once for SQLite and PostgreSQL), so several server processes share accounts and sessions. Secrets are stored as
digests (session cookies, mailed tokens) or argon2id hashes (passwords); none is ever logged.

A seat taken by an account gets a token derived from a server key (HMAC of match, seat and account): the
account's session hands its own seats' tokens to the page on any device, so the seat is played exactly as a
guest plays it with a seat link, and a session of one account never obtains another's seat.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pyotp
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..errors import ServiceError
from ..mail import Mailer, MailError, MailSettings, mailer_from
from . import mails
from .names import check_display_name, check_email, check_lang, check_password, check_username

if TYPE_CHECKING:
    from ..service import MatchService
    from ..storage import Tx

log = logging.getLogger("spacetable.server.accounts")


def rated_match() -> ServiceError:
    """The refusal of a guest's (or an AI's) seat in a rated match."""
    return ServiceError(409, "rated_match", "a rated match is for signed-in players only (no guests, no AI)")


SESSION_COOKIE = "spacetable_session"
CSRF_HEADER = "X-CSRF-Token"
DELETED_NAME = "Deleted player"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class AccountSettings:
    """What ``spacetable serve`` says about accounts (flags and environment variables, docs/accounts.md)."""

    smtp_url: str | None = None
    mail_from: str | None = None
    #: the address players reach the server at (links in mails; the passkeys' relying party)
    public_url: str | None = None
    #: ``auto``: Secure cookies when the request came over HTTPS (directly or through a trusted proxy);
    #: ``always`` / ``never``
    secure_cookies: str = "auto"
    session_days: float = 30.0
    token_hours: float = 24.0
    rp_name: str = "spacetable"


@dataclass
class Session:
    """A signed-in request: the account's row and the session's digest and CSRF token."""

    account: dict[str, Any]
    id_hash: str
    csrf: str

    @property
    def account_id(self) -> str:
        return str(self.account["id"])


def public_account(row: dict[str, Any]) -> dict[str, Any]:
    """What anybody may see of an account."""
    return {"username": row["username"], "display_name": row["display_name"], "created_at": row["created_at"]}


def own_account(row: dict[str, Any], passkeys: int = 0) -> dict[str, Any]:
    """What the account's owner sees of it."""
    return {**public_account(row), "id": row["id"], "email": row["email"], "email_verified": bool(row["email_verified"]),
            "has_password": row["password_hash"] is not None, "totp": row["totp_secret"] is not None,
            "lang": row["lang"], "passkeys": passkeys}


class AccountService:
    def __init__(self, matches: MatchService, settings: AccountSettings | None = None) -> None:
        self.matches = matches
        self.storage = matches.storage
        self.settings = settings or AccountSettings()
        self.mailer: Mailer | None = mailer_from(MailSettings(self.settings.smtp_url, self.settings.mail_from,
                                                              self.settings.public_url))
        self.hasher = PasswordHasher()  # argon2id, the library's recommended parameters
        self._dummy_hash: str | None = None
        self._seat_key: bytes | None = None
        self.ratings: Any = None  # set by ratings.RatingKeeper

    @property
    def passwords_on(self) -> bool:
        """Password accounts need mail (verification and reset); without a relay only passkeys work."""
        return self.mailer is not None

    # ------------------------------------------------------------------ helpers
    async def read(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        async def job(tx: Tx) -> list[dict[str, Any]]:
            return await tx.fetch(sql, params)

        return await self.storage.read(job)

    async def one(self, sql: str, **params: Any) -> dict[str, Any] | None:
        rows = await self.read(sql, **params)
        return rows[0] if rows else None

    async def hash_password(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify_password(self, stored: str | None, password: str) -> bool:
        """argon2id verification off the event loop; an unknown account is checked against a dummy hash so that
        both answers take the same time (no account enumeration by timing)."""
        if stored is None:
            if self._dummy_hash is None:
                self._dummy_hash = await self.hash_password(secrets.token_urlsafe(16))
            stored = self._dummy_hash
            real = False
        else:
            real = True

        def check() -> bool:
            try:
                return bool(self.hasher.verify(stored, password))
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(check) and real

    def link(self, base: str, path: str) -> str:
        root = (self.settings.public_url or base).rstrip("/")
        return root + path

    # --------------------------------------------------------------- accounts
    async def account(self, account_id: str) -> dict[str, Any] | None:
        return await self.one("SELECT * FROM accounts WHERE id = :a", a=account_id)

    async def by_username(self, username: str) -> dict[str, Any] | None:
        from .names import username_key

        return await self.one("SELECT * FROM accounts WHERE username_key = :k", k=username_key(username))

    async def _insert_account(self, tx: Tx, row: dict[str, Any]) -> None:
        taken = await tx.fetch("SELECT 1 AS x FROM accounts WHERE username_key = :k", {"k": row["username_key"]})
        if taken:
            raise ServiceError(409, "username_taken", "this username is taken")
        cols = ", ".join(row)
        await tx.execute(f"INSERT INTO accounts ({cols}) VALUES ({', '.join(':' + c for c in row)})", row)

    @staticmethod
    def new_row(username: str, key: str, display: str, lang: str) -> dict[str, Any]:
        return {"id": secrets.token_hex(12), "username": username, "username_key": key, "display_name": display,
                "email": None, "email_key": None, "email_verified": False, "password_hash": None, "totp_secret": None,
                "totp_pending": None, "lang": lang, "created_at": time.time()}

    async def signup_password(self, email: Any, username: Any, password: Any, display_name: Any, lang: Any,
                              base: str) -> None:
        """A password account waiting for its e-mail to be verified. The answer is the same whether the address is
        new or already has an account (that account's owner gets a mail saying so): no enumeration."""
        if not self.passwords_on:
            raise ServiceError(403, "passwords_off", "password accounts are off on this server (no mail relay); "
                               "sign up with a passkey")
        address, email_key = check_email(email)
        name, key = check_username(username)
        display = check_display_name(display_name, name)
        language = check_lang(lang)
        check_password(password)
        pw_hash = await self.hash_password(password)
        row = self.new_row(name, key, display, language)
        row.update(email=address, email_key=email_key, password_hash=pw_hash)
        token = secrets.token_urlsafe(32)

        async def job(tx: Tx) -> dict[str, Any] | None:
            found = await tx.fetch("SELECT * FROM accounts WHERE email_key = :e", {"e": email_key})
            if found:
                return found[0]
            await self._insert_account(tx, row)
            await self._insert_token(tx, token, row["id"], "verify")
            return None

        existing = await self.storage.write(job)
        if existing is not None:
            await self._mail(existing["email"], "exists", existing["lang"], existing["display_name"],
                             self.link(base, "/account"))
            return
        await self._mail(address, "verify", language, display, self.link(base, f"/account#account/verify/{token}"))

    async def _mail(self, to: str, kind: str, lang: str, name: str, link: str) -> None:
        assert self.mailer is not None
        subject, text, page = mails.render(kind, lang, name=name, link=link, hours=f"{self.settings.token_hours:g}")
        with contextlib.suppress(MailError):  # logged by the mailer without the address; the answer stays the same
            await self.mailer.send(to, subject, text, page)

    async def _insert_token(self, tx: Tx, token: str, account_id: str, purpose: str) -> None:
        await tx.execute("INSERT INTO account_tokens (token_hash, account_id, purpose, expires_at, used_at) "
                         "VALUES (:h, :a, :p, :e, NULL)",
                         {"h": digest(token), "a": account_id, "p": purpose,
                          "e": time.time() + self.settings.token_hours * 3600})

    async def use_token(self, tx: Tx, token: Any, purpose: str) -> str:
        """Spend a mailed token (single use, expiring): the account id, or 400 for a bad, used or expired token."""
        if not isinstance(token, str) or not 10 <= len(token) <= 200:
            raise ServiceError(400, "bad_link", "this link is not valid")
        now = time.time()
        rows = await tx.fetch("SELECT * FROM account_tokens WHERE token_hash = :h AND purpose = :p",
                              {"h": digest(token), "p": purpose})
        if not rows:
            raise ServiceError(400, "bad_link", "this link is not valid")
        row = rows[0]
        if row["used_at"] is not None:
            raise ServiceError(400, "used_token", "this link was used already")
        if row["expires_at"] < now:
            raise ServiceError(400, "expired_token", "this link has expired; ask for a new one")
        changed = await tx.execute("UPDATE account_tokens SET used_at = :t WHERE token_hash = :h AND used_at IS NULL",
                                   {"t": now, "h": row["token_hash"]})
        if changed != 1:
            raise ServiceError(400, "used_token", "this link was used already")
        return str(row["account_id"])

    async def verify_email(self, token: Any) -> str:
        async def job(tx: Tx) -> str:
            account_id = await self.use_token(tx, token, "verify")
            await tx.execute("UPDATE accounts SET email_verified = :t WHERE id = :a", {"t": True, "a": account_id})
            return account_id

        return await self.storage.write(job)

    async def request_reset(self, email: Any, base: str) -> None:
        """Mail a reset link if the address has an account; the same answer either way."""
        if not self.passwords_on:
            raise ServiceError(403, "passwords_off", "password accounts are off on this server (no mail relay)")
        _, key = check_email(email)
        token = secrets.token_urlsafe(32)

        async def job(tx: Tx) -> dict[str, Any] | None:
            rows = await tx.fetch("SELECT * FROM accounts WHERE email_key = :e", {"e": key})
            if not rows:
                return None
            await self._insert_token(tx, token, rows[0]["id"], "reset")
            return rows[0]

        row = await self.storage.write(job)
        if row is not None:
            await self._mail(row["email"], "reset", row["lang"], row["display_name"],
                             self.link(base, f"/account#account/reset/{token}"))
        else:
            await self.verify_password(None, "equal time")  # as long as the token's write and mail roughly

    async def reset_password(self, token: Any, password: Any) -> str:
        """Set a new password with a reset token: every session of the account ends; the address counts as verified
        (the mail reached it)."""
        check_password(password)
        pw_hash = await self.hash_password(password)

        async def job(tx: Tx) -> str:
            account_id = await self.use_token(tx, token, "reset")
            await tx.execute("UPDATE accounts SET password_hash = :p, email_verified = :t WHERE id = :a",
                             {"p": pw_hash, "t": True, "a": account_id})
            await tx.execute("DELETE FROM account_sessions WHERE account_id = :a", {"a": account_id})
            return account_id

        return await self.storage.write(job)

    async def check_password_signin(self, email: Any, password: Any, totp: Any) -> dict[str, Any]:
        """The account for this e-mail and password (and TOTP code when it has one); 401 with one message for an
        unknown address and a wrong password alike."""
        if not self.passwords_on:
            raise ServiceError(403, "passwords_off", "password accounts are off on this server (no mail relay)")
        _, key = check_email(email)
        if not isinstance(password, str) or len(password) > 256:
            raise ServiceError(401, "bad_credentials", "wrong e-mail address or password")
        row = await self.one("SELECT * FROM accounts WHERE email_key = :e", e=key)
        ok = await self.verify_password(row["password_hash"] if row else None, password)
        if row is None or not ok:
            raise ServiceError(401, "bad_credentials", "wrong e-mail address or password")
        if not row["email_verified"]:
            raise ServiceError(403, "unverified", "confirm your e-mail address first: open the link we mailed you")
        if row["totp_secret"]:
            if not totp:
                raise ServiceError(401, "totp_required", "enter the code of your authenticator app")
            if not isinstance(totp, str) or not pyotp.TOTP(row["totp_secret"]).verify(totp.strip(), valid_window=1):
                raise ServiceError(401, "bad_totp", "wrong authenticator code")
        return row

    # ----------------------------------------------------------------- sessions
    async def open_session(self, account_id: str, user_agent: str, address: str | None) -> tuple[str, str]:
        """A new session: the cookie's value (never stored) and its CSRF token."""
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        now = time.time()
        params = {"h": digest(token), "a": account_id, "c": csrf, "t": now,
                  "e": now + self.settings.session_days * 86400, "ua": (user_agent or "")[:200], "ip": (address or "")[:64]}

        async def job(tx: Tx) -> None:
            await tx.execute("DELETE FROM account_sessions WHERE expires_at < :t", {"t": now})
            await tx.execute("INSERT INTO account_sessions (id_hash, account_id, csrf, created_at, seen_at, expires_at, "
                             "user_agent, address) VALUES (:h, :a, :c, :t, :t, :e, :ua, :ip)", params)

        await self.storage.write(job)
        return token, csrf

    async def session(self, cookie: str | None) -> Session | None:
        """The session of a cookie's value, or ``None`` (no cookie, unknown or expired)."""
        if not cookie or len(cookie) > 128:
            return None
        h = digest(cookie)
        now = time.time()
        rows = await self.read("SELECT s.csrf AS s_csrf, s.seen_at AS s_seen, s.expires_at AS s_expires, a.* "
                               "FROM account_sessions s JOIN accounts a ON a.id = s.account_id "
                               "WHERE s.id_hash = :h", h=h)
        if not rows or rows[0]["s_expires"] < now:
            return None
        row = rows[0]
        if now - row["s_seen"] > 300:  # a sliding expiry, written at most every five minutes

            async def touch(tx: Tx) -> None:
                await tx.execute("UPDATE account_sessions SET seen_at = :t, expires_at = :e WHERE id_hash = :h",
                                 {"t": now, "e": now + self.settings.session_days * 86400, "h": h})

            await self.storage.write(touch)
        csrf = row.pop("s_csrf")
        row.pop("s_seen")
        row.pop("s_expires")
        return Session(row, h, csrf)

    async def sessions(self, s: Session) -> list[dict[str, Any]]:
        rows = await self.read("SELECT id_hash, created_at, seen_at, user_agent, address FROM account_sessions "
                               "WHERE account_id = :a AND expires_at >= :t ORDER BY seen_at DESC",
                               a=s.account_id, t=time.time())
        # a session is named by a prefix of its digest (never the cookie)
        return [{"id": r["id_hash"][:16], "current": r["id_hash"] == s.id_hash, "created_at": r["created_at"],
                 "seen_at": r["seen_at"], "user_agent": r["user_agent"], "address": r["address"]} for r in rows]

    async def end_session(self, s: Session, which: str | None = None) -> int:
        """End this session (``which`` None), one of the account's sessions by id, or every session (``"all"``)."""

        async def job(tx: Tx) -> int:
            if which == "all":
                return await tx.execute("DELETE FROM account_sessions WHERE account_id = :a", {"a": s.account_id})
            if which is None:
                return await tx.execute("DELETE FROM account_sessions WHERE id_hash = :h", {"h": s.id_hash})
            if not isinstance(which, str) or len(which) != 16 or not all(c in "0123456789abcdef" for c in which):
                raise ServiceError(422, "bad_session", "no such session")
            rows = await tx.fetch("SELECT id_hash FROM account_sessions WHERE account_id = :a", {"a": s.account_id})
            n = 0
            for r in rows:
                if r["id_hash"].startswith(which):
                    n += await tx.execute("DELETE FROM account_sessions WHERE id_hash = :h", {"h": r["id_hash"]})
            if not n:
                raise ServiceError(404, "no_such_session", "no such session")
            return n

        return await self.storage.write(job)

    # ----------------------------------------------------------------- settings
    async def update(self, s: Session, display_name: Any = None, lang: Any = None) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        if display_name is not None:
            fields["display_name"] = check_display_name(display_name)
        if lang is not None:
            fields["lang"] = check_lang(lang)
        if fields:
            sets = ", ".join(f"{k} = :{k}" for k in fields)

            async def job(tx: Tx) -> None:
                await tx.execute(f"UPDATE accounts SET {sets} WHERE id = :a", {**fields, "a": s.account_id})

            await self.storage.write(job)
        return await self.me(s.account_id)

    async def me(self, account_id: str) -> dict[str, Any]:
        row = await self.account(account_id)
        if row is None:
            raise ServiceError(401, "signed_out", "sign in first")
        n = await self.one("SELECT COUNT(*) AS n FROM passkeys WHERE account_id = :a", a=account_id)
        return own_account(row, int(n["n"]) if n else 0)

    async def change_password(self, s: Session, old: Any, new: Any) -> None:
        check_password(new)
        row = s.account
        if row["password_hash"] is not None and not await self.verify_password(row["password_hash"], str(old or "")):
            raise ServiceError(403, "bad_credentials", "the current password is wrong")
        if row["email"] is None:
            raise ServiceError(409, "no_email", "a password account needs an e-mail address")
        pw_hash = await self.hash_password(new)

        async def job(tx: Tx) -> None:
            await tx.execute("UPDATE accounts SET password_hash = :p WHERE id = :a", {"p": pw_hash, "a": s.account_id})
            await tx.execute("DELETE FROM account_sessions WHERE account_id = :a AND id_hash != :h",
                             {"a": s.account_id, "h": s.id_hash})

        await self.storage.write(job)

    # --------------------------------------------------------------------- TOTP
    async def totp_setup(self, s: Session) -> dict[str, str]:
        if s.account["password_hash"] is None:
            raise ServiceError(409, "no_password", "a second factor protects a password; passkeys need none")
        secret = pyotp.random_base32()

        async def job(tx: Tx) -> None:
            await tx.execute("UPDATE accounts SET totp_pending = :s WHERE id = :a", {"s": secret, "a": s.account_id})

        await self.storage.write(job)
        uri = pyotp.TOTP(secret).provisioning_uri(name=s.account["username"], issuer_name=self.settings.rp_name)
        return {"secret": secret, "uri": uri}

    async def totp_enable(self, s: Session, code: Any) -> None:
        secret = s.account["totp_pending"]
        if not secret:
            raise ServiceError(409, "no_totp_setup", "start the set-up first")
        if not isinstance(code, str) or not pyotp.TOTP(secret).verify(code.strip(), valid_window=1):
            raise ServiceError(422, "bad_totp", "wrong authenticator code")

        async def job(tx: Tx) -> None:
            await tx.execute("UPDATE accounts SET totp_secret = :s, totp_pending = NULL WHERE id = :a",
                             {"s": secret, "a": s.account_id})

        await self.storage.write(job)

    async def totp_disable(self, s: Session, code: Any) -> None:
        secret = s.account["totp_secret"]
        if not secret:
            return
        if not isinstance(code, str) or not pyotp.TOTP(secret).verify(code.strip(), valid_window=1):
            raise ServiceError(422, "bad_totp", "wrong authenticator code")

        async def job(tx: Tx) -> None:
            await tx.execute("UPDATE accounts SET totp_secret = NULL, totp_pending = NULL WHERE id = :a",
                             {"a": s.account_id})

        await self.storage.write(job)

    # -------------------------------------------------------------------- seats
    async def seat_key(self) -> bytes:
        """The server key that derives account seats' tokens (made once, shared by every process)."""
        if self._seat_key is None:
            fresh = secrets.token_hex(32)

            async def job(tx: Tx) -> str:
                rows = await tx.fetch("SELECT value FROM server_keys WHERE name = 'seat'")
                if rows:
                    return str(rows[0]["value"])
                await tx.execute("INSERT INTO server_keys (name, value) VALUES ('seat', :v)", {"v": fresh})
                return fresh

            self._seat_key = bytes.fromhex(await self.storage.write(job))
        return self._seat_key

    async def seat_token(self, match_id: str, seat: int, account_id: str) -> str:
        mac = hmac.new(await self.seat_key(), f"{match_id}:{seat}:{account_id}".encode(), hashlib.sha256).digest()
        return b64url(mac[:18])

    async def bind_seat(self, match_id: str, seat: int, account_id: str, game: str, rated: bool | None,
                        token: str) -> None:
        """Record that ``account_id`` sits on the seat with ``token`` (and the match's rated/casual choice, made by its
        creator). The binding holds while the seat keeps that token."""
        await self.storage.write(self.binding(match_id, seat, account_id, game, rated, token))

    async def join_seat(self, match_id: str, seat: int, account_id: str, name: str, game: str, rated: bool | None,
                        token: str) -> None:
        """Take an open seat as ``account_id`` and bind it in the join's own transaction (issue 21): the watchers
        that the join triggers (the match starts, "your turn") already find the account at the seat."""
        await self.matches.join(match_id, seat, name, token,
                                also=self.binding(match_id, seat, account_id, game, rated, token))

    def binding(self, match_id: str, seat: int, account_id: str, game: str, rated: bool | None,
                token: str) -> Callable[[Tx], Awaitable[None]]:
        """The statements of :meth:`bind_seat`, for a transaction of the caller's."""
        now = time.time()
        token_hash = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()

        async def job(tx: Tx) -> None:
            await tx.execute("DELETE FROM account_seats WHERE match_id = :m AND seat = :s", {"m": match_id, "s": seat})
            await tx.execute("INSERT INTO account_seats (match_id, seat, account_id, token_hash, created_at) "
                             "VALUES (:m, :s, :a, :h, :t)", {"m": match_id, "s": seat, "a": account_id, "h": token_hash,
                                                             "t": now})
            found = await tx.fetch("SELECT 1 AS x FROM account_matches WHERE match_id = :m", {"m": match_id})
            if not found:
                await tx.execute("INSERT INTO account_matches (match_id, game, rated, state, created_at, done_at) "
                                 "VALUES (:m, :g, :r, 'pending', :t, NULL)",
                                 {"m": match_id, "g": game, "r": bool(rated), "t": now})

        return job

    async def my_seat(self, s: Session, match_id: str, seat: int) -> str:
        """The token of one of the account's own seats (403 for a seat that is not the account's)."""
        row = await self.one("SELECT b.account_id FROM account_seats b JOIN seats s ON s.match_id = b.match_id "
                             "AND s.seat = b.seat AND s.token_hash = b.token_hash WHERE b.match_id = :m AND b.seat = :s",
                             m=match_id, s=seat)
        if row is None or row["account_id"] != s.account_id:
            raise ServiceError(403, "not_your_seat", f"seat {seat} of this match is not yours")
        m = await self.matches.get(match_id)
        token = await self.seat_token(match_id, seat, s.account_id)
        if not 0 <= seat < len(m.seats) or m.seats[seat].token_hash != hashlib.sha256(token.encode()).hexdigest():
            raise ServiceError(403, "not_your_seat", f"seat {seat} of this match is not yours any more")
        return token

    async def is_rated(self, match_id: str) -> bool:
        row = await self.one("SELECT rated FROM account_matches WHERE match_id = :m", m=match_id)
        return bool(row and row["rated"])

    @staticmethod
    def guests_only_casual(match_id: str) -> Callable[[Tx], Awaitable[None]]:
        """The statements that refuse a guest a seat of a rated match (409 ``rated_match``), for the join's own
        transaction (``MatchService.join``'s ``also``): one read where the seat is written, rather than a read of
        its own before it (a pool connection and a transaction more on PostgreSQL, issue 26)."""

        async def job(tx: Tx) -> None:
            rows = await tx.fetch("SELECT rated FROM account_matches WHERE match_id = :m", {"m": match_id})
            if rows and rows[0]["rated"]:
                raise rated_match()

        return job

    async def claim(self, s: Session, claims: Any) -> list[dict[str, Any]]:
        """Bind seats this browser played as a guest (``[{"match_id", "seat", "token"}]``, at most 200) to the account:
        each token must be the seat's; a seat already bound to an account stays as it is."""
        if not isinstance(claims, list) or len(claims) > 200:
            raise ServiceError(422, "bad_request", "claims: a list of at most 200 seats")
        out = []
        for c in claims:
            if not isinstance(c, dict) or not isinstance(c.get("match_id"), str) or not isinstance(c.get("seat"), int) \
                    or not isinstance(c.get("token"), str) or len(c["match_id"]) > 32 or len(c["token"]) > 128:
                raise ServiceError(422, "bad_request", "each claim is {match_id, seat, token}")
            try:
                m = await self.matches.get(c["match_id"])
                self.matches.check_token(m, c["seat"], c["token"])
            except ServiceError:
                out.append({"match_id": c["match_id"], "seat": c["seat"], "claimed": False})
                continue
            bound = await self.one("SELECT b.account_id FROM account_seats b JOIN seats s ON s.match_id = b.match_id "
                                   "AND s.seat = b.seat AND s.token_hash = b.token_hash "
                                   "WHERE b.match_id = :m AND b.seat = :s", m=m.id, s=c["seat"])
            if bound is not None:
                out.append({"match_id": m.id, "seat": c["seat"], "claimed": bound["account_id"] == s.account_id})
                continue
            # the seat takes the account's own token (so that the account opens it on any device); the guest token
            # stops working, and this browser gets the new one
            token = await self.seat_token(m.id, c["seat"], s.account_id)
            if m.status != "finished":
                try:
                    await self.rekey(m.id, c["seat"], c["token"], token,
                                     also=self.binding(m.id, c["seat"], s.account_id, m.game.id, False, token))
                except ServiceError:
                    out.append({"match_id": m.id, "seat": c["seat"], "claimed": False})
                    continue
                out.append({"match_id": m.id, "seat": c["seat"], "claimed": True, "token": token})
            else:  # a finished match keeps its seats as they are: the binding names the guest token
                await self.bind_seat(m.id, c["seat"], s.account_id, m.game.id, False, c["token"])
                out.append({"match_id": m.id, "seat": c["seat"], "claimed": True})
        return out

    async def rekey(self, match_id: str, seat: int, old: str, new: str,
                    also: Callable[[Tx], Awaitable[None]] | None = None) -> None:
        """Give a seat a new token (the holder of ``old`` asks): sockets bound to the old token are closed (SRV-A4)."""
        svc = self.matches

        async def op(m: Any) -> None:
            from ..live import Seat, hash_token

            svc.check_token(m, seat, old)
            restore = svc.memo(m)
            cur = m.seats[seat]
            m.seats[seat] = Seat(cur.kind, cur.name, hash_token(new), cur.agent)
            await svc.store_change(m, restore, "update", seat, also)

        await svc.mutate(match_id, op)

    async def my_matches(self, s: Session, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The account's seats in matches not over yet (to resume them from any device)."""
        rows = await self.read("SELECT s.match_id, s.seat, m.game, m.name, m.status, m.to_act, m.updated_at "
                               "FROM account_seats s JOIN matches m ON m.id = s.match_id JOIN seats t "
                               "ON t.match_id = s.match_id AND t.seat = s.seat AND t.token_hash = s.token_hash "
                               "WHERE s.account_id = :a AND m.status != 'finished' ORDER BY m.updated_at DESC LIMIT :n",
                               a=s.account_id, n=limit)
        out = []
        for r in rows:
            to_act = json.loads(r["to_act"]) if r["to_act"] else []
            out.append({"match_id": r["match_id"], "seat": r["seat"], "game": r["game"], "name": r["name"],
                        "status": r["status"], "your_turn": r["status"] == "running" and r["seat"] in to_act,
                        "updated_at": r["updated_at"]})
        return out

    # ------------------------------------------------------------------ deletion
    async def delete(self, s: Session) -> None:
        """Delete the account: its seats in past matches become "deleted player", its ratings, history, sessions,
        passkeys and tokens go."""
        account_id = s.account_id

        async def job(tx: Tx) -> list[dict[str, Any]]:
            seats = await tx.fetch("SELECT b.match_id, b.seat FROM account_seats b JOIN seats s ON s.match_id = b.match_id "
                                   "AND s.seat = b.seat AND s.token_hash = b.token_hash WHERE b.account_id = :a",
                                   {"a": account_id})
            for r in seats:
                await tx.execute("UPDATE seats SET name = :n WHERE match_id = :m AND seat = :s",
                                 {"n": DELETED_NAME, "m": r["match_id"], "s": r["seat"]})
            await tx.execute("UPDATE account_seats SET account_id = NULL WHERE account_id = :a", {"a": account_id})
            for table in ("account_results", "rating_history", "ratings", "passkeys", "account_tokens",
                          "account_sessions", "seeks", "tutorial_progress", "account_vacations"):
                await tx.execute(f"DELETE FROM {table} WHERE account_id = :a", {"a": account_id})
            await tx.execute("DELETE FROM accounts WHERE id = :a", {"a": account_id})
            return seats

        seats = await self.storage.write(job)
        for r in seats:  # the copies in this process's memory show the new name at once
            m = self.matches.matches.get(r["match_id"])
            if m is not None and 0 <= r["seat"] < len(m.seats):
                m.seats[r["seat"]].name = DELETED_NAME
        log.info("account deleted")

    # ---------------------------------------------------------------- relying party
    def relying_party(self, request_base: str) -> tuple[str, str]:
        """The passkeys' relying party id (a host name) and the origin pages come from."""
        base = (self.settings.public_url or request_base).rstrip("/")
        parts = urlsplit(base)
        return parts.hostname or "localhost", f"{parts.scheme}://{parts.netloc}"
