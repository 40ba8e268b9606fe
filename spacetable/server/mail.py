"""Outgoing e-mail through the operator's SMTP relay (accounts' verification and reset mails, notifications).

One small interface: :class:`Mailer` ``send(to, subject, text, html=None, headers=None)``. The relay is named by
``spacetable serve --smtp-url`` / ``SPACETABLE_SMTP_URL`` as a URL:

* ``smtp://host:25`` plain (a relay on the same host or network), ``smtp://user:password@host:587?starttls=1``
  upgraded with STARTTLS (the default on port 587), ``smtps://user:password@host:465`` TLS from the first byte.

``--mail-from`` / ``SPACETABLE_MAIL_FROM`` is the sender address, ``--public-url`` / ``SPACETABLE_PUBLIC_URL`` the
address players use to reach the server (links in mails). Without a relay :func:`mailer_from` gives ``None`` and
whatever needs mail (password accounts) is off. Sending runs in a thread (``smtplib`` blocks), never on the event
loop; the relay's password, the recipients' tokens and the message bodies are never logged.

Connections to the relay are kept and reused (issue 21: a new connection, with its TLS handshake and login, per
message was what limited the notification fan-out): at most :data:`POOL_SIZE` idle connections (as many as the
notifier's sending lanes), each closed after
:data:`IDLE_SECONDS` unused or :data:`PER_CONNECTION` messages (relays limit messages per connection); a kept
connection that the relay closed meanwhile is replaced once, transparently.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import smtplib
import ssl
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.generator import BytesGenerator
from email.header import Header
from email.message import Message
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import Compat32
from email.utils import formataddr, formatdate, make_msgid
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger("spacetable.server.mail")

SMTP_URL_ENV = "SPACETABLE_SMTP_URL"
MAIL_FROM_ENV = "SPACETABLE_MAIL_FROM"
PUBLIC_URL_ENV = "SPACETABLE_PUBLIC_URL"


class MailError(Exception):
    """The relay refused or could not be reached (the message says which, never with secrets)."""


class _OneLine(Compat32):
    """``compat32`` (headers written as given), where an ASCII header of one line that fits the standard's 998
    characters is written straight away instead of through the ``Header`` folding machinery, which gives the same
    line at several times the cost (a tenth of a notification mail's making)."""

    def _fold(self, name: str, value: Any, sanitize: bool) -> str:
        if isinstance(value, str) and value.isascii() and "\n" not in value and "\r" not in value \
                and len(name) + len(value) + 2 <= (self.max_line_length or 998):
            return f"{name}: {value}{self.linesep}"
        out: str = super()._fold(name, value, sanitize)
        return out


#: headers written as given, one line each up to the standard's 998 characters (no folding of a long link)
POLICY = _OneLine(max_line_length=998)

@dataclass(frozen=True)
class SmtpRelay:
    host: str
    port: int
    tls: bool = False  # TLS from the first byte (smtps)
    starttls: bool = False
    username: str | None = None
    password: str | None = None
    timeout: float = 20.0

    def __repr__(self) -> str:  # never show the password
        return f"SmtpRelay({self.host}:{self.port}, tls={self.tls}, starttls={self.starttls}, user={self.username!r})"

    @classmethod
    def from_url(cls, url: str) -> SmtpRelay:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError("the SMTP URL must start with smtp:// or smtps://")
        if not parts.hostname:
            raise ValueError("the SMTP URL names no host")
        tls = parts.scheme == "smtps"
        port = parts.port or (465 if tls else 25)
        query = parse_qs(parts.query)
        flag = (query.get("starttls") or [""])[0].lower()
        starttls = not tls and (flag in ("1", "true", "yes") or (flag == "" and port == 587))
        return cls(parts.hostname, port, tls, starttls, unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None)


@dataclass(frozen=True)
class MailSettings:
    """What ``spacetable serve`` knows about mail: the relay URL, the sender and the public URL."""

    smtp_url: str | None = None
    mail_from: str | None = None
    public_url: str | None = None

    @classmethod
    def from_env(cls) -> MailSettings:
        return cls(os.environ.get(SMTP_URL_ENV) or None, os.environ.get(MAIL_FROM_ENV) or None,
                   os.environ.get(PUBLIC_URL_ENV) or None)


#: idle connections kept per relay, how long one is kept unused, how many messages one carries at most
POOL_SIZE = 8
IDLE_SECONDS = 30.0
PER_CONNECTION = 100


class Mailer:
    """Sends messages through one relay. ``sent`` counts the messages handed over (for ``/health`` and tests),
    ``connections`` the connections opened (reuse keeps it far below ``sent``)."""

    def __init__(self, relay: SmtpRelay, sender: str, sender_name: str = "spacetable") -> None:
        self.relay = relay
        self.sender = sender
        self.sender_name = sender_name
        self.sent = 0
        self.connections = 0
        #: idle connections: (connection, messages sent on it, when it was last used)
        self._idle: list[tuple[smtplib.SMTP, int, float]] = []
        self._lock = threading.Lock()
        self._context: ssl.SSLContext | None = None

    def build(self, to: str, subject: str, text: str, html: str | None = None,
              headers: Mapping[str, str] | None = None) -> Message:
        """The message: UTF-8 text (and an HTML alternative), the subject and the sender's name encoded (RFC 2047)
        where they are not ASCII. Built with the standard library's MIME classes, which write headers as given
        (about ten times cheaper than the header-parsing ``EmailMessage``: notifications send thousands)."""
        for name, value in (headers or {}).items():
            if "\n" in name or "\r" in name or "\n" in value or "\r" in value:
                raise ValueError("a mail header may not contain a line break")
        if "\n" in to or "\r" in to or "\n" in subject or "\r" in subject:
            raise ValueError("a mail header may not contain a line break")
        msg: Message = MIMEText(text, "plain", "utf-8", policy=POLICY)
        if html is not None:
            alternative = MIMEMultipart("alternative", policy=POLICY)
            alternative.attach(msg)
            alternative.attach(MIMEText(html, "html", "utf-8", policy=POLICY))
            msg = alternative
        msg["From"] = formataddr((self.sender_name, self.sender), charset="utf-8")
        msg["To"] = to if to.isascii() else Header(to, "utf-8").encode()
        msg["Subject"] = subject if subject.isascii() else Header(subject, "utf-8").encode()
        msg["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        msg["Date"] = formatdate(usegmt=True)
        msg["Auto-Submitted"] = "auto-generated"
        for name, value in (headers or {}).items():
            msg[name] = value if value.isascii() else Header(value, "utf-8").encode()
        return msg

    def _connect(self) -> smtplib.SMTP:
        r = self.relay
        smtp: smtplib.SMTP
        context = self._tls_context() if r.tls or r.starttls else None
        if r.tls:
            smtp = smtplib.SMTP_SSL(r.host, r.port, timeout=r.timeout, context=context)
        else:
            smtp = smtplib.SMTP(r.host, r.port, timeout=r.timeout)
        try:
            smtp.ehlo()
            if r.starttls:
                smtp.starttls(context=context)
                smtp.ehlo()
            if r.username and r.password:
                smtp.login(r.username, r.password)
        except BaseException:
            self._quit(smtp)
            raise
        with self._lock:
            self.connections += 1
        return smtp

    def _tls_context(self) -> ssl.SSLContext:
        """The TLS settings of the relay's connections, made once (reading the system's certificates takes tens of
        milliseconds)."""
        with self._lock:
            if self._context is None:
                self._context = ssl.create_default_context()
            return self._context

    @staticmethod
    def _quit(smtp: smtplib.SMTP) -> None:
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException):
            smtp.close()

    def _take(self) -> tuple[smtplib.SMTP, int] | None:
        """A kept connection (the most recently used), closing those idle too long."""
        now = time.monotonic()
        stale = []
        found = None
        with self._lock:
            while self._idle:
                smtp, count, used = self._idle.pop()
                if now - used > IDLE_SECONDS:
                    stale.append(smtp)
                    continue
                found = (smtp, count)
                break
            stale += [c for c, _n, used in self._idle if now - used > IDLE_SECONDS]
            self._idle = [x for x in self._idle if now - x[2] <= IDLE_SECONDS]
        for smtp in stale:
            self._quit(smtp)
        return found

    def _give(self, smtp: smtplib.SMTP, count: int) -> None:
        with self._lock:
            if count < PER_CONNECTION and len(self._idle) < POOL_SIZE:
                self._idle.append((smtp, count, time.monotonic()))
                return
        self._quit(smtp)

    def close(self) -> None:
        """Close the kept connections."""
        with self._lock:
            idle, self._idle = self._idle, []
        for smtp, _n, _t in idle:
            self._quit(smtp)

    def _deliver(self, smtp: smtplib.SMTP, msg: Message, to: str | None) -> None:
        """Hand ``msg`` over on ``smtp``: the envelope is the mailer's own sender and the one recipient ``to`` (no
        parsing of the headers back, as ``send_message`` does), with SMTPUTF8 where an address is not ASCII."""
        if to is None or "<" in to or " " in to:
            smtp.send_message(msg)
            return
        options = [] if to.isascii() and self.sender.isascii() else ["SMTPUTF8", "BODY=8BITMIME"]
        with io.BytesIO() as out:
            BytesGenerator(out, policy=msg.policy).flatten(msg, linesep="\r\n")
            smtp.sendmail(self.sender, [to], out.getvalue(), mail_options=options)

    def _send_sync(self, msg: Message, to: str | None = None) -> None:
        kept = self._take()
        if kept is not None:
            smtp, count = kept
            try:
                self._deliver(smtp, msg, to)
            except (smtplib.SMTPServerDisconnected, smtplib.SMTPSenderRefused, OSError):
                # the relay closed the kept connection meanwhile (or timed it out): once more on a new one
                smtp.close()
            except BaseException:
                self._quit(smtp)
                raise
            else:
                self._give(smtp, count + 1)
                return
        smtp = self._connect()
        try:
            self._deliver(smtp, msg, to)
        except BaseException:
            self._quit(smtp)
            raise
        self._give(smtp, 1)

    def send_sync(self, to: str, subject: str, text: str, html: str | None = None,
                  headers: Mapping[str, str] | None = None) -> None:
        """:meth:`send` from a worker thread (blocking): the notifications' delivery lanes."""
        msg = self.build(to, subject, text, html, headers)
        try:
            self._send_sync(msg, to)
        except (OSError, smtplib.SMTPException) as exc:
            # the class of the failure only: no addresses, bodies or credentials in the log
            log.warning("a mail could not be sent through %s:%d (%s)", self.relay.host, self.relay.port,
                        type(exc).__name__)
            raise MailError(f"the mail relay failed ({type(exc).__name__})") from None
        with self._lock:
            self.sent += 1
        log.info("mail sent", extra={"relay": f"{self.relay.host}:{self.relay.port}"})

    async def send(self, to: str, subject: str, text: str, html: str | None = None,
                   headers: Mapping[str, str] | None = None) -> None:
        """Send one message (plain text, with an HTML alternative if given); :class:`MailError` if it fails. Built
        and sent in a worker thread."""
        await asyncio.to_thread(self.send_sync, to, subject, text, html, headers)


def mailer_from(settings: MailSettings) -> Mailer | None:
    """The mailer of ``settings``, or ``None`` when no relay is named (then password accounts are off)."""
    if not settings.smtp_url:
        return None
    relay = SmtpRelay.from_url(settings.smtp_url)
    sender = settings.mail_from or f"noreply@{relay.host}"
    return Mailer(relay, sender)
