"""Phones: every page fits 390 px without sideways scrolling, and everything a finger taps is at least 32 px in both
directions (a checkbox counts with its label; links inside running text are exempt)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .pages import PHONE, READY_OR_OVER, create, errors_of, goto, open_page, seat_url, tap, wait_synced

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SMALL_TARGETS = """() => {
  const out = [];
  const sel = 'a[href], button, select, input, textarea, summary, [role=button], [tabindex="0"]';
  for (const el of document.querySelectorAll(sel)) {
    const r0 = el.getBoundingClientRect();
    if (!r0.width || !r0.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('.sr-only')) continue;
    if (el.tagName === 'A' && el.closest('p, li.rule-anchor, .rules-doc, .notice-text')) continue;
    const box = (el.type === 'checkbox' || el.type === 'radio') && el.closest('label') ? el.closest('label') : el;
    const r = box.getBoundingClientRect();
    const name = el.getAttribute('data-testid') || el.getAttribute('data-place') || el.className || '';
    if (r.width < 32 || r.height < 32) out.push(`${el.tagName} ${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}"""


def check(page: Page, what: str) -> list[str]:
    problems: list[str] = []
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > 390:
        problems.append(f"{what}: {width} px wide")
    small: list[Any] = page.evaluate(SMALL_TARGETS)
    problems += [f"{what}: small target {s}" for s in small]
    return problems


def test_every_page_fits_a_phone(server: str, browser: Browser) -> None:
    page = open_page(browser, PHONE)
    problems = []
    goto(page, server + "/")
    problems += check(page, "lobby")
    page.click("[data-testid=more-options] summary")
    for game in ("arena", "fullmetal", "tremble", "worlds"):
        page.click(f"[data-testid=game-card-{game}]")
        page.click("[data-testid=more-options] summary")
        problems += check(page, f"lobby {game}")
    mid, seat, token = create(server, "arena", {"red_seat": 0, "setup": "free"}, ai={1: "random"}, ai_seconds=0.05)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    tap(page, "tray:111")
    problems += check(page, "arena placement")
    mid, seat, token = create(server, "arena", {"red_seat": 0}, ai={1: "random"}, ai_seconds=0.05)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    tap(page, "a2")
    tap(page, "a3")
    wait_synced(page, 2)
    problems += check(page, "arena play")
    page.click("[data-testid=review]")
    page.wait_for_selector("[data-testid=replay-step]")
    problems += check(page, "review")
    goto(page, server + "/rules/fullmetal")
    page.wait_for_selector("[data-testid=rules-page]")
    problems += check(page, "rules")
    for game in ("tremble", "worlds", "fullmetal"):
        mid, seat, token = create(server, game, {}, join_seat=0)
        goto(page, seat_url(server, mid, seat, token))
        page.wait_for_selector("[data-testid=match-page]")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            problems.append(f"{game} match page: {width} px wide")
    assert problems == [], "\n".join(problems)
    assert errors_of(page) == []


def test_board_zooms_and_pans_by_touch_gestures(server: str, browser: Browser) -> None:
    """Pinch (two pointers) zooms the board, a one-finger drag pans it when zoomed, a tap still picks a place."""
    page = open_page(browser, PHONE)
    mid, seat, token = create(server, "arena", {"red_seat": 0}, ai={1: "random"}, ai_seconds=0.05)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    box = page.locator("[data-testid=board]").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    scale = """() => { const m = getComputedStyle(document.querySelector('.board-stage')).transform;
      return m === 'none' ? 1 : new DOMMatrix(m).a; }"""
    page.evaluate("""([cx, cy]) => {
      const el = document.querySelector('[data-testid=board]');
      const ev = (type, id, x, y) => el.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: x, clientY: y,
        pointerType: 'touch', isPrimary: id === 1, bubbles: true}));
      ev('pointerdown', 1, cx - 20, cy); ev('pointerdown', 2, cx + 20, cy);
      ev('pointermove', 1, cx - 70, cy); ev('pointermove', 2, cx + 70, cy);
      ev('pointerup', 1, cx - 70, cy); ev('pointerup', 2, cx + 70, cy);
    }""", [cx, cy])
    zoomed = page.evaluate(scale)
    assert zoomed > 2
    before = page.evaluate("getComputedStyle(document.querySelector('.board-stage')).transform")
    page.evaluate("""([cx, cy]) => {
      const el = document.querySelector('[data-testid=board]');
      const ev = (type, x, y) => el.dispatchEvent(new PointerEvent(type, {pointerId: 3, clientX: x, clientY: y,
        pointerType: 'touch', isPrimary: true, bubbles: true}));
      ev('pointerdown', cx, cy); ev('pointermove', cx + 60, cy + 40); ev('pointerup', cx + 60, cy + 40);
    }""", [cx, cy])
    assert page.evaluate("getComputedStyle(document.querySelector('.board-stage')).transform") != before
    page.click("[aria-label='Fit the board']")
    assert page.evaluate(scale) == 1
    tap(page, "a2")
    assert page.locator("[data-testid=board] .cell.is-target").count() > 0
    assert errors_of(page) == []
