"""The rule-of-thumb players of Full Metal Planète (the searching one, :mod:`.planner`, builds on them).

* ``greedy`` — the baseline: each step it takes the immediately most valuable
  action (best shot, ship capture, capture, loading ore, entering a ship with ore),
  otherwise a random move or the end of the turn; no plan, no convoys, no homecoming.
* ``commander`` — a heuristic planner: lands near ore and sea, deploys in a
  compact formation, runs an ore economy (crabs, barge and weather layer follow BFS
  distance fields to the nearest reachable ore; loaded carriers go home and enter the
  ship), fires when the target is worth it, captures what it can, assaults when an
  enumerated assault exists, brings everything home from turn 22, stays at turn 21
  and takes off on the last turn while it can still pay.
* ``random`` — random legal actions, ending the turn with probability 1/8.

Agents only read public state (units, terrain, tides) and their own forecasts.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from spacetable.core.game import Action, Game
from spacetable.core.rng import Rng

from .endgame import ship_score, takeoff_cost
from .state import BARGE, CRAB, GT, MB, ORE, PONTOON, SHIP, TANK, WL, FMState, Unit
from .terrain import Board


# ------------------------------------------------------------------- helpers
def mine(state: FMState, player: int) -> list[Unit]:
    return [u for u in state.units.values() if u.colour >= 0 and state.controller[u.colour] == player]


VALUE = {TANK: 5, GT: 7, MB: 3, BARGE: 8, CRAB: 6, WL: 7, "turret": 4, PONTOON: 1, ORE: 0}


def target_value(state: FMState, player: int, cell: int) -> float:
    """Material destroyed by a shot at ``cell`` (own ore and pontoons are worth nothing)."""
    total = 0.0
    oid = state.occ.get(cell)
    if oid is not None:
        u = state.units[oid]
        if u.kind == SHIP:
            idx = u.cells.index(cell)
            tid = u.turrets[idx - 1] if idx else -1
            if tid >= 0:
                left = sum(1 for t in u.turrets if t >= 0)
                total += 4 + (6 if left == 1 else 0) + (2 if state.turn >= 18 else 0)
        else:
            total += VALUE.get(u.kind, 0) + sum(VALUE.get(c.kind, 0) + (1 if c.kind == ORE else 0) for c in state.all_cargo(u))
    return total


def _passable(board: Board, tide: str, sea: bool) -> tuple[bool, ...]:
    """Cells of one domain under a tide, pontoons and occupants aside (cached per board and tide)."""
    key = (tide, sea)
    table = _PASSABLE.setdefault(board, {})
    if key not in table:
        table[key] = tuple((board.terrain[c] == 0 or not board.land(c, tide)) if sea else board.land(c, tide)
                           for c in range(board.size))
    return table[key]


_PASSABLE: weakref.WeakKeyDictionary[Board, dict[tuple[str, bool], tuple[bool, ...]]] = weakref.WeakKeyDictionary()
#: Recent distance fields, by everything they depend on (a plan's steps rarely change any of it).
_FIELDS: OrderedDict[tuple[Any, ...], list[int]] = OrderedDict()
_FIELDS_MAX = 256


def fields(state: FMState, sources: list[int], sea: bool) -> list[int]:
    """Multi-source BFS distance over free cells of one domain (a cheap path length estimate). Depends only
    on the board, the tide, the pontoons, the cells that block (ships and ore) and the sources, and is
    remembered by them: the searching commander asks for the same fields again and again."""
    board = state.board
    units = state.units
    blocked = frozenset(c for c, oid in state.occ.items() if units[oid].kind in (SHIP, ORE))
    key = (board, state.tide, sea, frozenset(state.pontoon_at), blocked, tuple(sources))
    hit = _FIELDS.get(key)
    if hit is not None:
        _FIELDS.move_to_end(key)
        return list(hit)
    inf = 10**6
    dist = [inf] * board.size
    todo = []
    for c in sources:
        if dist[c] > 0:
            dist[c] = 0
            todo.append(c)
    ok = list(_passable(board, state.tide, sea))
    for c in state.pontoon_at:
        ok[c] = not sea  # a pontoon is land for land units and closed to sea units
    for c in blocked:
        ok[c] = False
    neigh = board.neigh
    head = 0
    while head < len(todo):
        c = todo[head]
        head += 1
        d = dist[c] + 1
        for n in neigh[c]:
            if ok[n] and dist[n] > d:
                dist[n] = d
                todo.append(n)
    _FIELDS[key] = dist
    if len(_FIELDS) > _FIELDS_MAX:
        _FIELDS.popitem(last=False)
    return list(dist)


def move_cells(state: FMState, a: Action) -> list[int]:
    """The cells a ``move`` action puts its unit on (a barge's two, any other unit's one)."""
    dest = a["path"][-1]
    if dest and isinstance(dest[0], list):
        return [state.board.index(*x) for x in dest]
    return [state.board.index(*dest)]


class Trail:
    """The cells each unit has left during the current turn, since it last fired, loaded, unloaded or captured
    (or took part in any other action than a move): a unit does not go back to one of them, so that the computer
    never moves a unit back and forth without a reason. One per player; it empties itself at each new turn."""

    def __init__(self) -> None:
        self.key: tuple[int, int] = (-1, -1)
        self.left: dict[int, set[int]] = {}

    def sync(self, state: FMState, player: int) -> None:
        if (state.turn, player) != self.key:
            self.key = (state.turn, player)
            self.left = {}

    def note(self, state: FMState, player: int, a: Action) -> None:
        """Record ``a`` before it is applied to ``state``."""
        self.sync(state, player)
        if a.get("type") == "move":
            u = state.units[a["unit"]]
            self.left.setdefault(u.id, set()).update(set(u.cells) - set(move_cells(state, a)))
            return
        for k, v in a.items():  # a unit taking part in anything else may come back where it was
            if k != "type" and isinstance(v, int) and not isinstance(v, bool):
                self.left.pop(v, None)

    def back(self, state: FMState, player: int, a: Action) -> bool:
        """Whether the move ``a`` puts its unit back on a cell it left this turn."""
        self.sync(state, player)
        left = self.left.get(a["unit"])
        return bool(left) and any(c in left for c in move_cells(state, a))

    def copy(self) -> Trail:
        t = Trail()
        t.key = self.key
        t.left = {k: set(v) for k, v in self.left.items()}
        return t


class GreedyAgent:
    """Baseline: takes the immediately most valuable action (best shot, capture, load, ore into
    the ship), otherwise a random move; no plan, no convoy, no homecoming."""

    name = "greedy"

    def __init__(self, seed: int = 0, seconds: float = 1.0) -> None:
        self.rng = Rng.from_seed(seed)
        self.trail = Trail()

    def choose(self, game: Game[Any], state: FMState, player: int) -> Action:
        legal = game.legal_actions(state, player)
        if state.phase == "land":
            return legal[self.rng.randbelow(len(legal))]
        if state.phase != "play":
            return legal[0]
        best, best_v = None, 0.0
        for a in legal:
            t = a["type"]
            v = 0.0
            if t == "fire":
                v = target_value(state, player, state.board.index(*a["target"]))
            elif t == "capture_ship":
                v = 50
            elif t == "capture":
                v = VALUE.get(state.units[a["target"]].kind, 1)
            elif t == "load" and state.units[a["item"]].kind == ORE:
                v = 3
            elif t == "enter":
                v = 2 * sum(1 for c in state.all_cargo(state.units[a["unit"]]) if c.kind == ORE)
            elif t == "exit":
                v = 0.5
            if v > best_v:
                best, best_v = a, v
        if best is not None:
            self.trail.note(state, player, best)
            return best
        moves = [a for a in legal if a["type"] == "move" and not self.trail.back(state, player, a)]
        if moves and self.rng.random() < 0.85:
            a = moves[self.rng.randbelow(len(moves))]
            self.trail.note(state, player, a)
            return a
        return next(a for a in legal if a["type"] == "end_turn") if any(a["type"] == "end_turn" for a in legal) else legal[0]


@dataclass(frozen=True)
class Style:
    """The commander's rules of thumb as numbers. The defaults are the ``commander`` agent; the planner
    (:mod:`.planner`) varies them to draw different plans for a turn. ``top`` > 1 picks a move at random
    among the best ``top`` (and ``early_end`` > 0 ends a turn early now and then), which only varied styles
    use: the default style draws exactly the random numbers it always drew."""

    fire_threshold: float = 3.5
    capture: bool = True
    assault: bool = True
    go_home_weight: float = 3.0
    ore_weight: float = 2.0
    late_weight: float = 1.5
    approach_weight: float = 0.6
    escort_weight: float = 0.4
    leash: int = 8
    crab_until: int = 14
    late_from: int = 3
    top: int = 1
    early_end: float = 0.0


class CommanderAgent:
    """Heuristic planner (see module doc): priorities per action class, BFS distance fields for the
    convoys (carriers to ore, loaded carriers and late units to the pods, tanks to targets)."""

    name = "commander"

    def __init__(self, seed: int = 0, seconds: float = 1.0, style: Style | None = None, trail: Trail | None = None) -> None:
        self.rng = Rng.from_seed(seed)
        self.seconds = seconds
        self.style = style or Style()
        self.trail = trail or Trail()

    # ---------------------------------------------------------------- choose
    def choose(self, game: Game[Any], state: FMState, player: int) -> Action:
        legal = game.legal_actions(state, player)
        if state.phase == "land":
            return self.landing(state, player, legal)
        if state.phase == "deploy":
            return legal[0]
        if state.phase == "depart":
            return next((a for a in legal if all(v == "stay" for v in a["choices"].values())), legal[0])
        a = self.play(state, player, legal)
        self.trail.note(state, player, a)
        return a

    def play(self, state: FMState, player: int, legal: list[Action]) -> Action:
        units = state.units
        board = state.board
        last = 26 if state.config["endgame"] == "fmg" else 25
        st = self.style
        late = state.turn >= last - st.late_from
        pool = state.pool[player]
        by_type: dict[str, list[Action]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        end = by_type.get("end_turn", [legal[0]])[0]
        if by_type.get("capture_ship"):
            return by_type["capture_ship"][0]
        if state.turn == last and by_type.get("take_off"):
            cost = sum(takeoff_cost(state, sh) for sh in state.ships_of(player))
            if pool <= cost + 1 or not any(t in by_type for t in ("enter", "move")):
                return max(by_type["take_off"], key=lambda a: ship_score(state, units[a["ship"]])[0])
        # homecoming: everything that can still reach the ship goes in
        if late:
            enters = by_type.get("enter", [])
            if enters:
                return max(enters, key=lambda a: len(state.all_cargo(units[a["unit"]])))
        best_fire = None
        best_fire_v = st.fire_threshold
        for a in by_type.get("fire", []):
            v = target_value(state, player, board.index(*a["target"]))
            if v > best_fire_v:
                best_fire, best_fire_v = a, v
        if best_fire is not None and pool >= 2:
            return best_fire
        best_cap = None
        best_cap_v = 0.0
        for a in by_type.get("capture", []) if st.capture else ():
            t = units[a["target"]]
            if state.ctl(t) == player:
                continue
            v = VALUE.get(t.kind, 1) + len(state.all_cargo(t))
            if v > best_cap_v:
                best_cap, best_cap_v = a, v
        if best_cap is not None:
            return best_cap
        for a in by_type.get("assault", []) if st.assault else ():
            return a
        for a in by_type.get("load", []):
            if units[a["carrier"]].kind == SHIP:
                return a
        for a in by_type.get("enter", []):
            u = units[a["unit"]]
            if any(c.kind == ORE for c in state.all_cargo(u)):
                return a
        if not late:
            loads = [a for a in by_type.get("load", []) if units[a["item"]].kind == ORE]
            if loads:
                return min(loads, key=lambda a: (units[a["carrier"]].kind != CRAB, a["carrier"]))
            for a in by_type.get("build", []):
                if a["kind"] == CRAB and state.turn < st.crab_until:
                    return a
            exits = [a for a in by_type.get("exit", []) if units[a["unit"]].kind in (CRAB, BARGE, TANK, GT, MB, WL)]
            if exits:
                return self.best_exit(state, player, exits)
        if st.early_end and pool >= 5 and self.rng.random() < st.early_end:
            return end
        move = self.best_move(state, player, by_type.get("move", []), late)
        if move is not None:
            return move
        return end

    def best_exit(self, state: FMState, player: int, exits: list[Action]) -> Action:
        ores = [u.cells[0] for u in state.units.values() if u.kind == ORE and u.cells and u.carrier < 0]
        board = state.board

        def key(a: Action) -> tuple[int, float]:
            u = state.units[a["unit"]]
            to = a["to"]
            cell = board.index(*(to[0] if isinstance(to[0], list) else to))
            near = min((board.dist(cell, o) for o in ores), default=0)
            rank = {CRAB: 0, BARGE: 1, WL: 2, TANK: 3, GT: 3, MB: 4}.get(u.kind, 5)
            return (rank, near)

        return min(exits, key=key)

    def best_move(self, state: FMState, player: int, moves: list[Action], late: bool) -> Action | None:
        if not moves:
            return None
        units = state.units
        board = state.board
        ships = state.ships_of(player)
        if not ships:
            return None
        pods = [p for s in ships for p in s.cells[1:]]
        home_src = sorted({n for p in pods for n in board.neigh[p] if n not in state.occ})
        ore_cells = [u.cells[0] for u in units.values() if u.kind == ORE and u.cells and u.carrier < 0
                     and (board.land(u.cells[0], state.tide) or u.cells[0] in state.pontoon_at)]
        ore_src = sorted({n for o in ore_cells for n in board.neigh[o] if n not in state.occ})
        cache: dict[tuple[str, bool], list[int]] = {}

        def field(kind: str, sea: bool) -> list[int]:
            key = (kind, sea)
            if key not in cache:
                cache[key] = fields(state, home_src if kind == "home" else ore_src, sea)
            return cache[key]

        enemies = [u for u in units.values() if u.cells and u.carrier < 0 and u.colour >= 0
                   and state.controller[u.colour] not in (player, -1) and u.kind in (CRAB, BARGE, WL, TANK, GT, MB)]
        convoys = [u.cells[0] for u in units.values() if u.kind in (CRAB, BARGE, WL) and u.cells and u.carrier < 0
                   and u.colour >= 0 and state.controller[u.colour] == player]
        enemy_cells = [e.cells[0] for e in enemies]
        near: dict[tuple[int, int], int] = {}  # nearest enemy (0) or own carrier (1) per cell, computed once

        def near_enemy(c: int) -> int:
            if (0, c) not in near:
                near[0, c] = min(board.dist(c, e) for e in enemy_cells)
            return near[0, c]

        def near_convoy(c: int) -> int:
            if (1, c) not in near:
                near[1, c] = min(board.dist(c, x) for x in convoys)
            return near[1, c]

        st = self.style
        best, best_v = None, 0.0
        ranked: list[tuple[float, int]] = []
        for i, a in enumerate(moves):
            if self.trail.back(state, player, a):  # never back to a cell left this turn (Trail)
                continue
            u = units[a["unit"]]
            dest = a["path"][0]
            if u.kind == BARGE:
                cells = [board.index(*dest[0]), board.index(*dest[1])]
            else:
                cells = [board.index(*dest)]
            sea = u.kind in (BARGE, MB)
            cur = u.cells
            loaded = sum(1 for c in state.all_cargo(u) if c.kind == ORE)
            v = 0.0
            if u.kind in (CRAB, BARGE, WL):
                cap = {CRAB: 2, BARGE: 4, WL: 1}[u.kind]
                go_home = late or loaded >= cap or (loaded and state.turn >= 18) or (u.kind == WL and loaded)
                f = field("home" if go_home else "ore", sea)
                before = min(f[c] for c in cur)
                after = min(f[c] for c in cells)
                v = (before - after) * (st.go_home_weight if go_home else st.ore_weight)
            elif late:
                f = field("home", sea)
                v = (min(f[c] for c in cur) - min(f[c] for c in cells)) * st.late_weight
            else:
                if enemies:
                    de_before = near_enemy(cur[0])
                    de_after = near_enemy(cells[0])
                    if de_after >= 3:
                        v = (de_before - de_after) * st.approach_weight
                if convoys:
                    # escort: stay within 2 of the nearest own carrier so it is covered
                    c_before = near_convoy(cur[0])
                    c_after = near_convoy(cells[0])
                    if c_before > 2:
                        v += (c_before - c_after) * st.escort_weight
                f = field("home", sea)
                d_home = min(f[c] for c in cells)
                if d_home > st.leash:
                    v -= 0.5 * (d_home - st.leash)
            v += self.rng.random() * 0.05
            if st.top > 1 and v > 0.0:
                ranked.append((v, i))
            if v > best_v:
                best, best_v = a, v
        if st.top > 1 and len(ranked) > 1:
            ranked.sort(reverse=True)
            return moves[ranked[self.rng.randbelow(min(st.top, len(ranked)))][1]]
        return best

    def landing(self, state: FMState, player: int, legal: list[Action]) -> Action:
        """Pick the site with most ore at convoy distance, some sea for the barge, away from rivals."""
        board = state.board
        ores = [u.cells[0] for u in state.units.values() if u.kind == ORE and u.cells]
        best, best_v = legal[0], -1e18
        for a in legal[:: max(1, len(legal) // 200)]:
            dome = board.index(*a["dome"])
            disc = board.disc(dome, 7)
            sea = sum(1 for c in disc if board.terrain[c] == 0)
            ore_near = sum(1 for o in ores if 5 <= board.dist(o, dome) <= 10)
            v = ore_near * 2 + min(sea, 12) * 0.5 + len(disc) * 0.1 + self.rng.random()
            if v > best_v:
                best, best_v = a, v
        return best


class RandomFMAgent:
    """Random legal action, but ends the turn with probability 1/8 to keep games finite."""

    name = "random"

    def __init__(self, seed: int = 0, seconds: float = 1.0) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, game: Game[Any], state: FMState, player: int) -> Action:
        legal = [a for a in game.legal_actions(state, player) if a["type"] != "resign"]
        ends = [a for a in legal if a["type"] == "end_turn"]
        if ends and self.rng.random() < 0.125:
            return ends[0]
        return self.rng.choice(legal)


__all__ = ["CommanderAgent", "GreedyAgent", "RandomFMAgent", "Style", "fields", "target_value"]
