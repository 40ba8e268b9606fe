"""Position keys (AR-A25; docs/rules/arena.md, implementation notes).

64-bit Zobrist keys from a fixed seed, one table per board face:
``Z[colour][ship][loc 0..N]`` XOR ``Z_side``, with ``Z_quiet[q]`` and ``Z_last[L]`` mixed
in by default (scores near the quiet horizon depend on them). With ``canonical=True`` the
key is the smaller of the position's and its file-mirror's key (reflection a↔d / a↔e
preserves every rule); colours are never swapped (Blue wins a capture-free game).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from spacetable.core.rng import Rng

from .board import get_face


@cache
def _table(board: str) -> tuple[tuple[tuple[int, ...], ...], int, tuple[int, ...], tuple[int, ...]]:
    face = get_face(board)
    rng = Rng.from_seed(f"arena-keys-{board}")
    z = tuple(tuple(rng.next_u64() for _ in range(face.size + 1)) for _ in range(16))
    side = rng.next_u64()
    quiet = tuple(rng.next_u64() for _ in range(41))
    last = tuple(rng.next_u64() for _ in range(3))
    return z, side, quiet, last


def raw_key(board: str, loc: Any, to_move: int, quiet: int = 0, last_capturer: int = -1, counters: bool = True) -> int:
    z, zside, zq, zl = _table(board)
    h = 0
    for colour in (0, 1):
        for ship in range(8):
            h ^= z[colour * 8 + ship][loc[colour][ship]]
    if to_move == 1:
        h ^= zside
    if counters:
        h ^= zq[quiet] ^ zl[last_capturer + 1]
    return h


def position_key(state: Any, canonical: bool = False, counters: bool = True) -> int:
    """Zobrist key of a state in play (AR-A25)."""
    key = raw_key(state.board, state.loc, state.to_move, state.quiet, state.last_capturer, counters)
    if not canonical:
        return key
    face = get_face(state.board)
    n = face.banished
    mirrored = [[face.mirror_file(c) if c < n else c for c in row] for row in state.loc]
    return min(key, raw_key(state.board, mirrored, state.to_move, state.quiet, state.last_capturer, counters))
