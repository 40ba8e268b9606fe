"""Worlds & Suns' commands for ``spacetable`` (combat chapter only, WS-0.3): ``odds`` (exact combat
odds, WS-9), ``advise`` (the allocation advisor, WS-10), ``simulate`` (a balance run of a scenario) and ``check``
(step files), and the notation help of the terminal prompt.

* ``spacetable odds worlds --scenario FILE [--side NAME] [--plot out.png] [--json]``
* ``spacetable advise worlds --scenario FILE [--side NAME] [--objective win|no_loss|losses|net]
  [--opponent fixed|best-response]``
* ``spacetable simulate worlds --scenario NAME|FILE [--games N] [--seed S] [--ai advisor,random] [--jobs J | --ray A]
  [--json]``: the games of the workbench's balance runs (:mod:`.balance`)

Play is the shared terminal loop: ``spacetable play worlds --scenario s1-example --vs ai``.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path
from typing import Any

from spacetable.commands import check_command, count
from spacetable.core.errors import ConfigError
from spacetable.core.hooks import Command
from spacetable.core.steps import run_steps

from . import balance
from . import scenario as scen
from .advisor import FIXED, WORST_CASE, Advice, Situation, advise
from .game import GAME
from .odds import BattleInput, Group, Odds, battles_from_json, combat_odds, format_odds
from .pieces import NOTICE, POPULATION
from .situation import odds_inputs, situation_from_scenario
from .state import WorldsState

NOTATION = """Worlds & Suns notation (combat chapter only):
  declare CARD                       declare a combat on a card, e.g. declare X.w1
  alloc ANCHOR=ID,ID;ANCHOR=ID       the allocator pairs its pieces with the anchors (WS-4)
  event MG | event none              the sealed event card of the current battle (WS-5.1)
  energy N                           the sealed energy of the current battle (WS-5.3)
  tie PIECE                          the piece lost in a tie
  retreat [ID ...]                   pieces that retreat after the combat (none: stay)
  convert ID | convert none          convert a captured Factory
  end                                end your turn
Any action can also be typed as a JSON object."""


def _add_odds_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--scenario", required=True,
                    help="a worlds-skirmish/1 scenario (its 'combat' block) or a worlds-odds/1 file with explicit battles")
    ap.add_argument("--side", default=None, help="the side S the odds are reported for (default: the attacker)")
    ap.add_argument("--plot", default=None, help="draw the outcome distribution to this PNG file")
    ap.add_argument("--json", action="store_true", help="print JSON")


def odds(args: argparse.Namespace) -> int:
    path = Path(args.scenario)
    try:
        raw = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else scen.load(args.scenario)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read {args.scenario}: {exc}") from exc
    if not isinstance(raw, dict):
        raise ConfigError(f"{args.scenario}: a scenario is a JSON object")
    if raw.get("format") == "worlds-odds/1":
        names = list(raw.get("sides", ["S", "O"]))
        try:
            inputs = battles_from_json(raw["battles"])
            offsets = (int(raw.get("offsets", (0, 0))[0]), int(raw.get("offsets", (0, 0))[1]))
        except (KeyError, TypeError, IndexError) as exc:
            raise ConfigError(f"a worlds-odds/1 file lists battles [{{s: {{P, F, ...}}, o: {{...}}}}]: {exc}") from exc
        if not inputs or any(b.s.pieces < 1 or b.o.pieces < 1 for b in inputs):
            raise ConfigError("every battle needs at least one piece per side (WS-4.2)")
        result = combat_odds(inputs, offsets)
    else:
        inputs, names = odds_inputs(raw, args.side)
        result = combat_odds(inputs)
    if args.json:
        print(json.dumps({"sides": names, "battles": [_battle_json(b) for b in inputs], **result.to_json()}, indent=1))
    else:
        print(f"{NOTICE}\n")
        if raw.get("format") != "worlds-odds/1" and not (raw.get("combat") or {}).get("allocation"):
            print("(the scenario's combat block gives no allocation: the first canonical split is used; "
                  "`spacetable advise worlds` finds the best one)")
        print(f"Battles, in resolution order ({names[0]} against {names[1]}):")
        for i, b in enumerate(inputs, 1):
            print(f"  battle {i}: {_group_text(b.s)} (power {b.s.power}) vs {_group_text(b.o)} (power {b.o.power})")
        print(format_odds(result, names[0], names[1]))
    if args.plot:
        plot_odds(result, names, args.plot)
        print(f"plot written to {args.plot}")
    return 0


def _group_text(g: Group) -> str:
    parts = [f"{g.pops}P", f"{g.facs}F"]
    if g.natives:
        parts.append(f"{g.natives} native")
    if g.pop_bonus:
        parts.append(f"MG +{g.pop_bonus}/P")
    if g.energy:
        parts.append(f"energy {g.energy}")
    return " ".join(parts)


def _battle_json(b: BattleInput) -> dict[str, Any]:
    def one(g: Group) -> dict[str, Any]:
        return {"P": g.pops, "F": g.facs, "natives": g.natives, "pop_bonus": g.pop_bonus, "energy": g.energy,
                "tie_policy": g.tie_policy, "power": g.power}

    return {"s": one(b.s), "o": one(b.o)}


def plot_odds(result: Odds, names: list[str], path: str) -> None:
    """WS-9: the joint law of losses as a heat map, and the combat result as bars."""
    import matplotlib  # imported here: it takes half a second and only --plot needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    max_s = max(a for a, _ in result.joint)
    max_o = max(b for _, b in result.joint)
    grid = [[float(result.joint.get((a, b), 0)) for b in range(max_o + 1)] for a in range(max_s + 1)]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    im = ax1.imshow(grid, origin="lower", cmap="viridis")
    ax1.set_xlabel(f"pieces lost by {names[1]}")
    ax1.set_ylabel(f"pieces lost by {names[0]}")
    ax1.set_title("joint law of losses")
    for a in range(max_s + 1):
        for b in range(max_o + 1):
            if grid[a][b] > 0:
                ax1.text(b, a, f"{grid[a][b] * 100:.1f}%", ha="center", va="center", color="white", fontsize=8)
    fig.colorbar(im, ax=ax1)
    labels = [f"{names[0]} wins", "no winner", f"{names[1]} wins"]
    vals = [float(result.p_s_wins), float(result.p_no_winner), float(result.p_o_wins)]
    ax2.bar(labels, vals, color=["#4a8", "#999", "#c55"])
    for i, (v, fr) in enumerate(zip(vals, [result.p_s_wins, result.p_no_winner, result.p_o_wins], strict=True)):
        ax2.text(i, v, f"{fr}\n{v * 100:.2f}%", ha="center", va="bottom", fontsize=8)
    ax2.set_ylim(0, 1.15)
    ax2.set_title("combat result")
    fig.suptitle("Worlds & Suns combat odds (combat chapter only)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def format_advice(a: Advice, names: list[str], sit: Situation) -> str:
    lines = [f"Advice for {names[0]} (objective {sit.objective}, opponent {sit.opponent}, allocation mode {sit.mode}):"]
    for i, (sl, ev, e) in enumerate(zip(a.slots, a.events, a.energy, strict=True), 1):
        lines.append(
            f"  battle {i} (anchor {sl.anchor_id}): {names[0]} {sl.s_pops}P {sl.s_facs}F vs "
            f"{names[1]} {sl.o_pops}P {sl.o_facs}F; "
            f"event {ev or 'none'}; energy {e}"
        )
    v = a.value
    lines.append(f"  value: objective {v['objective']} ({float(v['objective']):.4f}), P(win) {v['p_win']} "
                 f"({float(v['p_win']) * 100:.2f}%), E[{names[0]} lost] {v['e_ls']}, E[{names[1]} lost] {v['e_lo']}, "
                 f"energy {v['energy']}, cards {v['cards']}")
    if a.response is not None:
        reply = ", ".join(f"b{i + 1} {ev or 'none'}/{e}" for i, (ev, e) in enumerate(a.response))
        lines.append(f"  {names[1]}'s worst reply for us (event/energy): {reply}")
    lines.append(f"  co-optimal plans (equal on the objective): {a.co_optimal}")
    for p in a.co_optimal_plans:
        lines.append("    " + " | ".join(f"{x[0]}P{x[1]}F e{x[2]} ev{x[3]}" for x in p))
    lines.append("")
    lines.append(format_odds(a.odds, names[0], names[1]))
    return "\n".join(lines)


def _add_advise_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--scenario", required=True, help="scenario name or file (optional combat block)")
    ap.add_argument("--side", default=None, help="our side (default: the attacker)")
    ap.add_argument("--objective", default="win", choices=["win", "no_loss", "losses", "net"])
    ap.add_argument("--opponent", default="fixed", choices=["fixed", "best-response", "worst_case"],
                    help="fixed reply (default passive) or best-response = worst_case (knows our plan; a guaranteed bound)")
    ap.add_argument("--allocation", default="auto", choices=["auto", "ours", "given", "opponent_worst"])
    ap.add_argument("--opponent-hand", default="scenario", choices=["scenario", "unknown"])
    ap.add_argument("--scenario-response", action="store_true", help="fixed opponent plays the combat block's events and energy")
    ap.add_argument("--json", action="store_true")


def advise_cmd(args: argparse.Namespace) -> int:
    raw = scen.load(args.scenario)
    opponent = FIXED if args.opponent == "fixed" else WORST_CASE
    sit, names = situation_from_scenario(raw, args.side, args.objective, opponent, args.allocation, args.opponent_hand,
                                         args.scenario_response)
    a = advise(sit)
    if args.json:
        print(json.dumps({"sides": names, **a.to_json()}, indent=1))
    else:
        print(f"{NOTICE}\n")
        print(format_advice(a, names, sit))
    return 0


def check_file(name: str, data: dict[str, Any]) -> int:
    """``spacetable check FILE``: a ``worlds`` step file. Format::

        {"game": "worlds", "scenario": NAME | {worlds-skirmish/1 ...}, "seed": 1,
         "steps": [{"seat": "white", "action": {...} | "notation",
                    "expect_error": "WS-2.3" (optional),
                    "expect": {"losses": [l0, l1], "winner": side|null, "energy": [..], "over": bool,
                               "pieces": {"CARD": {"side": {"P": n, "F": n}}}} (optional)}]}

    Prints pass/fail per step; returns 1 if any step failed, else 0."""
    raw = data.get("scenario", "s1-example")
    scenario = scen.load(raw) if isinstance(raw, str) else raw
    scen.validate(scenario)
    state = GAME.from_scenario(scenario, data.get("seed"))

    def seat_of(st: WorldsState, step: dict[str, Any]) -> int:
        seat_raw = step.get("seat", 0)
        return st.sides.index(seat_raw) if isinstance(seat_raw, str) else int(seat_raw)

    return run_steps(GAME, state, data.get("steps", []), name, _expectations, seat_of=seat_of)


def _expectations(state: WorldsState, exp: dict[str, Any]) -> list[str]:
    out = []
    c = state.combat or state.last_combat
    if "losses" in exp and (c is None or list(c.losses) != list(exp["losses"])):
        out.append(f"losses {None if c is None else c.losses} != {exp['losses']}")
    if "winner" in exp:
        got = None if c is None or c.winner is None else state.sides[c.winner]
        if got != exp["winner"]:
            out.append(f"winner {got} != {exp['winner']}")
    if "energy" in exp and list(state.energy) != list(exp["energy"]):
        out.append(f"energy {state.energy} != {exp['energy']}")
    if "over" in exp and state.over != exp["over"]:
        out.append(f"over {state.over} != {exp['over']}")
    for card, per_side in (exp.get("pieces") or {}).items():
        for side, counts in per_side.items():
            seat = state.sides.index(side)
            mine = [p for p in state.pieces if p.card == card and p.owner == seat]
            got = {"P": sum(1 for p in mine if p.kind == POPULATION), "F": sum(1 for p in mine if p.kind != POPULATION)}
            want = {"P": int(counts.get("P", 0)), "F": int(counts.get("F", 0))}
            if got != want:
                out.append(f"{side} on {card}: {got} != {want}")
    return out


def _add_simulate_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--scenario", default=balance.BUNDLED,
                    help=f"a scenario of the catalogue by name, or a JSON file (default {balance.BUNDLED})")
    ap.add_argument("--games", type=count(1, 100_000), default=20, help="games to play (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed: game g plays mix_seed(seed, g) (default 1)")
    ap.add_argument("--ai", default=balance.DEFAULT_AI,
                    help=f"comma list of AI players, rotated over the seats game by game: {', '.join(balance.AIS)} "
                         f"(default {balance.DEFAULT_AI})")
    ap.add_argument("--json", action="store_true", help="print the summary and the records as JSON")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=count(1), default=1, help="worker processes (default 1)")
    where.add_argument("--ray", metavar="ADDRESS", help="run the games on a Ray cluster or 'local' (docs/scale.md)")


def simulate(args: argparse.Namespace) -> int:
    ais = [a.strip() for a in args.ai.split(",") if a.strip()]
    bad = [a for a in ais if a not in balance.AIS]
    if not ais or bad:
        raise ConfigError(f"--ai: one or more of {', '.join(balance.AIS)}")
    path = Path(args.scenario)
    if path.suffix == ".json" and path.is_file():
        try:
            key = balance.content_key(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{args.scenario}: {exc}") from None
    else:
        scen.named(args.scenario)
        key = args.scenario
    records = balance.simulate(args.games, args.seed, ais, key, jobs=args.jobs, ray=args.ray)
    summary = balance.summarize(records, balance.label(key))
    if args.json:
        print(json.dumps({"summary": summary, "games": records}, indent=1))
        return 0
    sides = summary["sides"]
    print(f"{NOTICE}\n\n{summary['scenario']}: {summary['games']} games, {'/'.join(ais)}")
    for i, side in enumerate(sides):
        lo, hi = summary["seat_win_ci"][i]
        print(f"  {side} wins {summary['seat_win_rate'][i]:.1%} (95% {lo:.1%}-{hi:.1%})")
    print(f"  draws {summary['draw_rate']:.1%}; {summary['battles_per_game']:.2f} combats, "
          f"{summary['rounds_per_game']:.2f} rounds, {summary['actions_per_game']:.1f} actions a game")
    for k, lost in summary["lost_per_game"].items():
        print(f"  {k}: {lost:.2f} lost a game, {summary['purchase_rate'].get(k, 0):.1%} survive")
    return 0


COMMANDS = (
    Command("simulate", "AI-against-AI skirmishes of a scenario with its balance figures", _add_simulate_arguments,
            simulate),
    Command("odds", "exact combat odds of a scenario's combat block (WS-9)", _add_odds_arguments, odds),
    Command("advise", "the best allocation, event cards and energy with their value (WS-10)", _add_advise_arguments,
            advise_cmd),
    check_command("worlds", check_file, resources.files(__package__).joinpath("checks")),
)
