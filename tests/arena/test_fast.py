"""Perft regression (cross-checked by an independent generator written here), equivalence of the
compiled fast path with the reference rules, and AR-A26 bounds."""

from __future__ import annotations

import numpy as np
import pytest

from spacetable.core.rng import Rng
from spacetable.games.arena import GAME, fast
from spacetable.games.arena.cli import reference_perft

from .arena_helpers import make

PERFT = {"6x4": [22, 470, 10805, 242673], "5x5": [17, 288, 5677, 110871]}

# ----------------------------------------------------------------------------------------------
# A second, independent, deliberately simple move generator (coordinates and dicts; no engine code).
# Ships are code strings "sch" (sails, cannons, shields); a position is {(file, rank): (colour, code)}
# plus the reserve sets.
# ----------------------------------------------------------------------------------------------
CODES = ["111", "112", "121", "122", "211", "212", "221", "222"]
FRIG = ["112", "121", "211"]
DEST = ["122", "221", "212"]


def _rotl(code: str) -> str:
    return code[1:] + code[0]


def _start(board: str) -> tuple[int, int, dict]:
    if board == "6x4":
        w, h = 4, 6
        back, front = ["112", "111", "122", "121"], ["211", "222", "221", "212"]
        cells = {}
        for f in range(w):
            cells[(f, 0)] = ("R", back[f])
            cells[(f, 1)] = ("R", front[f])
            cells[(f, 5)] = ("B", back[f])
            cells[(f, 4)] = ("B", front[f])
        return w, h, cells
    w, h = 5, 5
    back, front = ["211", "222", "111", "212", "221"], [None, "121", "122", "112", None]
    cells = {}
    for f in range(w):
        cells[(f, 0)] = ("R", back[f])
        cells[(f, 4)] = ("B", back[f])
        if front[f]:
            cells[(f, 1)] = ("R", front[f])
            cells[(f, 3)] = ("B", front[f])
    return w, h, cells


def _slots(cells: dict, colour: str) -> dict[str, tuple[int, int] | None]:
    out: dict[str, tuple[int, int] | None] = dict.fromkeys(CODES)
    for xy, (c, code) in cells.items():
        if c == colour:
            out[code] = xy
    return out


def _place(cells: dict, colour: str, slots: dict) -> dict:
    new = {xy: v for xy, v in cells.items() if v[0] != colour}
    for code, xy in slots.items():
        if xy is not None:
            new[xy] = (colour, code)
    return new


def _teleports(slots: dict) -> list[dict]:
    """All results of permutations and rotations (AR-6, AR-7, AR-9.1) as new slot dicts with names."""
    out = []
    for low in ["111", "112", "121", "122"]:
        high = "".join(str(3 - int(d)) for d in low)
        if slots[low] is None and slots[high] is None:
            continue
        new = dict(slots)
        new[low], new[high] = slots[high], slots[low]
        if new["111"] is None:
            continue
        out.append(("P" + low, new))
    for cls, ring in (("F", FRIG), ("D", DEST)):
        if sum(slots[c] is not None for c in ring) < 2:
            continue
        for sign in "+-":
            new = dict(slots)
            for c in ring:
                src = _rotl(c) if sign == "+" else _rotl(_rotl(c))
                new[c] = slots[src]
            out.append(("R" + cls + sign, new))
    return out


def _turns(w: int, h: int, cells: dict, colour: str) -> list[tuple[dict, bool]]:
    """(resulting cells, corvette captured) for every turn action."""
    far = h - 1 if colour == "R" else 0
    results = []
    for (x, y), (c, code) in list(cells.items()):
        if c != colour:
            continue
        targets = set()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a = (x + dx, y + dy)
            if not (0 <= a[0] < w and 0 <= a[1] < h):
                continue
            targets.add(a)
            if code[0] == "2" and a not in cells:
                for ex, ey in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    b = (a[0] + ex, a[1] + ey)
                    if b != (x, y) and 0 <= b[0] < w and 0 <= b[1] < h:
                        targets.add(b)
        for t in targets:
            occ = cells.get(t)
            if occ is not None and (occ[0] == colour or int(occ[1][2]) > int(code[1])):
                continue
            new = {k: v for k, v in cells.items() if k != (x, y)}
            new[t] = (colour, code)
            corvette = occ is not None and occ[1] == "111"
            results.append((new, corvette))
            if not corvette and abs(t[0] - x) + abs(t[1] - y) == 1 and t[1] == far:
                for name, slots in _teleports(_slots(new, colour)):
                    if name[0] == "P":
                        takes_part = code in (name[1:], "".join(str(3 - int(d)) for d in name[1:]))
                    else:
                        takes_part = code in (FRIG if name[1] == "F" else DEST)
                    if takes_part:  # AR-8.2
                        results.append((_place(new, colour, slots), False))
    for _name, slots in _teleports(_slots(cells, colour)):
        results.append((_place(cells, colour, slots), False))
    return results


def _simple_perft(w: int, h: int, cells: dict, colour: str, depth: int) -> int:
    turns = _turns(w, h, cells, colour)
    if not turns:
        return 0  # AR-9.2: the game is over
    if depth == 1:
        return len(turns)
    other = "B" if colour == "R" else "R"
    total = 0
    for new, corvette in turns:
        if corvette:
            continue
        total += _simple_perft(w, h, new, other, depth - 1)
    return total


@pytest.mark.rule("AR-3.2", "AR-8.6")
@pytest.mark.parametrize("board", ["6x4", "5x5"])
def test_perft_regression_and_independent_generator(board: str) -> None:
    """Perft depths 1–3 of the default layouts: reference engine == fast path == independent generator."""
    state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 0)
    w, h, cells = _start(board)
    for depth in (1, 2, 3):
        want = PERFT[board][depth - 1]
        assert reference_perft(state, depth) == want
        assert fast.run_perft(fast.to_array(state), board, depth) == want
        assert _simple_perft(w, h, cells, "R", depth) == want
    assert fast.run_perft(fast.to_array(state), board, 4) == PERFT[board][3]


@pytest.mark.rule("AR-8.1", "AR-8.2", "AR-8.6")
@pytest.mark.parametrize("position", [
    "6x4 111a1,212b5,121c3,122d2,221a3 111d6 r 0 -",
    "6x4 111a1,221c5,112b2,122d6 111a6,112c6 r 0 -",
    "5x5 111a1,211d4,112b2 111a5,121e5 r 0 -",
])
def test_perft_on_bonus_positions_matches_independent_generator(position: str) -> None:
    state = make(position)
    w, h = state.face.width, state.face.height
    cells = {}
    for colour, letter in ((0, "R"), (1, "B")):
        for ship, c in enumerate(state.loc[colour]):
            if c < state.face.size:
                cells[(c % w, c // w)] = (letter, CODES[ship])
    for depth in (1, 2, 3):
        assert reference_perft(state, depth) == _simple_perft(w, h, cells, "R", depth) == \
            fast.run_perft(fast.to_array(state), state.board, depth)


def _random_states(count: int, seed: int):
    """Positions met in seeded random games of both faces (reference engine)."""
    rng = Rng(seed)
    for i in range(count):
        board = ("6x4", "5x5")[i % 2]
        state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), i)
        for _ in range(rng.randbelow(120)):
            if GAME.outcome(state) is not None:
                break
            acts = GAME.legal_actions(state, state.seat_of(state.to_move))
            state = GAME.apply(state, state.seat_of(state.to_move), acts[rng.randbelow(len(acts))])
        yield state


@pytest.mark.rule("AR-8.6", "AR-0.1")
def test_fast_legal_lists_equal_reference() -> None:
    """The compiled generator lists exactly the reference actions in the canonical order (docs/rules/arena.md)."""
    for state in _random_states(60, 3):
        if GAME.outcome(state) is not None:
            assert fast.legal_codes(fast.to_array(state), state.board) == []
            continue
        ref = GAME.legal_actions(state, state.seat_of(state.to_move))
        got = [fast.code_to_action(state, c) for c in fast.legal_codes(fast.to_array(state), state.board)]
        assert got == ref


@pytest.mark.rule("AR-10.6", "AR-10.2")
def test_fast_random_playouts_equal_reference() -> None:
    """Seeded random playouts: identical action sequences and final states on both paths."""
    for seed in range(40):
        board = ("6x4", "5x5")[seed % 2]
        state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), seed)
        st = fast.to_array(state)
        geo, nb = fast.tables(board)
        log = np.zeros(700, dtype=np.int64)
        plies = fast.random_playout(st, np.array([seed], dtype=np.uint64), geo, nb, log)
        rng = Rng(seed)
        codes = []
        while GAME.outcome(state) is None:
            acts = GAME.legal_actions(state, state.seat_of(state.to_move))
            action = acts[rng.randbelow(len(acts))]
            codes.append(fast.action_to_code(state, action))
            state = GAME.apply(state, state.seat_of(state.to_move), action)
        assert codes == [int(x) for x in log[:plies]]
        assert (fast.to_array(state) == st).all()


@pytest.mark.rule("AR-A26", "AR-10.7", "AR-9.2")
@pytest.mark.parametrize("board", ["6x4", "5x5"])
def test_AR_A26_bounds(board: str) -> None:
    """AR-A26 (the full 10,000 seeded playouts per face, compiled path): every random game ends by
    AR-10 within 600 plies; every no_action ending is a lone corvette, cruiser banished, all neighbours
    enemy shield-2 ships (AR-9.2)."""
    state = GAME.initial_state(GAME.normalize_config({"board": board, "red_seat": 0}), 0)
    geo, nb = fast.tables(board)
    n = state.face.size
    rs = np.array([12345], dtype=np.uint64)
    empty = np.zeros(0, dtype=np.int64)
    kinds = set()
    for _ in range(10_000):
        st = fast.to_array(state)
        plies = fast.random_playout(st, rs, geo, nb, empty)
        assert 0 < plies <= 600 and st[19] in (0, 1) and st[20] in (1, 2, 3)
        kinds.add(int(st[20]))
        if st[20] == 2:
            loser = 1 - st[19]
            own = st[loser * 8: loser * 8 + 8]
            assert all(own[s] == n for s in range(1, 8))
            enemy = {int(st[(1 - loser) * 8 + s]): s for s in range(8)}
            for nbr in state.face.neighbours(int(own[0])):
                assert nbr in enemy and enemy[nbr] & 1
    assert {1, 3} <= kinds
