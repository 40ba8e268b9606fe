"""The players' chat in Chromium (issue 21): two seats of one match, each in its own language; a message with
markup shows as text (no element made from it), a quick message reads in each reader's language, mute hides a
player's messages on this device only."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

from .pages import HTTP, create, errors_of, goto, open_page, seat_url

pytestmark = [pytest.mark.browser, pytest.mark.callback, pytest.mark.timeout(180)]


def open_seat(browser: Browser, server: str, mid: str, seat: int, token: str, lang: str) -> Page:
    page = open_page(browser, lang=lang)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    page.wait_for_selector("[data-testid=chat]")
    return page


def test_chat_between_two_seats(server: str, browser: Browser) -> None:
    mid, seat0, token0 = create(server, "galaxies", name="Alice")
    r = HTTP.post(f"{server}/api/matches/{mid}/seats/1/join", json={"name": "Boris"})
    assert r.status_code == 200, r.text
    alice = open_seat(browser, server, mid, seat0, token0, "en")
    boris = open_seat(browser, server, mid, 1, r.json()["token"], "ru")
    try:
        # the seats write over their match socket and the messages are pushed to the other page: no chat request
        requests: dict[str, list[str]] = {"alice": [], "boris": []}
        for who, page in (("alice", alice), ("boris", boris)):
            page.on("request", lambda r, who=who: requests[who].append(r.method) if "/chat" in r.url else None)
        # a page's own seat is at the table as soon as its socket is live, not "away" until the next presence read
        alice.wait_for_selector(f"[data-testid=presence-{seat0}][data-present=yes]", timeout=5000)
        boris.wait_for_selector("[data-testid=presence-1][data-present=yes]", timeout=5000)
        begun = time.monotonic()
        hostile = '<img src=x onerror="window.pwned=1">hello'
        alice.fill("[data-testid=chat-input]", hostile)
        alice.click("[data-testid=chat-send]")
        alice.click("[data-testid=quick-good_game]")
        boris.wait_for_function("document.querySelectorAll('[data-testid=chat-message]').length >= 2", timeout=30000)
        assert "POST" not in requests["alice"]
        if time.monotonic() - begun < 25:  # before the page's 30 s safety read, the messages came over the socket
            assert requests["boris"] == []
        texts = boris.locator("[data-testid=chat-message] .chat-text").all_inner_texts()
        assert texts == [hostile, "Хорошая игра!"]
        assert boris.locator("[data-testid=chat-list] img").count() == 0
        assert boris.evaluate("window.pwned") is None and alice.evaluate("window.pwned") is None
        alice.wait_for_function("document.querySelectorAll('[data-testid=chat-message]').length >= 2", timeout=30000)
        assert alice.locator("[data-testid=chat-message] .chat-text").all_inner_texts()[1] == "Good game!"
        # Boris mutes Alice: her messages disappear from his page only
        boris.locator("[data-testid=chat-mute]").first.click()
        boris.wait_for_function("document.querySelectorAll('[data-testid=chat-message]').length === 0")
        assert alice.locator("[data-testid=chat-message]").count() == 2
        assert errors_of(alice) == [] and errors_of(boris) == []
    finally:
        alice.context.close()
        boris.context.close()
