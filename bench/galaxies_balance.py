"""Battleship Galaxies house-set balance gates (spec §6.5), printed per pack version.

* (a) ships of the same size and role: expected damage per activation per energy, and toughness
  ((shields + hull) ÷ the opposing faction's mean P(hit)) per energy, agree within ±15 %;
* (b) the standard fleets cost within ±5 % of each other, and the whole standard roster costs
  1.3–1.6 × the default budget;
* (c) AI-vs-AI games of the default mission (the same agent on both seats): faction and
  first-player win rates (target 45–55 %), median length (6–14 rounds), share of games ending at
  the round limit (under 10 %). The spec asks for 2,000 games per mission; ``--games`` sets how
  many are played (the figures say how many were);
* (d) how often each version appears in budget-optimiser fleets (target: none above 80 %): the
  tactician's fleet choice (its Lanchester fleet worth) with every ship's worth shaken by ±25 %,
  200 draws per faction.

    .venv/bin/python bench/galaxies_balance.py [--games 100] [--agent policy] [--jobs 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import product

from spacetable.core.rng import Rng
from spacetable.games.galaxies import GAME
from spacetable.games.galaxies.packs import bundled_pack
from spacetable.games.galaxies.policy import fleet_value


def role(ship: object) -> str:
    """Roles paired across the factions: flagship, medium gunship, medium carrier, small solo,
    light squadron (the cheaper one), strike squadron."""
    s = ship  # a ShipData
    v = s.versions["standard"]  # type: ignore[attr-defined]
    if s.size == "large":  # type: ignore[attr-defined]
        return "flagship"
    if s.size == "medium":  # type: ignore[attr-defined]
        return "medium carrier" if v.capacity else "medium gunship"
    if s.squadron_size == 1:  # type: ignore[attr-defined]
        return "small solo"
    others = [x for x in bundled_pack().ships.values() if x.faction == s.faction and x.squadron_size == 3]  # type: ignore[attr-defined]
    return "light squadron" if v.launch_cost == min(x.versions["standard"].launch_cost for x in others) else "strike squadron"


def gate_a() -> None:
    pack = bundled_pack()
    mean_p = {f: statistics.mean(s.cells / 80 for s in pack.ships.values() if s.faction == f) for f in ("isn", "wretch")}
    rows: dict[str, list[tuple[str, float, float]]] = {}
    for s in pack.ships.values():
        v = s.versions["standard"]
        enemy = "wretch" if s.faction == "isn" else "isn"
        dmg = sum(w.attacks * w.strength * mean_p[enemy] for w in v.weapons if w.slot == "primary") * s.squadron_size
        per_act = dmg / v.activation_cost
        tough = s.squadron_size * (v.shields + v.hull) / mean_p[enemy] / v.launch_cost
        rows.setdefault(role(s), []).append((s.key, per_act, tough))
    print("gate (a): expected damage per activation energy, toughness per launch energy (standard versions)")
    for name, items in rows.items():
        dmg = [x[1] for x in items]
        tough = [x[2] for x in items]
        spread_d = (max(dmg) - min(dmg)) / statistics.mean(dmg)
        spread_t = (max(tough) - min(tough)) / statistics.mean(tough)
        flag = "ok" if spread_d <= 0.30 and spread_t <= 0.30 else "OUTSIDE ±15 %"
        print(f"  {name:15s} " + "  ".join(f"{k} {d:.2f}/{t:.2f}" for k, d, t in items)
              + f"   spread {100 * spread_d:.0f} % / {100 * spread_t:.0f} %  {flag}")


def gate_b() -> None:
    pack = bundled_pack()
    totals = {f: sum(s.versions["standard"].cost for s in pack.ships.values() if s.faction == f) for f in ("isn", "wretch")}
    budget = pack.missions["m2-skirmish"].fleets["A"].budget or 1
    diff = abs(totals["isn"] - totals["wretch"]) / min(totals.values())
    print(f"gate (b): standard fleets {totals} ({100 * diff:.1f} % apart, target ≤ 5 %); "
          f"roster / budget {budget}: {totals['isn'] / budget:.2f}, {totals['wretch'] / budget:.2f} (target 1.3–1.6)")


def one_game(args: tuple[str, int]) -> tuple[int | None, int, int, str, float]:
    agent, seed = args
    makers = {a.name: a.make for a in GAME.agents()}
    agents = [makers[agent](seed=seed * 3 + i) for i in range(2)]
    s = GAME.initial_state(GAME.normalize_config({}), seed)
    t0 = time.perf_counter()
    while GAME.to_act(s):
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, agents[p].choose(GAME, s, p))
    out = GAME.outcome(s)
    winner = out.winners[0] if out and out.winners else None
    return winner, s.first, s.round, out.kind if out else "?", time.perf_counter() - t0


def gate_c(agent: str, games: int, jobs: int, seed: int) -> None:
    work = [(agent, seed + g) for g in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            results = list(ex.map(one_game, work))
    else:
        results = [one_game(w) for w in work]
    n = len(results)
    side_a = sum(1 for w, *_ in results if w == 0)
    draws = sum(1 for w, *_ in results if w is None)
    first = sum(1 for w, f, *_ in results if w is not None and w == f)
    decided = n - draws
    lengths = [r for _, _, r, _, _ in results]
    limit = sum(1 for *_, k, _ in results if k == "round_limit")
    secs = sum(t for *_, t in results)
    print(f"gate (c): {n} games of m2-skirmish, {agent} on both seats ({secs:.0f} s of play)")
    print(f"  ISN (side A) won {side_a}, Wretch won {decided - side_a}, draws {draws}: "
          f"ISN {100 * side_a / max(1, decided):.0f} % of decided games (target 45–55 %)")
    print(f"  first player won {100 * first / max(1, decided):.0f} % of decided games (target 45–55 %)")
    print(f"  median length {statistics.median(lengths):.1f} rounds (target 6–14); "
          f"round limit reached in {100 * limit / n:.0f} % (target under 10 %)")
    print(f"  endings: {dict(Counter(k for *_, k, _ in results))}")


def gate_d(draws: int = 200) -> None:
    pack = bundled_pack()
    budget = pack.missions["m2-skirmish"].fleets["A"].budget or 0
    counts: Counter[str] = Counter()
    rng = Rng.from_seed(5)
    for faction in ("isn", "wretch"):
        ships = [s for s in pack.ships.values() if s.faction == faction]
        others = [s for s in pack.ships.values() if s.faction != faction]
        enemy_hit = sum(s.cells for s in others) / len(others) / 80
        combos = []
        for combo in product(*[[None, *s.versions] for s in ships]):
            chosen = [(s, v) for s, v in zip(ships, combo, strict=True) if v]
            if chosen and sum(s.versions[v].cost for s, v in chosen) <= budget:
                combos.append(chosen)
        for _ in range(draws):
            # the tactician's fleet worth (policy.fleet_value) with each ship's worth shaken by ±25 %
            noise = {s.key: 0.75 + 0.5 * rng.random() for s in ships}
            best = max(combos, key=lambda ch: fleet_value(ch, enemy_hit) * sum(noise[s.key] for s, _ in ch) / len(ch))
            for s, v in best:
                counts[f"{s.key}:{v}"] += 1
    top = counts.most_common(6)
    print("gate (d): most frequent versions in budget-optimiser fleets: "
          + ", ".join(f"{k} {100 * n / draws:.0f} %" for k, n in top) + " (target: none above 80 %)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--agent", default="policy")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pack = bundled_pack()
    print(f"pack {pack.pack_id} ({pack.source}, digest {pack.digest[:12]}) - {pack.label}")
    gate_a()
    gate_b()
    gate_d()
    gate_c(args.agent, args.games, args.jobs, args.seed)


if __name__ == "__main__":
    main()
