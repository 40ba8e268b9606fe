"""Square-grid geometry: cell indices, algebraic names (``a1``), neighbours,
Manhattan and Chebyshev distances, with precomputed neighbour tables."""

from __future__ import annotations

from dataclasses import dataclass

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))


def manhattan(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@dataclass(frozen=True)
class SquareGrid:
    """A ``width`` × ``height`` board. Cell index = ``rank * width + file`` with
    file 0 = ``a`` and rank 0 = ``1`` (bottom row)."""

    width: int
    height: int

    @property
    def size(self) -> int:
        return self.width * self.height

    def index(self, file: int, rank: int) -> int:
        if 0 <= file < self.width and 0 <= rank < self.height:
            return rank * self.width + file
        return -1

    def coords(self, i: int) -> tuple[int, int]:
        return (i % self.width, i // self.width)

    def name(self, i: int) -> str:
        f, r = self.coords(i)
        return f"{chr(ord('a') + f)}{r + 1}"

    def parse(self, name: str) -> int:
        """Index of an algebraic cell name; ``-1`` when not on the board."""
        name = name.strip().lower()
        if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
            return -1
        return self.index(ord(name[0]) - ord("a"), int(name[1:]) - 1)

    def neighbours(self, i: int, diagonal: bool = False) -> list[int]:
        f, r = self.coords(i)
        steps = ORTHOGONAL + DIAGONAL if diagonal else ORTHOGONAL
        out = []
        for df, dr in steps:
            j = self.index(f + df, r + dr)
            if j >= 0:
                out.append(j)
        return out

    def neighbour_table(self, diagonal: bool = False) -> list[list[int]]:
        return [self.neighbours(i, diagonal) for i in range(self.size)]

    def manhattan(self, i: int, j: int) -> int:
        return manhattan(self.coords(i), self.coords(j))

    def chebyshev(self, i: int, j: int) -> int:
        return chebyshev(self.coords(i), self.coords(j))

    def mirror_file(self, i: int) -> int:
        f, r = self.coords(i)
        return self.index(self.width - 1 - f, r)

    def mirror_rank(self, i: int) -> int:
        f, r = self.coords(i)
        return self.index(f, self.height - 1 - r)
