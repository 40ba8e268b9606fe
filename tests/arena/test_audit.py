"""Second-pass rules audit of arena (docs/rules/arena.md): regressions for the deviations found,
and checks that the alpha-beta player is tactically sound (AR-10.1, AR-5.4, AR-11)."""

from __future__ import annotations

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.rng import Rng
from spacetable.games.arena import GAME, fast
from spacetable.games.arena.ai import AlphaBetaAgent, SearchTables, search
from spacetable.games.arena.cli import reference_perft
from spacetable.games.arena.setup import parse_layout

from .arena_helpers import make


# ------------------------------------------------------------------------- AR-2.7 layouts
@pytest.mark.rule("AR-2.7", "AR-1.7")
def test_AR_2_7_simultaneous_layout_rejects_two_ships_on_one_cell() -> None:
    """AR-2.7 / AR-1.7: a sealed layout puts the 8 ships on *distinct* cells; "a1" and "A1" name one cell."""
    st = GAME.initial_state(GAME.normalize_config({"setup": "free", "placement": "simultaneous", "red_seat": 0}), 3)
    cells = {"a1": "111", "A1": "112", "b1": "121", "c1": "122", "d1": "211", "a2": "212", "b2": "221", "c2": "222"}
    with pytest.raises(RuleError) as e:
        GAME.apply(st, 0, {"type": "layout", "cells": cells})
    assert e.value.rule == "AR-2.7"
    assert GAME.to_act(st) == (0, 1) and st.sealed is not None and st.sealed.commits == {}
    with pytest.raises(RuleError) as e:
        parse_layout(st.face, 0, cells, False)
    assert e.value.rule == "AR-2.7"


@pytest.mark.rule("AR-2.7")
def test_AR_2_7_layout_with_every_ship_once_is_accepted_in_any_order() -> None:
    """AR-2.7: any assignment of the 8 ships to distinct home cells is legal (not only the listed two)."""
    st = GAME.initial_state(GAME.normalize_config({"setup": "free", "placement": "simultaneous", "red_seat": 0}), 3)
    cells = {"a1": "111", "b1": "112", "c1": "121", "d1": "122", "a2": "211", "b2": "212", "c2": "221", "d2": "222"}
    after = GAME.apply(st, 0, {"type": "layout", "cells": cells})
    assert GAME.to_act(after) == (1,)


# ------------------------------------------------------------------------- perft
POS_CORVETTE_CAPTURE = "6x4 111a1,222c5 111c6,112a6 r 0 -"  # c5xc6 ends the game (AR-10.1)


@pytest.mark.rule("AR-3.2", "AR-5.4")
def test_perft_counts_a_game_ending_turn_as_a_leaf_at_the_last_depth() -> None:
    """Issue (perft): leaves of the turn tree; a terminal position has no actions, so it is a leaf only at
    the final depth. Depth 1 counts c5xc6; --divide then shows 1 below it and sums to the same total."""
    st = make(POS_CORVETTE_CAPTURE)
    total = len(GAME.legal_actions(st, 0))
    assert reference_perft(st, 1) == fast.run_perft(fast.to_array(st), "6x4", 1) == total
    seat = st.seat_of(st.to_move)
    children = [GAME.apply(st, seat, a) for a in GAME.legal_actions(st, seat)]
    assert any(c.phase == "over" for c in children)
    for depth in (1, 2, 3):
        by_child = sum(reference_perft(c, depth - 1) for c in children)
        fast_child = sum(fast.run_perft(fast.to_array(c), "6x4", depth - 1) for c in children)
        assert reference_perft(st, depth) == fast.run_perft(fast.to_array(st), "6x4", depth) == by_child == fast_child


@pytest.mark.rule("AR-3.2")
def test_perft_divide_sums_to_the_total(monkeypatch, capsys) -> None:
    """`spacetable perft arena --divide`: the per-action counts add up to the last line (the total)."""
    import io
    import sys

    from spacetable.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    for depth in ("1", "2"):
        main(["perft", "arena", "--depth", depth, "--position", POS_CORVETTE_CAPTURE])
        total = int(capsys.readouterr().out.strip().splitlines()[-1])
        main(["perft", "arena", "--depth", depth, "--divide", "--position", POS_CORVETTE_CAPTURE])
        lines = capsys.readouterr().out.strip().splitlines()
        assert "c5xc6: 1" in lines or depth != "1"
        assert int(lines[-1]) == total == sum(int(x.rsplit(": ", 1)[1]) for x in lines[:-1])


# ------------------------------------------------------------------------- alpha-beta
@pytest.mark.rule("AR-A22", "AR-11.3")
def test_AR_A22_alphabeta_reports_exact_win_distances_with_a_reused_table() -> None:
    """AR-A22 example (6x4, R a1, B d5: Red wins in 13): terminal scores kept in the transposition table are
    stored relative to the node, so every later search (same table) reports the solver's exact distance."""
    from spacetable.games.arena.solver import solve

    tb = solve("6x4", 1, 1)
    tables = SearchTables()
    st = make("6x4 111a1 111d5 r 0 -")
    while GAME.outcome(st) is None:
        result, plies = tb.probe(st)
        code, value, _depth, _nodes = search(fast.to_array(st), "6x4", 30.0, max_depth=16, tables=tables)
        assert (result, plies) == (("win", 100000 - value) if value > 0 else ("loss", 100000 + value))
        st = GAME.apply(st, st.seat_of(st.to_move), fast.code_to_action(st, code))
    assert st.kind == "corvette" and st.winner == 0 and st.plies == 13


def _children(st, board: str) -> list:
    geo, nb = fast.tables(board)
    out = []
    for code in fast.legal_codes(st, board):
        child = st.copy()
        fast.play(child, code, geo, nb)
        out.append((code, child))
    return out


def _takes_corvette(child, side: int) -> bool:
    return bool(child[19] == side and child[20] == 1)


def _forced_capture(st, board: str, plies: int) -> bool:
    """Brute force: the side to move can force the capture of the enemy corvette within ``plies`` (1 or 3)."""
    side = int(st[16])
    for _code, child in _children(st, board):
        if _takes_corvette(child, side):
            return True
        if plies >= 3 and child[19] < 0:
            replies = _children(child, board)
            if replies and all(r[19] < 0 and _forced_capture(r, board, 1) for _c, r in replies):
                return True
    return False


@pytest.mark.rule("AR-10.1", "AR-5.4")
def test_AR_10_1_alphabeta_never_misses_a_corvette_capture_within_3_plies_and_defends() -> None:
    """AR-10.1 / AR-5.4 tactics on positions met in seeded random games of both faces, at 0.02 s per move:
    whenever a capture of the enemy corvette can be forced within 1 or 3 plies, the chosen action keeps it
    forced; whenever the own corvette is attacked and some action saves it for one ply, the chosen action does."""
    agent = AlphaBetaAgent(0, 0.02)
    rng = Rng(2024)
    checked = {"win1": 0, "win3": 0, "defend": 0}
    for g in range(6):
        board = ("6x4", "5x5")[g % 2]
        state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), g)
        while GAME.outcome(state) is None and state.plies < 160:
            seat, side = state.seat_of(state.to_move), state.to_move
            st = fast.to_array(state)
            win1 = _forced_capture(st, board, 1)
            win3 = not win1 and checked["win3"] < 25 and _forced_capture(st, board, 3)
            kids = _children(st, board)
            safe = {c for c, ch in kids if ch[19] >= 0 or not _forced_capture(ch, board, 1)}
            if win1 or win3 or (safe and len(safe) < len(kids)):
                code = fast.action_to_code(state, agent.choose(GAME, state, seat))
                child = dict(kids)[code]
                if win1:
                    assert _takes_corvette(child, side), state
                    checked["win1"] += 1
                elif win3:
                    replies = _children(child, board)
                    assert _takes_corvette(child, side) or all(_forced_capture(r, board, 1) for _c, r in replies), state
                    checked["win3"] += 1
                else:
                    assert code in safe, state
                    checked["defend"] += 1
            acts = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, acts[rng.randbelow(len(acts))])
    assert min(checked.values()) >= 5, checked


# ------------------------------------------------------------------------- terminal play
def _play(monkeypatch, capsys, argv: list[str], stdin: str) -> str:
    import io
    import sys

    from spacetable.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main(["play", "arena", *argv]) == 0
    return str(capsys.readouterr().out)


@pytest.mark.rule("AR-10.5")
def test_play_shows_the_result_once_and_whether_you_won(monkeypatch, capsys) -> None:
    """AR-10.5 in the terminal: the result line appears once, followed by "You win."/"You lose."."""
    out = _play(monkeypatch, capsys, ["--vs", "random", "--red-seat", "0", "--position", POS_CORVETTE_CAPTURE], "c5xc6\n")
    assert out.count("Result: Red wins 1–0 (corvette) after 1 ply") == 1 and "You win." in out
    out = _play(monkeypatch, capsys, ["--vs", "random", "--red-seat", "1", "--seed", "3"], "resign\n")
    assert out.count("Result: Red wins 1–0 (resignation)") == 1 and "You lose." in out


@pytest.mark.rule("AR-2.4", "AR-2.7")
def test_play_free_placement_marks_the_home_areas(monkeypatch, capsys, tmp_path) -> None:
    """AR-2.4 / AR-2.7 in the terminal: empty home cells are drawn as ':' while placing; quitting early
    says how to resume a saved match."""
    save = tmp_path / "p.json"
    out = _play(monkeypatch, capsys, ["--board", "5x5", "--setup", "free", "--vs", "random", "--red-seat", "0",
                                      "--seed", "2", "--save", str(save)], "111@a5\n111@c1\nquit\n")
    first = out.split("your action>")[0]
    assert "1 |  :    :    :    :    :   |" in first and "2 |  .    :    :    :    .   |" in first
    flat = " ".join(out.split())  # rich wraps long lines at the console width
    assert "illegal: [AR-2.4]" in flat and "continue with --load" in flat and save.exists()


# ------------------------------------------------------------------------- independent generator, mid-game
@pytest.mark.rule("AR-3.2", "AR-3.3", "AR-4.1", "AR-4.2", "AR-4.3", "AR-4.4", "AR-4.5", "AR-5.1", "AR-5.2", "AR-6.1",
                  "AR-6.2", "AR-6.3", "AR-6.4", "AR-7.1", "AR-7.3", "AR-7.4", "AR-8.1", "AR-8.2", "AR-9.1")
def test_every_turn_result_matches_the_independent_generator_in_random_positions() -> None:
    """Movement, capture, teleports, bonuses and the own-corvette rule: in positions met in seeded random
    games (banished ships, recalls, bonus rows), the
    multiset of positions reached by the reference engine's legal turns equals the one produced by the
    independent generator of test_fast.py (written from the rules, no engine code); corvette captures agree."""
    from collections import Counter

    from .test_fast import CODES as CODE_LIST
    from .test_fast import _turns

    rng = Rng(77)
    checked = 0
    for i in range(60):
        board = ("6x4", "5x5")[i % 2]
        state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 100 + i)
        for _ in range(4 + rng.randbelow(70)):
            if GAME.outcome(state) is not None:
                break
            acts = GAME.legal_actions(state, state.seat_of(state.to_move))
            state = GAME.apply(state, state.seat_of(state.to_move), acts[rng.randbelow(len(acts))])
        if GAME.outcome(state) is not None:
            continue
        face = state.face
        w, h = face.width, face.height

        def cells_of(loc, w: int = w, n: int = face.size) -> frozenset:
            return frozenset(((c % w, c // w), ("R", "B")[col], CODE_LIST[s])
                             for col in (0, 1) for s, c in enumerate(loc[col]) if c < n)

        seat = state.seat_of(state.to_move)
        mine = Counter()
        for action in GAME.legal_actions(state, seat):
            if action["type"] == "accept_end":
                continue
            child = GAME.apply(state, seat, action)
            mine[(cells_of(child.loc), child.kind == "corvette")] += 1
        cells = {(c % w, c // w): (("R", "B")[col], CODE_LIST[s])
                 for col in (0, 1) for s, c in enumerate(state.loc[col]) if c < face.size}
        theirs = Counter()
        for new, corvette in _turns(w, h, cells, ("R", "B")[state.to_move]):
            theirs[(frozenset((xy, v[0], v[1]) for xy, v in new.items()), corvette)] += 1
        assert mine == theirs, format_position_of(state)
        checked += 1
    assert checked >= 30


def format_position_of(state) -> str:
    from spacetable.games.arena.notation import format_position

    return format_position(state)


@pytest.mark.rule("AR-2.7")
def test_play_simultaneous_placement_in_the_terminal(monkeypatch, capsys) -> None:
    """AR-2.7 simultaneous mode in the terminal: both sides place at once, the human types a full layout
    (any order of ships), the AI's layout is announced sealed, then play starts with Red (AR-2.2)."""
    out = _play(monkeypatch, capsys, ["--setup", "free", "--placement", "simultaneous", "--vs", "random", "--red-seat",
                                      "0", "--seed", "4"],
                "layout 222a1,111b1,112c1,121d1,122a2,211b2,212c2,221d2\nview\nquit\n")
    flat = " ".join(out.split())
    assert "Both sides to place" in flat and "AI (random) plays: layout (sealed)" in flat
    assert "6x4 111b1,112c1,121d1,122a2,211b2,212c2,221d2,222a1 " in out and "Red to move ply 0" in flat


@pytest.mark.rule("AR-A16")
def test_play_undo_after_the_game_ended(monkeypatch, capsys) -> None:
    """Issue (terminal play): undo of one's own move against the AI also works once the game is over
    (AR-A16: the corvette capture is taken back and play goes on); other actions are refused then."""
    out = _play(monkeypatch, capsys, ["--vs", "random", "--red-seat", "0", "--position", POS_CORVETTE_CAPTURE],
                "c5xc6\nc5-c4\nundo\nview\nquit\n")
    flat = " ".join(out.split())
    assert "You win." in flat and "the game is over; try undo" in flat and "taken back" in flat
    assert "6x4 111a1,222c5 111c6,112a6 r 0 - -" in out and flat.endswith("Game not finished.")


@pytest.mark.rule("AR-10.6", "AR-10.2", "AR-9.2")
@pytest.mark.parametrize(("quiet", "kind", "winner", "points"), [(39, "quiet_limit", 1, 0.5), (38, "no_action", 0, 1.0)])
def test_AR_10_6_quiet_limit_is_checked_before_no_action(quiet: int, kind: str, winner: int, points: float) -> None:
    """AR-10.6: after Red's quiet step c6-b6 the lone Blue corvette on a6 has no legal action (AR-9.2). With
    the 40th quiet ply, check (2) comes first: the quiet limit ends the game, Blue (nobody captured) wins ½–0
    (AR-10.2); one ply earlier, check (3) applies and Red wins 1–0 (kind no_action)."""
    st = make(f"6x4 111d1,122a5,112c6 111a6 r {quiet} -")
    end = play_text(st, "c6-b6")
    out = GAME.outcome(end)
    assert out is not None and end.kind == kind and end.winner == winner and end.points == points
    assert out.scores[end.seat_of(winner)] == points
    arr = fast.to_array(st)  # the compiled path applies the same order of checks
    geo, nb = fast.tables("6x4")
    fast.play(arr, fast.action_to_code(st, GAME.parse_action(st, 0, "c6-b6")), geo, nb)
    assert (fast.to_array(end) == arr).all()


def play_text(state, text: str):
    seat = state.seat_of(state.to_move)
    return GAME.apply(state, seat, GAME.parse_action(state, seat, text))


@pytest.mark.rule("AR-0.3", "AR-D1")
def test_AR_0_3_house_layout_is_labelled_in_play_saves_and_replays(monkeypatch, capsys, tmp_path) -> None:
    """AR-0.3: the default layout is labelled "house default layout (the original setup is unknown)" at the
    play prompt, in the saved match log and in `spacetable replay`."""
    import io
    import json
    import sys

    from spacetable.cli import main

    save = tmp_path / "h.json"
    out = _play(monkeypatch, capsys, ["--vs", "random", "--red-seat", "0", "--seed", "1", "--save", str(save)], "quit\n")
    label = "house default layout (the original setup is unknown)"
    assert label in " ".join(out.split())
    assert json.loads(save.read_text())["config"]["setup"] == "default"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["replay", str(save)]) == 0
    assert label in " ".join(capsys.readouterr().out.split())
