"""Notification routes that need no account: the server's VAPID public key, and the one-click unsubscribe.

``GET /api/notify/vapid``: ``{"public_key": ...}`` (the ``applicationServerKey`` a page subscribes with).
``GET /notify/unsubscribe/{account}/{signature}``: a page with one button (a mail scanner following the link
unsubscribes nobody); ``POST`` on the same address unsubscribes (RFC 8058 one-click: the mail client posts
``List-Unsubscribe=One-Click``; the page's button posts the same). A signature made for another account, or
none, is refused with 403 and changes nothing.
"""

from __future__ import annotations

import asyncio
import html

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from ..errors import ServiceError
from ..presentation import pick_lang
from ..routes.pages import WEB_DIR
from . import store, texts
from .dispatcher import Notifier

router = APIRouter(tags=["notifications"])


def notifier(request: Request) -> Notifier:
    n: Notifier | None = getattr(request.app.state, "notifier", None)
    if n is None or n.vapid is None:
        raise ServiceError(503, "notifications_off", "notifications are starting; try again")
    return n


@router.get("/api/notify/vapid")
async def vapid_key(request: Request) -> dict[str, str]:
    n = notifier(request)
    assert n.vapid is not None
    return {"public_key": n.vapid.public_key}


def _page(lang: str, title: str, body: str, status: int = 200) -> HTMLResponse:
    doc = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
           '<meta name="viewport" content="width=device-width, initial-scale=1">'
           f'<title>{html.escape(title)}</title><link rel="stylesheet" href="/static/style.css"></head>'
           f'<body><main class="unsubscribe"><h1>{html.escape(title)}</h1>{body}</main></body></html>')
    return HTMLResponse(doc, status_code=status, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def _para(message: str) -> str:
    return f"<p>{html.escape(message)}</p>"


def _check(n: Notifier, account: str, signature: str, lang: str) -> HTMLResponse | None:
    if len(account) > 64 or len(signature) > 64 or not store.verify(n.key, account, "unsubscribe", signature):
        return _page(lang, texts.t("notify.unsubscribe.title", lang), _para(texts.t("notify.unsubscribe.bad", lang)), 403)
    return None


def _lang(n: Notifier, account: str, request: Request) -> str:
    contact = n.directory(account)
    return contact.lang if contact is not None else pick_lang(request.headers.get("accept-language"))


@router.get("/notify/unsubscribe/{account}/{signature}", response_class=HTMLResponse)
async def unsubscribe_page(account: str, signature: str, request: Request) -> HTMLResponse:
    n = notifier(request)
    lang = pick_lang(request.headers.get("accept-language"))
    bad = _check(n, account, signature, lang)
    if bad is not None:
        return bad
    lang = await asyncio.to_thread(_lang, n, account, request)
    form = (f'<p>{html.escape(texts.t("notify.unsubscribe.ask", lang))}</p><form method="post">'
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
            f'<button type="submit">{html.escape(texts.t("notify.unsubscribe.button", lang))}</button></form>')
    return _page(lang, texts.t("notify.unsubscribe.title", lang), form)


@router.post("/notify/unsubscribe/{account}/{signature}", response_class=HTMLResponse)
async def unsubscribe(account: str, signature: str, request: Request) -> HTMLResponse:
    n = notifier(request)
    lang = pick_lang(request.headers.get("accept-language"))
    bad = _check(n, account, signature, lang)
    if bad is not None:
        return bad

    def job() -> None:
        with n.engine.begin() as conn:
            store.unsubscribe_email(conn, account)

    await asyncio.to_thread(job)
    lang = await asyncio.to_thread(_lang, n, account, request)
    return _page(lang, texts.t("notify.unsubscribe.title", lang), _para(texts.t("notify.unsubscribe.done", lang)))


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker, at the site's root so that its scope is the whole site (push, notification clicks)."""
    return FileResponse(WEB_DIR / "static" / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
