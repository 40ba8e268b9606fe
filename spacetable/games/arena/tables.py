"""Endgame tables for the AI: the retrograde solver's results (AR-11), built once and kept on disk.

:func:`table_for` returns the smallest table that covers a position's material: ``(1, 1)``, ``(2, 1)`` or
``(1, 2)`` (built in well under a second, kept in memory) or ``(2, 2)`` (one extra ship for each side:
25–30 million positions, about a minute of CPU and 1.5 GB of memory to build, 20–30 MB on disk). The
``(2, 2)`` table is used only once it is in the cache folder: :func:`ensure` (or ``bench/ai_ladder.py``,
or ``python -m spacetable.games.arena.tables``) builds and saves it, so no AI move ever waits a minute.

The cache folder is ``$SPACETABLE_CACHE/arena`` (default ``~/.cache/spacetable/arena``, following
``$XDG_CACHE_HOME``); a file holds the compiled table's arrays and is checked against its board and
shape when it is read.

:func:`probe` reads a table on the compiled state arrays of :mod:`.fast`: ``(status, plies)`` for the side
to move, ``status`` one of :data:`~.solver.WIN`, :data:`~.solver.LOSS`, :data:`~.solver.UNKNOWN`.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from spacetable.core.rng import Rng

from .board import get_face
from .fast import to_array
from .solver import LOSS, UNKNOWN, WIN, CompiledTable, _index_of, solve_compiled

#: Shapes (red_max, blue_max) the AI may use, smallest first.
SHAPES = ((1, 1), (2, 1), (1, 2), (2, 2))
#: Shapes built on demand (fast); the others only come from the cache folder.
SMALL = ((1, 1), (2, 1), (1, 2))
VERSION = 1

_memory: dict[tuple[str, int, int], CompiledTable] = {}


def cache_dir() -> Path:
    base = os.environ.get("SPACETABLE_CACHE")
    if base:
        return Path(base) / "arena"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "spacetable" / "arena"


def table_path(board: str, red_max: int, blue_max: int) -> Path:
    return cache_dir() / f"endgame-{board}-{red_max}{blue_max}-v{VERSION}.npz"


def _save(tb: CompiledTable, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, board=np.array(tb.board), shape=np.array([tb.red_max, tb.blue_max]), mats=tb.mats,
                        mat_index=tb.mat_index, offset=tb.offset, status=tb.status, dist=tb.dist)
    tmp.replace(path)  # a reader never sees half a file


def _read(board: str, red_max: int, blue_max: int) -> CompiledTable | None:
    path = table_path(board, red_max, blue_max)
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            if str(data["board"]) != board or data["shape"].tolist() != [red_max, blue_max]:
                return None
            return CompiledTable(board, red_max, blue_max, data["mats"], data["mat_index"], data["offset"],
                                 data["status"], data["dist"])
    except (OSError, ValueError, KeyError):
        return None


def load(board: str, red_max: int, blue_max: int, build: bool = False, save: bool = True) -> CompiledTable | None:
    """The table from memory or the cache folder; built (and saved) when ``build`` or when it is small."""
    key = (board, red_max, blue_max)
    if key in _memory:
        return _memory[key]
    tb = _read(board, red_max, blue_max)
    if tb is None and (build or key[1:] in SMALL):
        tb = solve_compiled(board, red_max, blue_max)
        if save and key[1:] not in SMALL:
            _save(tb, table_path(board, red_max, blue_max))
    if tb is not None:
        _memory[key] = tb
    return tb


def ensure(board: str, red_max: int = 2, blue_max: int = 2) -> Path:
    """Build and save a table unless the cache folder has it; returns its file."""
    path = table_path(board, red_max, blue_max)
    if _read(board, red_max, blue_max) is None:
        _save(solve_compiled(board, red_max, blue_max), path)
    return path


def counts(st: np.ndarray, n: int) -> tuple[int, int]:
    """Ships of Red and Blue on the board in a compiled state array."""
    return int(np.count_nonzero(st[0:8] != n)), int(np.count_nonzero(st[8:16] != n))


def table_for(board: str, red: int, blue: int) -> CompiledTable | None:
    """The smallest available table covering ``red`` and ``blue`` ships on the board (None if none does)."""
    for r, b in SHAPES:
        if red <= r and blue <= b:
            tb = load(board, r, b)
            if tb is not None:
                return tb
    return None


def probe(tb: CompiledTable, st: np.ndarray) -> tuple[int, int]:
    """``(status, plies)`` of the position in ``st`` for its side to move; ``KeyError`` if not covered."""
    n = get_face(tb.board).size
    i = _index_of(st, n, int(st[16]), tb.mat_index, tb.offset, np.zeros(16, dtype=np.int64))
    if i < 0:
        raise KeyError("position not covered by this table")
    return int(tb.status[i]), int(tb.dist[i])


# ---------------------------------------------------------------------------------- checking the AI
def sample_positions(game: Any, board: str, count: int, rng: Rng, red: int = 2, blue: int = 2) -> list[Any]:
    """``count`` positions in play with ``red`` and ``blue`` ships on the board (each side's corvette and
    random other ships on random cells, either side to move, quiet counter 0); positions already over are
    skipped. Used by the tests and ``bench/arena_endgame.py``."""
    face = get_face(board)
    names = ["111", "112", "121", "122", "211", "212", "221", "222"]
    out: list[Any] = []
    while len(out) < count:
        cells = rng.sample(range(face.size), red + blue)
        parts = []
        for k, base in ((red, 0), (blue, red)):
            ships = [0, *rng.sample(range(1, 8), k - 1)]
            parts.append(",".join(names[s] + face.cell_name(cells[base + i]) for i, s in enumerate(ships)))
        side = rng.choice(["r", "b"])
        text = f"{board} {parts[0]} {parts[1]} {side} 0 -"
        state = game.initial_state(game.normalize_config({"board": board, "position": text}), 0)
        if state.phase == "play":
            out.append(state)
    return out


def kept(game: Any, state: Any, action: dict[str, Any]) -> bool:
    """Does ``action`` keep the solved value of ``state`` (a win stays a win for the mover, an undecided
    position does not become a loss; any move of a lost position keeps it)?"""
    st = to_array(state)
    n = get_face(state.board).size
    tb = table_for(state.board, *counts(st, n))
    if tb is None:
        raise KeyError("no table covers this position")
    status, _ = probe(tb, st)
    mover = state.to_move
    child = game.apply(state, state.seat_of(mover), action)
    if child.phase == "over":
        result = 1 if child.winner == mover else -1
    else:
        c_status, _ = probe(tb, to_array(child))
        result = 1 if c_status == LOSS else -1 if c_status == WIN else 0
    want = {WIN: 1, UNKNOWN: 0, LOSS: -1}[status]
    return result >= want


def main(argv: list[str] | None = None) -> int:
    """``python -m spacetable.games.arena.tables [BOARD...]``: build the (2, 2) tables into the cache folder."""
    boards = (argv if argv is not None else sys.argv[1:]) or ["6x4", "5x5"]
    for board in boards:
        t = time.perf_counter()
        path = ensure(board)
        print(f"{board}: {path} ({path.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - t:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
