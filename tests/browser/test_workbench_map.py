"""The Full Metal map editor in Chromium (issue 25): a designer signed in with a passkey paints the original map with
the mouse and the keyboard, spreads ore, sees the map rules' verdict, saves the map as a named set, exports it as
``.fmp``, imports that file again (the same map) and plays it against the computer: the ship lands by a tap on the
board, the computer lands, both deploy, and play begins on the painted map. The page has no serious axe violation;
its screenshot is the designer's guide's picture (docs/img/workbench-map.png, written with SPACETABLE_DOCS_IMG=1)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Page

from spacetable.games.fullmetal.fmp import bundled_map

from .pages import HTTP, READY_OR_OVER, SHOTS, errors_of, goto, seat_of, seat_state, show, version
from .test_accessibility import serious
from .test_accounts import authenticator, new_page

pytestmark = [pytest.mark.browser, pytest.mark.workbench, pytest.mark.timeout(600)]

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img" / "workbench-map.png"


def cell(page: Page, x: int, y: int) -> str:
    return page.get_attribute(f"[data-testid=wbm-svg] polygon[data-cell='{x},{y}']", "data-t") or ""


def centre(page: Page, x: int, y: int) -> tuple[float, float]:
    box = page.locator(f"[data-testid=wbm-svg] polygon[data-cell='{x},{y}']").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def wait_checked(page: Page) -> None:
    """The live check has answered for the map as it is now."""
    page.wait_for_selector("[data-testid=wbm-valid], [data-testid=wbm-problems]")


def blocks(fmp: str) -> str:
    """An ``.fmp`` text without its header line (which carries the time of the export)."""
    return fmp.replace("\r\n", "\n").split("\n", 1)[1]


def export(page: Page) -> tuple[str, Path]:
    with page.expect_download() as got:
        page.click("[data-testid=wbm-export]")
    path = Path(got.value.path())
    return path.read_bytes().decode("cp1252"), path


def picture(page: Page) -> None:
    """The guide's picture: the editor at the top of the page, in 64 colours (a small file). It goes to
    tests/browser/screenshots/ (not committed), or replaces docs/img/workbench-map.png with SPACETABLE_DOCS_IMG=1."""
    page.evaluate("window.scrollTo(0, 0)")
    png = page.screenshot(clip={"x": 0, "y": 48, "width": 1400, "height": 720})
    target = DOCS_IMG if os.environ.get("SPACETABLE_DOCS_IMG") == "1" else SHOTS / DOCS_IMG.name
    target.parent.mkdir(exist_ok=True)
    Image.open(io.BytesIO(png)).convert("P", palette=Image.Palette.ADAPTIVE, colors=64).save(target, optimize=True)


def test_paint_save_export_import_and_play(server: str, browser: Any) -> None:
    site = server.replace("127.0.0.1", "localhost")  # a secure context for the passkey
    ctx, page = new_page(browser, {"width": 1400, "height": 900})
    authenticator(ctx, page)
    goto(page, site + "/account")
    page.click("[data-testid=mode-signup]")
    page.fill("[data-testid=username]", "Cartographer")
    page.click("[data-testid=passkey-signup]")
    page.wait_for_selector("[data-testid=signed-in-as]")

    goto(page, site + "/workbench/map")
    page.wait_for_selector("[data-testid=wbm-valid]")
    assert serious(page) == [], "map editor"
    assert "".join(cell(page, x, 2) for x in range(2, 6)) == bundled_map().terrain[2][2:6] != "####"

    # the mouse paints mountains along row 2 in one stroke (key 5 chose the brush)
    page.focus("[data-testid=wbm-board]")
    page.keyboard.press("5")
    assert page.get_attribute("[data-testid=wbm-brush-mountain]", "aria-checked") == "true"
    page.mouse.move(*centre(page, 2, 2))
    page.mouse.down()
    for x in range(3, 6):
        page.mouse.move(*centre(page, x, 2), steps=4)
    page.mouse.up()
    assert [cell(page, x, 2) for x in range(2, 6)] == ["#"] * 4
    # the keyboard: sea one row lower, undone, then painted again
    page.focus("[data-testid=wbm-board]")
    page.keyboard.press("1")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    assert cell(page, 2, 3) == "."
    page.click("[data-testid=wbm-undo]")
    assert cell(page, 2, 3) == "$"
    page.focus("[data-testid=wbm-board]")
    page.keyboard.press("Space")
    assert cell(page, 2, 3) == "."
    # ore laid as a game lays it, then the verdict of the map rules
    page.click("[data-testid=wbm-spread]")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=wbm-svg] .wbm-ore').length > 60")
    page.wait_for_selector("[data-testid=wbm-valid]")
    ore = int(page.inner_text("[data-testid=wbm-ore-count]"))
    assert ore == page.locator("[data-testid=wbm-svg] .wbm-ore").count()
    # a problem shows its rule, linked to the players' guide
    page.select_option("[data-testid=wbm-players]", "4")
    page.fill("#wbm-distance", "25")
    page.wait_for_selector("[data-testid=wbm-problem-landing_sites]")
    link = page.locator("[data-testid=wbm-problem-landing_sites] [data-testid=wbm-rule-link]")
    assert link.inner_text() == "Rule FM-7.2" and link.get_attribute("href") == "/guide/fullmetal#FM-7.2"
    assert page.is_disabled("[data-testid=wbm-play-computer]")
    assert serious(page) == [], "map editor with a problem"
    page.select_option("[data-testid=wbm-players]", "2")
    page.fill("#wbm-distance", "10")
    page.wait_for_selector("[data-testid=wbm-valid]")
    picture(page)

    # saved as a named set of the workbench
    page.fill("[data-testid=wbm-name]", "painted-original")
    page.click("[data-testid=wbm-save]")
    page.wait_for_selector("[data-testid=wbm-saved]")
    mine = page.evaluate("fetch('/api/workbench/sets').then((r) => r.json())")
    sets = mine["mine"]
    saved = next(s for s in sets if s["name"] == "painted-original")
    assert saved["game"] == "fullmetal" and saved["kind"] == "maps"
    # the set opens again in the editor (the workbench's home links here)
    goto(page, f"{site}/workbench/map?set={saved['id']}")
    page.wait_for_selector("[data-testid=wbm-saved]")
    page.wait_for_selector("[data-testid=wbm-valid]")
    assert [cell(page, x, 2) for x in range(2, 6)] == ["#"] * 4 and cell(page, 2, 3) == "."
    assert page.locator("[data-testid=wbm-svg] .wbm-ore").count() == ore
    # changed and saved again: the same set
    page.focus("[data-testid=wbm-board]")
    page.keyboard.press("2")
    page.keyboard.press("Space")
    assert cell(page, 0, 0) == "*"
    page.wait_for_selector("[data-testid=wbm-valid]")
    with page.expect_response(lambda r: r.request.method == "PUT" and "/api/workbench/sets/" in r.url) as put:
        page.click("[data-testid=wbm-save]")
    assert put.value.status == 200
    mine = page.evaluate("fetch('/api/workbench/sets').then((r) => r.json())")["mine"]
    assert [s["id"] for s in mine if s["name"] == "painted-original"] == [saved["id"]]

    # exported as .fmp: the same map as the saved set's own .fmp
    text, path = export(page)
    assert path.stat().st_size < 128 * 1024
    rows = blocks(text).split("\n")
    assert rows[1][0] == "*" and rows[3][2:6] == "####" and rows[4][2] == "."  # rows[0] is <CARTE ...>
    assert text.split("<REPARTITION")[1].split("\n", 1)[1].count("2") == ore
    from_set = page.evaluate(f"fetch('/api/workbench/sets/{saved['id']}/export?format=fmp').then((r) => r.text())")
    assert blocks(from_set) == blocks(text)

    # an empty map, then the file imported again: the same map, exported the same
    page.select_option("[data-testid=wbm-source]", "empty")
    page.click("[data-testid=wbm-new]")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=wbm-svg] .wbm-ore').length === 0")
    page.set_input_files("[data-testid=wbm-import]", str(path))
    page.wait_for_function("() => document.querySelectorAll('[data-testid=wbm-svg] .wbm-ore').length > 60")
    assert cell(page, 3, 2) == "#"
    again, _ = export(page)
    assert blocks(again) == blocks(text)
    wait_checked(page)
    page.wait_for_selector("[data-testid=wbm-valid]")

    # played against the computer at once
    page.click("[data-testid=wbm-play-computer]")
    page.wait_for_url("**/match/**")
    page.wait_for_function(READY_OR_OVER, timeout=120_000)
    seat, token = seat_of(page)
    mid = page.url.split("/match/")[1].split("#")[0]
    snap = seat_state(site, mid, seat, token)
    view = snap["view"]
    assert "".join(view["terrain"]) == "".join(blocks(text).split("\n")[1:24])
    layer = blocks(text).split("<REPARTITION")[1].split("\n")[1:24]
    placed = {(x, y) for y, row in enumerate(layer) for x, ch in enumerate(row) if ch == "2"}
    on_board = {tuple(u["cells"][0]) for u in view["units"] if u["kind"] == "ore"}
    assert on_board <= placed and len(on_board) > ore - 20  # a landed ship clears the ore around it (FM-7.3)
    land = next(a for a in snap["legal"] if a["type"] == "land")
    dome = f"{land['dome'][0]},{land['dome'][1]}"
    show(page, dome)
    page.locator(f"[data-testid=board] polygon.fm-hex[data-place='{dome}']").click()
    page.wait_for_selector("[data-testid=fm-landing-ghost]")
    if page.get_attribute("[data-testid=fm-landing-ghost]", "data-orient") != land["orientation"]:
        page.click(f"[data-testid=fm-orient-{land['orientation']}]")
    before = version(page)
    page.click("[data-testid=fm-land]")
    page.wait_for_function(f"() => Number(document.querySelector('[data-testid=version]').dataset.version) > {before}")
    # the computer lands too; both deploy (the seat's ready-made formation), and play begins
    page.wait_for_function(READY_OR_OVER, timeout=120_000)
    snap = seat_state(site, mid, seat, token)
    assert sum(1 for u in snap["view"]["units"] if u["kind"] == "ship" and u.get("cells")) == 2
    deploy = next(a for a in snap["legal"] if a["type"] == "deploy")
    r = HTTP.post(f"{site}/api/matches/{mid}/actions",
                   json={"seat": seat, "token": token, "version": snap["version"], "action": deploy})
    assert r.status_code == 200, r.text
    page.wait_for_function(READY_OR_OVER, timeout=180_000)
    snap = seat_state(site, mid, seat, token)
    assert snap["view"]["phase"] == "play" and snap["version"] >= 4, json.dumps(snap["view"]["phase"])
    assert errors_of(page) == []
    ctx.close()
