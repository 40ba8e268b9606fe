"""Notification mails: "your turn" and the other kinds, the daily digest, through the operator's SMTP relay.

Every mail carries a deep link to the match and a one-click unsubscribe (RFC 8058: ``List-Unsubscribe`` with
an https link and ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``). The link is signed for one account
(HMAC with the server's own key, ``server_secrets.unsubscribe``): it cannot unsubscribe any other account.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from typing import Any
from urllib.parse import urlsplit

from . import texts

#: seconds an SMTP conversation may take
TIMEOUT = 20.0


@dataclass
class Relay:
    """The operator's SMTP relay (``spacetable serve --smtp-host ...``; docs/server.md)."""

    host: str
    port: int = 25
    sender: str = "spacetable@localhost"
    username: str | None = None
    password: str | None = None
    #: ``starttls`` | ``tls`` (implicit, port 465) | ``none`` (a relay on loopback)
    security: str = "starttls"

    def __repr__(self) -> str:  # the password never shows in a log line
        return f"Relay(host={self.host!r}, port={self.port}, sender={self.sender!r}, security={self.security!r})"

    def send(self, msg: EmailMessage) -> None:
        """Hand ``msg`` to the relay (raises ``smtplib.SMTPException`` or ``OSError`` on failure)."""
        context = ssl.create_default_context()
        if self.security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT, context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        with smtp:
            if self.security == "starttls":
                smtp.starttls(context=context)
            if self.username:
                smtp.login(self.username, self.password or "")
            smtp.send_message(msg)


def unsubscribe_url(public_url: str, account_id: str, signature: str) -> str:
    return f"{public_url.rstrip('/')}/notify/unsubscribe/{account_id}/{signature}"


def compose(sender: str, to: str, lang: str, public_url: str, unsubscribe: str,
            items: list[tuple[str, dict[str, Any]]], digest: bool = False) -> EmailMessage:
    """A notification mail for ``items`` (kind, data): one event, or the lines of a digest."""
    msg = EmailMessage()
    host = urlsplit(public_url).hostname or "localhost"
    if digest:
        subject = texts.t("notify.mail.digest.subject", lang, count=len(items))
        lines = [texts.t("notify.mail.digest.intro", lang), ""]
    else:
        subject = texts.message(*items[0], lang)[0]
        lines = []
    for kind, data in items:
        title, body = texts.message(kind, data, lang)
        if digest:
            lines.append(f"* {title}")
            lines.append(f"  {body}")
            lines.append("  " + texts.link(public_url, data))
        else:
            lines.append(body)
            lines.append("")
            lines.append(texts.t("notify.mail.open", lang, url=texts.link(public_url, data)))
    lines += ["", "-- ", texts.t("notify.mail.footer", lang, url=unsubscribe)]
    msg["Subject"] = subject.replace("\n", " ").replace("\r", " ")
    msg["From"] = formataddr(("spacetable", sender))
    msg["To"] = to
    msg["Message-ID"] = make_msgid(domain=host)
    msg["Auto-Submitted"] = "auto-generated"
    msg["List-Unsubscribe"] = f"<{unsubscribe}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Content-Language"] = lang
    msg.set_content("\n".join(lines))
    return msg


Sender = Callable[[EmailMessage], None]
