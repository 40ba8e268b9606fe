"""Time controls in Chromium (issue 21): the lobby's create form chooses a correspondence clock and what a lapse
does; the match page shows them and "Waiting on ... for ..." in the page's language; the lobby's list of your
matches shows the wait too."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .pages import HTTP, errors_of, goto, open_page, seat_of

pytestmark = [pytest.mark.browser, pytest.mark.callback, pytest.mark.timeout(180)]


def test_correspondence_clock_from_the_create_form(server: str, browser: Browser) -> None:
    page = open_page(browser, lang="fr")
    try:
        goto(page, server + "/")
        page.click("[data-testid=game-card-galaxies]")
        page.click("[data-testid=mode-friend]")
        page.click("[data-testid=more-options] summary")
        page.select_option("[data-testid=clock-kind]", "days")
        page.fill("[data-testid=clock-days]", "2")
        lapses = page.locator("[data-testid=clock-lapse] option").evaluate_all("os => os.map((o) => o.value)")
        assert lapses == ["forfeit", "claim", "computer"]  # Galaxies' rules name no pass
        page.select_option("[data-testid=clock-lapse]", "claim")
        page.click("[data-testid=create-match]")
        page.wait_for_selector("[data-testid=match-page][data-seat='0']")
        seat, _token = seat_of(page)
        mid = page.get_attribute("[data-testid=match-page]", "data-match")
        summary = HTTP.get(f"{server}/api/matches/{mid}").json()
        assert summary["clock"]["kind"] == "days" and summary["turn_seconds"] == 2 * 86400
        assert HTTP.get(f"{server}/api/matches/{mid}/lapse").json()["lapse"] == "claim"
        r = HTTP.post(f"{server}/api/matches/{mid}/seats/{1 - seat}/join", json={"name": "Boris"})
        assert r.status_code == 200, r.text
        page.wait_for_selector("[data-testid=clock-kind-shown]")
        shown = page.inner_text("[data-testid=clock-kind-shown]").replace("\xa0", " ")
        assert "2 jours par coup" in shown and "réclamer la victoire" in shown, shown
        page.wait_for_function("document.querySelector('[data-testid=match-status]').dataset.status === 'running'")
        goto(page, server + "/")
        page.wait_for_selector("[data-testid=list-yours] [data-testid=waiting-on]")
        assert page.inner_text("[data-testid=list-yours] [data-testid=waiting-on]").startswith("En attente de ")
        assert errors_of(page) == []
    finally:
        page.context.close()
