"""``spacetable play|simulate|odds galaxies`` and the ``check`` hook.

``spacetable play galaxies --seats human,tactician`` plays in the terminal: the text board of the
seat to act, its legal actions (numbered), and one action per line in the notation of
:mod:`.notation` (or JSON, a number from the list, ``auto`` for the AI's choice, ``list``, ``board``,
``quit``); it works with piped stdin. ``--pack-file FILE`` loads an owner pack from a local file (it
is validated and passed to the match as content; nothing is copied).

``spacetable odds galaxies --attacker f47 --target barrage`` prints the exact hit probability,
expected damage and kill chance of an attack (:func:`odds_report`); the same figures appear on the
attack targets of the views.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from spacetable.core.errors import RuleError, SpacetableError
from spacetable.core.hooks import Command

from .game import GAME
from .odds import attack_odds, hit_chance
from .packs import Pack, bundled_pack, load_pack_content
from .scenario import check_file

__all__ = ["check_file", "commands", "odds_report", "run"]


def _pack_content(path: str | None) -> Any:
    if not path:
        return None
    data = json.loads(Path(path).read_text(encoding="utf-8"))
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


def _parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("--players", type=int, default=2, help="2, 3 (Pan Base) or 4 (double front)")
    p.add_argument("--mission", default="", help="mission id (see docs/rules/galaxies.md)")
    p.add_argument("--pack-file", default=None, help="an owner pack (JSON) from a local file")
    p.add_argument("--seed", type=int, default=1)
    return p


def _agents() -> dict[str, Any]:
    return {spec.name: spec.make for spec in GAME.agents()}


def play(argv: list[str]) -> int:
    p = _parser("spacetable play galaxies")
    p.add_argument("--seats", default="human,tactician", help="comma list: human or an AI name per seat")
    args = p.parse_args(argv)
    cfg = _config(args)
    n = GAME.num_players(cfg)
    names = (args.seats.split(",") * n)[:n]
    makers = _agents()
    agents: dict[int, Any] = {}
    for i, name in enumerate(names):
        if name != "human":
            if name not in makers:
                print(f"unknown AI {name!r}; known: {', '.join(makers)}", file=sys.stderr)
                return 2
            agents[i] = makers[name](seed=args.seed + i)
    helper = makers["tactician"](seed=args.seed + 99)
    state = GAME.initial_state(cfg, args.seed)
    shown = None
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        if seat in agents:
            action = agents[seat].choose(GAME, state, seat)
            print(f"[seat {seat} {agents[seat].name}] {GAME.action_text(state, seat, action)}")
            state = GAME.apply(state, seat, action)
            continue
        legal = GAME.legal_actions(state, seat)
        if shown != (state.nlog, seat):
            print(GAME.render_text(state, seat))
            for k, a in enumerate(legal[:30]):
                print(f"  {k}: {GAME.action_text(state, seat, a)}")
            if len(legal) > 30:
                print(f"  ... {len(legal)} legal actions ('list' shows all, 'auto' lets the AI choose)")
            shown = (state.nlog, seat)
        print(f"seat {seat}> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print("\nend of input")
            return 0
        line = line.strip()
        if line in ("quit", "exit"):
            return 0
        if line == "list":
            for k, a in enumerate(legal):
                print(f"  {k}: {GAME.action_text(state, seat, a)}")
            continue
        if line == "board":
            shown = None
            continue
        try:
            if line == "auto":
                action = helper.choose(GAME, state, seat)
            elif line.isdigit():
                action = legal[int(line)]
            else:
                action = GAME.parse_action(state, seat, line)
            state = GAME.apply(state, seat, action)
            print(f"ok: {GAME.action_text(state, seat, action) if action.get('type') != 'launch' else action['card']}")
        except (RuleError, IndexError) as exc:
            print(f"rejected: {exc}")
    out = GAME.outcome(state)
    print(GAME.render_text(state, None))
    print("result:", json.dumps(out.to_json() if out else None))
    return 0


def simulate(argv: list[str]) -> int:
    p = _parser("spacetable simulate galaxies")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seats", default="tactician,greedy", help="comma list of AI names, by seat")
    p.add_argument("--swap", action="store_true", help="play every seed twice, with the seats' agents swapped")
    args = p.parse_args(argv)
    cfg = _config(args)
    n = GAME.num_players(cfg)
    makers = _agents()
    names = (args.seats.split(",") * n)[:n]
    wins: dict[str, float] = {}
    for g in range(args.games):
        for swap in ((False, True) if args.swap else (False,)):
            order = list(reversed(names)) if swap else names
            agents = [makers[order[i]](seed=args.seed + 97 * g + i) for i in range(n)]
            state = GAME.initial_state(cfg, args.seed + g)
            t0 = time.perf_counter()
            steps = 0
            while GAME.to_act(state):
                seat = GAME.to_act(state)[0]
                state = GAME.apply(state, seat, agents[seat].choose(GAME, state, seat))
                steps += 1
            out = GAME.outcome(state)
            assert out is not None
            winners = sorted({order[w] for w in out.winners})
            for w in winners:
                wins[w] = wins.get(w, 0) + 1 / len(winners)
            print(f"game {g}{' swapped' if swap else ''}: {','.join(order)} -> {'/'.join(winners) or 'draw'} ({out.kind}, "
                  f"round {state.round}, {steps} actions, {time.perf_counter() - t0:.1f}s)")
    print("wins:", json.dumps(wins))
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


def commands() -> list[Command]:
    """The commands galaxies adds to ``spacetable`` (:meth:`Game.commands`)."""
    return [Command("odds", "exact hit probability and expected damage of an attack", add_odds_arguments, run_odds)]


def run(command: str, argv: list[str]) -> int:
    try:
        if command == "play":
            return play(argv)
        if command == "simulate":
            return simulate(argv)
        if command == "odds":
            p = argparse.ArgumentParser(prog="spacetable odds galaxies")
            add_odds_arguments(p)
            return run_odds(p.parse_args(argv))
    except SpacetableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"galaxies does not support {command!r} (try play, simulate, odds)", file=sys.stderr)
    return 2
