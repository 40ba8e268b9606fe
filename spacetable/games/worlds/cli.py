"""Terminal commands for Worlds & Suns (combat chapter only, WS-0.3).

* ``spacetable play worlds --scenario NAME|FILE [--vs ai]`` — play a skirmish (WS-8) in the terminal;
  works with piped stdin (one action per line: a number from the list, the notation, or JSON).
* ``spacetable odds worlds --scenario FILE [--side NAME] [--plot out.png] [--json]`` — exact odds (WS-9).
* ``spacetable advise worlds --scenario FILE [--side NAME] [--objective win|no_loss|losses|net]
  [--opponent fixed|best-response]`` — the allocation advisor (WS-10).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Any

from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.match import Match
from spacetable.core.steps import run_steps

from . import GAME
from . import scenario as scen
from .advisor import FIXED, WORST_CASE, Advice, Situation, advise
from .ai import AGENTS, DEFAULT_AGENT
from .events import card as event_card
from .game import TITLE
from .odds import BattleInput, Group, Odds, battles_from_json, combat_odds, format_odds
from .pieces import NOTICE, POPULATION, WORLD, anchor_sort_key
from .state import WorldsState


def run(command: str, argv: list[str]) -> int:
    try:
        if command == "play":
            return play(argv)
        if command == "odds":
            return odds(argv)
        if command == "advise":
            return advise_cmd(argv)
    except (ConfigError, RuleError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"worlds supports: play, odds, advise (not {command!r})", file=sys.stderr)
    return 2


# ------------------------------------------------------------------------ play
def _config_for(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    data = scen.load(name)
    if Path(name).suffix == ".json" and Path(name).exists():
        return {"scenario_json": data}, data
    return {"scenario": name}, data


def play(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="spacetable play worlds", description=f"{TITLE}. {NOTICE}")
    ap.add_argument("--scenario", default="s1-example", help=f"shipped name ({', '.join(scen.shipped_names())}) or a JSON file")
    ap.add_argument("--vs", choices=["ai", "human"], default="human", help="play against the AI (default: two humans, hot seat)")
    ap.add_argument("--seat", default=None, help="your side name or seat number against the AI (default: first side)")
    ap.add_argument("--ai", default=DEFAULT_AGENT, choices=sorted(AGENTS), help="AI player")
    ap.add_argument("--seed", type=int, default=None, help="match seed (default: the scenario's seed)")
    ap.add_argument("--save", default=None, help="save the match (spacetable-match/1) to this file")
    ap.add_argument("--plain", action="store_true", help="no colours")
    args = ap.parse_args(argv)
    config, data = _config_for(args.scenario)
    seed = int(data.get("seed", 0)) if args.seed is None else args.seed
    match = Match.new(GAME, config, seed, title=TITLE, notice=NOTICE)
    state: WorldsState = match.initial_state()
    out = _Printer(args.plain)
    human = {0, 1}
    agent = None
    if args.vs == "ai":
        me = 0
        if args.seat is not None:
            me = state.sides.index(args.seat) if args.seat in state.sides else int(args.seat)
        human = {me}
        agent = AGENTS[args.ai](seed, 1.0)
    out.title(f"{TITLE}\n{NOTICE}\nHouse rules: skirmish turn, end and score; event cards except MG's +1; scenario format.")
    shown = len(state.log) - 1
    try:
        while True:
            for line in state.log[shown:]:
                out.log(line)
            shown = len(state.log)
            seats = GAME.to_act(state)
            if not seats:
                break
            seat = seats[0]
            if seat not in human:
                assert agent is not None
                action = agent.choose(GAME, state, seat)
                viewer = next(iter(human))
                shown_action = GAME.action_view(state, seat, action, viewer)
                out.info("AI " + GAME.action_text(state, seat, shown_action or action))
                state = match.play(state, seat, action)
                continue
            out.board(GAME.render_text(state, seat))
            legal = GAME.legal_actions(state, seat)
            out.info(f"{state.sides[seat]} to act. Choose a number, type an action (e.g. 'energy 2', 'event MG', 'end'), "
                     "'help' or 'quit':")
            for i, a in enumerate(legal):
                out.info(f"  {i}: {GAME.action_text(state, seat, a)}")
            while True:
                line = sys.stdin.readline()
                if not line:
                    out.info("input ended; stopping.")
                    _save(match, args.save)
                    return 0
                text = line.strip()
                if not text:
                    continue
                if text in ("quit", "exit"):
                    _save(match, args.save)
                    return 0
                if text == "help":
                    out.info(GAME.parse_action.__doc__ or "")
                    continue
                try:
                    action = legal[int(text)] if text.isdigit() else GAME.parse_action(state, seat, text)
                    state = match.play(state, seat, action)
                    break
                except IndexError:
                    out.error(f"no action number {text}")
                except RuleError as exc:
                    out.error(f"[{exc.rule}] {exc.message}")
    except KeyboardInterrupt:
        _save(match, args.save)
        return 130
    result = GAME.outcome(state)
    out.board(GAME.render_text(state, None))
    if result is not None:
        m = result.details["material"]
        verdict = "draw" if not result.winners else f"{state.sides[result.winners[0]]} wins"
        out.title(f"Result (house score, WS-8.4): {verdict}; material {state.sides[0]} {m[0]}, {state.sides[1]} {m[1]}; "
                  f"pieces lost {result.details['lost']}, combats won {result.details['combats_won']}, "
                  f"Factories converted {result.details['converted']}.\n{NOTICE}")
    _save(match, args.save)
    return 0


def _save(match: Match, path: str | None) -> None:
    if path:
        match.save(path)
        print(f"match saved to {path}")


class _Printer:
    def __init__(self, plain: bool) -> None:
        self.console: Any = None
        if not plain:
            try:
                from rich.console import Console

                self.console = Console(highlight=False)
            except ImportError:  # pragma: no cover - rich is a dependency
                self.console = None

    def _p(self, text: str, style: str) -> None:
        if self.console is not None:
            from rich.markup import escape

            self.console.print(f"[{style}]{escape(text)}[/{style}]")
        else:
            print(text)

    def title(self, text: str) -> None:
        self._p(text, "bold")

    def board(self, text: str) -> None:
        self._p(text, "cyan")

    def log(self, text: str) -> None:
        self._p("* " + text, "green")

    def info(self, text: str) -> None:
        self._p(text, "white")

    def error(self, text: str) -> None:
        self._p(text, "red")


# ------------------------------------------------------------------------ odds
def _combat_block(data: dict[str, Any], state: WorldsState) -> dict[str, Any]:
    block = data.get("combat") or {}
    if not isinstance(block, dict):
        raise ConfigError("the scenario's 'combat' block is a JSON object {card, attacker, allocation, events, energy}")
    block = dict(block)
    if "card" not in block:
        from .declare import eligible_cards

        cards = eligible_cards(state, state.active)
        if not cards:
            raise ConfigError("the scenario has no 'combat' block and no eligible card")
        block["card"] = cards[0]
    block.setdefault("attacker", state.sides[state.active])
    if block["attacker"] not in state.sides:
        raise ConfigError(f"combat.attacker must be one of {state.sides}")
    return block


def _groups(state: WorldsState, block: dict[str, Any]) -> tuple[list[dict[str, Any]], int, int]:
    """Battles of the scenario's combat, checked by the engine itself (WS-2.3 declaring, WS-4 allocating):
    the block's allocation, or else the first canonical split (WS-4.5). Events and energy are checked
    against the hands and pools (WS-5.1, WS-5.3, WS-7)."""
    from .declare import card_by_id

    attacker = state.sides.index(block["attacker"])
    trial = copy.deepcopy(state)
    trial.active = attacker
    trial.over = False
    trial.fought = []
    try:
        trial = GAME.apply(trial, attacker, {"type": "declare_combat", "card": block["card"]})
        c = trial.combat
        assert c is not None
        alloc = block.get("allocation")
        action = {"type": "allocate", "battles": alloc} if alloc else GAME.allocations(trial)[0]
        trial = GAME.apply(trial, c.allocator, action)
    except RuleError as exc:
        raise ConfigError(f"combat block: [{exc.rule}] {exc.message}") from exc
    battles: list[dict[str, Any]] = list(action["battles"])
    allocator = c.allocator
    card = card_by_id(state, block["card"])
    on_world = card is not None and card.kind == WORLD
    kinds = {p.id: p.kind for p in state.pieces}
    for seat, side in enumerate(state.sides):
        evs = (block.get("events") or {}).get(side) or [None] * len(battles)
        ens = (block.get("energy") or {}).get(side) or [0] * len(battles)
        if len(evs) != len(battles) or len(ens) != len(battles):
            raise ConfigError(f"combat block: {side}'s events and energy list one entry per battle ({len(battles)})")
        if any(not isinstance(e, int) or isinstance(e, bool) or e < 0 for e in ens) or sum(ens) > state.energy[seat]:
            raise ConfigError(f"combat block [WS-5.3]: {side}'s energy must be whole amounts totalling at most its pool "
                              f"({state.energy[seat]})")
        hand = list(state.hands[seat])
        for b, ev in zip(battles, evs, strict=True):
            if ev is None:
                continue
            ids = list(b["pieces"]) if seat == allocator else [b["anchor"]]
            pops = sum(1 for i in ids if kinds[i] == POPULATION)
            if ev not in hand or not event_card(ev).legal(pops, seat != attacker, on_world):
                raise ConfigError(f"combat block [WS-7]: {side} cannot play {ev!r} in the battle against {b['anchor']}")
            hand.remove(ev)
    return battles, attacker, allocator


def _group_for(state: WorldsState, ids: list[str], ev: str | None, energy: int, policy: str) -> Group:
    kinds = {p.id: p.kind for p in state.pieces}
    pops = sum(1 for i in ids if kinds[i] == POPULATION)
    facs = len(ids) - pops
    natives = bonus = 0
    if ev:
        c = event_card(ev)
        natives, bonus = c.natives, c.pop_bonus
    return Group(pops=pops, facs=facs, natives=natives, pop_bonus=bonus, energy=energy, tie_policy=policy)


def odds(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="spacetable odds worlds", description="Exact combat odds (WS-9).")
    ap.add_argument("--scenario", required=True,
                    help="a worlds-skirmish/1 scenario (its 'combat' block) or a worlds-odds/1 file with explicit battles")
    ap.add_argument("--side", default=None, help="the side S the odds are reported for (default: the attacker)")
    ap.add_argument("--plot", default=None, help="draw the outcome distribution to this PNG file")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    path = Path(args.scenario)
    raw = json.loads(path.read_text(encoding="utf-8")) if path.exists() else scen.load(args.scenario)
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
        scen.validate(raw)
        state = GAME.from_scenario(raw)
        block = _combat_block(raw, state)
        battles, attacker, allocator = _groups(state, block)
        if args.side is not None and args.side not in state.sides:
            raise ConfigError(f"--side must be one of {state.sides}")
        s = state.sides.index(args.side) if args.side else attacker
        o = 1 - s
        names = [state.sides[s], state.sides[o]]
        evs = block.get("events") or {}
        ens = block.get("energy") or {}
        pol = block.get("tie_policy") or {}
        inputs = []
        for i, b in enumerate(battles):
            groups = []
            for seat in (s, o):
                ids = list(b["pieces"]) if seat == allocator else [b["anchor"]]
                side = state.sides[seat]
                ev = (evs.get(side) or [None] * len(battles))[i]
                en = (ens.get(side) or [0] * len(battles))[i]
                groups.append(_group_for(state, ids, ev, int(en), pol.get(side, "factory_first")))
            inputs.append(BattleInput(groups[0], groups[1]))
        result = combat_odds(inputs)
    if args.json:
        print(json.dumps({"sides": names, "battles": [_battle_json(b) for b in inputs], **result.to_json()}, indent=1))
    else:
        print(f"{TITLE}\n{NOTICE}\n")
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
    import matplotlib

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


# ---------------------------------------------------------------------- advise
def situation_from_scenario(raw: dict[str, Any], side: str | None, objective: str, opponent: str, allocation: str,
                            opponent_hand: str = "scenario", use_scenario_response: bool = False) -> tuple[Situation, list[str]]:
    """Build the WS-10.1 input from a scenario and its ``combat`` block."""
    from .declare import card_by_id, pieces_on

    scen.validate(raw)
    state = GAME.from_scenario(raw)
    block = _combat_block(raw, state)
    _groups(state, block)  # the engine checks the block (WS-2.3, WS-4, WS-7)
    card = block["card"]
    attacker = state.sides.index(block["attacker"])
    if side is not None and side not in state.sides:
        raise ConfigError(f"--side must be one of {state.sides}")
    s = state.sides.index(side) if side else attacker
    o = 1 - s
    mine, theirs = pieces_on(state, card, s), pieces_on(state, card, o)
    if not mine or not theirs:
        raise ConfigError(f"both sides need pieces on {card}")
    s_alloc = len(mine) > len(theirs) or (len(mine) == len(theirs) and s == attacker)
    anchor_pieces = sorted(theirs if s_alloc else mine, key=anchor_sort_key)
    kinds = {p.id: p.kind for p in state.pieces}
    mode = allocation
    alloc_list = None
    if block.get("allocation"):
        by_anchor = {b["anchor"]: b["pieces"] for b in block["allocation"]}
        alloc_list = []
        for p in anchor_pieces:
            ids = by_anchor[p.id]
            np_ = sum(1 for i in ids if kinds[i] == POPULATION)
            alloc_list.append((np_, len(ids) - np_))
    if mode == "auto":
        mode = "ours" if s_alloc else ("given" if alloc_list else "opponent_worst")
    if mode == "ours" and not s_alloc:
        raise ConfigError(f"[WS-4.2] {state.sides[s]} is not the allocator of this combat: use --allocation "
                          "opponent_worst or given")
    if mode == "opponent_worst" and s_alloc:
        raise ConfigError(f"[WS-4.2] {state.sides[s]} is the allocator of this combat: use --allocation ours or given")
    if mode == "given" and alloc_list is None:
        raise ConfigError("allocation 'given' needs an 'allocation' in the scenario's combat block")
    response = None
    if opponent == FIXED and use_scenario_response:
        order = [b["anchor"] for b in block.get("allocation") or []]
        ev = (block.get("events") or {}).get(state.sides[o]) or [None] * len(order)
        en = (block.get("energy") or {}).get(state.sides[o]) or [0] * len(order)
        resp_by_anchor = {a: (ev[i], int(en[i])) for i, a in enumerate(order)}
        response = [resp_by_anchor.get(p.id, (None, 0)) for p in anchor_pieces]
    c = card_by_id(state, card)
    sit = Situation(
        s_is_attacker=s == attacker, on_world=c is not None and c.kind == WORLD,
        s_pieces=(sum(1 for p in mine if p.kind == POPULATION), sum(1 for p in mine if p.kind != POPULATION)),
        o_pieces=(sum(1 for p in theirs if p.kind == POPULATION), sum(1 for p in theirs if p.kind != POPULATION)),
        anchors=[(p.id, p.kind) for p in anchor_pieces], allocator="S" if s_alloc else "O",
        energy_s=state.energy[s], energy_o=state.energy[o], hand_s=list(state.hands[s]),
        hand_o=None if opponent_hand == "unknown" else list(state.hands[o]),
        mode=mode, allocation=alloc_list if mode == "given" else None, opponent=opponent, fixed_response=response,
        objective=objective,
    )
    return sit, [state.sides[s], state.sides[o]]


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


def advise_cmd(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="spacetable advise worlds", description="Allocation advisor (WS-10).")
    ap.add_argument("--scenario", required=True, help="scenario name or file (optional combat block)")
    ap.add_argument("--side", default=None, help="our side (default: the attacker)")
    ap.add_argument("--objective", default="win", choices=["win", "no_loss", "losses", "net"])
    ap.add_argument("--opponent", default="fixed", choices=["fixed", "best-response", "worst_case"],
                    help="fixed reply (default passive) or best-response = worst_case (knows our plan; a guaranteed bound)")
    ap.add_argument("--allocation", default="auto", choices=["auto", "ours", "given", "opponent_worst"])
    ap.add_argument("--opponent-hand", default="scenario", choices=["scenario", "unknown"])
    ap.add_argument("--scenario-response", action="store_true", help="fixed opponent plays the combat block's events and energy")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    raw = scen.load(args.scenario)
    opponent = FIXED if args.opponent == "fixed" else WORST_CASE
    sit, names = situation_from_scenario(raw, args.side, args.objective, opponent, args.allocation, args.opponent_hand,
                                         args.scenario_response)
    a = advise(sit)
    if args.json:
        print(json.dumps({"sides": names, **a.to_json()}, indent=1))
    else:
        print(f"{TITLE}\n{NOTICE}\n")
        print(format_advice(a, names, sit))
    return 0


# ----------------------------------------------------------------------- check
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
