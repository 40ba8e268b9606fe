"""Notification routes (issue 21).

An account's own (session cookie; a change also needs the ``X-CSRF-Token`` header, as every account route):

* ``GET /api/notify/prefs``: every channel's choice per kind, the e-mail rhythm and the page sound;
  ``PUT /api/notify/prefs``: change some of them;
* ``POST /api/notify/push``: ``{"endpoint", "keys": {"p256dh", "auth"}}`` (a browser's ``PushSubscription``);
  refused (422) when the endpoint is not a public https address (``push.check_endpoint``);
  ``POST /api/notify/push/remove``: ``{"endpoint"}``;
* ``GET /api/notify/inbox``: the bell (unread count, latest notifications); ``POST /api/notify/inbox/read``.

Without an account:

``GET /api/notify/vapid``: ``{"public_key": ...}`` (the ``applicationServerKey`` a page subscribes with).
``GET /notify/unsubscribe/{account}/{signature}``: a page with one button (a mail scanner following the link
unsubscribes nobody); ``POST`` on the same address unsubscribes (RFC 8058 one-click: the mail client posts
``List-Unsubscribe=One-Click``; the page's button posts the same). A signature made for another account, or
none, is refused with 403 and changes nothing.
"""

from __future__ import annotations

import asyncio
import html
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import Field

from ..errors import ServiceError
from ..presentation import pick_lang
from ..routes.pages import WEB_DIR
from ..routes.schemas import Body
from ..routes.session import Signed, Writer
from ..routing import PrefixRoute
from . import push, store, texts
from .dispatcher import Notifier
from .store import begin as store_begin

router = APIRouter(tags=["notifications"], route_class=PrefixRoute)
Kind = Literal["your_turn", "match_start", "match_end", "challenge", "draw_offer", "chat_mention"]
Channel = Literal["page", "push", "email"]


class SettingsBody(Body):
    email_mode: Literal["instant", "digest", "off"] | None = None
    quiet_minutes: int | None = Field(default=None, ge=0, le=1440)
    digest_hour: int | None = Field(default=None, ge=0, le=23)
    sound: bool | None = None


class PrefsBody(Body):
    prefs: dict[Channel, dict[Kind, bool]] = Field(default_factory=dict)
    settings: SettingsBody | None = None


class Keys(Body):
    p256dh: str = Field(max_length=128)
    auth: str = Field(max_length=64)


class PushBody(Body):
    endpoint: str = Field(max_length=push.MAX_ENDPOINT)
    keys: Keys
    #: the browser's own expiry (ignored: a gone subscription is removed when the push service says so)
    expirationTime: float | None = None


class EndpointBody(Body):
    endpoint: str = Field(max_length=push.MAX_ENDPOINT)


class ReadBody(Body):
    upto: int | None = Field(default=None, ge=0)


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


def _prefs(n: Notifier, account: str) -> dict[str, Any]:
    with n.engine.connect() as conn:
        return {"prefs": store.prefs(conn, account), "settings": store.settings(conn, account).to_json(),
                "kinds": list(store.KINDS), "channels": list(store.CHANNELS),
                "vapid": n.vapid.public_key if n.vapid else None}


@router.get("/api/notify/prefs")
async def get_prefs(request: Request, s: Signed) -> dict[str, Any]:
    return await asyncio.to_thread(_prefs, notifier(request), s.account_id)


@router.put("/api/notify/prefs")
async def put_prefs(body: PrefsBody, request: Request, s: Writer) -> dict[str, Any]:
    n = notifier(request)

    def job() -> dict[str, Any]:
        with store_begin(n.engine) as conn:
            for channel, kinds in body.prefs.items():
                for kind, on in kinds.items():
                    store.set_pref(conn, s.account_id, channel, kind, on)
            if body.settings is not None:
                current = store.settings(conn, s.account_id)
                for name, value in body.settings.model_dump(exclude_none=True).items():
                    setattr(current, name, value)
                store.save_settings(conn, s.account_id, current)
        return _prefs(n, s.account_id)

    return await asyncio.to_thread(job)


@router.post("/api/notify/push", status_code=201)
async def add_push(body: PushBody, request: Request, s: Writer) -> dict[str, str]:
    n = notifier(request)
    sub_id = await asyncio.to_thread(push.subscribe, n.engine, s.account_id, body.endpoint, body.keys.p256dh,
                                     body.keys.auth, n.config.push_allow_insecure_loopback)
    return {"id": sub_id}


@router.post("/api/notify/push/remove")
async def remove_push(body: EndpointBody, request: Request, s: Writer) -> dict[str, bool]:
    n = notifier(request)
    return {"removed": await asyncio.to_thread(push.unsubscribe, n.engine, s.account_id, body.endpoint)}


@router.get("/api/notify/inbox")
async def get_inbox(request: Request, s: Signed, limit: Annotated[int, Query(ge=1, le=100)] = 30) -> dict[str, Any]:
    n = notifier(request)

    def job() -> dict[str, Any]:
        with n.engine.connect() as conn:
            unread, items = store.inbox(conn, s.account_id, limit)
            sound = store.settings(conn, s.account_id).sound
        for item in items:
            item["title"], item["body"] = texts.message(item["kind"], item["data"], s.account.get("lang") or "en")
            item["url"] = texts.link("", item["data"])
        return {"unread": unread, "items": items, "sound": sound}

    return await asyncio.to_thread(job)


@router.post("/api/notify/inbox/read")
async def read_inbox(body: ReadBody, request: Request, s: Writer) -> dict[str, int]:
    n = notifier(request)

    def job() -> int:
        with store_begin(n.engine) as conn:
            return store.mark_read(conn, s.account_id, body.upto)

    return {"read": await asyncio.to_thread(job)}


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


@router.get("/notify/unsubscribe/{account}/{signature}", response_class=HTMLResponse, include_in_schema=False)
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


@router.post("/notify/unsubscribe/{account}/{signature}", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe(account: str, signature: str, request: Request) -> HTMLResponse:
    n = notifier(request)
    lang = pick_lang(request.headers.get("accept-language"))
    bad = _check(n, account, signature, lang)
    if bad is not None:
        return bad

    def job() -> None:
        with store_begin(n.engine) as conn:
            store.unsubscribe_email(conn, account)

    await asyncio.to_thread(job)
    lang = await asyncio.to_thread(_lang, n, account, request)
    return _page(lang, texts.t("notify.unsubscribe.title", lang), _para(texts.t("notify.unsubscribe.done", lang)))


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker, at the site's root so that its scope is the whole site (push, notification clicks)."""
    return FileResponse(WEB_DIR / "static" / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
