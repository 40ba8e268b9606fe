"""The replay of a finished match offers Analyse; the chances chart and the costly decisions then show."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser

from .pages import HTTP, create, errors_of, goto, open_page, seat_url

pytestmark = [pytest.mark.browser, pytest.mark.learn, pytest.mark.timeout(600)]


def test_analyse_a_finished_match_shows_the_chart(server: str, browser: Browser) -> None:
    mid, _, _ = create(server, "arena", {"board": "6x4"}, ai={0: "random", 1: "random"}, join_seat=None, ai_seconds=0.05)
    for _ in range(1200):  # wait for the two computer players to finish
        if HTTP.get(f"{server}/api/matches/{mid}", timeout=120).json().get("status") == "finished":
            break
        time.sleep(0.25)
    page = open_page(browser)
    goto(page, f"{server}/replay/{mid}")
    page.wait_for_selector("[data-testid=replay-page]")
    page.click("[data-testid=analyse]")
    page.wait_for_selector("[data-testid=analysis-chart] polyline", timeout=300_000)
    assert page.locator("[data-testid=analysis-chart] polyline").count() == 2
    assert errors_of(page) == []


def test_hint_against_the_computer(server: str, browser: Browser) -> None:
    mid, seat, token = create(server, "arena", {"red_seat": 0, "board": "6x4"}, ai={1: "random"})
    assert seat is not None and token is not None
    page = open_page(browser)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_selector("[data-testid=turn-indicator][data-my-turn=yes]", timeout=120_000)
    page.click("[data-testid=ask-hint]")
    page.get_by_text("Suggested move").first.wait_for(timeout=120_000)
    assert errors_of(page) == []
