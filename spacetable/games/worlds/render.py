"""A plain-text picture of a skirmish for the terminal and replays: what one seat sees (IM-1, IM-2),
with the combat-chapter-only notice (WS-0.3)."""

from __future__ import annotations

from typing import Any

from .pieces import NOTICE, POPULATION
from .state import ENERGY, EVENT, Combat, WorldsState
from .views import view


def _card_line(s: WorldsState, label: str, cd: dict[str, Any]) -> str:
    per = []
    for seat, side in enumerate(s.sides):
        mine = [p for p in cd["pieces"] if p["owner"] == seat]
        np_ = sum(1 for p in mine if p["kind"] == POPULATION)
        if mine:
            per.append(f"{side} {np_}P {len(mine) - np_}F")
    return f"  {label:5} {cd['id']}: " + (", ".join(per) if per else "empty")


def _systems(s: WorldsState, v: dict[str, Any]) -> list[str]:
    lines = []
    for sy in v["systems"]:
        start = f" (starting system of {sy['starting_system_of']}: no combat)" if sy["starting_system_of"] else ""
        lines.append(f"system {sy['id']}{start}")
        for label, cd in [("sun", sy["sun"])] + [("world", w) for w in sy["worlds"]]:
            lines.append(_card_line(s, label, cd))
    return lines


def _combat(s: WorldsState, c: Combat) -> list[str]:
    lines = [f"combat on {c.card}: attacker {s.sides[c.attacker]}, losses {c.losses[0]}-{c.losses[1]}, step {c.step}"]
    for i, b in enumerate(c.battles):
        mark = ">" if i == c.current and not b.done else " "
        lines.append(f" {mark}battle {i + 1}: {', '.join(b.pieces)} vs {b.anchor}")
        if b.events != [None, None]:
            lines.append("     events: " + ", ".join(f"{s.sides[p]} {b.events[p]}" for p in (0, 1) if b.events[p]))
        if b.totals:
            res = "tie" if b.result == "tie" else f"{s.sides[int(b.result)]} wins"
            parts = [f"{s.sides[p]} power {b.power[p]} (energy {b.energy[p]}) + die {b.dice[p]} = {b.totals[p]}"
                     for p in (0, 1)]
            lines.append("     " + ", ".join(parts) + f": {res}")
    if c.step in (EVENT, ENERGY):
        sealed = ", ".join(f"{s.sides[p]} {'committed' if done else 'waiting'}" for p, done in c.sealed.public().items())
        lines.append(f"  sealed {c.step} choices: {sealed}")
    return lines


def render_text(s: WorldsState, player: int | None) -> str:
    """The board, pools, hand sizes (and the seat's own hand), the open combat, material and the recent log."""
    v = view(s, player)
    # the notice once per screen (WS-0.3): it names the skirmish and says what is not implemented
    lines = [NOTICE, f"scenario {s.scenario_id} - round {s.round}/{s.max_rounds}, {s.sides[s.active]}'s turn"]
    lines += _systems(s, v)
    lines.append(
        f"energy {s.sides[0]} {s.energy[0]}, {s.sides[1]} {s.energy[1]}; "
        f"hands {s.sides[0]} {len(s.hands[0])}, {s.sides[1]} {len(s.hands[1])} cards"
    )
    if player is not None:
        lines.append(f"your hand: {', '.join(s.hands[player]) or '(empty)'}  [event cards are house rules except MG's +1]")
    if s.combat is not None:
        lines += _combat(s, s.combat)
    lines.append(f"material {s.sides[0]} {v['material'][0]}, {s.sides[1]} {v['material'][1]} (house score)")
    starts = [i for i, line in enumerate(v["log"]) if line.startswith("round ")]
    recent = [line for line in v["log"][starts[-2] if len(starts) > 1 else 0:][-20:]  # this turn and the one before
              if NOTICE not in line]  # the log opens with the notice, already at the top
    lines.extend(["recent:"] + [f"  {line}" for line in recent])
    if s.over:
        lines.append(f"GAME OVER: {s.end_reason}")
    return "\n".join(lines)
