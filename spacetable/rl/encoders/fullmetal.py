"""Full Metal Planète encoding (FM-*): map planes and unit references by cell.

The grid is the map's ``H × W`` (``[x, y]`` of the actions = column, row; the original map is
36 × 23, generated maps take their size from ``players`` and ``map_size``, catalogue and custom maps
their own). Seats are relative
(the observing seat first).

Planes (``H × W`` each): terrain (sea, reef, swamp, plain, mountain, off the map); own units by
kind (ship, turret, tank, gt, mb, barge, crab, wl); other seats' units by kind; pontoons; ore
(value/5); neutralized, locked, stranded units; shots left/2; cargo carried on the cell by kind
(ore, tank, gt, mb, barge, crab, wl, pontoon; count/4); own fire cover/3; the highest other cover/3.

Units in actions are named by *reference*: a unit on the board by the ``x``, ``y`` of its first
cell and its ``kind``; a carried unit by its carrier's reference followed by ``slot[i]`` (its
index in the carrier's cargo) and, one level deeper, ``slot2[j]``. Each unit role of an action
has its own tokens (``a_*``, ``b_*``, ``c_*``) and so has each cell role (``d_*``, ``d2_*``,
``e_*``, ``f_*``), so that no token repeats within a series.

Series: the action type first, then its fields in a fixed order –
``move``/``retreat``: a, d (and d2 for a barge's second cell); ``enter``: a (unit), b (ship);
``load``: a (carrier), b (item); ``exit``/``unload``: a (the carried unit), then d (and d2) or b
(the receiving carrier); ``build``: a (weather layer), ``build_kind``, d; ``capture``: a, b, c
(target), ``colour``; ``capture_ship``: a, b; ``repair``: a, d (pod); ``fire``: a, b, d (target);
``assault``: a (mover), d (step), then per shot b/e and c/f (partner, target); ``transfer``:
a (item, under its current holder), b (receiving carrier); ``take_off``: a; ``land``: d (dome),
``orientation``; ``deploy``: ``option[k]`` (the engine's listed deployments, FM-8);
``decide_departure``: ``depart[i * 2 + leave]`` per own ship, then ``done`` (FM-20.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spacetable.games.fullmetal.game import load_map
from spacetable.games.fullmetal.mapgen import dimensions
from spacetable.games.fullmetal.spaceship import ORIENTATIONS

from .base import Action, Block, Encoder, Segment, View

KINDS = ("ship", "turret", "tank", "gt", "mb", "barge", "crab", "wl", "pontoon", "ore")
ARMED = ("ship", "turret", "tank", "gt", "mb", "barge", "crab", "wl")
CARGO = ("ore", "tank", "gt", "mb", "barge", "crab", "wl", "pontoon")
TERRAIN = ".*%$#?"
TYPES = ("end_turn", "move", "retreat", "enter", "load", "exit", "unload", "build", "capture", "capture_ship",
         "repair", "fire", "assault", "transfer", "take_off", "land", "deploy", "decide_departure")
PHASES = ("land", "deploy", "play", "depart", "over")
TIDES = ("low", "normal", "high")
SEATS = 4
MAX_SLOT = 16
MAX_SLOT2 = 4
MAX_OPTIONS = 16
MAX_SHIPS = 4
UNIT_ROLES = ("a", "b", "c")
CELL_ROLES = ("d", "d2", "e", "f")
PLANES = 6 + 2 * len(ARMED) + 2 + 3 + 1 + len(CARGO) + 2
SCALARS = len(PHASES) + 1 + 3 + 2 * 4 + SEATS * 9 + 3 + 1 + 1 + 1


def grid_size(config: dict[str, Any]) -> tuple[int, int]:
    """``(width, height)`` of the map a configuration plays on (a generated map's size depends only on
    the number of players and ``map_size``, not on its seed)."""
    players = int(config.get("players", 2))
    if config["map"] == "generated":
        return dimensions(players, config["map_size"])
    fmap, _ = load_map(config, 0, players)
    return fmap.width, fmap.height


class FullMetalEncoder(Encoder):
    game_id = "fullmetal"
    max_depth = 24
    has_turns = True

    def __init__(self, game: Any, config: dict[str, Any]) -> None:
        self.width, self.height = grid_size(config)
        super().__init__(game, config)

    def turn_of(self, state: Any) -> int:
        return int(state.turn)

    def action_segments(self) -> list[Segment]:
        w, h = self.width, self.height
        segs = [Segment(t, 1, f"action type {t}") for t in TYPES]
        for r in UNIT_ROLES:
            segs += [Segment(f"{r}_x", w, f"unit {r}: column of its (carrier's) first cell"),
                     Segment(f"{r}_y", h, f"unit {r}: row"),
                     Segment(f"{r}_kind", len(KINDS), f"unit {r}: kind ({', '.join(KINDS)})"),
                     Segment(f"{r}_slot", MAX_SLOT, f"unit {r}: index in its carrier's cargo"),
                     Segment(f"{r}_slot2", MAX_SLOT2, f"unit {r}: index one carrier deeper")]
        for r in CELL_ROLES:
            segs += [Segment(f"{r}_x", w, f"cell {r}: column"), Segment(f"{r}_y", h, f"cell {r}: row")]
        segs += [
            Segment("build_kind", 3, "tank, crab, pontoon (FM-13)"),
            Segment("colour", SEATS, "colour taken by a capture (FM-17)"),
            Segment("orientation", len(ORIENTATIONS), f"landing orientation ({', '.join(ORIENTATIONS)})"),
            Segment("option", MAX_OPTIONS, "the k-th listed deployment (FM-8)"),
            Segment("depart", MAX_SHIPS * 2, "own ship i stays (2i) or leaves (2i + 1) (FM-20.1)"),
            Segment("done", 1, "end of a departure series"),
        ]
        return segs

    def game_blocks(self) -> list[Block]:
        return [
            Block("planes", (PLANES, self.height, self.width),
                  "terrain (6), own units by kind (8), others' units by kind (8), pontoons, ore value, neutralized, "
                  "locked, stranded, shots/2, cargo by kind (8), own cover/3, others' cover/3"),
            Block("scalars", (SCALARS,),
                  "phase, turn/26, tide, forecast of the next two turns (unknown, low, normal, high), per seat: "
                  "exists, pool/25, saved/10, eliminated, resigned, ships, active, to act, sealed; reserve "
                  "tank/16, crab/4, pontoon/4; tide cards left/9; retreat window; I must act"),
        ]

    # ---------------------------------------------------------- references
    @staticmethod
    def _referencer(view: View) -> Any:
        """``ref(unit id)``: the (segment suffix, index) pairs naming a unit (see the module docstring)."""
        units = {u["id"]: u for u in view["units"]}
        memo: dict[int, list[tuple[str, int]]] = {}

        def ref(uid: int) -> list[tuple[str, int]]:
            if uid in memo:
                return memo[uid]
            u = units[uid]
            if u["cells"]:
                x, y = u["cells"][0]
                out = [("x", x), ("y", y), ("kind", KINDS.index(u["kind"]))]
            elif "carrier" in u:
                holder = ref(u["carrier"])
                level = "slot2" if any(k == "slot" for k, _ in holder) else "slot"
                out = [*holder, (level, units[u["carrier"]]["cargo"].index(uid))]
            else:
                raise KeyError(f"fullmetal encoder: unit {uid} is neither on the board nor carried")
            memo[uid] = out
            return out

        return ref

    def sequences(self, view: View, seat: int, actions: Sequence[Action]) -> list[tuple[int, ...]]:
        ref = self._referencer(view)
        tok = self.token
        my_ships = view["players"][seat]["ships"]

        def unit(role: str, uid: int) -> list[int]:
            return [tok(f"{role}_{k}", v) for k, v in ref(uid)]

        def cell(role: str, pos: Any) -> list[int]:
            if pos and isinstance(pos[0], list):  # a barge's two cells
                second = "d2" if role == "d" else role
                return [tok(f"{role}_x", pos[0][0]), tok(f"{role}_y", pos[0][1]),
                        tok(f"{second}_x", pos[1][0]), tok(f"{second}_y", pos[1][1])]
            return [tok(f"{role}_x", pos[0]), tok(f"{role}_y", pos[1])]

        out: list[tuple[int, ...]] = []
        for i, a in enumerate(actions):
            t = a["type"]
            seq = [self.offsets[t]]
            if t in ("move", "retreat"):
                seq += unit("a", a["unit"]) + cell("d", a["path"][0] if t == "move" else a["to"])
            elif t == "enter":
                seq += unit("a", a["unit"]) + unit("b", a["ship"])
            elif t == "load":
                seq += unit("a", a["carrier"]) + unit("b", a["item"])
            elif t == "exit":
                seq += unit("a", a["unit"]) + cell("d", a["to"])
            elif t == "unload":
                seq += unit("a", a["item"])
                seq += unit("b", a["to"]) if isinstance(a["to"], int) else cell("d", a["to"])
            elif t == "build":
                seq += [*unit("a", a["wl"]), tok("build_kind", ("tank", "crab", "pontoon").index(a["kind"])), *cell("d", a["to"])]
            elif t == "capture":
                seq += unit("a", a["a"]) + unit("b", a["b"]) + unit("c", a["target"]) + [tok("colour", a["colour"])]
            elif t == "capture_ship":
                seq += unit("a", a["destroyer"]) + unit("b", a["ship"])
            elif t == "repair":
                seq += unit("a", a["ship"]) + cell("d", a["pod"])
            elif t == "fire":
                seq += unit("a", a["a"]) + unit("b", a["b"]) + cell("d", a["target"])
            elif t == "assault":
                seq += unit("a", a["mover"]) + cell("d", a["path"][0])
                for (urole, crole), shot in zip((("b", "e"), ("c", "f")), a["shots"], strict=False):
                    seq += unit(urole, shot["partner"]) + cell(crole, shot["target"])
            elif t == "transfer":
                seq += unit("a", a["item"]) + unit("b", a["to"])
            elif t == "take_off":
                seq += unit("a", a["ship"])
            elif t == "land":
                seq += [*cell("d", a["dome"]), tok("orientation", tuple(ORIENTATIONS).index(a["orientation"]))]
            elif t == "deploy":
                seq += [tok("option", i)]
            elif t == "decide_departure":
                seq += [tok("depart", 2 * k + (a["choices"][str(sid)] == "leave")) for k, sid in enumerate(my_ships)]
                seq.append(self.offsets["done"])
            elif t != "end_turn":
                raise ValueError(f"fullmetal encoder: unknown action type {t!r}")
            out.append(tuple(seq))
        return out

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        out = super().legal_actions(state, seat)
        if out and out[0]["type"] == "deploy":
            out = out[:MAX_OPTIONS]
        return out

    # ------------------------------------------------------------ observation
    def observe_view(self, view: View, seat: int, out: np.ndarray) -> None:
        w, h = view["width"], view["height"]
        if (w, h) != (self.width, self.height):
            raise ValueError(f"fullmetal encoder built for a {self.width}x{self.height} map, the view is {w}x{h}")
        cells = h * w
        planes = out[: PLANES * cells].reshape(PLANES, h, w)
        for y, row in enumerate(view["terrain"]):
            for x, ch in enumerate(row):
                planes[TERRAIN.index(ch) if ch in TERRAIN else 5, y, x] = 1.0
        n = len(view["players"])
        controller = view["controller"]
        units = {u["id"]: u for u in view["units"]}
        own_base, other_base = 6, 6 + len(ARMED)
        pontoon_p, ore_p = 6 + 2 * len(ARMED), 7 + 2 * len(ARMED)
        neut_p = ore_p + 1
        cargo_p = neut_p + 4
        cover_p = cargo_p + len(CARGO)
        for u in view["units"]:
            if not u["cells"]:
                continue
            kind = u["kind"]
            owner = controller[u["colour"]] if u["colour"] >= 0 else -1
            for x, y in u["cells"]:
                if kind == "pontoon":
                    planes[pontoon_p, y, x] = 1.0
                elif kind == "ore":
                    planes[ore_p, y, x] = u.get("value", 2) / 5.0
                else:
                    base = own_base if owner == seat else other_base
                    planes[base + ARMED.index(kind), y, x] = 1.0
            x, y = u["cells"][0]
            if u.get("neutralized_by"):
                planes[neut_p, y, x] = 1.0
            if u.get("locked"):
                planes[neut_p + 1, y, x] = 1.0
            if u.get("stranded"):
                planes[neut_p + 2, y, x] = 1.0
            if "shots" in u:
                planes[neut_p + 3, y, x] = min(u["shots"], 2) / 2.0
            for cid in u.get("cargo", []):
                ck = units[cid]["kind"]
                if ck in CARGO:
                    planes[cargo_p + CARGO.index(ck), y, x] = min(1.0, planes[cargo_p + CARGO.index(ck), y, x] + 0.25)
        for x, y in view["pontoons"]:
            planes[pontoon_p, y, x] = 1.0
        cover = view["cover"]
        for p, row in enumerate(cover):
            vals = np.frombuffer(row.encode(), dtype=np.uint8).astype(np.float32) - 48.0
            grid = np.minimum(vals, 3.0).reshape(h, w) / 3.0
            if p == seat:
                planes[cover_p] = grid
            else:
                np.maximum(planes[cover_p + 1], grid, out=planes[cover_p + 1])
        sc = out[PLANES * cells: PLANES * cells + SCALARS]
        sc[PHASES.index(view["phase"])] = 1.0
        at = len(PHASES)
        sc[at] = min(view["turn"], 26) / 26.0
        if view["tide"] in TIDES:
            sc[at + 1 + TIDES.index(view["tide"])] = 1.0
        at += 4
        forecast = view.get("forecast") or {}
        for k in range(2):
            tide = forecast.get(str(view["turn"] + 1 + k))
            sc[at + 4 * k + (1 + TIDES.index(tide) if tide in TIDES else 0)] = 1.0
        at += 8
        committed = view["sealed"]["committed"]
        for p, pl in enumerate(view["players"]):
            r = (p - seat) % n
            row = sc[at + 9 * r: at + 9 * (r + 1)]
            row[0] = 1.0
            row[1] = min(pl["pool"], 25) / 25.0
            row[2] = min(pl["saved"], 10) / 10.0
            row[3] = 1.0 if pl["eliminated"] else 0.0
            row[4] = 1.0 if pl["resigned"] else 0.0
            row[5] = len(pl["ships"]) / MAX_SHIPS
            row[6] = 1.0 if view["active"] == p else 0.0
            row[7] = 1.0 if committed.get(str(p)) is False else 0.0
            row[8] = 1.0 if committed.get(str(p)) else 0.0
        at += 9 * SEATS
        reserve = view["reserve"]
        sc[at] = min(reserve.get("tank", 0), 16) / 16.0
        sc[at + 1] = min(reserve.get("crab", 0), 4) / 4.0
        sc[at + 2] = min(reserve.get("pontoon", 0), 4) / 4.0
        at += 3
        sc[at] = (view["cards_left"] or 0) / 9.0
        sc[at + 1] = 1.0 if view["retreat_window"] else 0.0
        sc[at + 2] = 1.0 if (view["active"] == seat or committed.get(str(seat)) is False) else 0.0
