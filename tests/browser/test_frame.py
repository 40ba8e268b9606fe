"""The match frame every game plays in (spacetable/web/static/app/), on the arena: refusals explained at once with
the rule's link, a clear page for a wrong match or seat link, resign and leave with confirmation, the share dialog,
take-back, the secret layout drafted on the board and sealed in the composer (AR-2.7), reviews of a running match
from the seat's own view, the rules page and its anchors."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .pages import (
    HTTP,
    PHONE,
    READY_OR_OVER,
    create,
    errors_of,
    goto,
    open_page,
    seat_state,
    seat_url,
    shot,
    tap,
    version,
    wait_synced,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_a_refused_tap_is_explained_with_the_rules_link(server: str, browser: Browser) -> None:
    """Tapping a cell a selected ship cannot reach asks the server why: the refusal is shown at once, in the
    interface language, with the rule id linking to its statement (a ship with 1 cannon cannot take 2 shields)."""
    mid, seat, token = create(server, "arena", {"red_seat": 0, "position": "6x4 112b3,111a1 122b4,111d6 r 0 -"},
                              ai={1: "random"})
    page = open_page(browser, lang="fr")
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    tap(page, "b3")  # red 112 (1 cannon) next to blue 122 (2 shields)
    assert page.locator("[data-testid=board] .cell.is-target").count() > 0
    tap(page, "b4")
    notice = page.locator("[data-testid=error]")
    notice.wait_for()
    assert "bouclier" in notice.inner_text()  # French, plain words
    link = notice.locator("[data-testid=rule-link]")
    assert "AR-5" in link.inner_text() and link.get_attribute("href").startswith("/rules/arena#AR-5")
    assert version(page) == 0  # nothing was played
    # the rule link opens the rules page on that rule, highlighted
    rules = open_page(browser)
    goto(rules, server + link.get_attribute("href"))
    rules.wait_for_selector("[data-testid=rules-page] .rule-target")
    assert errors_of(page) == [] and errors_of(rules) == []


@pytest.mark.parametrize("viewport", [None, PHONE])
def test_wrong_links_show_a_clear_page(server: str, browser: Browser, viewport: dict[str, int] | None) -> None:
    page = open_page(browser, viewport)
    goto(page, f"{server}/match/doesnotexist")
    page.wait_for_selector("[data-testid=gone][data-code=not_found]")
    mid, seat, _token = create(server, "arena", {"red_seat": 0}, ai={1: "random"})
    goto(page, f"{server}/match/{mid}#seat={seat}&token=wrong")
    page.wait_for_selector("[data-testid=gone][data-code=bad_token]")
    page.click("[data-testid=gone-watch]")
    page.wait_for_selector("[data-testid=match-page][data-seat=spectator]")
    goto(page, f"{server}/replay/doesnotexist")
    page.wait_for_selector("[data-testid=gone]")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert [e for e in errors_of(page) if "404" not in e and "403" not in e] == []


def test_resign_leave_share_and_take_back(server: str, browser: Browser) -> None:
    mid, seat, token = create(server, "arena", {"red_seat": 0}, ai={1: "random"})
    page = open_page(browser)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    # share: the seat link and the spectators' link, behind one button
    page.click("[data-testid=share]")
    page.wait_for_selector("[data-testid=share-dialog][open]")  # shown as a modal once the frame has painted
    assert f"#seat={seat}&token=" in page.input_value("[data-testid=seat-link]")
    assert page.input_value("[data-testid=watch-link]").endswith(f"/match/{mid}")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=share-dialog]:not([open])", state="attached")
    # take back a move and the computer's reply
    tap(page, "a2")
    tap(page, "a3")
    wait_synced(page, 2)
    page.click("[data-testid=undo]")
    wait_synced(page, 0)
    assert page.locator("[data-testid=move-log] [data-testid=log-entry]").count() == 0
    # resign asks first; "keep playing" changes nothing
    page.click("[data-testid=resign]")
    page.click("[data-testid=confirm-no]")
    assert version(page) == 0 and HTTP.get(f"{server}/api/matches/{mid}").json()["status"] == "running"
    page.click("[data-testid=resign]")
    page.click("[data-testid=confirm-yes]")
    page.wait_for_selector("[data-testid=result]")
    assert "won" in page.inner_text("[data-testid=result-title]")
    assert HTTP.get(f"{server}/api/matches/{mid}").json()["outcome"]["kind"] == "resignation"
    # leave asks first too
    mid2, seat2, token2 = create(server, "arena", {"red_seat": 0}, join_seat=0)
    goto(page, seat_url(server, mid2, seat2, token2))
    page.wait_for_selector("[data-testid=waiting-card]")
    assert page.input_value("[data-testid=invite-link]").endswith(f"/match/{mid2}")
    page.click("[data-testid=leave-seat]")
    page.click("[data-testid=confirm-no]")
    assert HTTP.get(f"{server}/api/matches/{mid2}").json()["seats"][0]["kind"] == "human"
    page.click("[data-testid=leave-seat]")
    page.click("[data-testid=confirm-yes]")
    page.wait_for_selector("[data-testid=match-page][data-seat=spectator]")
    assert HTTP.get(f"{server}/api/matches/{mid2}").json()["seats"][0]["kind"] == "open"
    assert errors_of(page) == []


def test_resign_while_the_opponent_is_to_move(server: str, browser: Browser) -> None:
    """Resign is a move of any time (out of turn, SRV-A5): the waiting seat resigns from the frame."""
    mid, seat, token = create(server, "arena", {"red_seat": 0}, join_seat=1)
    HTTP.post(f"{server}/api/matches/{mid}/seats/0/join", json={"name": "Alice"}).raise_for_status()
    page = open_page(browser)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_selector("[data-testid=turn-indicator][data-my-turn=no]")
    assert page.locator("[data-testid=resign]").is_enabled()
    page.click("[data-testid=resign]")
    page.click("[data-testid=confirm-yes]")
    page.wait_for_selector("[data-testid=result]")
    outcome = HTTP.get(f"{server}/api/matches/{mid}").json()["outcome"]
    assert outcome["kind"] == "resignation" and outcome["winners"] == [0]
    assert errors_of(page) == []


def test_secret_layout_is_drafted_on_the_board_and_reviewed_from_the_own_seat(server: str, browser: Browser) -> None:
    """AR-2.7 simultaneous placement: pick ships in the tray, drop them on home cells, move one again, seal in the
    composer. The other seat sees only that a decision was sealed; the review of the running match shows the own
    layout to its author only."""
    mid, seat, token = create(server, "arena", {"red_seat": 0, "setup": "free", "placement": "simultaneous"}, join_seat=0)
    other = HTTP.post(f"{server}/api/matches/{mid}/seats/1/join", json={"name": "Bob"}).json()["token"]
    page = open_page(browser)
    goto(page, seat_url(server, mid, seat, token))
    page.wait_for_function(READY_OR_OVER)
    assert page.locator("[data-testid=arena-seal]").is_disabled()
    cells = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"]
    codes = ["112", "111", "122", "121", "211", "222", "221", "212"]
    for code, cell in zip(codes, cells, strict=True):
        tap(page, "tray:" + code)
        page.locator(f"[data-testid=board] .cell[data-place={cell}]").click()
    page.locator("[data-testid=board] .ship.draft[data-place=a1]").click()  # pick 112 up again ...
    page.locator("[data-testid=board] .ship.draft[data-place=b1]").click()  # ... put it on the corvette's cell ...
    assert page.inner_text("[data-testid=arena-draft-count]").startswith("7")
    page.locator("[data-testid=board] .cell[data-place=a1]").click()  # ... and the corvette, now in hand, on a1
    assert page.inner_text("[data-testid=arena-draft-count]").startswith("8")
    shot(page, "arena-sealed-layout-desktop")
    page.click("[data-testid=arena-seal]")
    wait_synced(page, 1)
    own = seat_state(server, mid, 0, token)["view"]["placement"]["own"]
    assert own["b1"] == "112" and own["a1"] == "111"
    bob = open_page(browser)
    goto(bob, seat_url(server, mid, 1, other))
    bob.wait_for_selector("[data-testid=log-entry]")
    entry = bob.inner_text("[data-testid=log-entry]")
    assert "sealed" in entry and "b1" not in entry
    # review of the running match from each seat's own view
    page.click("[data-testid=review]")
    page.wait_for_selector("[data-testid=replay-page]")
    page.wait_for_selector("[data-testid=board] .ship.sealed")
    bob.click("[data-testid=review]")
    bob.wait_for_selector("[data-testid=replay-page]")
    bob.wait_for_selector("[data-testid=replay-step]")
    assert bob.locator("[data-testid=board] .ship").count() == 0
    assert "b1" not in bob.inner_text("[data-testid=move-log]")
    assert errors_of(page) == [] and errors_of(bob) == []


def test_moves_arrive_one_by_one_and_can_be_skipped(server: str, browser: Browser) -> None:
    """A spectator sees the moves of a game one after the other, each highlighted, and can skip to the latest."""
    mid, _, _ = create(server, "arena", {"red_seat": 0}, ai={0: "alphabeta", 1: "alphabeta"}, join_seat=None, ai_seconds=0.25)
    page = open_page(browser)
    goto(page, f"{server}/match/{mid}")
    page.wait_for_selector("[data-testid=match-page][data-seat=spectator]")
    page.wait_for_selector("[data-testid=skip]", timeout=60_000)
    page.wait_for_selector("[data-testid=board] .is-last")  # the move being shown is highlighted
    before = page.locator("[data-testid=log-entry]").count()
    page.click("[data-testid=skip]")
    assert page.locator("[data-testid=log-entry]").count() > before
    assert errors_of(page) == []


def test_rules_link_opens_the_players_guide_at_the_rule(server: str, browser: Browser) -> None:
    page = open_page(browser, PHONE)
    goto(page, f"{server}/rules/arena#AR-3.2")
    # the players' guide, at the section that explains AR-3.2 (your turn), highlighted
    page.wait_for_selector("[data-testid=rules-page] .guide-section.rule-target[data-section=turn]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert errors_of(page) == []
