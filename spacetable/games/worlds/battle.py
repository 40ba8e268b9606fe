"""One battle (WS-5): power, the 36 dice pairs, and its loss law (WS-9.2).

Everything here is exact integer arithmetic: a battle's law is a count out of
36 for each of (win, tie, loss) seen from one side.
"""

from __future__ import annotations

from functools import cache

from .pieces import NATIVE_POWER, POWER


def group_power(pops: int, facs: int, natives: int = 0, pop_bonus: int = 0, energy: int = 0) -> int:
    """WS-5.2/5.3 power: P 2 (+bonus each under MG), F 1, native 4, plus committed energy."""
    return pops * (POWER["P"] + pop_bonus) + facs * POWER["F"] + natives * NATIVE_POWER + energy


@cache
def dice_counts(d: int) -> tuple[int, int, int]:
    """WS-9.2: (win, tie, loss) counts out of 36 for a side whose power exceeds the other's by ``d``."""
    win = tie = loss = 0
    for a in range(1, 7):
        for b in range(1, 7):
            diff = d + a - b
            if diff > 0:
                win += 1
            elif diff == 0:
                tie += 1
            else:
                loss += 1
    return win, tie, loss


def compare(total_a: int, total_b: int) -> int:
    """WS-5.5/5.6: +1 if A has the higher total, -1 if B, 0 on a tie."""
    return (total_a > total_b) - (total_a < total_b)


@cache
def loss_law(d: int, n_s: int, n_o: int) -> tuple[tuple[int, int, int], ...]:
    """WS-9.2 loss contributions as ``((l_s, l_o, count/36), ...)``: S wins -> (0, n_O), tie -> (1, 1), O wins -> (n_S, 0)."""
    win, tie, loss = dice_counts(d)
    out = []
    if win:
        out.append((0, n_o, win))
    if tie:
        out.append((1, 1, tie))
    if loss:
        out.append((n_s, 0, loss))
    return tuple(out)
