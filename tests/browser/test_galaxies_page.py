"""The Battleship Galaxies match page in Debian chromium: no serious accessibility violation (axe-core) and no
console error at desktop and phone sizes; the board draws the rim, zones, obstacles and tiles; the game's own texts
(card names, phases) and the refusals come in the player's language; the hold shows as a count; the legend folds."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .pages import HTTP, PHONE, READY_OR_OVER, create, errors_of, goto, open_page, seat_url, version, wait_version_change
from .test_accessibility import serious
from .test_layout import SMALL_TARGETS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def to_deploy(page: Page) -> None:
    """Wait for the seat's first decision; when it won the roll-off, choose to go first (a composer button)."""
    page.wait_for_selector("[data-testid=match-page][data-renderer=module]")
    page.wait_for_function(READY_OR_OVER)
    first = page.locator("[data-testid=composer] button[data-action*=choose_first]")
    if first.count():
        assert serious(page) == [], "roll-off choice"
        before = version(page)
        first.first.click()
        wait_version_change(page, before)
        page.wait_for_function(READY_OR_OVER)
        page.wait_for_selector("[data-testid=tray] [data-place='tray:everest']")


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_galaxies_page_accessible_and_clean(server: str, browser: Browser, viewport: dict[str, int] | None) -> None:
    page = open_page(browser, viewport)
    mid, seat, token = create(server, "galaxies", {"mission": "m1-first-contact"}, ai={1: "policy"}, ai_seconds=0.05)
    assert seat is not None and token is not None
    goto(page, seat_url(server, mid, seat, token))
    to_deploy(page)
    assert page.get_attribute("[data-testid=match-page]", "data-renderer") == "module"
    board = page.locator("[data-testid=galaxies-board]")
    assert board.locator(".hex.rim").count() > 20  # the rim is drawn ...
    assert board.locator(".rim [data-place]").count() == 0  # ... and never playable
    assert board.locator(".cell.zone-A").count() and board.locator(".cell.zone-B").count()
    assert board.locator(".cell.asteroid").count() and board.locator(".cell.debris").count()
    assert board.locator(".tile.back").count() and board.locator(".tile.gate").count()
    assert serious(page) == [], "deploy"
    # pick a card behind the screen: the zone's hexes are marked
    page.locator("[data-testid=tray] [data-place='tray:everest']").click()
    assert board.locator(".cell.is-target").count() > 0
    assert serious(page) == [], "launch picked"
    page.click("[data-testid=legend] summary")
    assert page.locator("[data-testid=galaxies-legend] li").count() >= 10
    assert serious(page) == [], "legend"
    assert page.locator("[data-testid=legal-actions][open]").count() == 0
    if viewport == PHONE:  # the page fits 390 px; controls outside the board are at least 32 px
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        small = [s for s in page.evaluate(SMALL_TARGETS) if "h:" not in s and "ship" not in s and "place" not in s]
        assert small == []
        # the board opens zoomed on the own zone: its marked hexes are taps of at least 32 px
        sizes = board.locator(".cell.is-target").evaluate_all(
            "(els) => els.map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })")
        assert sizes and min(sizes) >= 32, sizes
    assert errors_of(page) == []


def test_galaxies_texts_and_refusals_in_french(server: str, browser: Browser) -> None:
    page = open_page(browser, lang="fr")
    mid, seat, token = create(server, "galaxies", {"mission": "m1-first-contact"}, ai={1: "policy"}, ai_seconds=0.05)
    assert seat is not None and token is not None
    goto(page, seat_url(server, mid, seat, token))
    to_deploy(page)
    fr = HTTP.get(f"{server}/api/i18n/galaxies/fr").json()
    assert fr["galaxies.phase.deploy"] in page.inner_text("[data-testid=phase]")
    assert "Derrière votre écran" in page.inner_text("[data-testid=tray]")
    hand = page.inner_text("[data-testid=gx-hand]")
    assert "Cartes tactiques en main" in hand
    # a launch tapped outside the starting zone is refused in plain French words, with the rule's link (BG-8.1)
    page.locator("[data-testid=tray] [data-place='tray:f47']").click()
    page.locator("[data-testid=board] .cell[data-place='h:8,7']").click()
    notice = page.locator("[data-testid=error]")
    notice.wait_for()
    assert "zone de départ" in notice.inner_text()
    assert "BG-8.1" in (notice.locator("[data-testid=rule-link]").get_attribute("href") or "")
    assert HTTP.get(f"{server}/api/i18n/nogame/fr").status_code == 404
    assert errors_of(page) == []
    # a spectator sees the board, the sides and no composer; the review draws the same board
    watcher = open_page(browser, lang="ru")
    goto(watcher, f"{server}/match/{mid}")
    watcher.wait_for_selector("[data-testid=galaxies-board] .hex.rim")
    assert watcher.locator("[data-testid=composer]").count() == 0
    assert "Сторона A" in watcher.inner_text("[data-testid=galaxies-status]")
    goto(watcher, f"{server}/replay/{mid}")
    watcher.wait_for_selector("[data-testid=replay-step]")
    watcher.wait_for_selector("[data-testid=galaxies-board] .hex.rim")
    assert errors_of(watcher) == []


@pytest.mark.parametrize(("mission", "players"), [("m5-pan-base", 3), ("m4-double-front", 4)])
def test_galaxies_teams_are_named_by_side(server: str, browser: Browser, mission: str, players: int) -> None:
    """Teams of 3-4 seats (BG-18): each side is named with its players; a budget fleet is sealed in the composer."""
    page = open_page(browser)
    ai = {i: "policy" for i in range(1, players)}
    mid, seat, token = create(server, "galaxies", {"mission": mission, "players": players}, ai=ai, ai_seconds=0.05)
    assert seat is not None and token is not None
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_selector("[data-testid=match-page][data-renderer=module]")
    page.wait_for_function(READY_OR_OVER)
    status = page.inner_text("[data-testid=galaxies-status]")
    assert "Ann" not in status and "Tester (you)" in status
    assert status.count("Computer (hard)") == players - 1  # policy is the hard level (docs/ai.md)
    fleet = page.locator("[data-testid=gx-fleet]")
    if fleet.count():  # a budget mission: tick ships within the budget, then seal (BG-4.4)
        boxes = fleet.locator("input[type=checkbox]")
        boxes.first.check()
        assert "Fleet value" in page.inner_text("[data-testid=gx-fleet-total]")
        before = page.get_attribute("[data-testid=version]", "data-version")
        page.click("[data-testid=gx-seal-fleet]")
        page.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'")
    assert serious(page) == [], mission
    assert errors_of(page) == []
