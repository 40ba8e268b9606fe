"""The lobby for players: a card per game with its rules link, the computer's levels named, presets with the other
options folded in plain words (no raw option keys), "me" honoured on any seat, a readable message for an invalid
scenario, the open matches paged."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .pages import HTTP, PHONE, create, errors_of, goto, open_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_cards_levels_presets_and_plain_words(server: str, browser: Browser) -> None:
    page = open_page(browser)
    goto(page, server + "/")
    lobby = HTTP.get(server + "/api/lobby").json()
    for g in lobby:
        card = page.locator(f"[data-testid=game-card-{g['id']}]")
        assert card.locator("svg").count() == 1 and card.inner_text().strip()
        assert page.locator(f"[data-testid=rules-link-{g['id']}]").get_attribute("href") == f"/guide/{g['id']}"
    page.click("[data-testid=game-card-fullmetal]")
    fm = next(g for g in lobby if g["id"] == "fullmetal")
    for a in fm["agents"]:
        chip = page.inner_text(f"[data-testid=level-{a['name']}]").strip().lower().split(" · ")[0].split()
        assert chip[0] in ("easy", "medium", "hard")  # the level, then its rating where the ladder has one
        assert len(chip) == 1 or (a.get("rating") is not None and chip[1] == str(round(a["rating"])))
    assert page.locator("[data-testid=create-match]").is_visible()  # Create without scrolling
    box = page.locator("[data-testid=create-match]").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 900
    page.click("[data-testid=more-options] summary")
    text = page.inner_text("[data-testid=create-form]")
    for o in fm["options"]:
        if "_" in o["name"]:
            assert o["name"] not in text, f"raw option key {o['name']} shown"
    assert "FM-" not in text and "D-3" not in text
    assert errors_of(page) == []


def test_me_on_the_second_seat_and_invalid_scenario(server: str, browser: Browser) -> None:
    page = open_page(browser, PHONE)
    goto(page, server + "/")
    page.click("[data-testid=game-card-worlds]")
    page.click("[data-testid=more-options] summary")
    page.fill("[data-testid=opt-scenario_json]", "{not json")
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=opt-error-scenario_json]")
    assert "JSON" in page.inner_text("[data-testid=opt-error-scenario_json]")
    page.fill("[data-testid=opt-scenario_json]", "")
    page.click("[data-testid=game-card-arena]")
    page.click("[data-testid=mode-custom]")
    page.select_option("[data-testid=seat-kind-1]", "me")
    assert page.input_value("[data-testid=seat-kind-0]") == "open"  # one seat is yours
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=match-page][data-seat='1']")
    assert errors_of(page) == []


def test_open_matches_are_paged(server: str, browser: Browser) -> None:
    for _ in range(8):
        create(server, "arena", {"red_seat": 0}, join_seat=None)
    page = open_page(browser)
    goto(page, server + "/")
    page.wait_for_selector("[data-testid=list-open] [data-testid=match-row]")
    first = page.locator("[data-testid=list-open] [data-testid=match-row]").first.get_attribute("data-match")
    assert page.locator("[data-testid=list-open] [data-testid=match-row]").count() == 6
    page.click("[data-testid=list-open-next]")
    assert page.locator("[data-testid=list-open] [data-testid=match-row]").first.get_attribute("data-match") != first
    assert errors_of(page) == []
