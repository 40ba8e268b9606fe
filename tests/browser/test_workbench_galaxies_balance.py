"""A Battleship Galaxies pack's balance run in Chromium (issue 25, goal 3): the pack editor's balance panel runs a
few games with the default (greedy) players and shows the figures in the game's own words beside the house pack's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .pages import errors_of, goto, open_page

pytestmark = [pytest.mark.browser, pytest.mark.workbench, pytest.mark.timeout(600)]


def test_a_galaxies_pack_balance_run_shows_its_figures(server: str, browser: Browser) -> None:
    page = open_page(browser)
    goto(page, server + "/workbench/galaxies/packs")
    page.wait_for_selector("[data-testid=wb-editor][data-valid=yes]", timeout=60_000)
    assert page.locator("[data-testid=run-ai]").input_value() == "greedy"
    page.fill("[data-testid=run-games]", "2")
    page.click("[data-testid=run-start]")
    page.wait_for_selector("[data-testid=seat-chart-bundled]", timeout=400_000)
    assert page.locator("[data-testid=run-status] [data-state=done]").count() == 1
    figures = page.locator("[data-testid=run-figures]").inner_text()
    assert "Attacks per game" in figures and "Battles" not in figures
    assert page.locator("[data-testid=seat-chart-mine] rect.wb-bar").count() == 2
    cards = page.locator("[data-testid=run-cards]")
    assert "Used (this pack)" in cards.inner_text() and cards.locator("tbody tr").count() >= 3
    assert "fleet points" in page.locator("[data-testid=score-chart-mine]").get_attribute("aria-label")
    assert errors_of(page) == []
