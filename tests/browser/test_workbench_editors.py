"""The card and scenario editors in Chromium (issue 25): a designer signed up with a passkey changes a Battleship
Galaxies tactic card's cost and a ship's launch cost in the form (values out of range are shown at their fields
first, then fixed), saves the pack as a named set and plays with it: the match opens with the edited cards, the
ship valued at its new cost in the fleet it seals; then a Worlds & Suns scenario's round limit is changed and
played the same way, the board showing it, and a first move made. Both editors are axe-clean."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .pages import OPENED, READY_OR_OVER, errors_of, goto, version, wait_version_change
from .test_accessibility import serious
from .test_accounts import authenticator, new_page
from .test_worlds_fullgame import tap_place

pytestmark = [pytest.mark.browser, pytest.mark.workbench, pytest.mark.timeout(600)]

VALID = "[data-testid=wb-editor][data-valid=yes]"
INVALID = "[data-testid=wb-editor][data-valid=no] [data-testid=check-state][data-state=invalid]"


def fetch_json(page: Page, path: str) -> Any:
    return page.evaluate("(p) => fetch(p).then((r) => r.json())", path)


def set_field(page: Page, testid: str, bad: str, good: str) -> None:
    """A value the schema refuses, shown at its field and blocking save and play; then a good one, accepted."""
    field = page.locator(f"[data-testid='{testid}']")
    field.fill(bad)
    page.wait_for_selector(INVALID, timeout=60_000)
    assert field.get_attribute("aria-invalid") == "true"
    assert page.locator(f"[data-path='{testid.removeprefix('field-')}'] [data-testid=field-problems] li").count() >= 1
    assert page.locator("[data-testid=set-play]").is_disabled()
    field.fill(good)
    page.wait_for_selector(VALID, timeout=60_000)
    assert field.get_attribute("aria-invalid") is None


def play(page: Page) -> dict[str, Any]:
    """"Play with this set": the match page opens, seat 0 mine, the computer on the others; its configuration."""
    page.click("[data-testid=set-play]")
    page.wait_for_url("**/match/**", timeout=120_000)
    page.wait_for_selector("[data-testid=match-page]", timeout=120_000)
    page.wait_for_function(READY_OR_OVER, timeout=120_000)
    mid = page.url.split("/match/")[1].split("#")[0]
    config: dict[str, Any] = fetch_json(page, f"/api/matches/{mid}/config")
    return config


def test_a_galaxies_pack_and_a_worlds_scenario_edited_saved_and_played(server: str, browser: Browser) -> None:
    site = server.replace("127.0.0.1", "localhost")  # a secure context: passkeys work
    ctx, page = new_page(browser)
    OPENED.append(ctx)  # closed after the test, passed or failed
    authenticator(ctx, page)
    goto(page, site + "/account")
    page.click("[data-testid=mode-signup]")
    page.fill("[data-testid=username]", "Shipwright")
    page.click("[data-testid=passkey-signup]")
    page.wait_for_selector("[data-testid=signed-in-as]")

    # Battleship Galaxies: a tactic card's cost (0 to 20) changed
    goto(page, site + "/workbench/galaxies/packs")
    page.wait_for_selector(VALID, timeout=60_000)
    page.locator("[data-testid='card-tactics.0'] summary").click()
    cost = page.locator("[data-testid='field-tactics.0.cost']")
    assert cost.input_value() == "3"
    set_field(page, "field-tactics.0.cost", "25", "7")
    # and a ship's launch cost, in its versions (a mapping the form edits as JSON): a negative cost is named at it
    page.locator("[data-testid='card-ships.0'] summary").click()
    versions = page.locator("[data-path='ships.0.versions'] textarea")
    doc = json.loads(versions.input_value())
    assert doc["standard"]["launch_cost"] == 18
    doc["standard"]["launch_cost"] = -1
    versions.fill(json.dumps(doc))
    page.wait_for_selector(INVALID, timeout=60_000)
    assert versions.get_attribute("aria-invalid") == "true"
    assert "standard.launch_cost" in page.inner_text("[data-path='ships.0.versions'] [data-testid=field-problems]")
    doc["standard"]["launch_cost"] = 16
    versions.fill(json.dumps(doc))
    page.wait_for_selector(VALID, timeout=60_000)
    assert versions.get_attribute("aria-invalid") is None
    assert serious(page) == [], "galaxies pack editor"

    # saved as a named set: listed among the designer's sets with the edited cost
    page.fill("[data-testid=set-name]", "vale-costs-7")
    page.click("[data-testid=set-save]")
    page.wait_for_selector("[data-testid=saved-as]", timeout=60_000)
    sets = fetch_json(page, "/api/workbench/sets?game=galaxies&kind=packs")
    mine = [s for s in (sets if isinstance(sets, list) else sets["mine"]) if s["name"] == "vale-costs-7"]
    assert len(mine) == 1
    stored = fetch_json(page, f"/api/workbench/sets/{mine[0]['id']}")
    assert stored["content"]["tactics"][0]["cost"] == 7
    assert stored["content"]["ships"][0]["versions"]["standard"]["launch_cost"] == 16
    page.wait_for_selector(f"[data-testid=start-from] option[value='set:{mine[0]['id']}']", state="attached")

    config = play(page)
    assert config["pack_content"]["tactics"][0]["id"] == "isn-cmdr-vale"
    assert config["pack_content"]["tactics"][0]["cost"] == 7
    assert config["pack_content"]["ships"][0]["versions"]["standard"]["launch_cost"] == 16
    # the board's fleet building (the skirmish mission, BG-4.4) values the Everest at its edited cost; a first
    # move: the fleet of that one ship sealed
    page.check("[data-testid=gx-fleet-everest]")
    assert page.inner_text("[data-testid=gx-fleet-total]").startswith("Fleet value 16 of")
    before = version(page)
    page.click("[data-testid=gx-seal-fleet]")
    wait_version_change(page, before)

    # Worlds & Suns: the scenario's round limit (1 to 100) changed and played
    goto(page, site + "/workbench/worlds/scenarios")
    page.wait_for_selector(VALID, timeout=60_000)
    set_field(page, "field-max_rounds", "0", "4")
    assert serious(page) == [], "worlds scenario editor"
    config = play(page)
    assert config["scenario_json"]["max_rounds"] == 4
    # the board shows the edited limit, and a first move is played on it: red attacks the contested World
    page.wait_for_selector("[data-testid=worlds-board]")
    assert "Round 1 of 4" in page.inner_text("[data-testid=worlds-round]")
    tap_place(page, "card:M.w1")
    page.wait_for_selector("[data-testid=board] [data-place='attack:M.w1']")
    before = version(page)
    tap_place(page, "attack:M.w1")
    wait_version_change(page, before)
    assert errors_of(page) == []
