"""The workbench's home page /workbench (issue 25) in Chromium, on a tablet: a designer signed up with a passkey
imports a Full Metal map (.fmp), sees it among their sets, shares it, and finds it listed as a public set by
another visitor; a bad file is refused with its problems and nothing is stored; axe finds no serious violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from spacetable.games.fullmetal.fmp import BUNDLED

from .pages import errors_of, goto
from .test_accessibility import serious
from .test_accounts import authenticator, new_page

pytestmark = pytest.mark.workbench

TABLET = {"width": 820, "height": 1180}


def test_workbench_home_import_share_axe(server: str, browser: Browser, tmp_path: object) -> None:
    site = server.replace("127.0.0.1", "localhost")  # a secure context: passkeys work
    ctx, page = new_page(browser, TABLET)
    authenticator(ctx, page)
    goto(page, site + "/account")
    page.click("[data-testid=mode-signup]")
    page.fill("[data-testid=username]", "Mapmaker")
    page.click("[data-testid=passkey-signup]")
    page.wait_for_selector("[data-testid=signed-in-as]")

    page.click("[data-testid=nav-workbench]")
    page.wait_for_selector("[data-testid=wb-kinds] a")
    assert page.locator("[data-testid=wb-kinds] a").count() >= 4
    assert page.get_attribute("[data-testid='wb-kind-fullmetal/maps']", "href") == "/workbench/map"
    page.wait_for_selector("[data-testid=wb-mine-empty]")

    # a broken map: refused with its problem, nothing stored
    page.set_input_files("[data-testid=wb-import-file]", files=[{"name": "broken.fmp", "mimeType": "text/plain",
                                                                  "buffer": b"<FMP>\r\n<CARTE Lignes=2>\r\n"}])
    page.fill("[data-testid=wb-import-name]", "broken")
    page.click("[data-testid=wb-import-go]")
    page.wait_for_selector("[data-testid=wb-problems] li")
    assert page.locator("[data-testid=wb-mine-empty]").count() == 1

    page.set_input_files("[data-testid=wb-import-file]", files=[{"name": "isle.fmp", "mimeType": "text/plain",
                                                                  "buffer": (BUNDLED / "original.fmp").read_bytes()}])
    page.fill("[data-testid=wb-import-name]", "isle")
    page.click("[data-testid=wb-import-go]")
    page.wait_for_selector("[data-testid=wb-set-isle]")
    page.click("[data-testid=wb-share-isle]")
    page.wait_for_function("document.querySelector('[data-testid=wb-set-isle]').innerText.includes('Public')")
    assert serious(page) == [], "workbench home"
    assert errors_of(page) == []

    other_ctx, other = new_page(browser, TABLET)
    goto(other, site + "/workbench")
    other.wait_for_selector("[data-testid=wb-public] [data-testid=wb-set-isle]")
    assert other.locator("[data-testid=wb-signed-out]").count() == 1
    assert "Mapmaker" in other.inner_text("[data-testid=wb-set-isle]")
    ctx.close()
    other_ctx.close()
