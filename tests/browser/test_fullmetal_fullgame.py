"""A complete Full Metal Planète game against the computer in Debian chromium, played only by board gestures and
composer controls (the folded list of every legal action is never used): the match is made from the lobby (the quick
preset: a small generated map), the ship lands by placing it on the board and confirming (FM-7), the deployment is
drafted by picking units from the hold below the board and tapping hexes, a barge loaded by dropping a tank on it
(FM-8), then every turn a few actions are played by selecting a unit (or an item in a hold) and tapping a marked hex,
the frame's menu choosing when one hex offers several actions; the turn ends, the turn-21 decision is sealed and the
ship takes off from the composer (FM-20). The computer's turns are replayed move by move (the first one watched to
the end, the later ones skipped). Screenshots of each main phase at 1400x900 (English) and 390x844 (French) go to
tests/browser/screenshots/ (not committed)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.rng import Rng

from .pages import PHONE, READY_OR_OVER, errors_of, goto, open_page, seat_of, seat_state, shot, show, version

pytestmark = [pytest.mark.browser, pytest.mark.fullgame, pytest.mark.timeout(900)]

#: Actions a turn of this test plays at most before ending it (keeps the game short in wall time).
PER_TURN = 4


# ------------------------------------------------------------------------------------------------ reading
def key(c: list[int]) -> str:
    return f"{c[0]},{c[1]}"


def units(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {u["id"]: u for u in view["units"]}


def cells(view: dict[str, Any], uid: int) -> list[str]:
    u = units(view).get(uid)
    return [key(c) for c in u["cells"]] if u and "carrier" not in u else []


def dest(to: Any) -> str:
    return key(to[0]) if isinstance(to[0], list) else key(to)


def gesture(view: dict[str, Any], a: dict[str, Any]) -> tuple[str, str]:
    """The place to select and the place to tap for a board action (as the renderer maps them)."""
    t = a["type"]
    if t in ("move", "retreat"):
        u = units(view)[a["unit"]]
        last = a["path"][-1] if t == "move" else a["to"]
        return key(u["cells"][0]), key(last[1]) if u["kind"] == "barge" else key(last)
    if t == "load":
        return cells(view, a["carrier"])[0], cells(view, a["item"])[0]
    if t == "enter":
        return cells(view, a["unit"])[0], cells(view, a["ship"])[0]
    if t in ("unload", "exit"):
        item = a["item"] if t == "unload" else a["unit"]
        to = cells(view, a["to"])[0] if isinstance(a["to"], int) else dest(a["to"])
        return f"c:{item}", to
    if t == "transfer":
        return f"c:{a['item']}", f"c:{a['to']}"
    if t == "build":
        return cells(view, a["wl"])[0], key(a["to"])
    if t in ("fire", "capture"):
        target = key(a["target"]) if t == "fire" else cells(view, a["target"])[0]
        return cells(view, a["a"])[0], target
    if t == "capture_ship":
        return cells(view, a["destroyer"])[0], cells(view, a["ship"])[0]
    if t == "assault":
        return cells(view, a["mover"])[0], key(a["path"][-1])
    if t == "repair":
        return cells(view, a["ship"])[0], key(a["pod"])
    raise AssertionError(f"no board gesture for {a}")


def choose(snap: dict[str, Any], rng: Rng, done: int) -> dict[str, Any]:
    """A purposeful choice: retreat, shoot, capture, bring ore home, load ore, unload, then a move; the turn ends
    after PER_TURN actions."""
    legal = [a for a in snap["legal"] if a["type"] != "resign"]
    view = snap["view"]
    by = units(view)
    if view["phase"] == "play" and view["turn"] >= 25:
        offs = [a for a in legal if a["type"] == "take_off"]
        if offs:
            return offs[0]
    ends = [a for a in legal if a["type"] == "end_turn"]
    if done >= PER_TURN and ends:
        return ends[0]

    def of(kind: str, pred: Any = None) -> list[dict[str, Any]]:
        return [a for a in legal if a["type"] == kind and (pred is None or pred(a))]

    ore_in = lambda uid: any(by[c]["kind"] == "ore" for c in by[uid].get("cargo", []))  # noqa: E731
    at = {key(c): u for u in view["units"] if "carrier" not in u and u["kind"] not in ("pontoon", "ore") for c in u["cells"]}
    enemy = lambda cell: cell in at and at[cell]["colour"] >= 0 and at[cell]["colour"] != snap["seat"]  # noqa: E731
    for group in (of("retreat"), of("fire", lambda a: enemy(key(a["target"]))), of("capture"), of("capture_ship"),
                  of("enter", lambda a: ore_in(a["unit"])), of("load", lambda a: by[a["item"]]["kind"] == "ore"),
                  of("exit") if done < 2 and view["turn"] <= 6 else [], of("transfer") if rng.randbelow(4) == 0 else [],
                  of("build"), of("unload", lambda a: not isinstance(a["to"], int))):
        if group:
            return group[rng.randbelow(len(group))]
    moves = of("move")
    if moves and rng.randbelow(6):
        return moves[rng.randbelow(len(moves))]
    return ends[0] if ends else legal[rng.randbelow(len(legal))]


# ------------------------------------------------------------------------------------------------ gestures
def hex_el(page: Page, place: str) -> Any:
    if place.startswith(("c:", "d:")):
        return page.locator(f"[data-testid=tray] [data-place='{place}']")
    return page.locator(f"[data-testid=board] polygon[data-place='{place}']")


def tap(page: Page, place: str) -> None:
    if not place.startswith(("c:", "d:")):
        show(page, place)
    hex_el(page, place).click()


def selected(page: Page) -> str | None:
    return page.evaluate("() => { const e = document.querySelector('[data-testid=match-page] .place.is-selected'); "
                         "return e ? e.getAttribute('data-place') : null; }")


def wait_done(page: Page, before: int) -> None:
    """The action was played (the version moved) — or fail with the refusal shown."""
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'"
        " || document.querySelector('.notice.error')", timeout=30_000)
    err = page.locator(".notice.error")
    if err.count():
        raise AssertionError("refused: " + err.first.inner_text())


def perform(page: Page, snap: dict[str, Any], a: dict[str, Any]) -> None:
    """Play `a` with gestures: a composer control, or select then tap (the menu when a hex offers several)."""
    before = version(page)
    t = a["type"]
    if t == "end_turn":
        page.click("[data-testid=fm-end-turn]")
    elif t == "take_off":
        page.click(f"[data-testid=fm-take-off-{a['ship']}]")
    else:
        view = snap["view"]
        src, to = gesture(view, a)
        owner = next((u for u in view["units"] if "carrier" not in u and src in [key(c) for c in u["cells"]]), None)
        same = {src} | ({key(c) for c in owner["cells"]} if owner else set())  # a barge or a ship: any of its hexes
        sel = selected(page)
        if sel is not None and sel not in same:
            tap(page, sel)  # let go of the unit still selected from the last step
        if sel not in same:
            tap(page, src)
        page.wait_for_selector(f"[data-place='{to}'].is-target")
        tap(page, to)
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'"
            " || document.querySelector('[data-testid=action-menu]') || document.querySelector('.notice.error')", timeout=30_000)
        if page.locator("[data-testid=action-menu]").count():
            items = page.locator("[data-testid=action-menu] [data-action]")
            for i in range(items.count()):
                if json.loads(items.nth(i).get_attribute("data-action") or "null") == a:
                    items.nth(i).click()
                    break
            else:
                raise AssertionError(f"{a} is not in the menu")
    wait_done(page, before)


def wait_turn(page: Page, skip: bool) -> list[int]:
    """Wait until it is the seat's decision again (or the end), clicking 'skip' unless `skip` is false; returns the
    log lengths seen while the computer's moves were shown."""
    seen: list[int] = []
    for _ in range(3000):
        if page.evaluate(READY_OR_OVER):
            return seen
        n = page.locator("[data-testid=move-log] [data-testid=log-entry]").count()
        if not seen or seen[-1] != n:
            seen.append(n)
        if skip and page.locator("[data-testid=skip]").count():
            page.click("[data-testid=skip]")
        page.wait_for_timeout(120)
    raise AssertionError("the seat's turn did not come back")


def phone_shot(phone: Page, url: str, name: str) -> None:
    phone.goto(url)
    phone.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    phone.wait_for_timeout(400)
    shot(phone, name)


# ------------------------------------------------------------------------------------------------ the game
def land(page: Page, phone: Page, url: str, snap: dict[str, Any], rng: Rng) -> None:
    sites = [a for a in snap["legal"] if a["type"] == "land"]
    a = sites[rng.randbelow(len(sites))]
    tap(page, key(a["dome"]))
    page.wait_for_selector("[data-testid=fm-landing-ghost]")
    if page.get_attribute("[data-testid=fm-landing-ghost]", "data-orient") != a["orientation"]:
        page.click(f"[data-testid=fm-orient-{a['orientation']}]")
    ghost = page.locator("[data-testid=fm-landing-ghost]")
    assert ghost.get_attribute("data-dome") == key(a["dome"]) and ghost.get_attribute("data-orient") == a["orientation"]
    shot(page, "fullmetal-2-landing-desktop")
    phone_shot(phone, url, "fullmetal-2-landing-phone")
    before = version(page)
    page.click("[data-testid=fm-land]")
    wait_done(page, before)


def deploy(page: Page, phone: Page, url: str, snap: dict[str, Any], rng: Rng) -> None:
    view = snap["view"]
    me = snap.get("seat", 0)
    ship = next(u for u in view["units"] if u["kind"] == "ship" and u["colour"] == me)
    aboard = [units(view)[i] for i in ship["cargo"]]

    def targets() -> list[str]:
        return list(page.evaluate("() => [...document.querySelectorAll('[data-testid=fm-board] polygon.is-target')]"
                                  ".map((e) => e.getAttribute('data-place'))"))

    def place(u: dict[str, Any]) -> bool:
        tap(page, f"d:{u['id']}")
        got = targets()
        if not got:
            tap(page, f"d:{u['id']}")  # nowhere to go: put it back
            return False
        tap(page, got[rng.randbelow(len(got))])
        if u["kind"] == "barge":
            second = targets()
            if not second:
                return False
            tap(page, second[rng.randbelow(len(second))])
        return True

    placed = 0
    barge = next((u for u in aboard if u["kind"] == "barge"), None)
    if barge and place(barge):
        placed += 1
        tank = next(u for u in aboard if u["kind"] == "tank")
        tap(page, f"d:{tank['id']}")
        special = page.evaluate("() => [...document.querySelectorAll('[data-testid=fm-board] polygon.is-target.target-special')]"
                                ".map((e) => e.getAttribute('data-place'))")
        if special:  # a tank dropped on the barge rides in it
            tap(page, special[0])
            placed += 1
        else:
            tap(page, f"d:{tank['id']}")
    for u in aboard:
        if u["kind"] in ("tank", "crab", "wl", "gt") and placed < 7 and page.locator(f"[data-place='d:{u['id']}']").count():
            placed += place(u)
    page.wait_for_function("() => document.querySelector('[data-testid=fm-deploy-draft]').dataset.count > 0")
    left = [u for u in aboard if u["kind"] == "tank" and page.locator(f"[data-place='d:{u['id']}']").count()]
    if left:
        tap(page, f"d:{left[0]['id']}")  # one unit picked: its hexes are marked in the screenshot
    shot(page, "fullmetal-3-deployment-desktop")
    phone_shot(phone, url, "fullmetal-3-deployment-phone")
    if left:
        tap(page, f"d:{left[0]['id']}")
    page.wait_for_timeout(600)  # the server's check of the draft
    if page.locator("[data-testid=fm-deploy-problem]").count():
        page.click("[data-testid=fm-deploy-clear]")
        page.click("[data-testid=fm-suggest-0]")
    before = version(page)
    page.click("[data-testid=fm-seal-deploy]")
    wait_done(page, before)


def depart(page: Page, phone: Page, url: str, snap: dict[str, Any]) -> None:
    acts = [a for a in snap["legal"] if a["type"] == "decide_departure"]
    for sid in acts[0]["choices"]:
        page.click(f"[data-testid=fm-stay-{sid}]")
    shot(page, "fullmetal-7-departure-desktop")
    phone_shot(phone, url, "fullmetal-7-departure-phone")
    before = version(page)
    page.click("[data-testid=fm-seal-departure]")
    wait_done(page, before)


def test_fullmetal_full_game_by_board_gestures(server: str, browser: Browser) -> None:
    page = open_page(browser)
    phone = open_page(browser, PHONE, lang="fr")
    goto(page, server + "/")
    page.click("[data-testid=game-card-fullmetal]")
    page.click("[data-testid=preset-quick]")
    page.click("[data-testid=level-commander]")
    page.click("[data-testid=more-options] summary")
    page.fill("[data-testid=ai-seconds]", "0.1")
    page.fill("[data-testid=player-name]", "Ann")
    shot(page, "fullmetal-1-lobby-desktop")
    goto(phone, server + "/")
    phone.click("[data-testid=game-card-fullmetal]")
    shot(phone, "fullmetal-1-lobby-phone")
    page.click("[data-testid=create-match]")
    page.wait_for_selector("[data-testid=match-page][data-seat='0']")
    url = page.url
    seat, token = seat_of(page)
    mid = page.get_attribute("[data-testid=match-page]", "data-match")
    assert mid
    rng = Rng.from_seed(21)
    seen = {"play": False, "ai": False, "report": False, "phone_zoom": False}
    done = 0
    last_turn = None
    for _ in range(2000):
        steps = wait_turn(page, skip=seen["ai"])
        if not seen["ai"] and len(steps) >= 4:
            seen["ai"] = True  # a computer turn was shown move by move
        if page.locator("[data-testid=result]").count():
            break
        snap = seat_state(server, mid, seat, token)
        snap["seat"] = seat
        view = snap["view"]
        if view["turn"] != last_turn:
            done, last_turn = 0, view["turn"]
        if view["phase"] == "land":
            land(page, phone, url, snap, rng)
            continue
        if view["phase"] == "deploy":
            deploy(page, phone, url, snap, rng)
            continue
        if view["phase"] == "depart":
            depart(page, phone, url, snap)
            continue
        if not seen["play"]:
            mover = next(a for a in snap["legal"] if a["type"] == "move")
            src, _ = gesture(view, mover)
            tap(page, src)
            page.wait_for_selector("[data-testid=fm-board] polygon.is-target")
            shot(page, "fullmetal-4-play-desktop")
            phone_shot(phone, url, "fullmetal-4-play-phone")
            tap(page, src)
            seen["play"] = True
        if not seen["report"] and page.locator("[data-testid=fm-report]").count():
            shot(page, "fullmetal-6-battle-report-desktop")
            seen["report"] = True
        action = choose(snap, rng, done)
        perform(page, snap, action)
        done = 0 if action["type"] == "end_turn" else done + 1
        if action["type"] == "end_turn" and view["turn"] == 4:
            page.wait_for_selector("[data-testid=skip]", timeout=60_000)
            shot(page, "fullmetal-5-computer-turn-desktop")
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("[data-testid=result]")
    final = seat_state(server, mid, seat, token)
    assert final["match"]["status"] == "finished"
    title = page.inner_text("[data-testid=result-title]")
    assert ("You won" in title) == (seat in final["match"]["outcome"]["winners"])
    assert seen["play"] and seen["ai"]
    # the log: every entry in notation and words, never a deployment as raw JSON
    texts = page.locator("[data-testid=move-log] .log-what").all_inner_texts()
    assert len(texts) == final["version"]
    assert not any(t.startswith("deploy [") or "{" in t for t in texts)
    shot(page, "fullmetal-8-result-desktop")
    phone_shot(phone, url, "fullmetal-8-result-phone")
    assert page.locator("[data-testid=legal-actions][open]").count() == 0  # the fallback list was never opened
    # the replay draws the board at every step (keys ←/→/Home/End)
    page.click("[data-testid=result-replay]")
    page.wait_for_selector("[data-testid=replay-page] [data-testid=fm-board]")
    steps = final["version"]
    page.keyboard.press("Home")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '0 / {steps}'")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.querySelector('[data-testid=replay-step]').textContent === '3 / {steps}'")
    page.wait_for_selector("[data-testid=replay-page] [data-testid=fm-board][data-phase=deploy]")
    page.keyboard.press("End")
    page.wait_for_selector("[data-testid=replay-page] [data-testid=fm-board][data-phase=over]")
    shot(page, "fullmetal-9-replay-desktop")
    assert errors_of(page) == [] and errors_of(phone) == []
