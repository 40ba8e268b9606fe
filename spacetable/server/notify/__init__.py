"""Notifications (issue 21): "your turn", a match starting or ending, a challenge, a draw offer, a chat mention,
told to an account in the page (the bell), by Web Push and by e-mail, each channel switchable per kind.

* ``models.py``: the tables (migration ``0005_callback``); ``store.py``: their queries, the outbox's
  exactly-once claims, back-off and retention;
* ``push.py``: VAPID keys, subscriptions (with the SSRF guard), sending through ``pywebpush``;
* ``mailer.py``: mails through the operator's SMTP relay, the digest, the signed one-click unsubscribe;
* ``dispatcher.py``: the per-process :class:`Notifier` that stores events and delivers what is due;
* ``texts.py``: what a notification says, in the reader's language.
"""

from __future__ import annotations

from .dispatcher import Contact, Directory, Notifier, NotifyConfig
from .store import CHANNELS, KINDS, Event

__all__ = ["CHANNELS", "KINDS", "Contact", "Directory", "Event", "Notifier", "NotifyConfig"]
