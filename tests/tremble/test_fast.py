"""The fast paths equal the reference paths: ``fast.apply_buy`` and the trusted seals of ``fast.TRUSTED``
(against the validating engine), and the random captain's samplers (against the enumerators and
against indexing the legal lists). See the docstrings of ``fast.py`` and ``sampling.py``."""

from __future__ import annotations

import gc
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from spacetable.core.match import state_fingerprint
from spacetable.core.rng import Rng
from spacetable.games.tremble import GAME, buying, fast
from spacetable.games.tremble.ai import CaptainDraws, RandomCaptain
from spacetable.games.tremble.cards import get_set
from spacetable.games.tremble.effects import group_strength
from spacetable.games.tremble.planning import enumerate_plans, fuel_choice, fuel_limit, fuel_resources
from spacetable.games.tremble.sampling import sample_action

from .test_properties import play_random

H = get_set("house")


def _canon_buy(a: dict) -> tuple:
    return (a["credits"], tuple(sorted(a["buy"])), tuple(sorted(a["discard"])), a["repay"], tuple(sorted(a["comp"])))


def _canon_plan(a: dict) -> str:
    return json.dumps(
        {"g": a["groups"], "f": sorted(a["fuel_cards"]), "s": sorted(a["stations"], key=lambda x: json.dumps(x, sort_keys=True))},
        sort_keys=True,
    )


def _random_games(games: int, spread: int) -> Iterator[tuple[int, Any, int, dict[str, Any]]]:
    """Seeded games of random captains (2 to 5 players): each decision as (seed, state, seat, the captain's action)
    before it is applied, in place, once the caller resumes."""
    for seed in range(games):
        players = 2 + seed % 4
        s = GAME.initial_state({"players": players, "log_events": False}, seed)
        captains = [RandomCaptain(seed * spread + i) for i in range(players)]
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            a = captains[seat].choose(GAME, s, seat)
            yield seed, s, seat, a
            GAME.apply_in_place(s, seat, a)


@pytest.mark.rule("TH-4.3", "TH-4.4", "TH-4.6", "TH-13.1", "TH-6.1", "TH-6.2", "TH-6.3", "TH-6.4")
def test_sampled_buys_and_plans_are_members_of_the_enumerators() -> None:
    """The fast sampler behind the random captain only draws legal commits: every sampled buy
    (TH-4.4, TH-4.6, TH-13.1) and plan (TH-6) is one of the enumerated legal actions."""
    checked = 0
    for seed, s, seat, a in _random_games(6, 10):
        if s.phase == "buy" and seed % 2 == 0:
            assert _canon_buy(a) in {_canon_buy(x) for x in GAME.legal_actions(s, seat)}
            checked += 1
        elif s.phase == "plan" and len(s.players[seat].hand) <= 4:
            assert _canon_plan(a) in {_canon_plan(x) for x in GAME.legal_actions(s, seat)}
            checked += 1
    assert checked > 100


@pytest.mark.rule("TH-4.3", "TH-6.1")
def test_checked_in_place_play_equals_validated_play() -> None:
    """The simulation fast path (``apply_in_place(..., checked=True)``: the engine's own buy and plan
    commits sealed as given, ``fast.TRUSTED``) reaches exactly the states of the protocol ``apply``."""
    for seed in range(20):
        players = 2 + seed % 4
        cfg = {"players": players, "log_events": False}  # the readable log is trimmed differently by clones
        ref = GAME.initial_state(cfg, seed)
        fast_state = GAME.initial_state(cfg, seed)
        a_ref = [RandomCaptain(seed * 10 + i) for i in range(players)]
        a_fast = [RandomCaptain(seed * 10 + i) for i in range(players)]
        while GAME.to_act(ref):
            seat = GAME.to_act(ref)[0]
            assert GAME.to_act(fast_state) == GAME.to_act(ref)
            ref = GAME.apply(ref, seat, a_ref[seat].choose(GAME, ref, seat))
            GAME.apply_in_place(fast_state, seat, a_fast[seat].choose(GAME, fast_state, seat), checked=True)
        assert not GAME.to_act(fast_state)
        assert state_fingerprint(GAME, fast_state) == state_fingerprint(GAME, ref)
    assert set(fast.TRUSTED) == {"buy", "plan"}


@pytest.mark.rule("TH-4.3", "TH-4.4", "TH-4.5", "TH-4.6", "TH-13.2", "TH-13.4")
def test_apply_buy_equals_the_validating_simulation() -> None:
    """TH-4.3, TH-4.4: resolving a sealed buy without re-checking it (``fast.apply_buy``) changes the player
    and returns the discards exactly as the validating ``buying.simulate_buy`` does, for every enumerated
    legal commit."""
    compared = 0
    for seed in range(4):
        _, log = play_random(2 + seed, 500 + seed, check_every=False, smart=0.5)
        replay = GAME.initial_state({"players": 2 + seed}, 500 + seed)
        for seat, a in log:
            if replay.phase == "buy" and replay.turn % 3 == seed % 3:
                for legal in buying.enumerate_buys(replay, H, H.rules, seat)[:60]:
                    p1, p2 = replay.players[seat].clone(), replay.players[seat].clone()
                    out1 = buying.simulate_buy(p1, replay, H, H.rules, legal)
                    out2 = fast.apply_buy(p2, replay, H, H.rules, legal)
                    assert out1 == out2 and p1 == p2
                    compared += 1
            replay = GAME.apply(replay, seat, a)
    assert compared > 200


@pytest.mark.rule("TH-7.2", "TH-9.3", "TH-10.1", "TH-10.3", "TH-11.3", "TH-9.7", "TH-9.9", "TH-4.2")
def test_samplers_equal_indexing_the_legal_lists() -> None:
    """In every window but buy and plan, ``sample_action`` is ``legal[rng.randbelow(len(legal))]``: the same
    action and the same generator state after, whether the list is built (respond, loss, claim...) or not
    (fight or flee, raid or catch, station moves and self moves decoded from one draw)."""
    seen: dict[str, int] = {}
    for seed in range(40):
        players = 2 + seed % 4
        s = GAME.initial_state({"players": players, "log_events": False}, 900 + seed)
        captains = [RandomCaptain(seed * 10 + i) for i in range(players)]
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            if s.phase not in ("buy", "plan"):
                legal = GAME.legal_actions(s, seat)
                for k in range(3):
                    r1, r2 = Rng(seed * 100 + k), Rng(seed * 100 + k)
                    assert sample_action(s, H, seat, r1) == legal[r2.randbelow(len(legal))]
                    assert r1.state == r2.state
                seen[s.phase] = seen.get(s.phase, 0) + 1
            GAME.apply_in_place(s, seat, captains[seat].choose(GAME, s, seat))
    assert seen.get("station_move", 0) > 3 and seen.get("self_move", 0) > 3
    assert {"declare", "respond", "reward", "army", "loss"} <= set(seen)


def passive_bonus(  # the reference reading of TH-C3 passives, for the compiled group_strength
    abilities: tuple[dict[str, Any], ...], kinds_in_group: list[str], own_index: int, city: Any, vs_army: bool
) -> int:
    """Sum of the passive abilities of one ship whose condition holds (TH-9.1, TH-C3).

    ``kinds_in_group`` lists the kinds of every ship of the group, ``own_index`` is this
    ship's position in it; ``city`` has ``region`` and ``city_type``; ``vs_army`` selects
    ``str_vs_army`` (army fight) or ``str_vs_captains`` (battle), never both (TH-10.4).
    """
    total = 0
    for ab in abilities:
        op = ab["op"]
        if op == "str_with_kind":
            kind = ab["kind"]
            if any(k == kind for i, k in enumerate(kinds_in_group) if i != own_index):
                total += ab["n"]
        elif op == "str_vs_city_type":
            if city.city_type == ab["city_type"]:
                total += ab["n"]
        elif op == "str_vs_region":
            if city.region == ab["region"]:
                total += ab["n"]
        elif op == "str_vs_army":
            if vs_army:
                total += ab["n"]
        elif op == "str_vs_captains":
            if not vs_army:
                total += ab["n"]
        elif op == "str_alone" and len(kinds_in_group) == 1:
            total += ab["n"]
    return total


@pytest.mark.rule("TH-9.1", "TH-C3", "TH-D14")
def test_compiled_group_strength_equals_the_passive_rules() -> None:
    """TH-9.1 / TH-C3: the compiled passives of ``group_strength`` give exactly the sum of base strength
    and ``passive_bonus`` per ship (with modifiers and cancelled bonuses, TH-D14) on random groups."""
    rng = Rng(77)
    ships = sorted(H.ships)
    cities = sorted(H.cities)
    for _ in range(3000):
        group = rng.sample(ships, 1 + rng.randbelow(5))
        city = H.cities[cities[rng.randbelow(len(cities))]]
        vs_army = rng.randbelow(2) == 1
        mods = {group[0]: 2} if rng.randbelow(3) == 0 else None
        cancelled = [group[-1]] if rng.randbelow(3) == 0 else None
        kinds = [H.ships[x].kind for x in group]
        want = 5
        for i, sid in enumerate(group):
            card = H.ships[sid]
            want += card.strength
            if cancelled and sid in cancelled:
                continue
            want += passive_bonus(card.abilities, kinds, i, city, vs_army) + (mods or {}).get(sid, 0)
        assert group_strength(H, group, city, vs_army, mods, cancelled, 5) == want


def test_captain_draws_equal_pythons_random() -> None:
    """The random captain's generator gives exactly the values of Python's ``random.Random`` with the same
    seed: ``randbelow(n)`` those of ``randrange(n)``, ``shuffle`` those of ``shuffle``."""
    for seed in range(60):
        mine, ref = CaptainDraws(seed), random.Random(seed)
        for n in range(1, 12):
            assert mine.randbelow(n) == ref.randrange(n)
            assert [mine.randbelow(n) for _ in range(4)] == [ref.randrange(n) for _ in range(4)]
            a, b = list(range(n)), list(range(n))
            mine.shuffle(a)
            ref.shuffle(b)
            assert a == b


def _reference_plans(s: Any, seat: int) -> list[dict[str, Any]]:
    """TH-6.1 to TH-6.4 read plainly: every assignment of the hand's ships (sorted) to home (0) or a slot, counted
    with the first ship the most significant; kept when its fuel is within what the seat can burn; then every
    placement of each untapped ``city_support`` station on a slot the plan attacks."""
    p = s.players[seat]
    hand = sorted(p.hand)
    res = fuel_resources(s, H, seat)
    limit = fuel_limit(s)
    supports = sorted(x for x in p.stations if x not in p.tapped and H.stations[x].op == "city_support")
    out: list[dict[str, Any]] = []
    for assign in itertools.product(range(len(s.slots) + 1), repeat=len(hand)):
        total = sum(H.ships[h].fuel for a, h in zip(assign, hand, strict=True) if a)
        if total > limit + sum(r[2] for r in res):
            continue
        choice = fuel_choice(res, total - limit)
        if choice is None:
            continue
        attacked = sorted({a for a in assign if a})
        groups = [{"slot": k, "ships": [h for a, h in zip(assign, hand, strict=True) if a == k]} for k in attacked]
        placements: list[list[dict[str, Any]]] = [[]]
        for sup in supports:
            placements = [o + extra for o in placements for extra in [[], *[[{"station": sup, "slot": k}] for k in attacked]]]
        for extra in placements:
            out.append({"type": "plan", "groups": groups, "fuel_cards": choice[0], "stations": choice[1] + extra})
    return out


@pytest.mark.hotpath
@pytest.mark.rule("TH-6.1", "TH-6.2", "TH-6.3", "TH-6.4", "TH-C5")
def test_plan_enumeration_equals_the_plain_reading() -> None:
    """The pruned depth-first ``enumerate_plans`` (issue 26: a third of Tremble's legal lists) gives the same plans,
    in the same order, as every assignment counted out and filtered; and no two plans share a mutable list."""
    checked = plans = 0
    for _, s, seat, _ in _random_games(8, 7):
        if s.phase == "plan" and len(s.players[seat].hand) <= 4:
            got = enumerate_plans(s, H, seat)
            assert got == _reference_plans(s, seat)
            leaves = {id(x["groups"]) for x in got}  # one assignment: its support placements share its lists
            assert len({id(x["fuel_cards"]) for x in got}) == len(leaves), "each assignment its own fuel list"
            assert len({id(x["stations"]) for x in got}) == len(got)
            checked += 1
            plans += len(got)
    assert checked > 60 and plans > 1000


@pytest.mark.hotpath
def test_plan_enumeration_leaves_no_garbage_cycle() -> None:
    """The server runs without young collections under load: a call that left a reference cycle (a recursive
    closure) would keep its whole frame until a full pass. Nothing of ``enumerate_plans`` needs the collector."""
    s = GAME.initial_state({"players": 3, "log_events": False}, 1)
    captains = [RandomCaptain(i) for i in range(3)]
    while s.phase != "plan":
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, captains[seat].choose(GAME, s, seat))
    seat = GAME.to_act(s)[0]
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            assert enumerate_plans(s, H, seat)
        assert gc.collect() == 0
    finally:
        gc.enable()
