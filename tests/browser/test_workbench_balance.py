"""The card editor and a balance run in Chromium (issue 25): a Tremble card's price changed in the form (a wrong
value is shown at its field first), then a 200-game balance run with random captains, shown beside the bundled
set's run; the page is axe-clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .pages import errors_of, goto, open_page
from .test_accessibility import serious

pytestmark = [pytest.mark.browser, pytest.mark.workbench, pytest.mark.timeout(600)]


def test_a_card_price_changed_and_a_balance_run_beside_the_bundled_set(server: str, browser: Browser) -> None:
    page = open_page(browser)
    goto(page, server + "/workbench/tremble/card_sets")
    page.wait_for_selector("[data-testid=wb-editor][data-valid=yes]", timeout=60_000)
    card = page.locator("[data-testid='card-ships.1']")
    card.locator("summary").click()
    price = page.locator("[data-testid='field-ships.1.price']")
    assert price.input_value() == "20000"
    # a price the rules refuse: the problem is named at its field, and nothing can be run
    price.fill("-10000")
    page.wait_for_selector("[data-testid=wb-editor][data-valid=no] [data-testid=check-state][data-state=invalid]",
                           timeout=60_000)
    assert price.get_attribute("aria-invalid") == "true"
    assert card.locator("[data-testid=field-problems]").count() >= 1
    assert page.locator("[data-testid=run-start]").is_disabled()
    price.fill("10000")
    page.wait_for_selector("[data-testid=wb-editor][data-valid=yes]", timeout=60_000)
    # a card duplicated (the copy opens just below, its id marked) and removed again
    ships = page.locator("[data-path=ships] > details")
    count = ships.count()
    page.click("[data-testid='dup-ships.1']")
    assert ships.count() == count + 1
    assert page.locator("[data-testid='card-ships.2'] summary").inner_text().startswith("watch_saucer_2")
    page.click("[data-testid='remove-ships.2']")
    assert ships.count() == count
    page.wait_for_selector("[data-testid=wb-editor][data-valid=yes]", timeout=60_000)
    page.fill("[data-testid=run-games]", "200")
    page.select_option("[data-testid=run-ai]", "random")
    page.click("[data-testid=run-start]")
    page.wait_for_selector("[data-testid=run-compare]", timeout=400_000)
    page.wait_for_selector("[data-testid=seat-chart-bundled]", timeout=400_000)
    # the charts are drawn from the run's results as they come; the run is over a moment later
    page.wait_for_selector("[data-testid=run-status] [data-state=done]", timeout=60_000)
    assert page.locator("[data-testid=run-status] [data-state=done]").count() == 1
    figures = page.locator("[data-testid=run-figures] tbody tr").first.inner_text()
    assert figures.split() == ["Games", "200", "200"]
    assert page.locator("[data-testid=seat-chart-mine] rect.wb-bar").count() == 4
    assert page.locator("[data-testid=run-cards] tbody tr").count() > 10
    assert serious(page) == []
    assert errors_of(page) == []
