"""Benchmark of the Worlds & Suns allocation advisor (WS-10): 4v4, 6v6 and 8v8 combats.

Each side has n/2 Populations and n/2 Factories on one World; the attacker (our
side S) allocates (equal counts, WS-4.3) with a full hand (MG, MG, CET) and a
pool of n energy; the opponent holds MG, RI, CET and the same pool. Opponent
models: ``fixed`` (it plays no card and no energy) and ``worst_case`` (the
best response: it replies knowing our plan, with its full hand and pool).
Every search is exhaustive and exact (pruned and memoised, WS-10.7). Prints the
wall time (best and mean of ``--repeat`` runs), the best process CPU time, the
leaves visited, the co-optimal count and the optimal value. Timings are printed,
never asserted; compare CPU times (the best of several runs) on a shared machine.
tests/worlds/test_advisor_pinned.py pins the exact worst_case answers of 5v5 and 6v6
combats built like these (the 6v6 worst_case rows among them).

    .venv/bin/python bench/worlds_advisor.py [--repeat N] [--no-worst-case]

From a second checkout (a git worktree) whose virtualenv holds an editable install of
another one, put ``PYTHONPATH=.`` in front so that the checkout's own package is timed.
"""

from __future__ import annotations

import argparse
import time

from spacetable.games.worlds.advisor import Situation, advise


def situation(n: int, energy: int, opponent: str, objective: str) -> Situation:
    half = n // 2
    anchors = [(f"O.P{i}", "P") for i in range(half)] + [(f"O.F{i}", "F") for i in range(n - half)]
    return Situation(
        s_is_attacker=True, on_world=True, s_pieces=(half, n - half), o_pieces=(half, n - half), anchors=anchors,
        allocator="S", energy_s=energy, energy_o=energy, hand_s=["MG", "MG", "CET"], hand_o=["MG", "RI", "CET"],
        mode="ours", opponent=opponent, objective=objective,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-worst-case", action="store_true", help="skip the worst_case (best-response) rows")
    args = ap.parse_args()
    cases = [(4, 4), (6, 6), (8, 8)]
    models = [("fixed", "win"), ("fixed", "losses")]
    if not args.no_worst_case:
        models += [("worst_case", "win"), ("worst_case", "losses")]
    head = f"{'size':6} {'energy':6} {'opponent':11} {'objective':9} {'best s':>8} {'mean s':>8} {'cpu s':>8}"
    head += f" {'leaves':>7} {'co-opt':>6}"
    print(head + "  value")
    for n, energy in cases:
        for opponent, objective in models:
            times = []
            cpu = []
            adv = None
            for _ in range(args.repeat):
                sit = situation(n, energy, opponent, objective)
                t0 = time.perf_counter()
                c0 = time.process_time()
                adv = advise(sit)
                cpu.append(time.process_time() - c0)
                times.append(time.perf_counter() - t0)
            assert adv is not None
            mean = sum(times) / len(times)
            print(f"{n}v{n:<4} {energy:<6} {opponent:11} {objective:9} {min(times):8.3f} {mean:8.3f} {min(cpu):8.3f} "
                  f"{adv.leaves:7d} {adv.co_optimal:6d}  {adv.value['objective']} ({float(adv.value['objective']):.4f})")


if __name__ == "__main__":
    main()
