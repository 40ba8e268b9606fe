"""Accounts in Chromium (issue 20): passkey sign-up through Chromium's virtual authenticator and sign-in from a second
browser context; password sign-up whose verification mail reaches a real SMTP server (aiosmtpd) on loopback and
whose link is followed; password reset the same way; a rated match between two accounts played to the end (one
move, then a resignation) with both ratings changed exactly as OpenSkill computes; profile, history, leaderboard,
export, deletion; names with markup shown as text; axe on the account pages."""

from __future__ import annotations

import email
import json
import re
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from openskill.models import PlackettLuce
from playwright.sync_api import Browser, BrowserContext, Page

from ..chromium import require_chromium
from .conftest import _free_port, running_server
from .pages import HTTP, PHONE, errors_of, goto
from .test_accessibility import serious

pytestmark = [pytest.mark.browser, pytest.mark.accounts, pytest.mark.timeout(600)]


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def link(self, to: str, kind: str, seconds: float = 60.0) -> str:
        """The link of the newest ``kind`` mail to ``to`` (waits for it)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for msg in reversed(self.messages):
                if msg["To"] != to:
                    continue
                for part in msg.walk():
                    if part.get_content_type() == "text/plain":
                        payload = part.get_payload(decode=True)
                        assert isinstance(payload, bytes)
                        found = re.search(rf"(http://\S+#account/{kind}/[\w-]+)", payload.decode("utf-8"))
                        if found:
                            return found.group(1)
            time.sleep(0.05)
        raise AssertionError(f"no {kind} mail to {to}")


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    port = _free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]) -> Iterator[str]:
    """The real server with a mail relay, reached as http://localhost (a secure context: passkeys work)."""
    require_chromium()
    db = tmp_path_factory.mktemp("accounts") / "accounts.sqlite3"
    with running_server(db, ["--ai-workers", "0", "--rate-create", "none", "--rate-join", "none", "--rate-act", "none",
                             "--rate-signin", "none", "--rate-signin-account", "none", "--rate-mail", "none",
                             "--smtp-url", f"smtp://127.0.0.1:{inbox[1]}", "--mail-from", "table@example.org"],
                        host="localhost") as base:
        yield base
    # no secret in any log line: no cookie, password or mailed token
    text = Path(db.with_suffix(".log")).read_text(encoding="utf-8", errors="replace")
    assert "correct horse" not in text and "spacetable_session=" not in text and "#account/" not in text


def new_page(browser: Browser, viewport: dict[str, int] | None = None) -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(viewport=viewport or {"width": 1200, "height": 900}, has_touch=viewport == PHONE,
                              accept_downloads=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    # a refused request (the tests make some on purpose) is not a page error
    page.on("console", lambda m: errors.append(f"console: {m.text}")
            if m.type == "error" and "Failed to load resource" not in m.text else None)
    page.errors = errors  # type: ignore[attr-defined]
    return ctx, page


def authenticator(ctx: BrowserContext, page: Page) -> tuple[Any, str]:
    """Chromium's virtual authenticator (CTAP2, resident keys, user verification) on ``page``."""
    cdp = ctx.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return cdp, str(found["authenticatorId"])


def me(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("fetch('/api/account/me').then((r) => r.json())")
    return data


def password_account(browser: Browser, site: str, box: Inbox, name: str) -> tuple[BrowserContext, Page]:
    """A browser signed up with e-mail and password through the page, its mailed link followed."""
    ctx, page = new_page(browser)
    goto(page, site + "/account")
    page.click("[data-testid=mode-signup]")
    page.fill("[data-testid=signup-email]", f"{name}@example.org")
    page.fill("[data-testid=signup-password]", "correct horse battery")
    page.fill("[data-testid=username]", name)
    page.click("[data-testid=password-signup]")
    page.wait_for_selector("[data-testid=check-mail]")
    page.goto(box.link(f"{name}@example.org", "verify"))
    page.wait_for_selector("[data-testid=signed-in-as]")
    return ctx, page


def test_passkey_sign_up_and_sign_in_from_a_second_context(browser: Browser, site: str) -> None:
    ctx, page = new_page(browser)
    cdp, auth = authenticator(ctx, page)
    goto(page, site + "/account")
    assert serious(page) == [], "sign-in page"
    page.click("[data-testid=mode-signup]")
    page.fill("[data-testid=username]", "Nova")
    page.fill("[data-testid=display-name]", "<img src=x onerror=window.pwned=1>Nova")
    page.click("[data-testid=passkey-signup]")
    page.wait_for_selector("[data-testid=signed-in-as]")
    assert me(page)["account"]["passkeys"] == 1
    # the display name is text everywhere it is shown: the top bar and the player page
    assert page.inner_text("[data-testid=account-profile]") == "<img src=x onerror=window.pwned=1>Nova"
    page.click("[data-testid=account-profile]")
    page.wait_for_selector("[data-testid=player-name]")
    assert "<img src=x" in page.inner_text("[data-testid=player-name]")
    assert page.evaluate("window.pwned") is None and page.locator("img[src=x]").count() == 0
    # the cookie: HttpOnly, SameSite=Lax, invisible to scripts
    cookie = next(c for c in ctx.cookies() if c["name"] == "spacetable_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert "spacetable_session" not in page.evaluate("document.cookie")
    # a second browser context with the same passkey (as a synced passkey would be) signs in
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"]
    assert len(creds) == 1 and creds[0]["isResidentCredential"]
    ctx2, page2 = new_page(browser)
    cdp2, auth2 = authenticator(ctx2, page2)
    cdp2.send("WebAuthn.addCredential", {"authenticatorId": auth2, "credential": creds[0]})
    goto(page2, site + "/account")
    page2.click("[data-testid=passkey-signin]")
    page2.wait_for_selector("[data-testid=signed-in-as]")
    assert me(page2)["account"]["username"] == "Nova"
    page2.wait_for_selector("[data-testid=sessions][data-loaded=yes]")  # the list comes after the page is drawn
    assert len(page2.locator("[data-testid=sessions] li").all()) == 2
    assert serious(page2) == [], "settings page"
    # the language chosen in the settings is the page's at once (no reload), and the account keeps it
    page2.select_option("[data-testid=settings-lang]", "nl")
    page2.wait_for_selector("[data-testid=app][data-lang=nl]")
    assert page2.input_value("[data-testid=lang-select]") == "nl"
    assert me(page2)["account"]["lang"] == "nl"
    page2.select_option("[data-testid=settings-lang]", "en")
    page2.wait_for_selector("[data-testid=app][data-lang=en]")
    # sign out everywhere: the first context is signed out too
    page2.click("[data-testid=signout-all]")
    page2.wait_for_selector("[data-testid=account-signin]")
    assert me(page)["account"] is None
    assert errors_of(page) == [] and errors_of(page2) == []
    ctx.close()
    ctx2.close()


def test_password_sign_up_and_reset_by_mail(browser: Browser, site: str, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    ctx, page = password_account(browser, site, box, "orion")
    assert me(page)["account"]["email_verified"]
    page.click("[data-testid=signout]")
    page.wait_for_selector("[data-testid=account-signin]")
    goto(page, site + "/account")
    page.fill("[data-testid=email]", "orion@example.org")
    page.click("[data-testid=forgot]")
    page.wait_for_selector("[data-testid=check-mail]")
    link = box.link("orion@example.org", "reset")
    page.goto(link)
    page.wait_for_selector("[data-testid=new-password]")
    page.fill("[data-testid=new-password]", "a brand new password")
    page.click("[data-testid=reset-submit]")
    page.wait_for_selector("[data-testid=signed-in-as]")
    # the link works once
    ctx2, page2 = new_page(browser)
    page2.goto(link)
    page2.wait_for_selector("[data-testid=new-password]")
    page2.fill("[data-testid=new-password]", "yet another password")
    page2.click("[data-testid=reset-submit]")
    page2.wait_for_selector("[data-testid=link-error]")
    # the new password signs in from another browser; the old one does not
    goto(page2, site + "/account")
    page2.fill("[data-testid=email]", "orion@example.org")
    page2.fill("[data-testid=password]", "correct horse battery")
    page2.click("[data-testid=password-signin]")
    page2.wait_for_selector("[data-testid=error]", timeout=15_000)
    assert me(page2)["account"] is None
    page2.fill("[data-testid=password]", "a brand new password")
    page2.click("[data-testid=password-signin]")
    page2.wait_for_selector("[data-testid=signed-in-as]")
    assert errors_of(page) == []
    ctx.close()
    ctx2.close()


def test_rated_match_profile_history_leaderboard_export_delete(browser: Browser, site: str,
                                                                 inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    ctx_a, a = password_account(browser, site, box, "vega")
    ctx_b, b = password_account(browser, site, box, "lyra")
    # vega invites for a rated match from the lobby
    goto(a, site + "/")
    a.click("[data-testid=game-card-arena]")
    a.click("[data-testid=mode-friend]")
    a.check("[data-testid=rated]")
    a.click("[data-testid=create-match]")
    a.wait_for_selector("[data-testid=match-page][data-seat='0']")
    mid = a.evaluate("location.pathname").split("/")[-1]
    seat_a, token_a = 0, re.search(r"token=([^&]+)", a.evaluate("location.hash")).group(1)  # type: ignore[union-attr]
    # a guest cannot take the other seat of a rated match
    assert HTTP.post(f"{site}/api/matches/{mid}/seats/1/join", json={}).json()["error"]["code"] == "rated_match"
    # lyra joins from the match page as her account
    goto(b, f"{site}/match/{mid}")
    b.click("[data-testid=join-seat-1]")
    b.wait_for_selector("[data-testid=match-page][data-seat='1']")
    # lyra opens it again from another device: her account page lists it and opens her seat
    ctx_c, c = new_page(browser)
    goto(c, site + "/account")
    c.fill("[data-testid=email]", "lyra@example.org")
    c.fill("[data-testid=password]", "correct horse battery")
    c.click("[data-testid=password-signin]")
    c.click(f"[data-testid=resume-{mid}]")
    c.wait_for_selector("[data-testid=match-page][data-seat='1']")
    token_b = re.search(r"token=([^&]+)", c.evaluate("location.hash")).group(1)  # type: ignore[union-attr]
    tokens = {seat_a: token_a, 1: token_b}
    # the seat to act moves (the first legal action), the other resigns from its page: the match is over
    summary = HTTP.get(f"{site}/api/matches/{mid}").json()
    mover = summary["to_act"][0]
    legal = HTTP.get(f"{site}/api/matches/{mid}/legal", params={"seat": mover},
                      headers={"X-Seat-Token": tokens[mover]}).json()
    r = HTTP.post(f"{site}/api/matches/{mid}/actions", json={"seat": mover, "token": tokens[mover],
                                                              "version": summary["version"],
                                                              "action": legal["actions"][0]})
    assert r.status_code == 200, r.text
    resigner = 1 - mover
    page = a if resigner == 0 else c
    page.click("[data-testid=resign]")
    page.click("[data-testid=confirm-yes]")
    page.wait_for_selector("[data-testid=result]")
    # both ratings changed exactly as OpenSkill computes (the winner ranks first)
    model = PlackettLuce()
    teams = model.rate([[model.rating()], [model.rating()]], ranks=[0 if mover == 0 else 1, 0 if mover == 1 else 1])
    names = {0: "vega", 1: "lyra"}
    end = time.monotonic() + 60
    while not HTTP.get(f"{site}/api/players/vega").json()["ratings"] and time.monotonic() < end:
        time.sleep(0.1)
    for seat in (0, 1):
        rating = HTTP.get(f"{site}/api/players/{names[seat]}").json()["ratings"][0]
        assert rating["game"] == "arena" and rating["games"] == 1 and rating["provisional"]
        assert rating["mu"] == pytest.approx(teams[seat][0].mu, abs=1e-3)
        assert rating["sigma"] == pytest.approx(teams[seat][0].sigma, abs=1e-3)
    # vega's page: ratings, statistics, history with filters, replay link, exports
    goto(a, f"{site}/player/vega")
    a.wait_for_selector("[data-testid=history] tbody tr")
    assert "arena" in a.inner_text("[data-testid=ratings]")
    a.wait_for_selector("[data-testid=chart-arena] svg circle")  # the rating-history chart
    assert a.locator("[data-testid=history] tbody tr").count() == 1
    a.select_option("[data-testid=filter-rated]", "false")
    a.wait_for_function("document.querySelectorAll('[data-testid=history] tbody tr').length === 0")
    a.select_option("[data-testid=filter-rated]", "")
    a.wait_for_selector("[data-testid=history] tbody tr")
    assert serious(a) == [], "player page"
    with a.expect_download() as dl:
        a.click("[data-testid=export-csv]")
    assert mid in Path(dl.value.path()).read_text(encoding="utf-8")
    # the leaderboard lists both once provisional ratings are shown
    goto(a, f"{site}/leaderboard/arena")
    a.check("[data-testid=show-provisional]")
    a.wait_for_function("document.querySelectorAll('[data-testid=leaderboard] tbody tr').length === 2")
    assert serious(a) == [], "leaderboard"
    # download all my data, then delete the account
    goto(a, site + "/account")
    with a.expect_download() as dl:
        a.click("[data-testid=export]")
    dump = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    assert dump["account"]["username"] == "vega" and dump["results"][0]["match_id"] == mid
    a.fill("[data-testid=delete-confirm]", "vega")
    a.click("[data-testid=delete]")
    a.wait_for_selector("[data-testid=account-signin]")
    assert HTTP.get(f"{site}/api/players/vega").status_code == 404
    assert HTTP.get(f"{site}/api/matches/{mid}").json()["seats"][0]["name"] == "Deleted player"
    assert HTTP.get(f"{site}/api/players/lyra").json()["ratings"][0]["games"] == 1
    for p in (a, b, c):
        assert errors_of(p) == []
    for x in (ctx_a, ctx_b, ctx_c):
        x.close()


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"])
def test_account_pages_on_a_phone(browser: Browser, site: str, viewport: dict[str, int]) -> None:
    ctx, page = new_page(browser, viewport)
    goto(page, site + "/account")
    page.click("[data-testid=mode-signup]")
    assert serious(page) == [], "sign-up on a phone"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    goto(page, site + "/leaderboard/arena")
    assert serious(page) == [], "leaderboard on a phone"
    ctx.close()
