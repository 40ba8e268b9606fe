"""Finding a table in Chromium between two accounts (issue 21): each sees the other online in the lobby; a challenge
sent from a player's page reaches the other's bell (opened and read by keyboard, axe-clean) and lobby, where it is
accepted; both are seated, each sees the other at the table; after the match a rematch is offered and accepted and
the seats are swapped; an open seek posted in the lobby is taken by the other and both are seated; "Play again"
against the computer; the lobby's challenge form on a phone fits, has 44 px targets and is axe-clean."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .pages import HTTP, create, errors_of, goto, seat_url
from .test_accessibility import serious
from .test_accounts import authenticator, inbox, new_page, site  # noqa: F401  (the accounts' server and helpers)

pytestmark = [pytest.mark.browser, pytest.mark.callback, pytest.mark.timeout(600)]
WAIT = 60_000


def passkey_account(browser: Browser, base: str, name: str) -> tuple[BrowserContext, Page]:
    ctx, page = new_page(browser)
    authenticator(ctx, page)
    goto(page, base + "/account")
    page.click("[data-testid=mode-signup]")
    page.fill("[data-testid=username]", name)
    page.click("[data-testid=passkey-signup]")
    page.wait_for_selector("[data-testid=signed-in-as]")
    return ctx, page


def once_focused(page: Page, predicate: str) -> None:
    """Wait until the JavaScript ``predicate`` holds, the page told every second that it has the focus again: the
    lobby's lists and the table's presence are read again then (as when a player comes back to the tab) instead of
    at their next poll, five and fifteen seconds apart."""
    page.wait_for_function(f"() => {{ window.dispatchEvent(new Event('focus')); return !!({predicate}); }}",
                           timeout=WAIT, polling=1000)


def online(name: str) -> str:
    return f"[...document.querySelectorAll('[data-testid=online-player]')].some((e) => e.textContent.includes('{name}'))"


def shown(selector: str) -> str:
    return f"document.querySelector({selector!r})"


def seat_of(page: Page) -> tuple[str, int, str]:
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes]", timeout=WAIT)
    mid = page.evaluate("location.pathname").split("/")[-1]
    seat = int(page.get_attribute("[data-testid=match-page]", "data-seat") or "-1")
    token = re.search(r"token=([^&]+)", page.evaluate("location.hash"))
    assert token, "the seat link carries its token"
    return mid, seat, token.group(1)


def open_account_match(page: Page, base: str, mid: str) -> None:
    """From the lobby's list of the account's matches (the challenger and the seek's poster are seated there)."""
    goto(page, base + "/")
    page.click(f"[data-testid=account-match][data-match='{mid}'] [data-testid=account-match-open]", timeout=WAIT)
    page.wait_for_selector(f"[data-testid=match-page][data-match='{mid}']", timeout=WAIT)


def finish(base: str, page_of: dict[int, Page], mid: str, tokens: dict[int, str]) -> None:
    """The seat to act moves (its first legal action), the other resigns from its page."""
    summary = HTTP.get(f"{base}/api/matches/{mid}").json()
    mover = summary["to_act"][0]
    legal = HTTP.get(f"{base}/api/matches/{mid}/legal", params={"seat": mover},
                      headers={"X-Seat-Token": tokens[mover]}).json()
    r = HTTP.post(f"{base}/api/matches/{mid}/actions", json={"seat": mover, "token": tokens[mover],
                                                              "version": summary["version"], "action": legal["actions"][0]})
    assert r.status_code == 200, r.text
    page = page_of[1 - mover]
    page.click("[data-testid=resign]", timeout=WAIT)
    page.click("[data-testid=confirm-yes]")
    page.wait_for_selector("[data-testid=result]", timeout=WAIT)


def test_challenge_rematch_seek_between_two_accounts(browser: Browser, site: str) -> None:  # noqa: F811
    ctx_a, a = passkey_account(browser, site, "altair")
    ctx_b, b = passkey_account(browser, site, "bellatrix")
    try:
        # both in the lobby: each sees the other online
        goto(a, site + "/")
        goto(b, site + "/")
        once_focused(a, online("bellatrix"))
        once_focused(b, online("altair"))
        # altair challenges bellatrix from her page (online there too)
        goto(a, site + "/player/bellatrix")
        a.wait_for_selector("[data-testid=player-presence]", timeout=WAIT)
        a.select_option("[data-testid=challenge-game]", "arena")
        a.click("[data-testid=challenge-send]")
        a.wait_for_selector("[data-testid=challenge-send][disabled]")
        # bellatrix: the bell shows it; opened and read by keyboard; axe-clean with the panel open
        b.wait_for_function("""() => { window.dispatchEvent(new Event('focus'));
            return !!document.querySelector('[data-testid=bell-count]'); }""", timeout=WAIT, polling=1000)
        b.focus("[data-testid=bell-button]")
        b.keyboard.press("Enter")
        b.wait_for_selector("[data-testid=bell-panel] li.unread")
        assert serious(b) == [], "lobby with the bell open"
        b.focus("[data-testid=bell-read]")
        b.keyboard.press("Enter")
        b.wait_for_selector("[data-testid=bell-count]", state="detached", timeout=WAIT)
        b.keyboard.press("Escape")
        b.wait_for_selector("[data-testid=bell-panel]", state="detached")
        b.click("[data-testid=bell-button]")  # open again, then a tap elsewhere on the page closes it
        b.wait_for_selector("[data-testid=bell-panel]")
        b.mouse.click(5, b.viewport_size["height"] - 5 if b.viewport_size else 600)
        b.wait_for_selector("[data-testid=bell-panel]", state="detached")
        # ... and her lobby lists it: accepted, she is seated
        once_focused(b, shown("[data-testid=challenge-row] [data-testid=challenge-accept]"))
        b.click("[data-testid=challenge-row] [data-testid=challenge-accept]", timeout=WAIT)
        mid, seat_b, token_b = seat_of(b)
        open_account_match(a, site, mid)
        _, seat_a, token_a = seat_of(a)
        assert {seat_a, seat_b} == {0, 1}
        # each sees the other at the table
        once_focused(a, shown(f"[data-testid=presence-{seat_b}][data-present=yes]"))
        once_focused(b, shown(f"[data-testid=presence-{seat_a}][data-present=yes]"))
        assert serious(a) == [], "match page with presence"
        # the match ends; altair offers a rematch, bellatrix accepts: a new match, the seats swapped
        finish(site, {seat_a: a, seat_b: b}, mid, {seat_a: token_a, seat_b: token_b})
        a.click("[data-testid=rematch-offer]", timeout=WAIT)
        a.wait_for_selector("[data-testid=rematch-waiting]")
        b.click("[data-testid=rematch-accept]", timeout=WAIT)
        b.wait_for_selector(f"[data-testid=match-page]:not([data-match='{mid}'])", timeout=WAIT)
        mid2, seat_b2, _ = seat_of(b)
        assert mid2 != mid and seat_b2 == 1 - seat_b
        a.click("[data-testid=rematch-open]", timeout=WAIT)
        a.wait_for_selector(f"[data-testid=match-page][data-match='{mid2}']", timeout=WAIT)
        _, seat_a2, _ = seat_of(a)
        assert seat_a2 == 1 - seat_a
        # an open seek with a correspondence clock whose lapse lets the other claim the win: altair posts it in the
        # lobby, bellatrix sees it live with its time control and takes it; both are seated, on that clock
        goto(a, site + "/")
        a.click("[data-testid=game-card-arena]")
        a.click("[data-testid=mode-seek]")
        a.select_option("[data-testid=clock-kind]", "days")
        a.fill("[data-testid=clock-days]", "2")
        a.select_option("[data-testid=clock-lapse]", "claim")
        a.click("[data-testid=seek-post]")
        once_focused(a, shown("[data-testid=my-seek]"))
        goto(b, site + "/")
        once_focused(b, shown("[data-testid=seek-row]"))
        listed = b.inner_text("[data-testid=seek-row]").replace("\xa0", " ")
        assert "2 days" in listed and "claim the win" in listed, listed
        b.click("[data-testid=seek-row] [data-testid=seek-accept]", timeout=WAIT)
        mid3, seat_b3, _ = seat_of(b)
        assert mid3 not in (mid, mid2)
        made = HTTP.get(f"{site}/api/matches/{mid3}").json()
        assert made["clock"]["kind"] == "days" and made["turn_seconds"] == 2 * 86400
        a.wait_for_selector("[data-testid=my-seek]", state="detached", timeout=WAIT)
        open_account_match(a, site, mid3)
        _, seat_a3, _ = seat_of(a)
        assert {seat_a3, seat_b3} == {0, 1}
        # against the computer, "Play again" starts a new match at once: same seat, the computer where it was
        mid4, seat4, token4 = create(site, "arena", ai={1: "random"}, ai_seconds=0.05)
        assert seat4 == 0 and token4
        goto(a, seat_url(site, mid4, 0, token4))
        a.wait_for_selector("[data-testid=match-page][data-caught-up=yes]", timeout=WAIT)  # laid out: a click lands
        a.click("[data-testid=resign]", timeout=WAIT)
        a.click("[data-testid=confirm-yes]")
        a.click("[data-testid=result] [data-testid=rematch]", timeout=WAIT)
        a.wait_for_selector(f"[data-testid=match-page]:not([data-match='{mid4}'])", timeout=WAIT)
        mid5, seat5, _ = seat_of(a)
        assert mid5 != mid4 and seat5 == 0
        assert [s["kind"] for s in HTTP.get(f"{site}/api/matches/{mid5}").json()["seats"]] == ["human", "ai"]
        # on a phone: the lobby's challenge form and lists fit 390 px, targets are 44 px high, axe-clean
        a.set_viewport_size({"width": 390, "height": 844})
        goto(a, site + "/")
        a.click("[data-testid=mode-challenge]")
        a.wait_for_selector("[data-testid=challenge-username]")
        assert a.evaluate("document.documentElement.scrollWidth") <= 390
        for testid in ("challenge-create", "mode-seek", "account-match-open"):
            box = a.locator(f"[data-testid={testid}]").first.bounding_box()
            assert box and box["height"] >= 44, testid
        assert serious(a) == [], "lobby, challenge form, on a phone"
        assert errors_of(a) == [] and errors_of(b) == []
    finally:
        ctx_a.close()
        ctx_b.close()
