"""Battleship Galaxies' commands for ``spacetable``: ``simulate`` (AI-against-AI games), ``odds``
(an attack's exact hit probability and expected damage, :func:`odds_report`) and ``check`` (the
bundled acceptance scenarios), and the notation help of the terminal prompt.

Play is the shared terminal loop: ``spacetable play galaxies --vs tactician``; ``--mission``,
``--players`` and ``--pack-content FILE.json`` (an owner pack read from a local file and passed to
the match as content) choose the game.
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources
from pathlib import Path
from typing import Any

from spacetable.commands import agent_list, agent_names, check_command, count, seconds
from spacetable.core.errors import ConfigError, SpacetableError
from spacetable.core.hooks import Command

from .balance import label, play_one, summarize
from .game import GAME
from .odds import attack_odds, hit_chance
from .packs import Pack, _canonical, bundled_pack, load_pack_content
from .scenario import check_file

__all__ = ["COMMANDS", "NOTATION", "check_file", "odds_report"]

NOTATION = """Battleship Galaxies notation: hexes q,r (axial; rows are r), a medium ship's two hexes a+b, a large
ship by its centre; directions E NE NW W SW SE.
  fleet everest:veteran f47 f51@2     deck 2                       first A
  launch everest 9,2 cargo barrage f51   launch f47 5,0 6,0 5,1     launch barrage 7,1+7,2
  unload everest f51 12,7 12,6 11,8     activate barrage             move f47#1 E E SE
  move barrage lead 6,5 E SE SW        move f47#1 to 7,6 (least-ECM path)   warp barrage 12,7+13,7
  charge everest torpedo-rack          attack f47#1 vapor (primary)  attack f47#1 strike-missiles vapor
  play a07 card=barrage                play b03 ship=teskio hexes=8,5+9,5   respond a12    pass
  discard a03 a07    market yes    regen barrage    end (the phase's end)    end turn    resign
Any action can also be typed as a JSON object; docs/rules/galaxies.md lists every form."""


def _pack_content(path: str | None) -> Any:
    """An owner pack read from a local file (its content goes into the config, never its path)."""
    if not path:
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    load_pack_content(data, Path(path).name)  # validate now: errors name the file, record and field
    return data


def _config(args: argparse.Namespace) -> dict[str, Any]:
    cfg: dict[str, Any] = {"players": args.players}
    if args.mission:
        cfg["mission"] = args.mission
        cfg.pop("players")
    content = _pack_content(getattr(args, "pack_file", None))
    if content is not None:
        cfg["pack_content"] = content
    return GAME.normalize_config(cfg)


def _add_simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=count(2, 4), default=2, help="2, 3 (Pan Base) or 4 (double front)")
    p.add_argument("--mission", default="", help="mission id (docs/rules/galaxies.md lists them)")
    p.add_argument("--pack-file", default=None, help="an owner pack (JSON) from a local file")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=seconds, default=1.0, help="unused by the galaxies AI (iteration budgets)")
    p.add_argument("--games", type=count(1), default=2)
    p.add_argument("--seats", default="tactician,greedy", help=f"AI players by seat (the last repeats; seats are not "
                   f"rotated, --swap plays each seed again with them reversed): {agent_list(GAME)}")
    p.add_argument("--swap", action="store_true", help="play every seed twice, with the seats' agents swapped")
    p.add_argument("--out", default=None, help="write every game's record and the balance figures to this JSON file")


def simulate(args: argparse.Namespace) -> int:
    """The games one by one with :func:`.balance.play_one` (the workbench's balance runs play the same function)."""
    cfg = _config(args)
    n = GAME.num_players(cfg)
    if args.games < 1:
        raise ConfigError("--games must be 1 or more")
    names = agent_names(GAME, args.seats)
    names = (names + [names[-1]] * n)[:n]
    content = cfg.get("pack_content")
    pack = "house" if content is None else _canonical(content)
    mission = str(cfg["mission"])
    wins: dict[str, float] = {}
    records: list[dict[str, Any]] = []
    for g in range(args.games):
        for swap in ((False, True) if args.swap else (False,)):
            order = list(reversed(names)) if swap else names
            t0 = time.perf_counter()
            rec = play_one((pack, args.seed + g, tuple(order), tuple(args.seed + 97 * g + i for i in range(n)), n, mission))
            records.append(rec)
            winners = sorted({order[w] for w in rec["winners"]})
            for w in winners:
                wins[w] = wins.get(w, 0) + 1 / len(winners)
            print(f"game {g}{' swapped' if swap else ''}: {','.join(order)} -> {'/'.join(winners) or 'draw'} ({rec['end']}, "
                  f"round {rec['rounds']}, {rec['actions']} actions, {rec['attacks']} attacks, "
                  f"{time.perf_counter() - t0:.1f}s)")
    print("wins: " + (", ".join(f"{name} {count:g}" for name, count in wins.items()) or "none")
          + " (a shared win counts as a fraction)")
    if args.out:
        summary = summarize(records, bundled_pack("house").label if content is None else label(pack))
        Path(args.out).write_text(json.dumps({"summary": summary, "games": records}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


def odds_report(pack: Pack, attacker: str, target: str, *, weapon: str = "", attacker_version: str = "standard",
                target_version: str = "standard", shields: int | None = None, hull_pegs: int = 0, attacks: int | None = None,
                strength: int | None = None) -> dict[str, Any]:
    """Exact odds of ``attacker``'s weapon (primary by default) against ``target`` (BG-12.5, BG-12.6)."""
    a = pack.ships[attacker].versions[attacker_version]  # type: ignore[index]
    t_ship = pack.ships[target]
    t = t_ship.versions[target_version]  # type: ignore[index]
    w = next((x for x in a.weapons if x.id == weapon or (not weapon and x.slot == "primary")), None)
    if w is None:
        raise SpacetableError(f"{attacker} has no weapon {weapon!r}; it has {', '.join(x.id for x in a.weapons)}")
    n = attacks if attacks is not None else w.attacks
    st = strength if strength is not None else w.strength
    sh = t.shields if shields is None else shields
    mod = t.damage_mods.get(w.tag, 0)
    one = attack_odds(hit_chance(t_ship.grid), st, sh, hull_pegs, t.hull, 1, mod)
    every = attack_odds(hit_chance(t_ship.grid), st, sh, hull_pegs, t.hull, n, mod)
    return {"attacker": attacker, "weapon": w.id, "target": target, "grid_cells": t_ship.cells, "strength": st,
            "target_shields": sh, "target_hull": t.hull, "target_hull_pegs": hull_pegs, "one_attack": one.to_json(),
            "all_attacks": every.to_json(), "label": pack.label}


def add_odds_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--attacker", required=True, help="ship key of the attacker (e.g. f47)")
    p.add_argument("--target", required=True, help="ship key of the target (e.g. barrage)")
    p.add_argument("--weapon", default="", help="weapon id (default: the primary)")
    p.add_argument("--attacker-version", default="standard", choices=["standard", "seasoned", "veteran"])
    p.add_argument("--target-version", default="standard", choices=["standard", "seasoned", "veteran"])
    p.add_argument("--shields", type=int, default=None, help="the target's shield pegs now (default: full)")
    p.add_argument("--hull-pegs", type=int, default=0, help="the target's hull pegs now")
    p.add_argument("--attacks", type=int, default=None, help="attacks in a row (default: the weapon's)")
    p.add_argument("--strength", type=int, default=None, help="override the weapon's strength")
    p.add_argument("--pack-file", default=None, help="an owner pack (JSON) from a local file")
    p.add_argument("--json", action="store_true", help="print JSON")


def run_odds(args: argparse.Namespace) -> int:
    content = _pack_content(args.pack_file)
    pack = load_pack_content(content, Path(args.pack_file).name) if content is not None else bundled_pack("house")
    rep = odds_report(pack, args.attacker, args.target, weapon=args.weapon, attacker_version=args.attacker_version,
                      target_version=args.target_version, shields=args.shields, hull_pegs=args.hull_pegs, attacks=args.attacks,
                      strength=args.strength)
    if args.json:
        print(json.dumps(rep, indent=1))
        return 0
    one, every = rep["one_attack"], rep["all_attacks"]
    print(f"{rep['attacker']} {rep['weapon']} (strength {rep['strength']}) against {rep['target']} "
          f"(shields {rep['target_shields']}, hull {rep['target_hull_pegs']}/{rep['target_hull']}) - {rep['label']}")
    print(f"  one attack: P(hit) = {one['p_hit_exact']} = {one['p_hit']:.4f}, expected damage {one['expected_damage']:.4f}, "
          f"P(destroy) = {one['p_destroy']:.4f}")
    print(f"  {every['attacks']} attack(s): P(at least one hit) = {every['p_any_hit']:.4f}, expected damage "
          f"{every['expected_damage']:.4f} ({every['expected_shield_pegs']:.4f} shield + "
          f"{every['expected_hull_pegs']:.4f} hull), "
          f"P(destroy) = {every['p_destroy']:.4f}")
    return 0


COMMANDS = (
    Command("simulate", "AI-against-AI games with the winners", _add_simulate_arguments, simulate),
    Command("odds", "exact hit probability and expected damage of an attack", add_odds_arguments, run_odds),
    check_command("galaxies", check_file, resources.files(__package__).joinpath("scenarios")),
)
