"""The service worker in Chromium (issue 21): registered at the site's root scope, a push delivered to it through
the DevTools protocol (``ServiceWorker.deliverPushMessage``, with the JSON the server's push carries) shows the
notification (``registration.getNotifications()``: title, body, the match's address in its data).

What Chromium cannot do here: no DevTools command or WebDriver command clicks a system notification, and a
``notificationclick`` dispatched by script is untrusted (its ``waitUntil`` throws and ``clients.openWindow`` is
refused without the click's window interaction). So the click is checked as far as the worker allows: the address a
click opens (``ownUrl``, evaluated in the worker) is the match's page on this site, and an address of another site
is replaced by the site's root."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser

from spacetable.server.notify import texts

pytestmark = [pytest.mark.browser, pytest.mark.callback, pytest.mark.timeout(180)]


def test_push_shows_the_notification(server: str, browser: Browser) -> None:
    context = browser.new_context()
    try:
        context.grant_permissions(["notifications"], origin=server)
        page = context.new_page()
        page.goto(server + "/")
        cdp = context.new_cdp_session(page)
        registrations: list[dict[str, object]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        scope = page.evaluate("""async () => {
            const reg = await navigator.serviceWorker.register('/sw.js');
            await navigator.serviceWorker.ready;
            return reg.scope;
        }""")
        assert scope == server + "/"
        reg = next(r for r in registrations if r["scopeURL"] == server + "/" and not r.get("isDeleted"))
        title, body = texts.message("your_turn", {"match": "abc123", "game": "arena", "name": "Friday"}, "fr")
        data = {"title": title, "body": body, "url": "/match/abc123", "tag": "your_turn:abc123", "kind": "your_turn"}
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": server, "registrationId": reg["registrationId"],
                                                       "data": json.dumps(data)})
        shown = page.wait_for_function("""async () => {
            const reg = await navigator.serviceWorker.ready;
            const list = await reg.getNotifications();
            return list.length ? list.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url})) : null;
        }""", polling=100, timeout=30000).json_value()
        assert shown == [{"title": "À vous de jouer : Friday", "body": body, "tag": "your_turn:abc123",
                          "url": server + "/match/abc123"}]
        # a push whose payload is not JSON still shows a notification with the site's name
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": server, "registrationId": reg["registrationId"],
                                                       "data": "plain text"})
        page.wait_for_function("""async () => {
            const list = await (await navigator.serviceWorker.ready).getNotifications();
            return list.some(n => n.title === 'spacetable' && n.body === 'plain text');
        }""", polling=100, timeout=30000)
        [worker] = [w for w in context.service_workers if w.url.endswith("/sw.js")] or [context.wait_for_event("serviceworker")]
        assert worker.evaluate("ownUrl('/match/abc123')") == server + "/match/abc123"
        assert worker.evaluate("ownUrl('https://evil.example/phish')") == server + "/"
        assert worker.evaluate("ownUrl(undefined)") == server + "/"
    finally:
        context.close()
