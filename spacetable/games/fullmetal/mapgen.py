"""Seeded procedural map generator ("Generated maps" in the rules doc).

``generate_map(seed, players, size)`` builds a height field from random smooth
bumps (``Rng`` only, so the same seed gives the same map), then cuts it by rank
into the original's terrain mix: sea 28 %, reef 5.4 %, swamp 12 %, plain 46 %,
mountain 8.6 %. Low ground becomes one dominant water body, reefs and swamps
line the coasts and mountains sit on the peaks in small clusters. A map is kept
only if ``players`` landing sites are pairwise legal under FM-7.2, each with at
least 12 land and 3 sea cells within radius 4; otherwise the next sub-seed is
tried (at most 100). Ore is placed at game start by FM-3.1.
"""

from __future__ import annotations

import math

from spacetable.core.rng import Rng, mix_seed

from .fmp import FmpMap
from .terrain import get_board

PER_PLAYER = {"small": 180, "medium": 213, "large": 283}
MIX = (("sea", ".", 0.28), ("reef", "*", 0.054), ("swamp", "%", 0.12), ("plain", "$", 0.46), ("mountain", "#", 0.086))


class MapGenError(RuntimeError):
    """No playable map was found in 100 tries."""


def dimensions(players: int, size: str) -> tuple[int, int]:
    total = PER_PLAYER[size] * max(2, players)
    width = max(12, round(math.sqrt(total * 36 / 23)))
    height = max(10, round(total / width))
    return width, height


def _terrain(rng: Rng, width: int, height: int) -> str:
    bumps = []
    for _ in range(10 + (width * height) // 120):
        bumps.append((rng.random() * width * 1.5, rng.random() * height * 1.7, 2.5 + rng.random() * 5.0, rng.random() * 2 - 0.8))
    heights = []
    for i in range(width * height):
        x, y = i % width, i // width
        px, py = 1.5 * x, math.sqrt(3) * (y + 0.5 * (x % 2))
        h = 0.0
        for bx, by, r, a in bumps:
            d2 = (px - bx) ** 2 + (py - by) ** 2
            h += a * math.exp(-d2 / (2 * r * r))
        h += 0.08 * rng.random()
        heights.append((h, i))
    heights.sort()
    chars = ["$"] * (width * height)
    n = len(heights)
    k = 0
    for _name, ch, share in MIX[:3]:
        m = round(share * n)
        for _, i in heights[k:k + m]:
            chars[i] = ch
        k += m
    # mountains: peaks of a second, high-frequency field over the remaining land (small clusters)
    peaks = [(rng.random() * width * 1.5, rng.random() * height * 1.7) for _ in range((width * height) // 30)]
    rough = []
    for _, i in heights[k:]:
        x, y = i % width, i // width
        px, py = 1.5 * x, math.sqrt(3) * (y + 0.5 * (x % 2))
        r = sum(math.exp(-((px - bx) ** 2 + (py - by) ** 2) / 2.2) for bx, by in peaks) + 0.05 * rng.random()
        rough.append((r, i))
    rough.sort(reverse=True)
    for _, i in rough[:round(MIX[4][2] * n)]:
        chars[i] = "#"
    return "".join(chars)


def landing_sites(fmap: FmpMap, players: int, min_distance: int = 10) -> list[int] | None:
    """Greedy search for ``players`` pairwise-legal landing sites (FM-7.2, plus the quality rule of "Generated maps"
    in the rules doc)."""
    terrain = "".join(fmap.terrain)
    board = get_board(fmap.width, fmap.height, terrain)
    good = []
    for c in board.cells:
        if terrain[c] not in "$%" or len(board.disc(c, 2)) != 19:
            continue
        neigh = board.hexmap.neighbours(c)
        pods = [neigh[d] for d in (0, 2, 4)]
        if any(p < 0 or terrain[p] not in "$%" for p in pods):
            continue
        disc = board.disc(c, 4)
        land = sum(1 for x in disc if terrain[x] in "$#%")
        sea = sum(1 for x in disc if terrain[x] == ".")
        if land >= 12 and sea >= 3:
            good.append(c)
    chosen: list[int] = []
    for c in good:
        if all(board.dist(c, o) >= min_distance for o in chosen):
            chosen.append(c)
            if len(chosen) == players:
                return chosen
    return None


def generate_map(seed: int, players: int = 2, size: str = "medium") -> FmpMap:
    """A deterministic playable map for ``players`` ("Generated maps" in the rules doc)."""
    width, height = dimensions(players, size)
    for attempt in range(100):
        # ``seed`` is a map seed (the name of a generated map, "generated:<seed>"), not a match seed: the
        # match seed reaches it through GAME.seed_for(seed, "map"); each attempt derives its own stream here so
        # that a map seed always names the same map.
        rng = Rng(mix_seed(seed, "fullmetal-map", attempt))
        terrain = _terrain(rng, width, height)
        rows = [terrain[y * width:(y + 1) * width] for y in range(height)]
        fmap = FmpMap(width, height, rows, attrs={"Seed": str(seed), "Attempt": str(attempt), "Players": str(players)})
        if landing_sites(fmap, players) is not None:
            return fmap
    raise MapGenError(f"no playable map for seed {seed} after 100 tries")
