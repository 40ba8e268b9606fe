"""Tremble, Humans! match pages beyond the full game (test_tremble_fullgame.py): hidden hands stay hidden to the
other seats' browsers (IM-1, IM-2, IM-3, IM-5), a plan decision whose legal list arrives as a selection (SRV-L1) is
composed from the view and checked by the server before it is sealed, a refused plan is explained in plain words
with the rule's link (TH-6.3), and the pages pass axe-core and fit a phone with 32 px tap targets."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import Browser, Page

from spacetable.core.rng import Rng
from spacetable.games import get_game
from spacetable.games.tremble.ai import RandomCaptain

from .pages import (
    HTTP,
    PHONE,
    READY_OR_OVER,
    create,
    errors_of,
    goto,
    keep_station_redraws,
    open_page,
    seat_of,
    seat_state,
    seat_url,
    version,
    wait_synced,
)
from .test_accessibility import serious
from .test_layout import check as phone_problems
from .test_tremble_fullgame import buy, click, plan, tap_board, tap_hand

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
ROOT = Path(__file__).resolve().parents[2]


def _pairs(view: Any) -> dict[str, str]:
    """Cards in a view: every object with an ``id`` and a ``name``."""
    out: dict[str, str] = {}
    if isinstance(view, dict):
        if isinstance(view.get("id"), str) and isinstance(view.get("name"), str):
            out[view["id"]] = view["name"]
        for v in view.values():
            out.update(_pairs(v))
    elif isinstance(view, list):
        for v in view:
            out.update(_pairs(v))
    return out


def check_private(server: str, mid: str, pages: list[Page]) -> int:
    """Each page shows its seat's private cards and nothing private to another seat. Returns #private cards checked."""
    snaps = []
    for p in pages:
        seat, token = seat_of(p)
        snaps.append(seat_state(server, mid, seat, token))
    for p, snap in zip(pages, snaps, strict=True):
        wait_synced(p, snap["version"])
    texts = [json.dumps(s["view"], ensure_ascii=False) + json.dumps(s["legal"], ensure_ascii=False) for s in snaps]
    checked = 0
    for i, p in enumerate(pages):
        html = p.content()
        shown = p.inner_text("main")
        for j, other in enumerate(snaps):
            if j == i:
                continue
            for cid, name in _pairs(other["view"]).items():
                if cid in texts[i]:
                    continue  # public, or also known to seat i
                checked += 1
                assert cid not in html, f"seat {i}'s page shows card {cid} private to seat {j}"
                if name not in texts[i]:
                    assert name not in html, f"seat {i}'s page shows {name!r}, private to seat {j}"
        for cid, name in _pairs(snaps[i]["view"]).items():
            if all(cid not in texts[j] for j in range(len(pages)) if j != i):
                assert name in shown, f"seat {i}'s own private card {cid} ({name}) is not shown"
    return checked


def ready(page: Page) -> dict[str, Any]:
    """The seat's state once its page has drawn the table and is ready for the seat's decision."""
    page.wait_for_selector("[data-testid=tremble-board]")
    page.wait_for_function(READY_OR_OVER, timeout=120_000)
    seat, token = seat_of(page)
    return seat_state(page.url.split("/match/")[0], page.url.split("/match/")[1].split("#")[0], seat, token)


def test_tremble_three_seats_each_sees_only_its_own_hand_and_plan(server: str, browser: Browser) -> None:
    """Three browsers on one tremble match: each shows its own hand, purchase and plan, never another's."""
    host = open_page(browser)
    goto(host, server + "/")
    host.click("[data-testid=game-card-tremble]")
    host.click("[data-testid=mode-friend]")
    host.click("[data-testid=players-3]")
    host.fill("[data-testid=player-name]", "Host")
    host.click("[data-testid=create-match]")
    host.wait_for_selector("[data-testid=match-page]")
    mid = urlparse(host.url).path.rsplit("/", 1)[-1]
    pages = [host]
    for seat in (1, 2):
        p = open_page(browser)
        goto(p, f"{server}/match/{mid}")
        p.fill("[data-testid=join-name]", f"Guest {seat}")
        p.click(f"[data-testid=join-seat-{seat}]")
        p.wait_for_selector(f"[data-testid=match-page][data-seat='{seat}']")
        pages.append(p)
    for p in pages:
        p.wait_for_selector("[data-testid=match-status][data-status=running]")
        p.wait_for_selector("[data-testid=tremble-board]")
    # a station redraw offered first (TH-4.2, a seat's drawn cards all stations: one match in 20 for three) is kept, so
    # that the match opens with the purchases below; ``start``: the version then
    start = keep_station_redraws(server, mid, dict(seat_of(p) for p in pages))
    checked = check_private(server, mid, pages)
    # the players are named on the table
    assert "Guest 1" in host.inner_text("[data-testid=tremble-board]")
    # correspondence: the host leaves, finds the match marked "your turn" in the lobby and comes back
    link = host.url
    goto(host, server + "/")
    row = host.locator(f"[data-testid=list-yours] [data-match='{mid}']")
    row.locator("[data-testid=your-turn]").wait_for()
    row.locator("[data-testid=resume]").click()
    host.wait_for_selector("[data-testid=match-page][data-seat='0']")
    assert seat_of(host)[0] == 0 and seat_of(host) == tuple(seat_of_url(link))
    rng = Rng.from_seed(3)
    # buy phase: seat 0 buys in the shop first; the others see only that it decided
    bought = buy(host, ready(host), rng)
    secret = bought["buy"] + bought["discard"]
    assert secret, bought
    for p in pages[1:]:
        wait_synced(p, start + 1)
        entries = p.locator("[data-testid=move-log] [data-testid=log-entry]")
        assert entries.count() == start + 1
        assert not any(c in entries.nth(start).inner_text() for c in secret)
    checked += check_private(server, mid, pages)
    for p in pages[1:]:
        before = version(p)
        buy(p, ready(p), rng)
        p.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'")
    # plan phase: seat 0 seals a plan composed on the board, then the others
    before = version(host)
    plan(host, ready(host), rng, drag=False)
    host.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'")
    checked += check_private(server, mid, pages)
    own = seat_state(server, mid, 0, seat_of(pages[0])[1])
    assert own["view"]["sealed"]["own"] is not None  # seat 0 sees its own sealed plan ...
    for p in pages[1:]:
        seat, token = seat_of(p)
        other = seat_state(server, mid, seat, token)
        assert other["view"]["sealed"]["own"] is None  # ... the others only that it committed
        assert p.locator("[data-testid=board] .tr-group.sealed").count() == 0
    for p in pages[1:]:
        before = version(p)
        plan(p, ready(p), rng, drag=False)
        p.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'")
    checked += check_private(server, mid, pages)
    assert checked > 0
    for p in pages:
        assert errors_of(p) == []


def seat_of_url(url: str) -> tuple[int, str]:
    frag = urlparse(url).fragment or urlparse(url).query
    q = dict(p.split("=", 1) for p in frag.split("&"))
    return int(q["seat"]), httpx.URL("?t=" + q["token"]).params["t"]


@pytest.mark.rule("TH-6.3")
def test_a_plan_from_a_partial_list_is_built_on_the_board_and_checked(server: str, browser: Browser) -> None:
    """SRV-L1 in the page: a plan decision with thousands of legal plans reaches the seat as a bounded selection; the
    fallback list says how many exist; the plan is composed on the board instead, a plan over the fuel limit is
    refused by the server's check with the rule in plain words and its link, and a plan within it is sealed."""
    r = HTTP.post(f"{server}/api/matches", json={"game": "tremble", "config": {}, "seed": 1, "open_seed": True, "join_seat": 0})
    assert r.status_code == 201, r.text
    mid, n = r.json()["match"]["id"], len(r.json()["match"]["seats"])
    tokens = [r.json()["token"]] + [
        HTTP.post(f"{server}/api/matches/{mid}/seats/{s}/join", json={}).json()["token"] for s in range(1, n)]
    pick = Rng.from_seed(3)
    big: tuple[int, dict[str, Any]] | None = None
    for _ in range(300):
        snaps = [seat_state(server, mid, s, tokens[s]) for s in range(n)]
        to_act = snaps[0]["to_act"]
        assert to_act, "the match ended before a long legal list"
        big = next(((s, snaps[s]) for s in to_act if not snaps[s]["legal_complete"]), None)
        if big:
            break
        seat = to_act[0]
        legal = snaps[seat]["legal"]
        action = legal[pick.randbelow(len(legal))]
        body = {"seat": seat, "token": tokens[seat], "version": snaps[seat]["version"], "action": action}
        assert HTTP.post(f"{server}/api/matches/{mid}/actions", json=body).status_code == 200
    assert big is not None, "no decision with a partial legal list in 300 steps"
    seat, snap = big
    view = snap["view"]
    assert view["phase"] == "plan"
    page = open_page(browser)
    goto(page, seat_url(server, mid, seat, tokens[seat]))
    ready(page)
    page.click("[data-testid=legal-actions] summary")  # the fallback says how many plans exist
    note = page.wait_for_selector("[data-testid=legal-partial]")
    assert note is not None and note.get_attribute("data-count") == str(snap["legal_count"])
    assert page.locator("[data-testid=legal-actions] [data-action]").count() == len(snap["legal"])
    page.click("[data-testid=legal-actions] summary")
    hand = view["players"][seat]["hand"]
    limit = view["fuel_limit"]
    assert sum(s["fuel"] for s in hand) > limit, "this seeded position has more ships than fuel"
    slot = view["slots"][0]["slot"]
    for s in hand:  # every ship to the first city: over the fuel limit
        tap_hand(page, "ship:" + s["id"])
        tap_board(page, f"slot:{slot}")
    assert page.locator("[data-testid=tremble-over-fuel]").count() == 1
    before = version(page)
    click(page, "tremble-seal-plan")
    refusal = page.wait_for_selector("[data-testid=tremble-refusal]")
    assert refusal is not None
    en = json.loads((ROOT / "spacetable" / "games" / "tremble" / "i18n" / "en.json").read_text(encoding="utf-8"))
    assert en["rule.TH-6.3"] in refusal.inner_text()
    assert page.get_attribute("[data-testid=tremble-refusal] a", "href") == "/rules/tremble#TH-6.3"
    assert version(page) == before
    click(page, "tremble-clear-plan")
    cheap = min(hand, key=lambda s: s["fuel"])
    tap_hand(page, "ship:" + cheap["id"])
    tap_board(page, f"slot:{slot}")
    click(page, "tremble-seal-plan")
    page.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'")
    sealed = seat_state(server, mid, seat, tokens[seat])["view"]["sealed"]["own"]
    assert sealed["groups"] == [{"slot": slot, "ships": [cheap["id"]]}]
    assert errors_of(page) == []


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_tremble_pages_are_accessible_and_fit_a_phone(server: str, browser: Browser, viewport: dict[str, int] | None) -> None:
    """axe-core finds no serious violation on the shop, the plan with a ship picked and the review; on a phone nothing
    is wider than 390 px and every tap target is at least 32 px."""
    page = open_page(browser, viewport)
    mid, seat, token = create(server, "tremble", {"players": 2}, ai={1: "random"}, ai_seconds=0.05)
    assert seat is not None and token is not None
    keep_station_redraws(server, mid, {seat: token})  # the shop comes first
    goto(page, seat_url(server, mid, seat, token))
    snap = ready(page)
    drawn = snap["view"]["players"][seat]["drawn"]
    tap_board(page, "card:" + drawn[0]["id"])  # a card chosen in the shop
    assert serious(page) == [], "shop"
    problems = phone_problems(page, "shop") if viewport else []
    tap_board(page, "card:" + drawn[0]["id"])
    before = version(page)
    click(page, "tremble-confirm-buy")
    page.wait_for_function(f"() => document.querySelector('[data-testid=version]').dataset.version !== '{before}'")
    snap = ready(page)
    while snap["view"]["phase"] != "plan":  # a station redraw first, now and then
        click(page, "tremble-keep")
        snap = ready(page)
    ship = snap["view"]["players"][seat]["hand"][0]["id"]
    tap_hand(page, "ship:" + ship)
    assert page.locator("[data-testid=board] .tr-city.is-target").count() == len(snap["view"]["slots"])
    assert serious(page) == [], "plan"
    if viewport:
        problems += phone_problems(page, "plan")
    page.click("[data-testid=review]")
    page.wait_for_selector("[data-testid=replay-step]")
    page.wait_for_selector("[data-testid=tremble-board]")
    assert serious(page) == [], "review"
    assert problems == [], "\n".join(problems)
    assert errors_of(page) == []


def test_captains_are_told_apart_by_name(server: str, browser: Browser) -> None:
    """Three captains, two of them computers at the same level: every name on the page differs (the seat number is
    added to names that would be the same), and no name is a bare seat number."""
    page = open_page(browser)
    mid, seat, token = create(server, "tremble", {"players": 3}, ai={1: "random", 2: "random"}, ai_seconds=0.05, name="Ann")
    assert seat is not None and token is not None
    goto(page, seat_url(server, mid, seat, token))
    ready(page)
    names = page.locator("[data-testid=seats] .seat-name").all_inner_texts()
    assert len(names) == 3 and len(set(names)) == 3, names
    assert names[1].endswith(" 2") and names[2].endswith(" 3") and "Ann" in names[0]
    table = page.inner_text("[data-testid=tremble-board]")
    assert all(n.replace(" (you)", "") in table for n in names)
    assert "seat 1" not in table.lower() and "seat 2" not in table.lower()
    assert errors_of(page) == []


#: Event lines the results panel leaves out on purpose (purchases, missions, reshuffles, moves before the cities).
NOT_SHOWN = ("seat {n} buys", "mission ", "game over", "the ", "station-move d6", "seat {n}'s ", "seat {n} shows and discards",
             "seat {n} resigns")


def engine_event_lines() -> list[str]:
    """Every distinct event line of seeded random games of two to five captains (spacetable.games.tremble)."""
    game = get_game("tremble")
    lines: set[str] = set()
    for seed in range(12):
        state = game.initial_state({"players": 2 + seed % 4}, seed)
        captain = RandomCaptain(seed)
        while game.to_act(state):
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, captain.choose(game, state, seat))
            lines.update(state.events[-12:])  # the lines the views show (view["events"] is the last 20 of them)
    return sorted(lines)


def test_the_results_panel_reads_every_event_line_of_the_engine(server: str, browser: Browser) -> None:
    """The results panel tells each city's story from the engine's event lines (tremble-story.js): every line of
    seeded games is understood, or is one the panel leaves out on purpose; dice, totals and seats are read right.
    A change of the engine's lines that the panel would miss fails here."""
    lines = engine_event_lines()
    page = open_page(browser)
    goto(page, server + "/")
    read = "async (lines) => { const m = await import('/static/games/tremble-story.js'); return lines.map(m.fact); }"
    facts = page.evaluate(read, lines)
    kinds: set[str] = set()
    for line, f in zip(lines, facts, strict=True):
        if f is None:
            shape = re.sub(r"seat \d+", "seat {n}", line)
            assert shape.startswith(NOT_SHOWN), f"the results panel does not read: {line!r}"
            continue
        kinds.add(f["k"])
        seats = [int(x) for x in re.findall(r"seat (\d+)", line)]
        if "seat" in f:
            assert f["seat"] == seats[0], line
        if f["k"] == "roll":
            assert f["dice"] == [int(x) for x in re.findall(r"(\d)\+(\d)", line)[0]], line
        if f["k"] == "totals":
            assert [s for s, _ in f["totals"]] == seats[-len(f["totals"]):], line
    assert {"battle", "declare", "roll", "totals", "win", "lost", "comp", "raid", "catch", "army", "caught", "break"} <= kinds
    assert errors_of(page) == []
