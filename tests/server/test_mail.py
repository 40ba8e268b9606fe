"""The mail module (issue 20): relay URLs, messages with text, HTML and extra headers, a real SMTP server on
loopback, and a relay that cannot be reached (a clear error, no secret in the log)."""

from __future__ import annotations

import asyncio
import email
import logging
import socket
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from spacetable.server.mail import Mailer, MailError, MailSettings, SmtpRelay, mailer_from

pytestmark = pytest.mark.accounts


def test_relay_urls() -> None:
    r = SmtpRelay.from_url("smtp://user%40x:p%3Ass@mail.example.org:587")
    assert (r.host, r.port, r.starttls, r.tls, r.username, r.password) == ("mail.example.org", 587, True, False,
                                                                           "user@x", "p:ss")
    assert "p:ss" not in repr(r)
    assert SmtpRelay.from_url("smtps://h").port == 465 and SmtpRelay.from_url("smtps://h").tls
    assert not SmtpRelay.from_url("smtp://h:25").starttls and SmtpRelay.from_url("smtp://h:2525?starttls=1").starttls
    for bad in ("http://h", "smtp://", "smtp:///x"):
        with pytest.raises(ValueError):
            SmtpRelay.from_url(bad)
    assert mailer_from(MailSettings()) is None
    assert mailer_from(MailSettings("smtp://relay.example.org")).sender == "noreply@relay.example.org"  # type: ignore[union-attr]


def test_header_injection_refused() -> None:
    m = Mailer(SmtpRelay("127.0.0.1", 25), "a@example.org")
    with pytest.raises(ValueError):
        m.build("b@example.org", "s", "t", headers={"X-Test": "a\r\nBcc: victim@example.org"})


def test_send_through_a_real_smtp_server() -> None:
    got: list[Any] = []

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            got.append(envelope)
            return "250 OK"

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        mailer = Mailer(SmtpRelay("127.0.0.1", port), "table@example.org")
        asyncio.run(mailer.send("p@example.org", "Héllo", "plain text", "<p>html</p>",
                                {"List-Unsubscribe": "<https://example.org/u>"}))
    finally:
        controller.stop()
    assert mailer.sent == 1 and got[0].rcpt_tos == ["p@example.org"]
    msg = email.message_from_bytes(got[0].content)
    assert msg["List-Unsubscribe"] == "<https://example.org/u>" and msg["Auto-Submitted"] == "auto-generated"
    assert [p.get_content_type() for p in msg.walk()] == ["multipart/alternative", "text/plain", "text/html"]


def test_unreachable_relay(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    mailer = Mailer(SmtpRelay("127.0.0.1", port, username="u", password="hunter2-secret", timeout=5), "a@example.org")
    with caplog.at_level(logging.INFO), pytest.raises(MailError):
        asyncio.run(mailer.send("victim@example.org", "s", "token-abc-123"))
    assert "hunter2-secret" not in caplog.text and "victim@example.org" not in caplog.text
    assert "token-abc-123" not in caplog.text
