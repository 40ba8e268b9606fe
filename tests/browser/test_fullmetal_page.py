"""The Full Metal Planète match page, gesture by gesture, on a position built through the API (two people, so nothing
moves by itself): the ships land ten hexes apart and three tanks are deployed within range of the opponent's crab
(FM-7, FM-8). Then, on the board: a tap on a hex shows what stands there; a tap a selected tank cannot reach is
refused at once in plain words with the rule's link (FM-10.1); a tap in the middle of the crab's hex (on its disc)
fires, the menu asking which partner shoots with the tank (FM-16.1), and the battle report names what was destroyed;
a tank leaves the ship from its hold below the board and enters it again, dragged onto the ship (FM-12.2, FM-12.3);
a tank moves into the crab aboard and back into the ship from the holds (FM-12.4).
Also: the axe accessibility check at every phase (desktop and phone), no console error, texts in French, the fire
zones on demand, the log's deployment in notation, the phone opening on the player's ship with hexes big enough to
tap, and the renderer's geometry against the engine's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from spacetable.games.fullmetal.terrain import PLAIN, get_board

from .pages import HTTP, PHONE, errors_of, goto, open_page, seat_url, show, wait_synced
from .test_accessibility import serious

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CONFIG = {"map": "generated", "map_size": "small"}


def key(c: list[int]) -> str:
    return f"{c[0]},{c[1]}"


class Match:
    """A two-person match driven through the API (seat 1's moves, and seat 0's before the page takes over)."""

    def __init__(self, server: str, seed: int) -> None:
        r = HTTP.post(f"{server}/api/matches", json={"game": "fullmetal", "config": CONFIG, "join_seat": 0, "player_name": "Ann",
                                                      "seed": seed, "open_seed": True})
        assert r.status_code == 201, r.text
        self.server, self.id = server, r.json()["match"]["id"]
        self.tokens = {0: r.json()["token"]}
        j = HTTP.post(f"{server}/api/matches/{self.id}/seats/1/join", json={"name": "Bob"})
        self.tokens[1] = j.json()["token"]

    def state(self, seat: int = 0) -> dict[str, Any]:
        r = HTTP.get(f"{self.server}/api/matches/{self.id}/state", params={"seat": seat},
                      headers={"X-Seat-Token": self.tokens[seat]})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def act(self, seat: int, action: dict[str, Any]) -> None:
        v = self.state(seat)["version"]
        r = HTTP.post(f"{self.server}/api/matches/{self.id}/actions",
                       json={"seat": seat, "token": self.tokens[seat], "version": v, "action": action})
        assert r.status_code == 200, r.text

    def url(self, seat: int = 0) -> str:
        return seat_url(self.server, self.id, seat, self.tokens[seat])


def at(board: Any, c: list[int]) -> int:
    return int(board.index(c[0], c[1]))


def xy(board: Any, i: int) -> list[int]:
    return list(board.xy(i))


def contact(server: str) -> tuple[Match, dict[str, Any]]:
    """Land both ships 10 hexes apart and deploy seat 1's crab 4 hexes from its dome and three of seat 0's tanks within
    2 of it (FM-4: a tank fires 2 hexes), a fourth tank staying aboard; seat 0 then plays turn 3."""
    for seed in range(1, 40):
        m = Match(server, seed)
        first = m.state(0)["to_act"][0]
        snap = m.state(first)
        view = snap["view"]
        board = get_board(view["width"], view["height"], "".join(view["terrain"]))
        sites = [a for a in snap["legal"] if a["type"] == "land"]
        a = sites[len(sites) // 2]
        m.act(first, a)
        other = 1 - first
        mine = at(board, a["dome"])
        second = [b for b in m.state(other)["legal"] if b["type"] == "land" and board.dist(at(board, b["dome"]), mine) == 10]
        if not second:
            continue
        b = second[0]
        m.act(other, b)
        dome = {first: at(board, a["dome"]), other: at(board, b["dome"])}
        ships = {u["colour"]: u for u in m.state(0)["view"]["units"] if u["kind"] == "ship"}
        taken = {at(board, c) for s in ships.values() for c in s["cells"]}
        free = [c for c in board.cells if board.terrain[c] == PLAIN and c not in taken]
        crab_cells = [c for c in free if board.dist(c, dome[1]) == 4 and board.dist(c, dome[0]) == 6]
        for crab_at in crab_cells:
            near = [c for c in free if board.dist(c, dome[0]) <= 4 and board.dist(c, crab_at) <= 2
                    and all(n not in taken for n in board.neigh[c])]
            if len(near) < 3:
                continue
            by = {u["id"]: u for u in m.state(0)["view"]["units"]}
            tanks = [i for i in ships[0]["cargo"] if by[i]["kind"] == "tank"]
            crab = next(i for i in ships[1]["cargo"] if by[i]["kind"] == "crab")
            placed = [{"unit": t, "at": xy(board, c)} for t, c in zip(tanks[:3], near[:3], strict=True)]
            m.act(0, {"type": "deploy", "units": placed})
            m.act(1, {"type": "deploy", "units": [{"unit": crab, "at": xy(board, crab_at)}]})
            if m.state(0)["to_act"] == [1]:
                m.act(1, {"type": "end_turn"})
            return m, {"tanks": tanks[:3], "aboard": tanks[3], "crab": crab, "crab_at": key(xy(board, crab_at)),
                       "tank_at": [key(xy(board, c)) for c in near[:3]], "ship": ships[0]}
    raise AssertionError("no seed gave a contact position")


def places(page: Page, what: str = "polygon.is-target") -> list[str]:
    """The places of the board's hexes matching `what` (the marked targets by default)."""
    return list(page.evaluate(f"() => [...document.querySelectorAll('[data-testid=board] {what}')].map((e) => e.dataset.place)"))


def tap(page: Page, place: str) -> None:
    if place.startswith(("c:", "d:")):
        page.locator(f"[data-testid=tray] [data-place='{place}']").click()
    else:
        show(page, place)
        page.locator(f"[data-testid=board] polygon[data-place='{place}']").click()


def drag(page: Page, src: str, dst: str) -> None:
    """Press on a hex, move the mouse onto another one and release there."""
    show(page, src)
    a = page.locator(f"[data-testid=board] polygon[data-place='{src}']").bounding_box()
    b = page.locator(f"[data-testid=board] polygon[data-place='{dst}']").bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()


def ready(page: Page) -> None:
    page.wait_for_selector("[data-testid=match-page][data-caught-up=yes]")
    page.wait_for_selector("[data-testid=fm-board]")


@pytest.mark.rule("FM-10.1", "FM-16.1", "FM-12.2", "FM-12.3", "FM-15.2")
def test_play_by_gestures_with_refusals_menu_and_report(server: str, browser: Browser) -> None:
    m, pos = contact(server)
    page = open_page(browser)
    goto(page, m.url())
    ready(page)
    v0 = m.state(0)["version"]
    assert page.inner_text("[data-testid=fm-ap]").startswith("5 ")  # turn 3: 5 action points (FM-9.1)
    # a tap on a hex with nothing selected tells what stands there
    tap(page, pos["crab_at"])
    assert "crab" in page.inner_text("[data-testid=fm-inspect]")
    # a selected tank: its moves and its shot at the crab are marked on the board
    tank = pos["tank_at"][0]
    tap(page, tank)
    assert page.get_attribute(f"[data-testid=board] polygon[data-place='{tank}']", "aria-pressed") == "true"
    assert "target-capture" in (page.get_attribute(f"polygon[data-place='{pos['crab_at']}']", "class") or "")
    assert page.locator("[data-testid=board] polygon.is-target.target-move").count() >= 2
    # a hex it cannot reach: refused at once, in plain words, with the rule's link
    far = next(h for h in places(page, "polygon.fm-hex")
               if h not in pos["tank_at"] and abs(int(h.split(",")[0]) - int(tank.split(",")[0])) > 4)
    tap(page, far)
    notice = page.locator(".notice.error")
    notice.wait_for()
    assert "one hex per tap" in notice.inner_text()  # a few plain words (the whole rule is behind the link)
    assert notice.locator("a[href='/rules/fullmetal#FM-10.1']").count() == 1
    assert m.state(0)["version"] == v0  # nothing was sent
    # a click in the middle of the crab's hex (on its disc) fires; two partners can shoot with this tank: a menu asks
    tap(page, pos["crab_at"])
    menu = page.locator("[data-testid=action-menu]")
    menu.wait_for()
    items = menu.locator("[data-action]")
    acts = [json.loads(items.nth(i).get_attribute("data-action") or "null") for i in range(items.count())]
    assert len(acts) == 2 and all(a["type"] == "fire" and key(a["target"]) == pos["crab_at"] for a in acts)
    assert all("fire at" in items.nth(i).inner_text() for i in range(items.count()))  # the server's sentences
    assert serious(page) == [], "menu open"
    items.nth(0).click()
    wait_synced(page, v0 + 1)
    report = page.locator("[data-testid=fm-report]").first
    assert "Destroyed: crab " + str(pos["crab"]) in report.inner_text()
    assert page.locator(f"[data-testid=board] [data-unit='{pos['crab']}']").count() == 0
    assert page.locator("[data-testid=board] polygon.fm-hl-last, [data-testid=board] .fm-hl-last polygon").count() >= 3
    # a tank leaves the ship from the hold below the board, then enters it again by a tap on the ship
    aboard = f"c:{pos['aboard']}"
    tap(page, aboard)
    exits = places(page)
    assert exits
    tap(page, exits[0])
    wait_synced(page, v0 + 2)
    assert page.locator(f"[data-testid=tray] [data-place='{aboard}']").count() == 0
    moved = page.locator(f"[data-testid=board] polygon[data-place='{exits[0]}']")
    expect(moved).to_have_attribute("aria-pressed", "true")  # still selected
    dome = key(pos["ship"]["cells"][0])
    assert "target-special" in (page.get_attribute(f"polygon[data-place='{dome}']", "class") or "")
    drag(page, exits[0], dome)  # dragged onto the ship: the same as a tap on it
    wait_synced(page, v0 + 3)
    assert page.locator(f"[data-testid=tray] [data-place='{aboard}']").count() == 1
    log = m.state(0)["log"]
    assert [e["action"]["type"] for e in log[-3:]] == ["fire", "exit", "enter"]
    texts = page.locator("[data-testid=move-log] .log-what").all_inner_texts()
    assert any(t.startswith("deploy ") and "@" in t for t in texts) and not any("{" in t for t in texts)
    # fire zones on demand: the three tanks cover hexes of the opponent's side (FM-15.2)
    page.click("[data-testid=fm-fire-mine]")
    assert page.locator("[data-testid=board] .fm-zone-own polygon").count() > 0
    page.click("[data-testid=fm-fire-off]")
    assert page.locator("[data-testid=board] .fm-zone polygon").count() == 0
    assert page.locator("[data-testid=legal-actions][open]").count() == 0
    assert errors_of(page) == []


@pytest.mark.rule("FM-12.4")
def test_items_move_between_holds_inside_the_ship_by_gestures(server: str, browser: Browser) -> None:
    """FM-12.4 free transfers inside the ship, both ways, from the holds below the board: a tank picked in the ship's
    hold is tapped onto the crab aboard (an item of that hold), then picked inside the crab and tapped onto the ship's
    hold heading, which is the target of a move back into the ship (it had no place to tap before)."""
    m, pos = contact(server)
    page = open_page(browser)
    goto(page, m.url())
    ready(page)
    v0 = m.state(0)["version"]
    ship, tank = pos["ship"]["id"], pos["aboard"]
    snap = m.state(0)
    by = {u["id"]: u for u in snap["view"]["units"]}
    crab = next(i for i in by[ship]["cargo"] if by[i]["kind"] == "crab")
    assert {"type": "transfer", "from": ship, "item": tank, "to": crab} in snap["legal"]
    # into the crab: the crab, an item of the ship's hold, is the target
    tap(page, f"c:{tank}")
    target = page.locator(f"[data-testid=tray] [data-place='c:{crab}'].is-target")
    target.wait_for()
    assert page.locator(f"[data-testid=tray] [data-place='c:{ship}']").count() == 0  # already in the ship: no target
    target.click()
    wait_synced(page, v0 + 1)
    assert {u["id"]: u for u in m.state(0)["view"]["units"]}[tank]["carrier"] == crab
    nested = page.locator(f"[data-testid=tray] [data-carrier='{ship}'] .fm-nested [data-place='c:{tank}']")
    assert nested.count() == 1  # drawn inside the crab
    # back into the ship: the hold's heading is the target, a button named after the hold
    assert {"type": "transfer", "from": crab, "item": tank, "to": ship} in m.state(0)["legal"]
    tap(page, f"c:{tank}")
    heading = page.locator(f"[data-testid=tray] [data-carrier='{ship}'] [data-place='c:{ship}']")
    heading.wait_for()
    assert "is-target" in (heading.get_attribute("class") or "")
    assert heading.get_attribute("role") == "button" and "Hold of" in (heading.get_attribute("aria-label") or "")
    assert serious(page) == [], "a hold heading as a target"
    heading.click()
    wait_synced(page, v0 + 2)
    assert {u["id"]: u for u in m.state(0)["view"]["units"]}[tank]["carrier"] == ship
    assert [e["action"]["type"] for e in m.state(0)["log"][-2:]] == ["transfer", "transfer"]
    # with nothing picked, the heading is plain text again (no place to tap, nothing to explain)
    assert page.locator(f"[data-testid=tray] [data-place='c:{ship}']").count() == 0
    assert errors_of(page) == []


def test_french_page_phone_focus_and_accessibility(server: str, browser: Browser) -> None:
    m = Match(server, 7)
    first = m.state(0)["to_act"][0]
    if first == 1:
        m.act(1, next(a for a in m.state(1)["legal"] if a["type"] == "land"))
    page = open_page(browser, lang="fr")
    goto(page, m.url())
    ready(page)
    sites = places(page)
    assert sites
    view = m.state(0)["view"]
    sea = next(f"{x},{y}" for y, row in enumerate(view["terrain"]) for x, ch in enumerate(row) if ch == ".")
    tap(page, sea)  # no ship lands on the sea: the server's reason, in French, with the rule's link
    notice = page.locator(".notice.error")
    notice.wait_for()
    assert "Un astronef se pose sur plaine ou marais" in notice.inner_text()
    assert notice.locator("a[href='/rules/fullmetal#FM-7.2']").count() == 1
    tap(page, sites[0])
    page.wait_for_selector("[data-testid=fm-landing-ghost]")
    assert "Atterrir ici" in page.inner_text("[data-testid=composer]")
    assert "pose l'astronef" in page.inner_text("[data-testid=fm-landing-choice]")  # the server's sentence, in French
    assert serious(page) == [], "landing"
    page.click("[data-testid=fm-land]")
    page.wait_for_function("() => !document.querySelector('[data-testid=fm-landing]')")
    if first == 0:
        m.act(1, next(a for a in m.state(1)["legal"] if a["type"] == "land"))
    page.wait_for_selector("[data-testid=fm-deploy]")
    view = m.state(0)["view"]
    tank = next(u for u in view["units"] if u["kind"] == "tank" and u["colour"] == 0)
    tap(page, f"d:{tank['id']}")
    plain = lambda p: view["terrain"][int(p.split(",")[1])][int(p.split(",")[0])] == "$"  # noqa: E731 (never stranded)
    targets = [p for p in places(page) if plain(p)]
    tap(page, targets[0])
    page.wait_for_function("() => document.querySelector('[data-testid=fm-deploy-draft]').dataset.count === '1'")
    assert "1 unités placées" in page.inner_text("[data-testid=fm-deploy-count]")
    assert serious(page) == [], "deployment"
    page.click("[data-testid=fm-seal-deploy]")
    page.wait_for_selector("[data-testid=fm-sealed]")
    m.act(1, {"type": "deploy", "units": []})
    if m.state(0)["to_act"] == [1]:
        m.act(1, {"type": "end_turn"})
    page.wait_for_selector("[data-testid=fm-play]")
    tap(page, targets[0])
    moves = places(page)
    assert moves
    assert "Touchez un hexagone marqué" in page.inner_text("[data-testid=hint]")
    assert serious(page) == [], "play, a tank selected"
    # the deployment in the log: notation and a French sentence, never raw JSON
    log = page.inner_text("[data-testid=move-log]")
    assert f"deploy {tank['id']}@{targets[0]}" in log and "déploie ses unités" in log
    # a phone opens on the player's ship: the hexes around it are big enough to tap
    phone = open_page(browser, PHONE, lang="fr")
    goto(phone, m.url())
    ready(phone)
    phone.wait_for_timeout(300)
    dome = key(next(u for u in m.state(0)["view"]["units"] if u["kind"] == "ship" and u["colour"] == 0)["cells"][0])
    box = phone.locator(f"[data-testid=board] polygon[data-place='{dome}']").bounding_box()
    assert box is not None and box["width"] >= 36 and box["height"] >= 32
    # zoomed in, the map covers the whole window: no empty band beside the letterboxed drawing comes into view
    gaps = phone.evaluate("""() => {
      const svg = document.querySelector('[data-testid=board] svg.fm-board'), vb = svg.viewBox.baseVal;
      const m = svg.getScreenCTM(), o = document.querySelector('[data-testid=board]').getBoundingClientRect();
      const top = m.f, bottom = m.d * vb.height + m.f, left = m.e, right = m.a * vb.width + m.e;
      return [top - o.top, o.bottom - bottom, left - o.left, o.right - right]; }""")
    assert max(gaps) <= 2, gaps
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.locator(f"[data-testid=board] polygon[data-place='{targets[0]}']").click()
    small = phone.evaluate("""() => [...document.querySelectorAll('[data-testid=board] polygon.is-target')]
      .map((e) => e.getBoundingClientRect()).filter((r) => r.width < 32 || r.height < 32).length""")
    assert small == 0
    assert serious(phone) == [], "phone play"
    assert errors_of(page) == [] and errors_of(phone) == []


def test_renderer_geometry_matches_the_engine(server: str, browser: Browser) -> None:
    """FM-1.3 and FM-1.4 in the browser module equal the engine's (neighbours in order, distances), and the landing
    footprint equals FM-7.1's."""
    page = open_page(browser)
    goto(page, server + "/")
    board = get_board(9, 7, "$" * 63)
    pairs = [(board.xy(i), board.xy(j)) for i in range(0, 63, 5) for j in range(0, 63, 7)]
    got = page.evaluate("""async (pairs) => {
      const h = await import('/static/games/fullmetal-hex.js');
      return { n: pairs.map(([a]) => h.neighbours(a[0], a[1])), d: pairs.map(([a, b]) => h.dist(a, b)),
               f: pairs.map(([a]) => [h.footprint(a, 'north'), h.footprint(a, 'south')]) };
    }""", [[list(a), list(b)] for a, b in pairs])
    for k, (a, b) in enumerate(pairs):
        i, j = board.index(*a), board.index(*b)
        assert got["d"][k] == board.dist(i, j)
        expect = [list(board.xy(n)) if n >= 0 else None for n in board.hexmap.neighbours(i)]
        assert [n if expect[q] is not None else None for q, n in enumerate(got["n"][k])] == expect
        for o, fp in zip(("north", "south"), got["f"][k], strict=True):
            dirs = {"north": (0, 2, 4), "south": (1, 3, 5)}[o]
            assert fp[0] == list(a) and all(fp[1 + q] == got["n"][k][d] for q, d in enumerate(dirs))
    assert errors_of(page) == []
