"""Notification mails: "your turn" and the other kinds, the daily digest, sent through the operator's SMTP relay
(``server/mail.py``).

Every mail carries a deep link to the match and a one-click unsubscribe (RFC 8058: ``List-Unsubscribe`` with
an https link and ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``). The link is signed for one account
(HMAC with the server's own key, ``server_secrets.unsubscribe``): it cannot unsubscribe any other account.
"""

from __future__ import annotations

from typing import Any

from . import texts


def unsubscribe_url(public_url: str, account_id: str, signature: str) -> str:
    return f"{public_url.rstrip('/')}/notify/unsubscribe/{account_id}/{signature}"


def compose(lang: str, public_url: str, unsubscribe: str, items: list[tuple[str, dict[str, Any]]],
            digest: bool = False) -> tuple[str, str, dict[str, str]]:
    """A notification mail for ``items`` (kind, data), one event or the lines of a digest: its subject, text and
    headers (sent by ``server/mail.py``'s :class:`Mailer`)."""
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
    headers = {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
               "Content-Language": lang}
    return " ".join(subject.split()), "\n".join(lines), headers
