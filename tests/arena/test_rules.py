"""The acceptance scenarios of docs/rules/arena.md (all but AR-A22, in test_solver.py, and AR-A26, in
test_fast.py) and the rule errors; each test names its scenario and rules with ``pytest.mark.rule``."""

from __future__ import annotations

import copy

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.match import state_fingerprint
from spacetable.games.arena import GAME
from spacetable.games.arena.board import BLUE, CODES, RED, can_capture, cannons, get_face, shields
from spacetable.games.arena.keys import position_key
from spacetable.games.arena.movement import destinations

from .arena_helpers import make, play, ships_on, texts


def dests(state, code: str) -> set[str]:
    face = state.face
    ship = CODES.index(code)
    return {face.cell_name(c) for c in destinations(face, state.loc, state.to_move, ship)}


@pytest.mark.rule("AR-A1", "AR-5.2", "AR-1.4")
def test_AR_A1_capture_table() -> None:
    """AR-A1 / AR-5.2: 48 of 64 pairs capture; 112 never takes 122; 111 takes 221; all take 111."""
    pairs = [(m, t) for m in range(8) for t in range(8) if can_capture(m, t)]
    assert len(pairs) == 48
    assert all((shields(t) <= cannons(m)) == can_capture(m, t) for m in range(8) for t in range(8))
    assert not can_capture(CODES.index("112"), CODES.index("122"))
    assert can_capture(CODES.index("111"), CODES.index("221"))
    assert all(can_capture(m, 0) for m in range(8))


@pytest.mark.rule("AR-A2", "AR-4.1", "AR-1.3")
def test_AR_A2_one_sail() -> None:
    st = make("6x4 111a1,112b3 111d6 r 0 -")
    assert dests(st, "112") == {"a3", "c3", "b2", "b4"}


@pytest.mark.rule("AR-A3", "AR-4.2", "AR-4.4")
def test_AR_A3_two_sails_open() -> None:
    st = make("5x5 111a1,211c3 111e5 r 0 -")
    assert dests(st, "211") == {"b3", "d3", "c2", "c4", "a3", "e3", "c1", "c5", "b2", "b4", "d2", "d4"}


@pytest.mark.rule("AR-A4", "AR-4.2", "AR-4.5")
def test_AR_A4_blocked_path() -> None:
    st = make("5x5 111a1,211c3,112c4 111e5 r 0 -")
    d = dests(st, "211")
    assert len(d) == 10 and "c4" not in d and "c5" not in d and {"b4", "d4"} <= d


@pytest.mark.rule("AR-A5", "AR-4.3", "AR-4.5", "AR-5.2")
def test_AR_A5_cannon_one_no_jumping() -> None:
    st = make("5x5 111a1,212c3 112c4,121d3,211c2,111e3 r 0 -")
    assert dests(st, "212") == {"b3", "a3", "b2", "b4", "d3", "c2"}
    with pytest.raises(RuleError) as e:
        play(st, "c3xc4")
    assert e.value.rule == "AR-5.2"
    with pytest.raises(RuleError) as e:
        play(st, "c3-d4")
    assert e.value.rule == "AR-4.5"


@pytest.mark.rule("AR-A6", "AR-4.2", "AR-4.3")
def test_AR_A6_no_u_turn_own_ships() -> None:
    st = make("6x4 221a1,111b1,112a3 111d6 r 0 -")
    assert dests(st, "221") == {"a2", "b2"}
    with pytest.raises(RuleError) as e:
        play(st, "a1-b1")
    assert e.value.rule == "AR-4.3"


@pytest.mark.rule("AR-A7", "AR-1.6", "AR-6.2", "AR-6.3", "AR-7.3", "AR-7.4")
def test_AR_A7_teleport_enumeration() -> None:
    st = make("6x4 111a1,222b1,112c1,121d1,211a2,122b2 111d6 r 0 -")
    acts = texts(st)
    tele = [a for a in acts if a[0] in "PR"]
    assert tele == ["P111", "P112", "P121", "P122", "RF+", "RF-"]
    assert len(acts) == 13
    assert ships_on(play(st, "P111"), RED)["111"] == "b1"
    after = ships_on(play(st, "P112"), RED)
    assert after["221"] == "c1" and "112" not in after
    after = ships_on(play(st, "P121"), RED)
    assert after["212"] == "d1" and "121" not in after
    after = ships_on(play(st, "P122"), RED)
    assert after["211"] == "b2" and after["122"] == "a2"
    after = ships_on(play(st, "RF+"), RED)
    assert (after["112"], after["121"], after["211"]) == ("d1", "a2", "c1")
    after = ships_on(play(st, "RF-"), RED)
    assert (after["112"], after["121"], after["211"]) == ("a2", "c1", "d1")


@pytest.mark.rule("AR-A8", "AR-7.2", "AR-7.3", "AR-7.5")
def test_AR_A8_rotation_with_banished_ship() -> None:
    st = make("6x4 111a1,122b2,212c2 111d6 r 0 -")
    plus = ships_on(play(st, "RD+"), RED)
    assert plus["212"] == "b2" and plus["221"] == "c2" and "122" not in plus
    minus = ships_on(play(st, "RD-"), RED)
    assert minus["221"] == "b2" and minus["122"] == "c2" and "212" not in minus
    assert len(plus) == len(minus) == 3


@pytest.mark.rule("AR-A9", "AR-6.4", "AR-7.4")
def test_AR_A9_not_available() -> None:
    st = make("6x4 111a1,122b2,211c2 111d6 r 0 -")
    acts = texts(st)
    assert "RD+" not in acts and "RD-" not in acts and "P112" not in acts
    with pytest.raises(RuleError) as e:
        play(st, "RD+")
    assert e.value.rule == "AR-7.4"
    with pytest.raises(RuleError) as e:
        play(st, "P112")
    assert e.value.rule == "AR-6.4"


@pytest.mark.rule("AR-A10", "AR-6.5", "AR-9.1", "AR-D2")
def test_AR_A10_corvette_swap() -> None:
    st = make("6x4 111a1,222c3 111d6 r 0 -")
    assert "P111" in texts(st)
    assert ships_on(play(st, "P111"), RED) == {"111": "c3", "222": "a1"}
    st = make("6x4 111a1,112c3 111d6 r 0 -")
    assert "P111" not in texts(st)
    before = state_fingerprint(GAME, st)
    with pytest.raises(RuleError) as e:
        play(st, "P111")
    assert e.value.rule == "AR-9.1"
    assert state_fingerprint(GAME, st) == before


@pytest.mark.rule("AR-A11", "AR-9.2")
def test_AR_A11_no_legal_action() -> None:
    st = make("6x4 111a1 112a2,122b1,111d6 r 0 -")
    out = GAME.outcome(st)
    assert out is not None and out.kind == "no_action" and out.details["winner_colour"] == "blue"
    assert out.scores == (0.0, 1.0)
    assert GAME.to_act(st) == ()


@pytest.mark.rule("AR-A12", "AR-8.1", "AR-8.2", "AR-8.6")
def test_AR_A12_bonus_enumeration() -> None:
    st = make("6x4 111a1,212b5,121c3,122d2,221a3 111d6 r 0 -")
    acts = texts(st)
    assert len(acts) == 33
    bonus = [a for a in acts if "/" in a]
    assert bonus == ["b5-b6/P121", "b5-b6/RD+", "b5-b6/RD-"]
    assert len([a for a in acts if a.startswith("b5")]) == 13
    assert [a for a in acts if a[0] in "PR"] == ["P112", "P121", "P122", "RD+", "RD-"]
    assert len([a for a in acts if "/" not in a and a[0] not in "PR"]) == 25
    r = ships_on(play(st, "b5-b6/P121"), RED)
    assert r["121"] == "b6" and r["212"] == "c3"
    r = ships_on(play(st, "b5-b6/RD+"), RED)
    assert (r["221"], r["212"], r["122"]) == ("b6", "d2", "a3")
    r = ships_on(play(st, "b5-b6/RD-"), RED)
    assert (r["122"], r["212"], r["221"]) == ("b6", "a3", "d2")
    for two_step in ("b5-a6/RD+", "b5-c6/P121"):
        with pytest.raises(RuleError) as e:
            play(st, two_step)
        assert e.value.rule == "AR-8.1"


@pytest.mark.rule("AR-A13", "AR-8.1", "AR-8.2", "AR-5.1")
def test_AR_A13_capture_and_sideways_bonus() -> None:
    st = make("6x4 111a1,221c5,112b2,122d6 111a6,112c6 r 0 -")
    acts = texts(st)
    assert len(acts) == 27
    assert [a for a in acts if a.startswith("c5xc6")] == ["c5xc6", "c5xc6/P112", "c5xc6/RD+", "c5xc6/RD-"]
    assert [a for a in acts if a.startswith("d6xc6")] == ["d6xc6", "d6xc6/P122", "d6xc6/RD+", "d6xc6/RD-"]
    assert "c5-b6" in acts and not any(a.startswith("c5-b6/") for a in acts)
    r = ships_on(play(st, "c5xc6/P112"), RED)
    assert r["112"] == "c6" and r["221"] == "b2"
    r = ships_on(play(st, "c5xc6/RD+"), RED)
    assert r["122"] == "c6" and r["212"] == "d6" and "221" not in r
    r = ships_on(play(st, "c5xc6/RD-"), RED)
    assert r["212"] == "c6" and r["221"] == "d6" and "122" not in r
    r = ships_on(play(st, "d6xc6/P122"), RED)
    assert r["211"] == "c6" and "122" not in r


@pytest.mark.rule("AR-A14", "AR-8.1", "AR-8.2")
def test_AR_A14_bonus_recall() -> None:
    st = make("5x5 111a1,211d4,112b2 111a5,121e5 r 0 -")
    acts = texts(st)
    assert [a for a in acts if a.startswith("d4-d5")] == ["d4-d5", "d4-d5/P122", "d4-d5/RF+", "d4-d5/RF-"]
    r = ships_on(play(st, "d4-d5/P122"), RED)
    assert r["122"] == "d5" and "211" not in r
    r = ships_on(play(st, "d4-d5/RF+"), RED)
    assert (r["121"], r["211"]) == ("d5", "b2") and "112" not in r
    r = ships_on(play(st, "d4-d5/RF-"), RED)
    assert (r["112"], r["121"]) == ("d5", "b2") and "211" not in r
    assert [a for a in acts if a.startswith("d4xe5")] == ["d4xe5"]


@pytest.mark.rule("AR-A15", "AR-8.1", "AR-9.1")
def test_AR_A15_corvette_bonus() -> None:
    st = make("6x4 111b5,222a1 111d6 r 0 -")
    assert [a for a in texts(st) if a.startswith("b5-b6")] == ["b5-b6", "b5-b6/P111"]
    assert ships_on(play(st, "b5-b6/P111"), RED) == {"222": "b6", "111": "a1"}
    st = make("6x4 111b5,112a1 111d6 r 0 -")
    assert [a for a in texts(st) if a.startswith("b5-b6")] == ["b5-b6"]


@pytest.mark.rule("AR-A16", "AR-10.1", "AR-5.4", "AR-8.5")
def test_AR_A16_win_by_corvette_capture() -> None:
    st = make("6x4 111a1,222c5 111c6,112a6 r 0 -")
    assert [a for a in texts(st) if a.startswith("c5xc6")] == ["c5xc6"]  # AR-8.5: no bonus
    with pytest.raises(RuleError) as e:
        play(st, "c5xc6/P111")
    assert e.value.rule == "AR-8.5"
    end = play(st, "c5xc6")
    out = GAME.outcome(end)
    assert out is not None and out.kind == "corvette" and out.scores == (1.0, 0.0)
    assert GAME.legal_actions(end, 1) == [] and GAME.to_act(end) == ()
    with pytest.raises(RuleError):
        GAME.apply(end, 1, {"type": "move", "from": "a6", "to": "a5", "bonus": None})


@pytest.mark.rule("AR-A17", "AR-5.3", "AR-10.2", "AR-10.3", "AR-D3")
def test_AR_A17_quiet_teleport() -> None:
    st = make("6x4 111a1,222b1,112c1,121d1,211a2,122b2 111d6,112c4 r 5 -")
    after = play(st, "P112")
    assert after.quiet == 6 and len(ships_on(after, RED)) == 6
    st = make("6x4 111a1,222c3 111d6,112c4 r 5 -")
    assert play(st, "c3xc4").quiet == 0


def _shuffle_until(state, plies: int):
    """Play plies of non-capturing shuffles from the default layout (a2-a3-a2 ... / d5-d4-d5 ...)."""
    moves = {RED: ["a2-a3", "a3-a2"], BLUE: ["d5-d4", "d4-d5"]}
    for i in range(plies):
        colour = state.to_move
        state = play(state, moves[colour][(i // 2) % 2])
    return state


@pytest.mark.rule("AR-A18", "AR-10.2")
def test_AR_A18_semi_victory_without_capture(default6) -> None:
    st = _shuffle_until(default6, 39)
    assert GAME.outcome(st) is None and st.quiet == 39
    st = _shuffle_until(default6, 40)
    out = GAME.outcome(st)
    assert out is not None and out.kind == "quiet_limit" and out.details["winner_colour"] == "blue"
    assert out.scores == (0.0, 0.5) and st.plies == 40
    assert GAME.returns(st) == [-0.5, 0.5]


def _toggle(st):
    """A quiet back-and-forth move: Red 211 d1<->d2, Blue 211 a6<->a5."""
    face = st.face
    if st.to_move == RED:
        return play(st, "d1-d2" if st.loc[RED][4] == face.parse_cell("d1") else "d2-d1")
    return play(st, "a6-a5" if st.loc[BLUE][4] == face.parse_cell("a6") else "a5-a6")


@pytest.mark.rule("AR-A19", "AR-10.2", "AR-10.3")
def test_AR_A19_semi_victory_after_captures() -> None:
    # Red captures on ply 7 (from a position with quiet 6), then 40 quiet plies end it at ply 47.
    st = make("6x4 111a1,222b3,211d1 111d6,112b4,211a6 r 6 -")
    st.plies = 6
    st = play(st, "b3xb4")
    assert st.plies == 7 and st.quiet == 0 and st.last_capturer == RED
    while GAME.outcome(st) is None:
        st = _toggle(st)
    out = GAME.outcome(st)
    assert out is not None and st.plies == 47 and out.kind == "quiet_limit" and out.details["winner_colour"] == "red"
    # Blue also captures on ply 30 -> ends after ply 70, Blue semi-victory.
    st = make("6x4 111a1,222b3,211d1,112c2 111d6,112b4,211a6,221c4 r 6 -")
    st.plies = 6
    st = play(st, "b3xb4")
    while st.plies < 29:
        st = _toggle(st)
    st = play(st, "c4xc2")
    assert st.plies == 30 and st.last_capturer == BLUE
    while GAME.outcome(st) is None:
        st = _toggle(st)
    out = GAME.outcome(st)
    assert out is not None and st.plies == 70 and out.details["winner_colour"] == "blue" and out.scores[1] == 0.5


@pytest.mark.rule("AR-A20", "AR-10.4", "AR-D7")
def test_AR_A20_agreement() -> None:
    st = make("6x4 111a1,222b3 111d6,112c4 b 3 r")
    offered = play(st, "c4-c5=")
    assert offered.offer == BLUE and offered.quiet == 4
    assert texts(offered)[-1] == "accept"
    end = play(offered, "accept")
    out = GAME.outcome(end)
    assert out is not None and out.kind == "agreement" and out.details["winner_colour"] == "red" and out.scores == (0.5, 0.0)
    lapsed = play(offered, "a1-a2")
    assert lapsed.offer == -1 and GAME.outcome(lapsed) is None
    with pytest.raises(RuleError) as e:
        play(lapsed, "accept")
    assert e.value.rule == "AR-10.4"


@pytest.mark.rule("AR-A21", "AR-8.3", "AR-8.4")
def test_AR_A21_bonus_optional_and_single() -> None:
    st = make("6x4 111a1,212b5,121c3,122d2,221a3 111d6 r 0 -")
    after = play(st, "b5-b6")
    assert ships_on(after, RED)["212"] == "b6" and after.to_move == BLUE
    for a in GAME.legal_actions(st, 0):
        if a["type"] == "move" and a["bonus"] is not None:
            assert a["bonus"]["type"] in ("permute", "rotate") and "bonus" not in a["bonus"]
    with pytest.raises(RuleError):
        GAME.apply(st, 0, {"type": "move", "from": "b5", "to": "b6", "bonus": {"type": "move", "from": "c3", "to": "c4"}})


@pytest.mark.rule("AR-A23", "AR-2.5", "AR-2.6", "AR-0.3")
@pytest.mark.parametrize("board", ["6x4", "5x5"])
def test_AR_A23_default_setup(board: str) -> None:
    st = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 1)
    face = get_face(board)
    for colour in (RED, BLUE):
        assert sorted(st.loc[colour]) == sorted(face.home(colour))
        corv = st.loc[colour][0]
        own = {c: s for s, c in enumerate(st.loc[colour])}
        for nbr in face.neighbours(corv):
            assert nbr in own and shields(own[nbr]) == 2
    assert st.loc[BLUE] == [face.mirror_rank(c) for c in st.loc[RED]]
    for colour in (RED, BLUE):
        probe = copy.deepcopy(st)
        probe.to_move = colour
        cells = set(probe.loc[1 - colour])
        for a in GAME.legal_actions(probe, probe.seat_of(colour)):
            if a["type"] == "move":
                assert face.parse_cell(a["to"]) not in cells  # no capture on the first ply
    assert "house default layout" in GAME.view(st, 0)["layout_label"]


@pytest.mark.rule("AR-A24", "AR-2.7", "AR-2.4", "AR-D8")
def test_AR_A24_free_placement_alternate() -> None:
    st = GAME.initial_state(GAME.normalize_config({"setup": "free", "red_seat": 1}), 3)
    assert st.phase == "place"
    placers = []
    order = {RED: ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"], BLUE: ["a6", "b6", "c6", "d6", "a5", "b5", "c5", "d5"]}
    with pytest.raises(RuleError) as e:
        GAME.apply(st, 1, {"type": "place", "ship": "111", "cell": "a3"})
    assert e.value.rule == "AR-2.4"
    for i in range(16):
        colour = st.to_move
        seat = st.seat_of(colour)
        placers.append(colour)
        if i == 2:
            with pytest.raises(RuleError) as e:
                GAME.apply(st, seat, {"type": "place", "ship": "111", "cell": "b1"})
            assert e.value.rule == "AR-2.7"  # ship twice
            with pytest.raises(RuleError) as e:
                GAME.apply(st, seat, {"type": "place", "ship": "112", "cell": "a1"})
            assert e.value.rule == "AR-2.7"  # occupied
        st = GAME.apply(st, seat, {"type": "place", "ship": CODES[i // 2], "cell": order[colour][i // 2]})
    assert placers == [RED, BLUE] * 8
    assert st.phase == "play" and st.to_move == RED and st.quiet == 0 and GAME.to_act(st) == (1,)


@pytest.mark.rule("AR-A24", "AR-2.7")
def test_AR_A24_free_placement_simultaneous_hidden() -> None:
    st = GAME.initial_state(GAME.normalize_config({"setup": "free", "placement": "simultaneous", "red_seat": 0}), 3)
    assert GAME.to_act(st) == (0, 1)
    lay_red = GAME.legal_actions(st, 0)[1]
    st1 = GAME.apply(st, 0, lay_red)
    assert GAME.to_act(st1) == (1,)
    blue_view = GAME.view(st1, 1)
    assert blue_view["ships"] == [] and blue_view["placement"]["own"] is None
    assert blue_view["placement"]["committed"] == {"0": True, "1": False}
    assert "a1" not in str(GAME.action_view(st, 0, lay_red, 1))
    assert GAME.view(st1, 0)["placement"]["own"] == lay_red["cells"]
    det = GAME.determinize(st1, 1, __import__("spacetable.core.rng", fromlist=["Rng"]).Rng(5))
    assert det.sealed is not None and sorted(det.sealed.commits[0]) != [] and det.loc == st1.loc
    with pytest.raises(RuleError) as e:
        GAME.apply(st1, 1, {"type": "layout", "cells": {"a1": "111"}})
    assert e.value.rule == "AR-2.7"
    st2 = GAME.apply(st1, 1, GAME.legal_actions(st1, 1)[0])
    assert st2.phase == "play" and st2.to_move == RED and len(GAME.view(st2, 1)["ships"]) == 16


@pytest.mark.rule("AR-A25")
def test_AR_A25_keys(default6) -> None:
    a = play(play(play(play(default6, "a2-a3"), "d5-d4"), "b2-b3"), "c5-c4")
    b = play(play(play(play(default6, "b2-b3"), "c5-c4"), "a2-a3"), "d5-d4")
    assert position_key(a) == position_key(b)
    flipped = copy.deepcopy(a)
    flipped.to_move = BLUE
    assert position_key(flipped) != position_key(a)
    face = a.face
    mirror = copy.deepcopy(a)
    mirror.loc = [[face.mirror_file(c) if c < face.size else c for c in row] for row in a.loc]
    assert position_key(mirror) != position_key(a)
    assert position_key(mirror, canonical=True) == position_key(a, canonical=True)


@pytest.mark.rule("AR-0.1", "AR-3.2", "AR-4.2", "AR-4.3", "AR-10.4")
def test_rejected_actions_name_rules_and_keep_state(default6) -> None:
    """Every rejection names an AR id (or CORE-*) and leaves the state unchanged (AR-0.1)."""
    before = state_fingerprint(GAME, default6)
    cases = {
        "a2-a5": "AR-4.2", "b1-b2": "AR-4.3", "a3-a4": "AR-3.2", "a1-a2": "AR-4.3", "a2-z9": "AR-4.3",
        "accept": "AR-10.4",
    }
    for text, rule in cases.items():
        with pytest.raises(RuleError) as e:
            play(default6, text)
        assert e.value.rule == rule, text
    with pytest.raises(RuleError) as e:
        GAME.apply(default6, 1, {"type": "move", "from": "a5", "to": "a4", "bonus": None})
    assert e.value.rule == "CORE-TURN"
    with pytest.raises(RuleError) as e:
        GAME.apply(default6, 0, {"type": "fly"})
    assert e.value.rule == "CORE-ACTION"
    with pytest.raises(RuleError) as e:
        GAME.apply(default6, 0, {"type": "place", "ship": "111", "cell": "a3"})
    assert e.value.rule == "AR-2.7"
    assert state_fingerprint(GAME, default6) == before


@pytest.mark.rule("AR-10.5", "AR-2.2")
def test_resignation_and_colour_draw() -> None:
    """AR-10.5 resignation; AR-2.2 seeded colour draw, Red first."""
    seats = {GAME.initial_state(GAME.normalize_config({}), seed).red_seat for seed in range(20)}
    assert seats == {0, 1}
    st = GAME.initial_state(GAME.normalize_config({}), 4)
    assert GAME.to_act(st) == (st.red_seat,)
    end = GAME.apply(st, 1 - st.red_seat, {"type": "resign"})
    out = GAME.outcome(end)
    assert out is not None and out.kind == "resignation" and out.winners == (st.red_seat,) and out.scores[st.red_seat] == 1.0


@pytest.mark.rule("AR-2.4")
def test_AR_2_4_home_areas_and_wide_option() -> None:
    """AR-2.4: home areas of 8 cells; `home: wide` (5x5 only) opens both full home ranks."""
    from spacetable.core.errors import ConfigError

    face = get_face("5x5")
    assert [face.cell_name(c) for c in face.home(RED)] == ["a1", "b1", "c1", "d1", "e1", "b2", "c2", "d2"]
    assert [face.cell_name(c) for c in face.home(BLUE)] == ["b4", "c4", "d4", "a5", "b5", "c5", "d5", "e5"]
    assert len(face.home(RED, wide=True)) == 10
    six = get_face("6x4")
    assert [six.cell_name(c) for c in six.home(BLUE)] == ["a5", "b5", "c5", "d5", "a6", "b6", "c6", "d6"]
    narrow = GAME.initial_state(GAME.normalize_config({"board": "5x5", "setup": "free", "red_seat": 0}), 1)
    with pytest.raises(RuleError) as e:
        GAME.apply(narrow, 0, {"type": "place", "ship": "111", "cell": "a2"})
    assert e.value.rule == "AR-2.4"
    wide = GAME.initial_state(GAME.normalize_config({"board": "5x5", "setup": "free", "home": "wide", "red_seat": 0}), 1)
    assert GAME.apply(wide, 0, {"type": "place", "ship": "111", "cell": "a2"}).loc[RED][0] == face.parse_cell("a2")
    with pytest.raises(ConfigError):
        GAME.normalize_config({"board": "6x4", "home": "wide"})
