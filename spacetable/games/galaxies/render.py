"""A text board for the terminal (``render_text``): the hex grid in odd-r rows, ships by card
letter, obstacles, tiles, zones, and the status of both sides as the viewer may see it (rules doc, "Information model").

Legend: ``.`` empty hex, ``:`` starting-zone hex, ``#`` asteroid, ``%`` debris, ``?`` face-down tile,
``O`` warp gate, ``+`` energy source, ``$`` orbital market, ``^`` shield regenerator, ``!`` alien
artifact, ``@`` observation station, ``V`` victory point. Ships: an upper-case letter per card of
side A, lower-case for side B, followed by the squadron ship number.

Hexes are typed ``q,r``: each row starts with its ``r``, then the ``q`` of its first hex; ``q`` grows by
one per hex to the right, and the row's last ``q`` closes it. A ``q`` ruler above and below the grid
labels every fifth hex of the top and bottom rows.
"""

from __future__ import annotations

from .board import axial_to_offset
from .state import SIDES, GState
from .views import build_view

TILE_CHAR = {"warp_gate": "O", "energy_source": "+", "orbital_market": "$", "shield_regenerator": "^",
             "alien_artifact": "!", "observation_station": "@", "victory_point": "V"}


def render_text(s: GState, viewer: int | None) -> str:
    view = build_view(s, viewer)
    board = s.geo
    cells: dict[tuple[int, int], str] = {}
    for h in board.full:
        cells[h] = " :" if h in board.zones[0] or h in board.zones[1] else " ."
    for h in board.asteroids:
        cells[h] = " #"
    for h in board.debris:
        cells[h] = " %"
    for t in view["tiles"]:
        cells[tuple(t["hex"])] = " " + (TILE_CHAR.get(t["kind"], "?") if t["kind"] else "?")
    legend = []
    letters = {"A": iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), "B": iter("abcdefghijklmnopqrstuvwxyz")}
    for c in view["cards"]:
        mark = next(letters[c["side"]])
        pegs = []
        for k, p in enumerate(c["ships"], 1):
            if not p["alive"]:
                continue
            tag = mark + (str(k) if len(c["ships"]) > 1 else mark if c["size"] != "small" else " ")
            for h in p["hexes"]:
                cells[tuple(h)] = tag
            pegs.append(f"{p['id']} S{p['shields']}/{c['shields']} H{p['hull']}/{c['hull']}")
        flags = (" activated" if c["activated"] else "") + (f" hold {c['hold_count']}" if c["hold_count"] else "")
        legend.append(f"  {mark} {c['id']} ({c['name']}, {c['version']}, side {c['side']}){flags}: " + "; ".join(pegs))
    rows = sorted({h[1] for h in board.full})
    cols = {h: axial_to_offset(h)[0] for h in board.full}
    lo = min(cols.values())
    hi = max(cols.values())
    lines = []
    for r in rows:
        line = " " if r & 1 else ""
        by_col = {cols[h]: h for h in board.full if h[1] == r}
        for c in range(lo, hi + 1):
            h = by_col.get(c)
            line += cells.get(h, "  ") if h is not None else "  "
        qs = sorted(h[0] for h in board.full if h[1] == r)
        lines.append(f"{r:>3} {qs[0]:>4} {line}  {qs[-1]}")
    ruler = [_q_ruler(board.full, rows[0], lo, cols), *lines, _q_ruler(board.full, rows[-1], lo, cols)]
    turn = f"  active side {view['active']}" if view["active"] is not None else ""
    acting = ", ".join(str(x) for x in view["to_act"])
    out = [f"Battleship Galaxies - {view['mission']['name']} - {view['label']}",
           f"round {view['round']}/{view['mission']['max_rounds']}  phase {view['window']}{turn}"
           + (f"  to act: seat {acting}" if acting else ""),
           "  r    q   (hexes are typed q,r: each row shows its r, then its first q; q grows by 1 per hex "
           "to the right)",
           *ruler, *legend]
    for sd in view["sides"]:
        line = (f"  side {sd['side']} ({sd['faction']}): energy {sd['energy']}/40, hand {sd['hand_count']}, "
                f"deck {sd['deck_count']}, destroyed {len(sd['destroyed'])}, score {sd['score']}")
        out.append(line)
        if "hand" in sd:
            out.append("    hand: " + ", ".join(f"{t['id']} {t['name']} ({t['cost']}, {t['timing']})" for t in sd["hand"]))
        if "screen" in sd:
            out.append("    screen: " + ", ".join(f"{c['id']} ({c['version']}, launch {c['launch_cost']})" for c in sd["screen"]))
    if "activation" in view:
        a = view["activation"]
        out.append(f"  activation: {a['card']} step {a['step']}, moved: {', '.join(map(str, a['moved'])) or 'none'}")
    if "roll" in view:
        r = view["roll"]
        out.append(f"  roll {r['letter']}-{r['number']} {'hit' if r['hit'] else 'miss'} on {r['target']}")
    if view["result"]:
        res = view["result"]
        out.append(f"  result: {SIDES[res['winner']] if res['winner'] is not None else 'draw'} ({res['kind']})")
    return "\n".join(out)


def _q_ruler(full: object, r: int, lo: int, cols: dict[tuple[int, int], int]) -> str:
    """A line of ``q`` labels for row ``r``: every fifth q above (or below) its hex."""
    hexes = {cols[h]: h for h in full if h[1] == r}  # type: ignore[attr-defined]
    chars = [" "] * (2 * (max(hexes) - lo + 2) + 8)
    for c, h in hexes.items():
        if h[0] % 5 == 0:
            label = str(h[0])
            at = 10 + (1 if r & 1 else 0) + 2 * (c - lo) - len(label) + 1
            chars[at:at + len(label)] = label
    return f"{'q':>8} " + "".join(chars)[9:].rstrip()
