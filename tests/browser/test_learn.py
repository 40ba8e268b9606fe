"""Learning in the browser (issue "Learn every game"): every tutorial completed by clicks, in English and in one
other language; a refusal's rule opens the players' guide at that rule, in French; the guide page and the rules
drawer; no serious or critical axe violation on the guide and tutorial pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .pages import HTTP, PHONE, READY_OR_OVER, errors_of, goto, open_page, seat_url, tap
from .test_accessibility import serious
from .test_layout import check

pytestmark = [pytest.mark.browser, pytest.mark.learn, pytest.mark.timeout(600)]

#: Every tutorial, in English and in one other language each.
TUTORIALS = [("arena", "en"), ("arena", "fr"), ("worlds", "en"), ("worlds", "nl"), ("tremble", "en"),
             ("tremble", "ru"), ("fullmetal", "en"), ("fullmetal", "fr"),
             ("galaxies", "en"), ("galaxies", "nl")]


def create(server: str, game: str, config: dict[str, Any], ai: dict[int, str]) -> tuple[str, int, str]:
    """A match with seat 0 taken (a generous timeout: the machine may be busy)."""
    r = HTTP.post(f"{server}/api/matches", json={"game": game, "config": config, "ai_seats": {str(k): v for k, v in ai.items()},
                                                  "ai_seconds": 0.1, "join_seat": 0, "player_name": "Tester"}, timeout=120)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["match"]["id"], data["seat"], data["token"]


def run_tutorial(page: Page, server: str, game: str) -> None:
    """Start the tutorial and follow it by clicks: Next on reading steps, the highlighted places in order on acting
    steps (after one wrong action on the first acting step, which must be refused with the step's explanation),
    until the hand-over to a real game against the easy computer."""
    goto(page, f"{server}/tutorial/{game}")
    page.click("[data-testid=tutorial-start]")
    panel = page.locator("[data-testid=tutorial-panel]")
    panel.wait_for()
    wrong_tried = False
    seen: list[str] = []
    for _ in range(80):
        page.wait_for_function("""() => { const p = document.querySelector('[data-testid=tutorial-panel]');
            return p && p.dataset.kind !== 'opponent'; }""", timeout=60_000)
        kind = panel.get_attribute("data-kind")
        step = panel.get_attribute("data-step") or ""
        seen.append(step)
        assert panel.locator("[data-testid=tutorial-text]").inner_text().strip() not in ("", step)
        if kind == "final":
            break
        if kind == "info":
            panel.locator("[data-testid=tutorial-next]").click()
        else:
            page.wait_for_selector("[data-testid=match-page][data-caught-up=yes] [data-testid=turn-indicator][data-my-turn=yes]",
                                   timeout=60_000)
            targets = json.loads(panel.get_attribute("data-highlight") or "[]")
            assert targets, step
            if not wrong_tried:
                wrong_tried = True
                wrong_move(page, game)
                panel.locator("[data-testid=tutorial-wrong]").wait_for()
                assert panel.get_attribute("data-step") == step  # nothing was played
            for sel in targets:
                loc = page.locator(sel).first
                loc.wait_for()
                page.wait_for_function(
                    "(s) => document.querySelector(s) && document.querySelector(s).classList.contains('tutorial-target')",
                    arg=sel)
                loc.click()
                if game == "arena" and "teleport-" in sel and "teleport-go" not in sel:
                    # a teleport tile under the board: the first tap only shows the ships it moves (they glow on
                    # the board), the Teleport button (the next highlight) plays it
                    page.wait_for_selector("[data-testid=board] .ship.hover")
                    assert loc.get_attribute("aria-pressed") == "true"
                    assert panel.get_attribute("data-step") == step
        page.wait_for_function("([s, n]) => document.querySelector('[data-testid=tutorial-panel]').dataset.step !== s",
                               arg=[step, ""], timeout=60_000)
    else:
        raise AssertionError(f"the tutorial did not end: {seen}")
    assert wrong_tried
    assert page.evaluate(f"JSON.parse(localStorage.getItem('spacetable.tutorials'))['{game}'].done") is True
    page.click("[data-testid=tutorial-handover]")
    page.wait_for_url("**/match/**", timeout=60_000)
    page.wait_for_selector("[data-testid=match-page][data-seat='0']")
    assert page.locator("[data-testid=tutorial-panel]").count() == 0
    page.wait_for_function(READY_OR_OVER, timeout=60_000)


def wrong_move(page: Page, game: str) -> None:
    """A legal move that the current step does not ask for."""
    if game == "arena":
        tap(page, "d2")
        tap(page, "d3")
    elif game == "worlds":
        page.click("[data-testid=worlds-end-turn]")
    elif game == "fullmetal":
        page.locator("[data-testid=board] polygon[data-place='21,12']").click()  # a legal site, not the one asked
        page.click("[data-testid=fm-land]")
    elif game == "galaxies":
        page.locator("[data-testid^='gx-end-end_deploy']").click()
    elif game == "tremble":
        page.click("[data-testid=composer] [data-testid=tremble-confirm-buy]")  # buying nothing
    else:
        raise AssertionError(game)


@pytest.mark.parametrize(("game", "lang"), TUTORIALS)
def test_tutorial_completed_by_clicks(server: str, browser: Browser, game: str, lang: str) -> None:
    page = open_page(browser, lang=lang)
    run_tutorial(page, server, game)
    assert errors_of(page) == []


def test_refused_rule_opens_the_french_player_text(server: str, browser: Browser) -> None:
    """A ship with 1 cannon cannot take 2 shields: the refusal names AR-5.x, and its link opens the rules drawer at
    the guide's section on capturing, in French; the guide page opens at the same section from the link."""
    mid, seat, token = create(server, "arena", {"red_seat": 0, "position": "6x4 112b3,111a1 122b4,111d6 r 0 -"},
                              ai={1: "random"})
    page = open_page(browser, lang="fr")
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    tap(page, "b3")
    tap(page, "b4")
    link = page.locator("[data-testid=error] [data-testid=rule-link]")
    link.wait_for()
    assert "AR-5" in link.inner_text()
    href = link.get_attribute("href") or ""
    link.click()
    drawer = page.locator("[data-testid=rules-drawer]")
    drawer.wait_for()
    assert drawer.get_attribute("data-at") == "capture"
    target = drawer.locator(".guide-section.rule-target")
    assert target.get_attribute("data-section") == "capture"
    assert "Capturer" in target.inner_text() and "boucliers" in target.inner_text()
    page.click("[data-testid=rules-drawer-close]")
    # the rules button opens the drawer at the section of the current phase (playing: "your turn")
    page.click("[data-testid=rules-drawer-open]")
    assert drawer.get_attribute("data-at") == "turn"
    # the same link as a page: the players' guide, not the developers' document
    other = open_page(browser, lang="fr")
    goto(other, server + href)
    other.wait_for_selector("[data-testid=rules-page] .guide-section.rule-target[data-section=capture]")
    assert "Le but du jeu" in other.inner_text("[data-testid=rules-page]")
    assert "pytest" not in other.inner_text("body")
    assert errors_of(page) == [] and errors_of(other) == []


def test_guide_pages_draw_diagrams_and_pass_axe(server: str, browser: Browser) -> None:
    page = open_page(browser, lang="nl")
    goto(page, f"{server}/")
    link = page.locator("[data-testid=rules-link-arena]")
    assert link.get_attribute("href") == "/guide/arena"
    assert page.locator("[data-testid=learn-link-arena]").get_attribute("href") == "/tutorial/arena"
    goto(page, f"{server}/guide/arena")
    page.wait_for_selector("[data-testid=rules-page][data-guide=arena]")
    page.wait_for_selector("[data-testid=guide-diagram-move] svg")
    assert page.locator("[data-testid=house-tag]").count() >= 1
    assert "Het doel" in page.inner_text("[data-testid=rules-page]")
    assert serious(page) == [], "guide"
    goto(page, f"{server}/tutorial/arena")
    page.wait_for_selector("[data-testid=tutorial-intro]")
    assert serious(page) == [], "tutorial intro"
    page.click("[data-testid=tutorial-start]")
    page.wait_for_selector("[data-testid=tutorial-panel]")
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    assert serious(page) == [], "tutorial"
    assert errors_of(page) == []


def test_tutorial_progress_is_remembered(server: str, browser: Browser) -> None:
    """Leaving a tutorial halfway and coming back offers to continue at the same step: the scripted game is replayed
    to that point on a fresh match and the lesson goes on from there."""
    page = open_page(browser, lang="ru")
    goto(page, f"{server}/tutorial/arena")
    page.click("[data-testid=tutorial-start]")
    panel = page.locator("[data-testid=tutorial-panel]")
    panel.locator("[data-testid=tutorial-next]").click()  # welcome
    panel.locator("[data-testid=tutorial-next]").click()  # the ships
    page.wait_for_selector("[data-testid=tutorial-panel][data-step=move]")
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes] [data-testid=turn-indicator][data-my-turn=yes]")
    tap(page, "a2")
    tap(page, "a3")
    page.wait_for_selector("[data-testid=tutorial-panel][data-step=capture]", timeout=60_000)
    first_match = page.get_attribute("[data-testid=match-page]", "data-match")
    goto(page, f"{server}/")
    goto(page, f"{server}/tutorial/arena")
    page.click("[data-testid=tutorial-resume]")
    page.wait_for_selector("[data-testid=tutorial-panel][data-step=capture]")
    assert page.get_attribute("[data-testid=match-page]", "data-match") != first_match
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes] [data-testid=turn-indicator][data-my-turn=yes]")
    assert page.get_attribute("[data-testid=version]", "data-version") == "2"  # the two scripted plies replayed
    assert "можно захватить" in panel.inner_text()
    goto(page, f"{server}/guide/arena")  # the guide page says how far the tutorial got
    line = page.locator("[data-testid=tutorial-progress-line]")
    line.wait_for()
    assert line.get_attribute("data-done") == "no" and line.get_attribute("data-step") == "3"
    assert "4" in line.inner_text()
    assert errors_of(page) == []


@pytest.mark.parametrize("game", ["fullmetal", "galaxies", "tremble", "worlds"])
def test_every_guide_page_draws_and_passes_axe(server: str, browser: Browser, game: str) -> None:
    page = open_page(browser, lang="ru")
    goto(page, f"{server}/guide/{game}")
    page.wait_for_selector(f"[data-testid=rules-page][data-guide={game}]")
    page.wait_for_selector("[data-testid^=guide-diagram-] svg", timeout=60_000)
    assert serious(page) == [], game
    assert errors_of(page) == []


def test_a_games_own_rules_link_opens_the_drawer(server: str, browser: Browser) -> None:
    """Links to the rules inside a game's own panels (Worlds & Suns' "about this skirmish") open the drawer in place,
    at the section of the current phase, in the player's language."""
    mid, seat, token = create(server, "worlds", {"scenario": "s1-example"}, ai={1: "random"})
    page = open_page(browser, lang="nl")
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    page.click("[data-testid=worlds-about] summary")
    page.click("[data-testid=worlds-about] a[href='/rules/worlds']")
    drawer = page.locator("[data-testid=rules-drawer]")
    drawer.wait_for()
    assert drawer.get_attribute("data-at") == "turn"  # declaring combats
    assert "Jouw beurt" in drawer.inner_text()
    assert len(page.context.pages) == 1  # no new tab
    assert errors_of(page) == []


def test_guides_and_tutorial_fit_a_phone(server: str, browser: Browser) -> None:
    """On a 390 px phone, in Russian (long words), every guide and a tutorial in progress fit without sideways
    scrolling, with finger-sized targets and no serious axe violation."""
    page = open_page(browser, PHONE, lang="ru")
    problems: list[str] = []
    for game in ("arena", "fullmetal", "galaxies", "tremble", "worlds"):
        goto(page, f"{server}/guide/{game}")
        page.wait_for_selector(f"[data-testid=rules-page][data-guide={game}]")
        problems += check(page, f"guide {game}")
    goto(page, f"{server}/tutorial/arena")
    page.click("[data-testid=tutorial-start]")
    page.wait_for_selector("[data-testid=tutorial-panel]")
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    problems += check(page, "tutorial")
    assert problems == []
    assert serious(page) == [], "tutorial on a phone"
    assert errors_of(page) == []
