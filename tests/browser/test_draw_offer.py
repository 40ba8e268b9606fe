"""The draw offer of the match frame (issue 11, "Safe"), on a Worlds & Suns match between two browser seats (WS-D25,
CORE-DRAW): the offer asks for confirmation, the other seat sees "X offers a draw" with Accept / Decline and may answer
out of turn (SRV-A5), a declined seat offers again only after a move of its own, and an accepted offer ends the
match drawn on both end screens."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .pages import HTTP, create, errors_of, goto, open_page, seat_url, shot, version, wait_synced

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def open_seat(browser: Browser, server: str, mid: str, seat: int, token: str, lang: str | None = None) -> Page:
    page = open_page(browser, lang=lang)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    return page


def play_listed(page: Page, action_type: str) -> None:
    """Play an action from the frame's folded list of every legal action (the accessible fallback)."""
    fold = page.locator("[data-testid=legal-actions]")
    if fold.get_attribute("open") is None:
        fold.locator("summary").click()
    fold.locator(f"[data-action*='\"type\":\"{action_type}\"']").first.click()


@pytest.mark.rule("WS-D25", "CORE-DRAW")
def test_offer_decline_offer_again_after_a_move_and_accept(server: str, browser: Browser) -> None:
    mid, seat0, token0 = create(server, "worlds", {"scenario": "s1-example"}, name="Alice")
    assert seat0 == 0 and token0
    r = HTTP.post(f"{server}/api/matches/{mid}/seats/1/join", json={"name": "Bruno"})
    assert r.status_code == 200, r.text
    token1 = r.json()["token"]
    alice = open_seat(browser, server, mid, 0, token0)
    bruno = open_seat(browser, server, mid, 1, token1, lang="fr")
    # Alice (to act) offers; the confirmation's "cancel" sends nothing
    alice.click("[data-testid=offer-draw]")
    alice.click("[data-testid=confirm-no]")
    assert version(alice) == 0
    alice.click("[data-testid=offer-draw]")
    alice.click("[data-testid=confirm-yes]")
    wait_synced(alice, 1)
    assert alice.locator("[data-testid=offer-draw]").count() == 0  # one offer at a time
    alice.wait_for_selector("[data-testid=draw-pending]")
    # Bruno, not to act, sees the prompt in French and declines
    wait_synced(bruno, 1)
    prompt = bruno.locator("[data-testid=draw-offer]")
    assert "Alice propose la nulle" in prompt.inner_text()
    shot(bruno, "draw-offer-prompt")
    bruno.click("[data-testid=draw-decline]")
    wait_synced(alice, 2)
    wait_synced(bruno, 2)
    assert alice.locator("[data-testid=draw-pending], [data-testid=draw-offer]").count() == 0
    assert alice.locator("[data-testid=offer-draw]").count() == 0  # declined: Alice moves before offering again
    assert bruno.locator("[data-testid=offer-draw]").count() == 1
    # Alice ends her turn (a move of her own); now she may offer again, out of turn
    play_listed(alice, "end_turn")
    wait_synced(alice, 3)
    alice.wait_for_selector("[data-testid=offer-draw]")
    alice.click("[data-testid=offer-draw]")
    alice.click("[data-testid=confirm-yes]")
    wait_synced(bruno, 4)
    bruno.click("[data-testid=draw-accept]")
    for page in (alice, bruno):
        page.wait_for_selector("[data-testid=result]")
    assert "Draw" in alice.inner_text("[data-testid=result-title]")
    assert "accord" in bruno.inner_text("[data-testid=result-ending]")
    shot(alice, "draw-offer-agreed")
    out = HTTP.get(f"{server}/api/matches/{mid}").json()["outcome"]
    assert out["kind"] == "agreement" and out["winners"] == []
    assert errors_of(alice) == [] and errors_of(bruno) == []
