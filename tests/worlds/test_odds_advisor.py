"""Exact odds (WS-9) and the allocation advisor (WS-10): WS-A2 to A6, A11, A15 and properties."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacetable.core.rng import Rng
from spacetable.games.worlds.advisor import Situation, advise, allocations
from spacetable.games.worlds.battle import dice_counts
from spacetable.games.worlds.events import card, event_number
from spacetable.games.worlds.odds import BattleInput, Group, combat_odds
from spacetable.games.worlds.plans import group

GREY_S1 = [
    BattleInput(Group(pops=1, pop_bonus=1), Group(pops=2, facs=1)),
    BattleInput(Group(facs=1, energy=3), Group(pops=1, facs=1)),
]


@pytest.mark.rule("WS-A2", "WS-9.3", "WS-9.4")
def test_ws_a2_example_odds_exact() -> None:
    """WS-A2: battle 1 grey 6/4/26, battle 2 grey 21/5/10; 47/72, 5/324, 215/648; E 5/4 and 23/12."""
    o = combat_odds(GREY_S1)
    assert o.per_battle == [(6, 4, 26), (21, 5, 10)]
    assert o.p_s_wins == Fraction(47, 72)
    assert o.p_no_winner == Fraction(5, 324)
    assert o.p_o_wins == Fraction(215, 648)
    assert o.total() == 1
    assert o.e_ls == Fraction(5, 4) and o.e_lo == Fraction(23, 12)
    assert 36**2 % o.p_s_wins.denominator == 0


@pytest.mark.rule("WS-A3", "WS-9.2")
def test_ws_a3_dice_table() -> None:
    """WS-A3 / WS-9.2: the counts for d = -7..7, each row sums to 36, P(tie) = (6-|d|)/36."""
    table = {
        0: (15, 6, 15),
        1: (21, 5, 10),
        2: (26, 4, 6),
        3: (30, 3, 3),
        4: (33, 2, 1),
        5: (35, 1, 0),
        6: (36, 0, 0),
        7: (36, 0, 0),
    }
    for d in range(-7, 8):
        w, t, lo = dice_counts(d)
        assert w + t + lo == 36
        ref = table[abs(d)]
        assert (w, t, lo) == (ref if d >= 0 else (ref[2], ref[1], ref[0]))
        if abs(d) <= 5:
            assert t == 6 - abs(d)


@pytest.mark.rule("WS-A11", "WS-9.2")
def test_ws_a11_sun_odds() -> None:
    """WS-A11: 2P against 1P, 4 vs 2: P(A wins) 13/18, P(no winner) 1/9, P(D wins) 1/6."""
    o = combat_odds([BattleInput(Group(pops=2), Group(pops=1))])
    assert (o.p_s_wins, o.p_no_winner, o.p_o_wins) == (Fraction(13, 18), Fraction(1, 9), Fraction(1, 6))


@pytest.mark.rule("WS-A15", "WS-9.1", "WS-7.4")
def test_ws_a15_cet_odds() -> None:
    """WS-A15: grey 1F + CET (5) vs white 2P (4): 21/5/10; a tie costs grey its Factory; P(grey wins combat) = 7/12."""
    o = combat_odds([BattleInput(Group(facs=1, natives=1), Group(pops=2))])
    assert o.per_battle == [(21, 5, 10)]
    assert o.p_s_wins == Fraction(7, 12)
    assert o.joint[(1, 0)] == Fraction(10, 36)  # grey loses: one piece lost, the native does not count
    assert o.joint[(1, 1)] == Fraction(5, 36)


BASE_GREY = dict(
    s_is_attacker=False,
    on_world=True,
    s_pieces=(1, 1),
    o_pieces=(3, 2),
    anchors=[("grey.X.w1.P1", "P"), ("grey.X.w1.F1", "F")],
    allocator="O",
)
BASE_WHITE = dict(
    s_is_attacker=True,
    on_world=True,
    s_pieces=(3, 2),
    o_pieces=(1, 1),
    anchors=[("grey.X.w1.P1", "P"), ("grey.X.w1.F1", "F")],
    allocator="S",
)


@pytest.mark.rule("WS-A4", "WS-10.1", "WS-10.4", "WS-10.5")
def test_ws_a4_advisor_grey_side() -> None:
    """WS-A4: given allocation, passive white, grey E=3 + MG, objective win: 47/72 at MG b1 with (3, 0)."""
    a = advise(Situation(**BASE_GREY, energy_s=3, hand_s=["MG"], mode="given", allocation=[(2, 1), (1, 1)]))
    assert a.value["objective"] == Fraction(47, 72)
    assert a.events == ["MG", None] and a.energy == [3, 0]
    assert a.value["e_ls"] == Fraction(5, 4) and a.value["e_lo"] == Fraction(7, 3)
    assert a.co_optimal == 2
    assert sorted(p[0][2:] + p[1][2:] for p in a.co_optimal_plans) == [(0, 1, 3, 0), (3, 1, 0, 0)]
    losses = advise(
        Situation(**BASE_GREY, energy_s=3, hand_s=["MG"], mode="given", allocation=[(2, 1), (1, 1)], objective="losses")
    )
    assert losses.events == ["MG", None] and losses.energy == [3, 0]
    empty = advise(Situation(**BASE_GREY, energy_s=3, hand_s=[], mode="given", allocation=[(2, 1), (1, 1)]))
    assert empty.value["objective"] == Fraction(89, 144) and empty.energy == [0, 3]


@pytest.mark.rule("WS-A5", "WS-10.6")
def test_ws_a5_advisor_white_passive_grey() -> None:
    """WS-A5: white allocates, grey passive: 163/216 by three splits; the encoding picks {2P | 1P2F}."""
    a = advise(Situation(**BASE_WHITE, energy_s=0, mode="ours"))
    assert a.value["objective"] == Fraction(163, 216)
    assert a.co_optimal == 3
    assert [(s.s_pops, s.s_facs) for s in a.slots] == [(2, 0), (1, 2)]
    splits = {tuple((p[0], p[1]) for p in plan) for plan in a.co_optimal_plans}
    assert splits == {((2, 0), (1, 2)), ((2, 1), (1, 1)), ((1, 2), (2, 0))}
    third = advise(Situation(**BASE_WHITE, mode="given", allocation=[(1, 2), (2, 0)]))
    assert third.value["e_ls"] == Fraction(31, 36) and a.value["e_ls"] == Fraction(7, 9)


@pytest.mark.rule("WS-A6", "WS-10.3")
def test_ws_a6_advisor_white_worst_case() -> None:
    """WS-A6: grey worst_case with E=3 and MG: the unique best split is S1's {2P1F | 1P1F}, guaranteeing 215/648;
    grey's reply is MG in battle 1 with 3 energy; the next best splits guarantee 53/216."""
    sit = dict(BASE_WHITE, energy_o=3, hand_o=["MG"], opponent="worst_case")
    a = advise(Situation(**sit, mode="ours"))
    assert [(s.s_pops, s.s_facs) for s in a.slots] == [(2, 1), (1, 1)]
    assert a.value["objective"] == Fraction(215, 648) and a.co_optimal == 1
    assert a.response is not None and a.response[0][0] == "MG" and sum(e for _, e in a.response) == 3
    values = sorted(
        (
            advise(Situation(**sit, mode="given", allocation=[(s.s_pops, s.s_facs) for s in slots])).value["objective"]
            for slots in allocations(Situation(**sit))
        ),
        reverse=True,
    )
    assert values[0] == Fraction(215, 648) and values[1] == Fraction(53, 216)


@pytest.mark.rule("WS-10.2")
def test_ws_10_2_opponent_worst_allocation() -> None:
    """WS-10.2 mode opponent_worst: grey's value when white picks the split against it is min over splits of grey's best."""
    sit = dict(BASE_GREY, energy_s=3, hand_s=["MG"])
    worst = advise(Situation(**sit, mode="opponent_worst"))
    per_split = [
        advise(Situation(**sit, mode="given", allocation=[(s.o_pops, s.o_facs) for s in slots])).value["objective"]
        for slots in allocations(Situation(**sit))
    ]
    assert worst.value["objective"] == min(per_split)


@pytest.mark.rule("WS-10.9", "WS-D12")
def test_ws_10_9_replanning_with_offsets_and_revealed_events() -> None:
    """WS-10.9: re-planning battle 2 of A1 after grey lost battle 1 (offset 1-0) with 3 energy left."""
    sit = Situation(
        s_is_attacker=False,
        on_world=True,
        s_pieces=(0, 1),
        o_pieces=(1, 1),
        anchors=[("grey.X.w1.F1", "F")],
        allocator="O",
        energy_s=3,
        mode="given",
        allocation=[(1, 1)],
        offsets=(1, 0),
    )
    a = advise(sit)
    assert a.energy == [3]
    # grey must win battle 2 to win the combat: 2 losses for white vs 1 for grey
    assert a.value["objective"] == Fraction(21, 36)


def _mc_win(battles: list[BattleInput], n: int, seed: int) -> float:
    rng = Rng.from_seed(seed)
    wins = 0
    for _ in range(n):
        ls = lo = 0
        for b in battles:
            ts = b.s.power + rng.die()
            to = b.o.power + rng.die()
            if ts > to:
                lo += b.o.pieces
            elif ts < to:
                ls += b.s.pieces
            else:
                ls += 1
                lo += 1
        wins += ls < lo
    return wins / n


groups = st.builds(
    Group,
    pops=st.integers(0, 3),
    facs=st.integers(0, 2),
    natives=st.integers(0, 1),
    pop_bonus=st.integers(0, 1),
    energy=st.integers(0, 3),
).filter(lambda g: g.pieces > 0)


@pytest.mark.rule("WS-9.3")
@settings(max_examples=40, deadline=None)
@given(st.lists(st.builds(BattleInput, groups, groups), min_size=1, max_size=4))
def test_ws_9_3_odds_sum_to_one_exactly(battles: list[BattleInput]) -> None:
    """WS-9.3: the joint law is exact: it sums to exactly 1 and denominators divide 36^k."""
    o = combat_odds(battles)
    assert o.total() == 1
    assert o.p_s_wins + o.p_no_winner + o.p_o_wins == 1
    assert all((36 ** len(battles)) % p.denominator == 0 for p in o.joint.values())


@pytest.mark.rule("WS-9.2", "WS-9.3", "WS-5.8")
@settings(max_examples=6, deadline=None)
@given(st.lists(st.builds(BattleInput, groups, groups), min_size=1, max_size=3), st.integers(0, 1000))
def test_ws_9_odds_match_monte_carlo(battles: list[BattleInput], seed: int) -> None:
    """WS-9: exact P(S wins combat) agrees with a 4000-sample Monte Carlo estimate within 0.05 (about 6 sigma)."""
    exact = float(combat_odds(battles).p_s_wins)
    assert abs(_mc_win(battles, 4000, seed) - exact) < 0.05


@pytest.mark.rule("WS-10.7")
@pytest.mark.parametrize("objective", ["win", "no_loss", "losses", "net"])
def test_ws_10_advisor_matches_brute_force(objective: str) -> None:
    """WS-10.7: pruning and memoisation never change the answer: compare with a blind enumeration (objective value)."""
    sit = Situation(
        **BASE_WHITE,
        energy_s=2,
        hand_s=["MG", "CET"],
        mode="given",
        allocation=[(2, 1), (1, 1)],
        fixed_response=[(None, 1), (None, 0)],
        objective=objective,
    )
    a = advise(sit)
    best = None
    for e1, e2 in product(range(3), range(3)):
        if e1 + e2 > 2:
            continue
        for ev1, ev2 in product([None, "MG", "CET"], repeat=2):
            if ev1 is not None and ev1 == ev2:
                continue
            o = combat_odds(
                [BattleInput(group(2, 1, ev1, e1), Group(pops=1, energy=1)), BattleInput(group(1, 1, ev2, e2), Group(facs=1))]
            )
            val = {"win": o.p_s_wins, "no_loss": o.p_s_wins + o.p_no_winner, "losses": -o.e_ls, "net": o.e_lo - o.e_ls}[objective]
            best = val if best is None else max(best, val)
    got = a.value["objective"] if objective != "losses" else -a.value["objective"]
    assert got == best


def _brute_force(sit: Situation) -> tuple[tuple, int, tuple]:
    """Blind enumeration of every canonical plan (WS-10.2, WS-10.5, WS-10.6) against a fixed passive opponent."""
    values: dict[tuple, tuple] = {}
    for slots in allocations(sit):
        k = len(slots)
        per_battle = []
        for sl in slots:
            evs = [None] + [c for c in sorted(set(sit.hand_s)) if card(c).legal(sl.s_pops, not sit.s_is_attacker, sit.on_world)]
            per_battle.append([(ev, e) for ev in evs for e in range(sit.energy_s + 1)])
        for combo in product(*per_battle):
            if sum(e for _, e in combo) > sit.energy_s:
                continue
            used = [ev for ev, _ in combo if ev]
            if any(used.count(c) > sit.hand_s.count(c) for c in used):
                continue
            enc = [(sl.s_pops, sl.s_facs, e, event_number(ev)) for sl, (ev, e) in zip(slots, combo, strict=True)]
            # interchangeable anchors: sort inside runs of identical battles
            i = 0
            while i < k:
                j = i
                while j + 1 < k and (slots[j + 1].anchor_kind, slots[j + 1].s_pops, slots[j + 1].s_facs) == (
                    slots[i].anchor_kind,
                    slots[i].s_pops,
                    slots[i].s_facs,
                ):
                    j += 1
                enc[i : j + 1] = sorted(enc[i : j + 1])
                i = j + 1
            key = tuple(enc)
            if key in values:
                continue
            o = combat_odds(
                [
                    BattleInput(group(sl.s_pops, sl.s_facs, ev, e), Group(pops=sl.o_pops, facs=sl.o_facs))
                    for sl, (ev, e) in zip(slots, combo, strict=True)
                ]
            )
            obj = {"win": o.p_s_wins, "no_loss": o.p_s_wins + o.p_no_winner, "losses": -o.e_ls, "net": o.e_lo - o.e_ls}[
                sit.objective
            ]
            vec = (obj, o.p_s_wins, -o.e_ls, o.e_lo, -sum(e for _, e in combo), -len(used))
            values[key] = vec
    best_vec = max(values.values())
    best_enc = min(k for k, v in values.items() if v == best_vec)
    co = sum(1 for v in values.values() if v[0] == best_vec[0])
    return best_vec, co, best_enc


@pytest.mark.rule("WS-10.5", "WS-10.6", "WS-10.7", "WS-10.8")
@pytest.mark.parametrize("objective", ["win", "losses", "net", "no_loss"])
@pytest.mark.parametrize("anchor_kinds", ["PF", "PP", "PPF"])
def test_ws_10_5_ranking_and_co_optimal_count_match_blind_enumeration(objective: str, anchor_kinds: str) -> None:
    """WS-10.5, WS-10.6, WS-10.7, WS-10.8: chosen plan, value vector and co-optimal count equal a blind enumeration
    (2P2F against 2 or 3 anchors, E=2, MG+CET), identical anchors included."""
    sit = Situation(
        s_is_attacker=True,
        on_world=True,
        s_pieces=(2, 2),
        o_pieces=(anchor_kinds.count("P"), anchor_kinds.count("F")),
        anchors=[(f"o.{kind}{i}", kind) for i, kind in enumerate(anchor_kinds)],
        allocator="S",
        energy_s=2,
        hand_s=["MG", "CET"],
        mode="ours",
        objective=objective,
    )
    a = advise(sit)
    best_vec, co, best_enc = _brute_force(sit)
    v = a.value
    got_obj = -v["objective"] if objective == "losses" else v["objective"]
    assert (got_obj, v["p_win"], -v["e_ls"], v["e_lo"], -v["energy"], -v["cards"]) == best_vec
    assert a.encoding == best_enc
    assert a.co_optimal == co
