"""Pinned worst_case answers of the allocation advisor (WS-10.3, WS-10.5, WS-10.7, WS-10.8) on mid-size combats.

Blind enumeration (test_advisor_search.py) is too slow beyond a few battles, so these pin the complete advice of
5v5 and 6v6 combats (the situations of bench/worlds_advisor.py, a defender's view, revealed events, ``opponent_worst``
with offsets) to the answers of the advisor before its bounds and laws moved to numpy tables: the value vector, the
chosen plan, the co-optimal count and plans, and the opponent's reply must not change, whatever the pruning and the
arithmetic. The same answers must come from the Python-integer (object array) laws used beyond 11 battles.
Two ``opponent_worst`` defences of 6 pieces against 7 are pinned to the answers of the advisor before it searched
the allocations out of canonical order; their answers must not depend on that order either.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from spacetable.games.worlds import advisor
from spacetable.games.worlds.advisor import Advice, Situation, advise, allocations
from spacetable.games.worlds.plans import LawSpace


@dataclass(frozen=True)
class Pinned:
    """The advice as computed before: per battle event and energy; the value vector (objective, P(win), E[L_S],
    E[L_O] as fractions, then energy and cards); the co-optimal count; the WS-10.6 encoding and the listed
    co-optimal plans, one ``PFEV`` group (pops, facs, energy, event number) per battle; the opponent's reply."""

    events: list[str | None]
    energy: list[int]
    value: tuple[str, str, str, str, int, int]
    co_optimal: int
    encoding: str
    response: list[tuple[str | None, int]]
    plans: tuple[str, ...]


def _situation(n: int, objective: str, **over: Any) -> Situation:
    """bench/worlds_advisor.py's n v n: n/2 Populations and n/2 Factories a side on one World, S attacks and allocates
    with MG, MG, CET; the opponent holds MG, RI, CET; both pools n; the opponent replies at worst for us."""
    half = n // 2
    anchors = [(f"O.P{i}", "P") for i in range(half)] + [(f"O.F{i}", "F") for i in range(n - half)]
    fields: dict[str, Any] = dict(
        s_is_attacker=True, on_world=True, s_pieces=(half, n - half), o_pieces=(half, n - half), anchors=anchors,
        allocator="S", energy_s=n, energy_o=n, hand_s=["MG", "MG", "CET"], hand_o=["MG", "RI", "CET"],
        mode="ours", opponent="worst_case", objective=objective,
    )
    fields.update(over)
    return Situation(**fields)


def _defender(pieces: tuple[int, int], o_pieces: tuple[int, int], objective: str, **over: Any) -> Situation:
    """We defend one World with ``pieces`` (Populations, Factories) against ``o_pieces``; the attacker allocates
    (``opponent_worst``) and replies at worst for us."""
    anchors = [(f"S.P{i}", "P") for i in range(pieces[0])] + [(f"S.F{i}", "F") for i in range(pieces[1])]
    return _situation(0, objective, s_is_attacker=False, s_pieces=pieces, o_pieces=o_pieces, anchors=anchors,
                      allocator="O", mode="opponent_worst", **over)


def _groups(enc: Any) -> str:
    return " ".join("".join(map(str, battle)) for battle in enc)


PINNED: dict[str, tuple[Situation, Pinned]] = {
    "5v5 win": (
        _situation(5, "win"),
        Pinned(
            events=["CET", None, None, "MG", "MG"], energy=[0, 3, 2, 0, 0],
            value=("268645/1259712", "268645/1259712", "59/18", "83/36", 5, 3),
            co_optimal=4, encoding="0102 0130 0120 1001 1001",
            response=[(None, 0), ("MG", 2), ("RI", 0), ("CET", 0), (None, 3)],
            plans=(
                "0102 0130 0120 1001 1001", "0102 0140 0110 1001 1001", "0102 1011 0120 0120 1001", "0102 1021 0110 0120 1001",
            ),
        ),
    ),
    "5v5 losses": (
        _situation(5, "losses"),
        Pinned(
            events=["CET", None, None, "MG", "MG"], energy=[0, 3, 2, 0, 0],
            value=("119/36", "71725/279936", "119/36", "22/9", 5, 3),
            co_optimal=27, encoding="0102 0130 0120 1001 1001",
            response=[("CET", 0), ("MG", 1), ("RI", 0), (None, 2), (None, 2)],
            plans=(
                "0100 0112 0120 1001 1021", "0100 0112 0140 1001 1001", "0100 0150 0102 1001 1001", "0102 0130 0120 1001 1001",
                "0102 0140 0110 1001 1001", "0102 0150 0100 1001 1001", "0112 0120 0120 1001 1001", "0112 0130 0110 1001 1001",
                "0112 0140 0100 1001 1001", "0112 1001 0120 0120 1001", "0112 1011 0110 0120 1001", "0112 1021 0100 0120 1001",
                "0112 1021 0110 0110 1001", "0112 1031 0100 0110 1001", "0112 1041 0100 0100 1001", "0120 0130 0102 1001 1001",
                "0120 1011 0102 0120 1001", "0122 1031 0100 0100 1001", "0130 1001 0102 0120 1001", "0130 1011 0102 0110 1001",
            ),
        ),
    ),
    "5v5 no_loss": (
        _situation(5, "no_loss"),
        Pinned(
            events=["CET", None, None, "MG", "MG"], energy=[0, 3, 0, 1, 1],
            value=("1785809/5038848", "268645/1259712", "59/18", "83/36", 5, 3),
            co_optimal=9, encoding="0102 0130 0100 1011 1011",
            response=[("RI", 1), ("MG", 3), (None, 1), (None, 0), ("CET", 0)],
            plans=(
                "0102 0130 0100 1011 1011", "0102 0130 0120 1001 1001", "0102 0140 0100 1001 1011", "0102 0140 0110 1001 1001",
                "0102 1011 0100 0130 1011", "0102 1011 0120 0120 1001", "0102 1021 0100 0120 1011", "0102 1021 0100 0130 1001",
                "0102 1021 0110 0120 1001",
            ),
        ),
    ),
    "5v5 net": (
        _situation(5, "net"),
        Pinned(
            events=["CET", "MG", None, None, "MG"], energy=[0, 2, 1, 1, 1],
            value=("-11/12", "55375/248832", "13/4", "7/3", 5, 3),
            co_optimal=1, encoding="0102 1021 0110 0110 1011",
            response=[("MG", 3), (None, 0), (None, 2), ("CET", 0), ("RI", 0)],
            plans=(
                "0102 1021 0110 0110 1011",
            ),
        ),
    ),
    "6v6 win": (
        _situation(6, "win"),
        Pinned(
            events=["CET", None, None, "MG", "MG", None], energy=[0, 2, 3, 0, 0, 1],
            value=("740741/3779136", "740741/3779136", "34/9", "103/36", 6, 3),
            co_optimal=15, encoding="0102 0120 0130 1001 1001 1010",
            response=[(None, 0), ("MG", 2), (None, 0), ("RI", 0), ("CET", 0), (None, 4)],
            plans=(
                "0102 0120 0130 1001 1001 1010", "0102 0120 1011 0120 1001 1010", "0102 0120 1020 0120 1001 1001",
                "0102 0130 0130 1000 1001 1001", "0102 0130 1001 0120 1001 1010", "0102 0130 1010 0120 1001 1001",
                "0102 0130 1011 0110 1001 1010", "0102 0130 1011 0120 1000 1001", "0102 0130 1020 0110 1001 1001",
                "0102 1001 1011 0120 0120 1010", "0102 1001 1020 0120 0120 1001", "0102 1010 1011 0120 0120 1001",
                "0102 1011 1011 0110 0120 1010", "0102 1011 1011 0120 0120 1000", "0102 1011 1020 0110 0120 1001",
            ),
        ),
    ),
    "6v6 losses": (
        _situation(6, "losses"),
        Pinned(
            events=["CET", None, None, "MG", "MG", None], energy=[0, 2, 3, 0, 0, 1],
            value=("35/9", "579995/2239488", "35/9", "109/36", 6, 3),
            co_optimal=15, encoding="0102 0120 0130 1001 1001 1010",
            response=[("CET", 0), ("MG", 0), ("RI", 0), (None, 2), (None, 2), (None, 2)],
            plans=(
                "0102 0120 0130 1001 1001 1010", "0102 0120 1011 0120 1001 1010", "0102 0120 1020 0120 1001 1001",
                "0102 0130 0130 1000 1001 1001", "0102 0130 1001 0120 1001 1010", "0102 0130 1010 0120 1001 1001",
                "0102 0130 1011 0110 1001 1010", "0102 0130 1011 0120 1000 1001", "0102 0130 1020 0110 1001 1001",
                "0102 1001 1011 0120 0120 1010", "0102 1001 1020 0120 0120 1001", "0102 1010 1011 0120 0120 1001",
                "0102 1011 1011 0110 0120 1010", "0102 1011 1011 0120 0120 1000", "0102 1011 1020 0110 0120 1001",
            ),
        ),
    ),
    "6v6 defender losses": (
        _situation(6, "losses", s_is_attacker=False, hand_s=["RI", "MG", "CET"], hand_o=["MG", "MG", "CET"]),
        Pinned(
            events=["CET", "RI", None, "MG", None, None], energy=[0, 0, 4, 0, 1, 1],
            value=("109/36", "604325/1119744", "109/36", "34/9", 6, 3),
            co_optimal=3, encoding="0102 0103 0140 1001 1010 1010",
            response=[("MG", 2), (None, 0), ("MG", 0), (None, 2), (None, 2), ("CET", 0)],
            plans=(
                "0102 0103 0140 1001 1010 1010", "0102 0103 1021 0120 1010 1010", "0102 0103 1030 0120 1001 1010",
            ),
        ),
    ),
    "6v6 win revealed events": (
        _situation(6, "win", s_events_fixed={0: "MG"}, o_events_fixed={1: "RI", 2: None}),
        Pinned(
            events=["MG", "CET", "MG", None, None, None], energy=[1, 1, 0, 0, 2, 2],
            value=("877777/8503056", "877777/8503056", "25/6", "89/36", 6, 2),
            co_optimal=4, encoding="1011 1012 1001 0100 0120 0120",
            response=[("MG", 0), ("RI", 3), (None, 3), ("CET", 0), ("RI", 0), (None, 0)],
            plans=(
                "0131 0122 1001 0100 1001 1010", "0131 0122 1010 0100 1001 1001", "0131 1012 1001 0100 0120 1001",
                "1011 1012 1001 0100 0120 0120",
            ),
        ),
    ),
    "5v5 win opponent_worst offsets": (
        _situation(5, "win", allocator="O", mode="opponent_worst", offsets=(1, 0)),
        Pinned(
            events=["MG", "MG", "CET", None, None], energy=[0, 1, 0, 2, 2],
            value=("17881/839808", "17881/839808", "34/9", "31/12", 5, 3),
            co_optimal=2, encoding="1001 1011 0102 0120 0120",
            response=[("RI", 2), ("MG", 0), (None, 0), (None, 0), ("CET", 3)],
            plans=(
                "1001 1011 0102 0120 0120", "1011 1011 0102 0110 0120",
            ),
        ),
    ),
}

#: ``opponent_worst`` combats (WS-10.2). In the first, several allocations tie on the objective: the opponent's pick
#: is the one where our complete value is lowest (P(win) decides here), which
#: :func:`test_ws_10_2_opponent_worst_is_the_lowest_complete_value_over_the_splits` also checks against the splits
#: given one by one (an earlier advisor compared the value of a search the ceiling had cut short and answered
#: P(win) 183303185/362797056 with another split). In the second, an allocation first shown above the lowest
#: objective so far has to be searched to the end, and one after the final choice is only searched at the end.
OPPONENT_WORST: dict[str, tuple[Situation, Pinned]] = {
    "6v7 net opponent_worst ties": (
        _defender((3, 3), (5, 2), "net", energy_s=3, energy_o=2, hand_s=["MG", "RI"], hand_o=["MG", "CET"],
                  offsets=(0, 1)),
        Pinned(
            events=[None, None, "MG", None, None, "RI"], energy=[0, 0, 0, 0, 0, 3],
            value=("11/18", "382385/746496", "15/4", "157/36", 3, 2),
            co_optimal=1, encoding="1000 1000 1001 0100 0100 0133",
            response=[(None, 0), (None, 0), ("MG", 0), (None, 0), (None, 0), ("CET", 2)],
            plans=("1000 1000 1001 0100 0100 0133",),
        ),
    ),
    "6v7 no_loss opponent_worst": (
        _defender((5, 1), (2, 5), "no_loss", energy_s=3, energy_o=4, hand_s=["CET", "MG", "RI"],
                  hand_o=["MG", "CET", "RI"]),
        Pinned(
            events=[None, None, "CET", "RI", "MG", None], energy=[0, 0, 0, 0, 3, 0],
            value=("62963345/80621568", "122269865/241864704", "53/18", "65/18", 3, 3),
            co_optimal=6, encoding="1000 1000 1002 1003 1031 0100",
            response=[(None, 1), (None, 2), (None, 0), (None, 0), ("CET", 1), ("MG", 0)],
            plans=(
                "1000 1000 1002 1003 1031 0100", "1000 1001 1002 1003 1030 0100", "1000 1002 1003 1010 1021 0100",
                "1000 1002 1003 1011 1020 0100", "1001 1002 1003 1010 1020 0100", "1002 1003 1010 1010 1011 0100",
            ),
        ),
    ),
}
PINNED.update(OPPONENT_WORST)


def _check(sit: Situation, pin: Pinned) -> None:
    a = advise(sit)
    v = a.value
    assert (a.events, a.energy) == (pin.events, pin.energy)
    assert (v["objective"], v["p_win"], v["e_ls"], v["e_lo"], v["energy"], v["cards"]) == tuple(map(Fraction, pin.value))
    assert a.co_optimal == pin.co_optimal
    assert _groups(a.encoding) == pin.encoding
    assert tuple(_groups(p) for p in a.co_optimal_plans) == pin.plans
    assert a.response == pin.response


@pytest.mark.rule("WS-10.3", "WS-10.5", "WS-10.7", "WS-10.8")
@pytest.mark.parametrize("name", list(PINNED))
def test_ws_10_3_worst_case_advice_pinned(name: str) -> None:
    """WS-10.3, WS-10.7: the complete worst_case advice of mid-size combats equals the answers pinned before the
    numpy bounds (pruning and memoisation never change an answer)."""
    _check(*PINNED[name])


@pytest.mark.rule("WS-10.3", "WS-10.7")
@pytest.mark.parametrize("name", ["5v5 win", "5v5 no_loss", "5v5 losses"])
def test_ws_10_7_python_integer_laws_give_the_same_advice(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """WS-10.7: with every law and bound table in Python integers (what combats of more than 11 battles use, 36^k
    beyond int64) the advice is the same."""
    monkeypatch.setattr(LawSpace, "int64_battles", 0)
    _check(*PINNED[name])


@pytest.mark.rule("WS-10.2", "WS-10.3")
@pytest.mark.parametrize("name", list(OPPONENT_WORST))
@pytest.mark.parametrize("order", ["canonical", "reversed"])
def test_ws_10_2_opponent_worst_answer_does_not_depend_on_the_search_order(name: str, order: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """WS-10.2: whatever order the allocations are searched in, the advice is the canonical scan's."""
    def ordered(sit: Situation, alloc_list: list[Any]) -> list[int]:
        out = list(range(len(alloc_list)))
        return out if order == "canonical" else out[::-1]

    monkeypatch.setattr(advisor, "_passive_order", ordered)
    _check(*OPPONENT_WORST[name])


def _lowest_split(sit: Situation) -> Advice:
    """The oracle for mode ``opponent_worst``: every split given in turn (mode ``given``), the one where our value
    (WS-10.5 order: objective, P(win), our expected losses, theirs) is lowest, the first among equal ones."""
    lowest: tuple[Any, Advice] | None = None
    for slots in allocations(replace(sit, mode="ours")):
        a = advise(replace(sit, mode="given", allocation=[(s.o_pops, s.o_facs) for s in slots]))
        v = a.value
        key = (-v["objective"] if sit.objective == "losses" else v["objective"], v["p_win"], -v["e_ls"], v["e_lo"])
        if lowest is None or key < lowest[0]:
            lowest = (key, a)
    assert lowest is not None
    return lowest[1]


@pytest.mark.rule("WS-10.2", "WS-10.5", "WS-10.8")
@pytest.mark.parametrize("name", list(OPPONENT_WORST))
def test_ws_10_2_opponent_worst_is_the_lowest_complete_value_over_the_splits(name: str) -> None:
    """WS-10.2: the opponent picks the split where our best value (WS-10.5 order) is lowest, the first in canonical
    order among equal ones; the advice is that split's complete advice (mode ``given``), co-optimal count included."""
    sit, _ = OPPONENT_WORST[name]
    want, got = _lowest_split(sit), advise(sit)
    assert (got.value, got.co_optimal, got.encoding, got.co_optimal_plans) == (
        want.value, want.co_optimal, want.encoding, want.co_optimal_plans)


def _small_defence(seed: int) -> Situation:
    """A small random combat where the opponent allocates: 1 to 3 battles, random pools, hands, objective and model."""
    r = random.Random(seed)
    kinds = sorted((r.choice("PF") for _ in range(r.randint(1, 3))), key="PF".index)
    others = [0, 0]
    for _ in range(len(kinds) + r.randint(0, 3)):
        others[r.randint(0, 1)] += 1
    worst = r.random() < 0.5
    return Situation(
        s_is_attacker=r.random() < 0.5, on_world=r.random() < 0.7, s_pieces=(kinds.count("P"), kinds.count("F")),
        o_pieces=(others[0], others[1]), anchors=[(f"S.{k}{i}", k) for i, k in enumerate(kinds)], allocator="O",
        energy_s=r.randint(0, 3), energy_o=r.randint(0, 3), hand_s=r.sample(["MG", "MG", "CET", "RI"], r.randint(0, 2)),
        hand_o=r.sample(["MG", "CET", "RI"], r.randint(0, 2)) if worst else None, mode="opponent_worst",
        opponent="worst_case" if worst else "fixed", objective=r.choice(["win", "no_loss", "losses", "net"]),
    )


@pytest.mark.rule("WS-10.2", "WS-10.5", "WS-10.8")
def test_ws_10_2_opponent_worst_on_300_small_defences() -> None:
    """WS-10.2 on 300 random small defences (19 of them answered a cut search's value before this test existed)."""
    for seed in range(300):
        sit = _small_defence(seed)
        want, got = _lowest_split(sit), advise(sit)
        assert (got.value, got.co_optimal, got.encoding) == (want.value, want.co_optimal, want.encoding), seed
