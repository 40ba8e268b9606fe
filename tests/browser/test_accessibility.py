"""Accessibility: axe-core (vendored under tests/browser/vendor/, test-only) finds no serious or critical violation
on the lobby, the arena match page (placement and play, a ship selected), the replay and the rules page, at desktop
and phone sizes."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .pages import PHONE, READY_OR_OVER, create, errors_of, goto, open_page, seat_url, tap, wait_synced

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


def serious(page: Page) -> list[dict[str, Any]]:
    """Serious or critical axe violations of the page once nothing on it says it is still loading (``aria-busy``: a
    rules page's diagrams, drawn by the game's renderer, come after the page itself) and its finite animations, those
    about to start included, have ended (a card fading in is measured at its final colours, not half transparent:
    Tremble's rules diagrams once failed here, their chips measured mid fade-in)."""
    with contextlib.suppress(PlaywrightTimeout):  # a part loading for longer is judged as it stands
        page.wait_for_function("() => !document.querySelector('[aria-busy=true]')", timeout=30_000)
    page.wait_for_function("""() => document.getAnimations().every((a) => (a.playState !== 'running' && !a.pending)
        || !Number.isFinite(a.effect && a.effect.getComputedTiming().endTime))""", timeout=10_000)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.html.slice(0, 160))}));
    }""")
    return list(result)


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_no_serious_violation(server: str, browser: Browser, viewport: dict[str, int] | None) -> None:
    page = open_page(browser, viewport)
    goto(page, server + "/")
    page.click("[data-testid=more-options] summary")
    assert serious(page) == [], "lobby"
    mid, seat, token = create(server, "arena", {"red_seat": 0, "setup": "free"}, ai={1: "random"}, ai_seconds=0.05)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    tap(page, "tray:111")
    assert serious(page) == [], "arena placement"
    mid, seat, token = create(server, "arena", {"red_seat": 0}, ai={1: "random"}, ai_seconds=0.05)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    tap(page, "a2")
    tap(page, "a3")
    wait_synced(page, 2)
    tap(page, "b2")
    assert serious(page) == [], "arena play"
    page.click("[data-testid=share]")
    page.wait_for_selector("[data-testid=share-dialog][open]")
    assert serious(page) == [], "share dialog"
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=share-dialog]:not([open])", state="attached")
    page.click("[data-testid=review]")
    page.wait_for_selector("[data-testid=replay-step]")
    assert serious(page) == [], "review"
    goto(page, server + "/rules/arena")
    page.wait_for_selector("[data-testid=rules-page]")
    assert serious(page) == [], "rules"
    assert errors_of(page) == []
