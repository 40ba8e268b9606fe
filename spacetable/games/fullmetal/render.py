"""Views: the JSON view for a seat (the information model of the rules doc), the compact text view and the SVG board.

The JSON view carries only public data plus the viewer's own forecasts and sealed
commit: never the deck order, the set-aside cards, other players' forecasts or
commits, nor the RNG state.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

from .state import CODES, FMState, Unit
from .terrain import OFF, TERRAIN_TO_CHAR

COLOURS = ("#d33", "#36c", "#2a2", "#d9a400")
COLOUR_NAMES = ("red", "blue", "green", "yellow")
TERRAIN_FILL = {".": "#5b8fd6", "*": "#8fb6b0", "%": "#9aa86a", "$": "#d9c58f", "#": "#8a6e4b"}


#: a cover count as its digit in the view, "9" standing for nine or more (a ``bytes.translate`` table: the cover
#: grid of every player is written for each viewer and state, some thousands of cells)
_COVER_DIGITS = bytes(48 + min(9, v) for v in range(256))


def cover_text(row: list[int]) -> str:
    """One player's cover counts (FM-15.2) as a string of digits, one per cell, capped at 9."""
    try:
        return bytes(row).translate(_COVER_DIGITS).decode("ascii")
    except ValueError:  # a count outside 0..255 (never in play): the plain way
        return "".join(str(min(9, c)) for c in row)


def unit_json(state: FMState, u: Unit) -> dict[str, Any]:
    d: dict[str, Any] = {"id": u.id, "kind": u.kind, "colour": u.colour, "cells": [state.xy(c) for c in u.cells]}
    if u.carrier >= 0:
        d["carrier"] = u.carrier
    if u.cargo:
        d["cargo"] = list(u.cargo)
    if u.kind in ("tank", "gt", "mb", "turret"):
        d["shots"] = u.shots
    if u.neut:
        d["neutralized_by"] = list(u.neut)
    if u.locked:
        d["locked"] = True
    if u.cells and u.carrier < 0 and state.stranded(u):
        d["stranded"] = True
    if u.kind == "ship":
        d["turrets"] = list(u.turrets)
        d["captor"] = u.captor
    if u.kind == "ore" and state.config["ore_values"] == "multi":
        d["value"] = u.value
    if u.builds:
        d["builds"] = list(u.builds)
    return d


def state_view(state: FMState, player: int | None) -> dict[str, Any]:
    """Everything ``player`` may see (``None``: spectator): the public fields with the viewer's own."""
    return {**public_view(state), **own_view(state, player)}


def public_view(state: FMState) -> dict[str, Any]:
    """The fields every viewer sees alike: the map, the units, the cover grid, the players' public counts; all
    but the viewer, its sealed commits and its tide forecast (:func:`own_view`). A server writes them once per
    state for every seat."""
    rows = [state.terrain[y * state.width:(y + 1) * state.width] for y in range(state.height)]
    return {
        "game": "fullmetal",
        "phase": state.phase,
        "turn": state.turn,
        "tide": state.tide,
        "width": state.width,
        "height": state.height,
        "map": state.map_name,
        "terrain": rows,
        "players": [
            {
                "seat": p, "colour": COLOUR_NAMES[p % 4], "pool": state.pool[p], "saved": state.saved[p],
                "eliminated": state.eliminated[p] >= 0, "resigned": state.resigned[p],
                "ships": [s.id for s in state.ships_of(p)],
            }
            for p in range(state.num_players)
        ],
        "controller": list(state.controller),
        "order": list(state.order),
        "active": state.active_player() if state.phase == "play" else None,
        "land_order": list(state.land_order),
        "units": [unit_json(state, u) for u in sorted(state.units.values(), key=lambda u: u.id)],
        "pontoons": [state.xy(c) for c in sorted(state.pontoon_at)],
        "reserve": dict(state.reserve),
        "departed": [dict(d) for d in state.departed],
        "graveyard": len(state.graveyard),
        "retreat_window": state.retreat_window,
        "retreat_only": None if state.retreat_only is None else list(state.retreat_only),
        "cover": [cover_text(row) for row in state.cov],
        "cards_left": len(state.pile) if state.config["tide_generator"] == "deck" else None,
        "config": {k: v for k, v in state.config.items()},
    }


def own_view(state: FMState, player: int | None) -> dict[str, Any]:
    """The viewer's own fields: who it is, the sealed commits as it may see them (FM-8.1, FM-20.1: its own, and
    who committed) and, for a player, its tide forecast."""
    view: dict[str, Any] = {"viewer": player, "sealed": state.sealed.view(player)}
    if player is not None and 0 <= player < state.num_players:
        view["forecast"] = {str(t): tide for t, tide in sorted(state.forecasts[player].items()) if t > state.turn}
    return view


#: Under the map: what its characters mean (issue 23: the map had no legend).
LEGEND = (
    "legend: . sea  * reef  % swamp  $ plain  # mountain  = pontoon  o ore (o= on a pontoon); odd columns sit lower",
    "  a unit: its letter, then its colour (0 red, 1 blue, 2 green, 3 yellow, - none): T tank, G super tank,",
    "  M motor boat, B barge (2 hexes), C crab, W weather layer, P pontoon; a ship: S its dome, U a pod with its",
    "  turret, u a pod whose turret is destroyed",
)


def grid_lines(state: FMState, marks: dict[int, str] | None = None) -> list[str]:
    """The map, two characters per cell, under a header of even column numbers; ``marks`` puts a character
    on cells (the landing sites of ``landing``) in place of their terrain or unit."""
    board = state.board
    lines = ["    " + "".join(f"{x:<2d}" if x % 2 == 0 else "  " for x in range(state.width))]
    for y in range(state.height):
        row = []
        for x in range(state.width):
            i = y * state.width + x
            if marks and i in marks:
                row.append(marks[i] + " ")
                continue
            if board.terrain[i] == OFF:
                row.append("  ")
                continue
            oid = state.occ.get(i)
            if oid is not None:
                u = state.units[oid]
                if u.kind == "ship":
                    idx = u.cells.index(i)
                    code = "S" if idx == 0 else ("U" if u.turrets[idx - 1] >= 0 else "u")
                    row.append(code + str(u.colour))
                elif u.kind == "ore":
                    row.append("o=" if i in state.pontoon_at else "o ")
                else:
                    row.append(CODES[u.kind] + (str(u.colour) if u.colour >= 0 else "-"))
            elif i in state.pontoon_at:
                row.append("= ")
            else:
                ch = TERRAIN_TO_CHAR[board.terrain[i]]
                row.append(ch + " ")
        lines.append(f"{y:>3} " + "".join(row))
    return lines


def text_view(state: FMState, player: int | None) -> str:
    """Compact terminal view: two characters per cell (terrain, or unit code + colour digit)."""
    head = f"Full Metal Planète · turn {state.turn} · tide {state.tide} · phase {state.phase}"
    if state.phase == "play":
        head += f" · player {state.active_player()} to play ({state.pool[state.active_player()]} AP)"
    lines = [head, *grid_lines(state), *LEGEND]
    lines.append("units (id, letter, colour @ x,y [cargo]; !N neutralized by enemy fire, !L locked, !S stranded):")
    items = []
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.kind in ("ore", "turret") or (not u.cells and u.carrier < 0 and u.kind != "ship"):
            continue
        if u.carrier >= 0 and state.units[u.carrier].kind == "ship":
            continue
        if u.cells:
            where = "/".join(f"{c % state.width},{c // state.width}" for c in u.cells)
        elif u.kind == "ship":
            where = "departed" if any(d["ship"] == u.id for d in state.departed) else "not-landed"
        else:
            where = f"in#{u.carrier}"
        extra = ""
        if u.cargo:
            extra = "[" + ",".join(f"{CODES[state.units[c].kind]}{c}" for c in u.cargo) + "]"
        if u.neut:
            extra += "!N"
        if u.locked:
            extra += "!L"
        if u.cells and u.carrier < 0 and state.stranded(u):
            extra += "!S"
        items.append(f"{u.id}{CODES[u.kind]}{u.colour if u.colour >= 0 else '-'}@{where}{extra}")
    for k in range(0, len(items), 6):
        lines.append("  " + "  ".join(items[k:k + 6]))
    ap = "  ".join(f"P{p}: {state.pool[p]} AP (+{state.saved[p]} saved)" for p in range(state.num_players))
    lines.append(ap)
    moved = [f"colour {c} -> {'nobody' if p < 0 else f'P{p}'}" for c, p in enumerate(state.controller) if p != c]
    if moved:
        lines.append("control (FM-5.2): " + ", ".join(moved))
    if player is not None and 0 <= player < state.num_players:
        fc = {t: v for t, v in state.forecasts[player].items() if t > state.turn}
        if fc:
            lines.append("your forecast: " + ", ".join(f"t{t} {v}" for t, v in sorted(fc.items())))
    for d in state.departed:
        lines.append(f"departed: ship {d['ship']} of player {d['player']} scoring {d['score']}")
    return "\n".join(lines)


def svg_board(state: FMState, player: int | None = None, size: float = 14.0, cover_for: int | None = None) -> str:
    """SVG of the hex map: terrain by tide, units by colour, cargo counts, fire-cover and neutralization overlays."""
    board = state.board
    w = size * (1.5 * state.width + 0.5)
    h = size * math.sqrt(3) * (state.height + 0.5)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0f} {h:.0f}" class="fm-board">']
    for i in board.cells:
        px, py = board.pixel(i)
        cx, cy = size * (px + 1), size * (py + math.sqrt(3) / 2)
        pts = " ".join(f"{cx + size * math.cos(k * math.pi / 3):.1f},{cy + size * math.sin(k * math.pi / 3):.1f}"
                       for k in range(6))
        ch = TERRAIN_TO_CHAR[board.terrain[i]]
        fill = TERRAIN_FILL[ch]
        if ch in "*%" and not board.land(i, state.tide):
            fill = "#6f9fd8"
        x, y = board.xy(i)
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="#333" stroke-width="0.5" data-cell="{x},{y}"/>')
        if cover_for is not None:
            c = max((state.cov[o][i] for o in range(state.num_players) if o != cover_for), default=0)
            if c >= 2:
                out.append(f'<polygon points="{pts}" fill="rgba(255,0,0,0.25)" pointer-events="none"/>')
        if i in state.pontoon_at:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.8:.1f}" fill="none" stroke="#555" stroke-width="2"/>')
        oid = state.occ.get(i)
        if oid is None:
            continue
        u = state.units[oid]
        colour = COLOURS[u.colour % 4] if u.colour >= 0 else "#777"
        if u.kind == "ore":
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.35:.1f}" fill="#222"/>')
            continue
        label = CODES[u.kind]
        if u.kind == "ship":
            idx = u.cells.index(i)
            label = "S" if idx == 0 else ("U" if u.turrets[idx - 1] >= 0 else "x")
        stroke = ' stroke="#fff" stroke-width="2" stroke-dasharray="2,2"' if u.neut else ""
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.6:.1f}" fill="{colour}"{stroke} data-unit="{u.id}"/>')
        text = label + (str(len(u.cargo)) if u.cargo and u.kind != "ship" else "")
        out.append(f'<text x="{cx:.1f}" y="{cy + size * 0.25:.1f}" font-size="{size * 0.7:.1f}" text-anchor="middle" '
                   f'fill="#fff" pointer-events="none">{text}</text>')
    out.append("</svg>")
    return "\n".join(out)



def landing_text(state: FMState, player: int, sites: list[tuple[int, str]]) -> str:
    """``landing`` at the prompt: the map with every cell where ``player``'s ship may put its dome,
    then the same sites as a list by row."""
    if not sites:
        return "no landing now: " + (f"the phase is {state.phase}" if state.phase != "land" else "not your landing")
    orients: dict[int, set[str]] = {}
    for cell, orientation in sites:
        orients.setdefault(cell, set()).add(orientation)
    mark = {cell: "L" if len(o) > 1 else ("n" if o == {"north"} else "s") for cell, o in orients.items()}
    first = min(orients)
    x, y = state.xy(first)
    lines = [f"{len(orients)} cells where your ship's dome may land ({len(sites)} landings):", *grid_lines(state, mark),
             "L: either orientation (north: pods N, SE, SW of the dome; south: pods NE, S, NW), n: north only, "
             "s: south only",
             f"type e.g. land {x},{y} {min(orients[first])}   (the sites by row:)"]
    by_row: dict[int, list[str]] = {}
    for cell in sorted(orients):
        x, y = state.xy(cell)
        tag = "" if len(orients[cell]) > 1 else f" {next(iter(orients[cell]))}"
        by_row.setdefault(y, []).append(f"{x},{y}{tag}")
    for y, cells in sorted(by_row.items()):
        lines += textwrap.wrap("  ".join(cells), width=110, initial_indent=f"  row {y:>2}: ", subsequent_indent=" " * 10,
                               break_on_hyphens=False)
    return "\n".join(lines)
