"""Notifications in the app: the VAPID key route, the service worker at the root, the one-click unsubscribe (a
link for another account refused, nothing changed), the match hook storing events for accounts' seats."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from spacetable.server.notify import store

pytestmark = pytest.mark.callback


def notifier(client: TestClient) -> Any:
    return client.app.state.notifier  # type: ignore[attr-defined]


def test_vapid_key_and_service_worker(client: TestClient) -> None:
    r = client.get("/api/notify/vapid")
    assert r.status_code == 200
    key = r.json()["public_key"]
    assert key == notifier(client).vapid.public_key
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    assert "notificationclick" in sw.text and sw.headers["service-worker-allowed"] == "/"


def settings(client: TestClient, account: str) -> store.Settings:
    with notifier(client).engine.connect() as conn:
        return store.settings(conn, account)


def test_one_click_unsubscribe(client: TestClient) -> None:
    n = notifier(client)
    link = n.unsubscribe_link("alice").replace(n.config.public_url.rstrip("/"), "")
    assert link.startswith("/notify/unsubscribe/alice/")
    page = client.get(link)
    assert page.status_code == 200 and "<form method=\"post\">" in page.text
    assert settings(client, "alice").email_mode == "instant"  # following the link changes nothing
    # hostile: alice's signature on bob's account, a made-up signature, none
    sig = link.rsplit("/", 1)[1]
    for bad in (f"/notify/unsubscribe/bob/{sig}", "/notify/unsubscribe/alice/" + "0" * 40,
                "/notify/unsubscribe/alice/x", "/notify/unsubscribe/" + "a" * 100 + f"/{sig}"):
        r = client.post(bad, data={"List-Unsubscribe": "One-Click"})
        assert r.status_code == 403, bad
    assert settings(client, "bob").email_mode == "instant"
    assert settings(client, "alice").email_mode == "instant"
    r = client.post(link, data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200
    assert settings(client, "alice").email_mode == "off"
    assert settings(client, "bob").email_mode == "instant"
    with n.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM notify_settings WHERE account_id = 'bob'")).scalar_one() == 0
