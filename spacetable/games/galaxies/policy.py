"""The tactician's heuristic policy and position values for Battleship Galaxies (used by :mod:`.ai`).

* values: a ship's worth (its card's fleet cost shared by its ships, D-15), health, weapon profiles
  (cached per state), the expected damage a ship deals a target from given hexes (exact hit chances,
  BG-12.5), the threat a footprint stands in (enemy move + range), a static evaluation of a position
  and the Lanchester worth of a fleet;
* :class:`Policy`: every decision of the game (fleet, launches and transport, movement, attacks,
  tactic cards, windows, energy choices), also used as the rollout policy of the tactician's search.

The policy reads only the state it is given; agents give it determinised states (:mod:`.ai`).
The module is a little over 500 lines on purpose: the decisions share the value helpers, and
splitting one heuristic over several files would make it harder to read and tune.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any

from spacetable.core.game import Action
from spacetable.core.rng import Rng

from .attacks import attacks_left, targets_in_range
from .board import Hex, distance, fp_distance
from .launch import cargo_options, hold_placements, zone_placements
from .movement import reachable, warp_options
from .odds import attack_odds, hit_chance
from .state import SIDES, GState, Piece
from .stats import damage_mod, move_points, weapon_stat, weapons
from .tactics import tactic_actions
from .tiles import range_bonus
from .victory import score as fleet_score

WIN = 1000.0
ENDS = ("pass", "end_activation", "end_movement", "end_deploy", "end_energy", "end_turn")


# ---------------------------------------------------------------------------- values
def piece_value(s: GState, card: str) -> float:
    """A ship's worth: its card's fleet cost shared by its ships (D-15 scoring)."""
    return s.vdata(card).cost / s.shipdata(card).squadron_size


def health(s: GState, p: Piece) -> float:
    v = s.vdata(p.card)
    return (p.shields + max(0, v.hull - p.hull)) / max(1, v.shields + v.hull)


def p_hit_of(s: GState, card: str) -> float:
    return s.shipdata(card).cells / 80.0


def _memo(s: GState) -> dict[Any, Any]:
    """Per-state cache of the AI's derived figures (a state never changes once built)."""
    memo: dict[Any, Any] | None = s.__dict__.get("_ai")
    if memo is None:
        memo = s.__dict__["_ai"] = {}
    return memo


def arms(s: GState, pid: str) -> list[tuple[int, int, int, str, str]]:
    """(range without tile bonus, attacks, strength, tag, slot) of each weapon of a ship, cached."""
    memo = _memo(s)
    key = ("arms", pid)
    got = memo.get(key)
    if got is None:
        p = s.pieces[pid]
        side = s.cards[p.card].side
        bonus = range_bonus(s, p, side) if p.hexes else 0
        got = memo[key] = [(weapon_stat(s, p, w, "range") - (bonus if w.slot == "primary" else 0),
                            weapon_stat(s, p, w, "attacks"), weapon_stat(s, p, w, "strength"), w.tag, w.slot)
                           for w in weapons(s, p.card)]
    return got  # type: ignore[no-any-return]


def moves_of(s: GState, pid: str) -> int:
    memo = _memo(s)
    key = ("move", pid)
    got = memo.get(key)
    if got is None:
        got = memo[key] = move_points(s, pid)
    return got  # type: ignore[no-any-return]


def tile_bonus(s: GState, side: int, hexes: list[Hex] | tuple[Hex, ...]) -> int:
    """BG-15.3 primary-range bonus a ship of ``side`` would have on ``hexes``."""
    if not s.tiles:
        return 0
    cover = set(hexes)
    bonus = 0
    for t in s.tiles:
        if t.face != "up":
            continue
        if t.kind == "alien_artifact" and t.hex in cover:
            bonus += 7
        elif t.kind == "observation_station" and (t.hex in cover or any(t.hex in q.hexes for q in s.on_board(side))):
            bonus += 2
    return bonus


def best_punch(s: GState, p: Piece, target: Piece, reach_extra: int = 0) -> float:
    """Expected damage ``p`` (at its hexes) deals ``target`` in one activation (+ ``reach_extra`` range)."""
    d = fp_distance(p.hexes, target.hexes)
    if d < 1:
        return 0.0
    ph = p_hit_of(s, target.card)
    side = s.cards[p.card].side
    bonus = None
    best = 0.0
    for rng, att, strength, tag, slot in arms(s, p.id):
        if slot == "primary":
            if bonus is None:
                bonus = tile_bonus(s, side, p.hexes)
            rng += bonus
        if d > rng + reach_extra:
            continue
        mod = damage_mod(s, target.card, tag)
        per = 0 if mod == "immune" else max(0, strength + int(mod))
        best += att * ph * per
    return best


def threat_to(s: GState, side: int, hexes: list[Hex], card: str, exclude: set[str] | None = None) -> float:
    """Expected damage the other side's ships could deal to a ship of ``card`` at ``hexes`` next turn."""
    total = 0.0
    ph = p_hit_of(s, card)
    for e in s.on_board(1 - side):
        if exclude and e.id in exclude:
            continue
        d = fp_distance(e.hexes, hexes)
        if d < 1:
            continue
        reach = moves_of(s, e.id) + tile_bonus(s, 1 - side, e.hexes)
        for rng, att, strength, _, _ in arms(s, e.id):
            if d <= reach + rng:
                total += att * ph * strength
    return total


def evaluate(s: GState, side: int) -> float:
    """Static value of a position for ``side`` (material, health, unlaunched ships, threat, energy)."""
    if s.result is not None:
        w = s.result.get("winner")
        return 0.0 if w is None else (WIN if w == side else -WIN)
    score = 0.0
    for c in s.cards.values():
        sign = 1.0 if c.side == side else -1.0
        if c.zone == "play":
            for pid in c.pieces:
                p = s.pieces[pid]
                if p.alive:
                    val = piece_value(s, c.id)
                    score += sign * val * (0.55 + 0.45 * health(s, p))
                    dmg = threat_to(s, c.side, p.hexes, c.id)
                    tough = max(1, s.vdata(c.id).hull - p.hull + p.shields)
                    score -= sign * 0.25 * val * min(1.0, dmg / tough)
        elif c.zone in ("screen", "hold"):
            score += sign * piece_value(s, c.id) * len(c.pieces) * 0.85
    me, them = s.sides[side], s.sides[1 - side]
    score += 0.06 * (me.energy - them.energy) + 0.15 * (len(me.hand) - len(them.hand))
    return score


def fleet_value(chosen: list[tuple[Any, str]], enemy_hit: float) -> float:
    """Lanchester-style worth of a fleet: (total firepower per activation) × (total toughness).
    Firepower counts each ship's weapons against the enemy's mean hit chance, discounted by the
    square root of the activation cost; toughness is shields + hull over the chance of being hit."""
    fire = tough = 0.0
    for ship, version in chosen:
        v = ship.versions[version]
        dmg = sum(w.attacks * w.strength * enemy_hit * (0.8 if w.charge_cost else 1.0) for w in v.weapons)
        fire += ship.squadron_size * dmg / max(1.0, v.activation_cost) ** 0.5 + 0.05 * v.move
        tough += ship.squadron_size * (v.shields + v.hull) / max(0.05, ship.cells / 80)
        tough += 0.5 * len(v.powers) + 0.2 * v.capacity
    return fire * tough


# ------------------------------------------------------------------------- policy
@dataclass
class Policy:
    """The tactician's heuristic decisions (also the rollout policy of its search)."""

    rng: Rng
    aggression: float = 1.0
    greedy: bool = False
    _zone_cache: dict[str, Any] = field(default_factory=dict)

    # ----------------------------------------------------------------- set-up
    def fleet(self, s: GState, seat: int) -> Action:
        side = s.side_of(seat)
        rule = s.missiondata.fleets[SIDES[side]]
        ships = [x for x in s.pack.ships.values() if x.faction == s.sides[side].faction]
        enemy = s.sides[1 - side].faction
        others = [x for x in s.pack.ships.values() if x.faction == enemy]
        enemy_hit = sum(x.cells for x in others) / max(1, len(others)) / 80
        best, best_val = None, -1.0
        for combo in product(*[[None, *x.versions] for x in ships]):
            chosen = [(x, v) for x, v in zip(ships, combo, strict=True) if v]
            cost = sum(x.versions[v].cost for x, v in chosen)  # type: ignore[index]
            if not chosen or (rule.budget is not None and cost > rule.budget):
                continue
            if self.greedy:
                val = cost + 0.01 * len(chosen)
            else:
                val = fleet_value(chosen, enemy_hit)
            if val > best_val:
                best, best_val = chosen, val
        assert best is not None
        return {"type": "submit_fleet", "fleet": [{"ship": x.key, "version": v} for x, v in best]}

    # ---------------------------------------------------------------- deploy
    def _forward(self, s: GState, side: int, hexes: list[list[int]]) -> float:
        """How far a footprint sits towards the enemy (lower is better)."""
        enemies = s.on_board(1 - side)
        pts = [tuple(h) for h in hexes]
        if enemies:
            return float(min(fp_distance(pts, e.hexes) for e in enemies))  # type: ignore[arg-type]
        zone = s.geo.zones[1 - side]
        return float(min(distance(h, z) for h in pts for z in zone))  # type: ignore[arg-type]

    def deploy(self, s: GState, seat: int) -> Action:
        side = s.side_of(seat)
        sd = s.sides[side]
        reserve = self._reserve(s, side)
        # launch cargo from holds near the enemy
        for t in list(s.cards.values()):
            if t.side != side or t.zone != "play" or not t.cargo or t.launched_turn >= s.turn:
                continue
            tp = s.pieces[t.pieces[0]]
            near = min((fp_distance(tp.hexes, e.hexes) for e in s.on_board(1 - side)), default=99)
            if near > 9 and s.round < 4 and not self.greedy:
                continue
            for cid in t.cargo:
                if s.cards[cid].seat != seat or s.vdata(cid).launch_cost > sd.energy:
                    continue
                places = hold_placements(s, t.id, cid)
                if places:
                    best = min(places, key=lambda pl: min(self._forward(s, side, fp) for fp in pl.values()))
                    return {"type": "launch_from_hold", "transporter": t.id, "card": cid, "placement": best}
        screen = [c for c in s.cards.values() if c.side == side and c.zone == "screen" and c.seat == seat]
        screen.sort(key=lambda c: (-s.vdata(c.id).capacity, -s.vdata(c.id).cost, c.id))
        if self.greedy:
            screen.sort(key=lambda c: (-s.vdata(c.id).launch_cost, c.id))
        for c in screen:
            cost = s.vdata(c.id).launch_cost
            flagship = s.vdata(c.id).capacity > 0 and s.shipdata(c.id).size == "large"
            budget = sd.energy if (flagship or self.greedy) else sd.energy - reserve
            if cost > budget or c.zone != "screen":
                continue
            places = zone_placements(s, c.id)
            if not places:
                continue
            best = min(places, key=lambda pl: (sum(self._forward(s, side, fp) for fp in pl.values()), str(pl)))
            cargos = cargo_options(s, c.id)
            cargo = max(cargos, key=lambda cg: (sum(s.shipdata(x).footprint * 10 + s.vdata(x).cost for x in cg), -len(cg)))
            return {"type": "launch", "card": c.id, "placement": best, "cargo": cargo}
        return {"type": "end_deploy"}

    def _reserve(self, s: GState, side: int) -> int:
        acts = sorted((s.vdata(c.id).activation_cost for c in s.cards.values() if c.side == side and c.zone == "play"),
                      reverse=True)
        return sum(acts[:3])

    # ---------------------------------------------------------------- action
    def card_gain(self, s: GState, card: str) -> float:
        """Rough value of activating ``card`` now: attacks available after moving, or approaching."""
        side = s.cards[card].side
        gain = 0.0
        enemies = s.on_board(1 - side)
        if not enemies:
            return 0.0
        for pid in s.cards[card].pieces:
            p = s.pieces[pid]
            if not p.alive or not p.hexes:
                continue
            mv = move_points(s, pid)
            best = 0.0
            for e in enemies:
                punch = best_punch(s, p, e, reach_extra=mv)
                if punch:
                    best = max(best, punch * piece_value(s, e.card) / max(1.0, s.vdata(e.card).hull + e.shields - e.hull))
            if best == 0.0:
                near = min(fp_distance(p.hexes, e.hexes) for e in enemies)
                best = 0.4 if near > 3 else 0.1
            gain += best
        return gain

    def choose_activation(self, s: GState, seat: int, legal: list[Action]) -> Action:
        acts = [a for a in legal if a["type"] == "activate"]
        side = s.side_of(seat)
        if not acts:
            return {"type": "end_turn"}
        scored = []
        for a in acts:
            card = a["card"]
            cost = s.vdata(card).activation_cost
            flagship = s.shipdata(card).size == "large"
            gain = self.card_gain(s, card) - 0.12 * cost
            if flagship and not self.greedy:
                gain -= 0.15
            scored.append((gain, card))
        scored.sort(key=lambda x: (-x[0], x[1]))
        if self.greedy:
            return {"type": "activate", "card": scored[0][1]}
        if scored[0][0] <= 0.0 and s.sides[side].energy < 6:
            return {"type": "end_turn"}
        return {"type": "activate", "card": scored[0][1]}

    def position_score(self, s: GState, pid: str, hexes: list[Hex], ecm: float) -> float:
        p = s.pieces[pid]
        card = s.cards[p.card]
        side = card.side
        val = piece_value(s, card.id)
        enemies = s.on_board(1 - side)
        if not enemies:
            return -ecm
        ghost = Piece(p.id, p.card, list(hexes), p.shields, p.hull, True)
        offense = potential = 0.0
        mv = move_points(s, pid)
        for e in enemies:
            room = max(1.0, s.vdata(e.card).hull - e.hull + e.shields)
            worth = piece_value(s, e.card) / room
            punch = best_punch(s, ghost, e)
            if punch:
                offense = max(offense, punch * worth * (1.6 if punch >= room * 0.6 else 1.0))
            later = best_punch(s, ghost, e, reach_extra=mv)
            if later:
                potential = max(potential, later * worth)
        near = min(fp_distance(hexes, e.hexes) for e in enemies)
        threat = threat_to(s, side, list(hexes), card.id)
        tough = max(1.0, s.vdata(card.id).hull - p.hull + p.shields)
        flagship = s.shipdata(card.id).size == "large"
        push = self.push(s, side)
        score = (offense + 0.45 * potential) * self.aggression * push
        score -= 0.3 * val * min(1.5, threat / tough) / push + 1.2 * ecm * val / tough
        score -= 0.06 * near * (0.5 if flagship else 1.0) * push
        if flagship:
            friends = sum(1 for f in s.on_board(side) if f.id != pid and fp_distance(f.hexes, hexes) <= 2)
            score += 0.25 * min(3, friends)
        return score

    def push(self, s: GState, side: int) -> float:
        """More daring as the round limit nears without a lead (D-15 scoring)."""
        left = s.missiondata.max_rounds - s.round
        if left > 6:
            return 1.0
        return 1.0 + (0.12 * (6 - left) if fleet_score(s, side) <= fleet_score(s, 1 - side) else 0.04 * (6 - left))

    def _goal(self, s: GState, side: int) -> Hex:
        zone = sorted(s.geo.zones[1 - side])
        return zone[len(zone) // 2]

    def choose_move(self, s: GState, seat: int, pid: str) -> Action | None:
        p = s.pieces[pid]
        enemies = s.on_board(1 - s.cards[p.card].side)
        routes = reachable(s, pid)
        if not enemies or not routes:
            return None
        if self.greedy:
            best = min(routes, key=lambda r: (min(fp_distance(r.hexes, e.hexes) for e in enemies), r.cost))
            here = min(fp_distance(p.hexes, e.hexes) for e in enemies)
            if min(fp_distance(best.hexes, e.hexes) for e in enemies) >= here:
                return None
            return best.action(pid)
        side = s.cards[p.card].side
        goal = self._goal(s, side)
        stay = self.position_score(s, pid, list(p.hexes), 0.0)
        best_route, best_val = None, stay + 0.02
        for r in routes:
            # ties go to the footprint nearer the enemy's zone (never to a coordinate order)
            v = self.position_score(s, pid, r.hexes, r.ecm) - 0.005 * r.cost - 1e-4 * min(distance(h, goal) for h in r.hexes)
            if v > best_val:
                best_route, best_val = r, v
        act = s.activation
        if act is not None and pid in act.on_gate:
            for fp in warp_options(s, pid)[::7]:
                v = self.position_score(s, pid, list(fp), 0.0)
                if v > best_val + 0.2:
                    return {"type": "warp", "ship": pid, "hexes": [list(h) for h in fp]}
        return best_route.action(pid) if best_route else None

    def choose_attack(self, s: GState, seat: int) -> Action | None:
        act = s.activation
        if act is None:
            return None
        side = s.side_of(seat)
        energy = s.sides[side].energy
        best, best_val = None, 0.0
        for pid in s.cards[act.card].pieces:
            p = s.pieces[pid]
            if not p.alive or not p.hexes:
                continue
            for w in weapons(s, p.card):
                left = attacks_left(s, pid, w)
                charged = left > 0
                cost = 0 if charged else weapon_stat(s, p, w, "charge_cost")
                if not charged and (f"{pid}/{w.id}" in act.charges or cost > energy):
                    continue
                n = left if charged else weapon_stat(s, p, w, "attacks")
                for tid in targets_in_range(s, pid, w):
                    t = s.pieces[tid]
                    tv = s.vdata(t.card)
                    o = attack_odds(hit_chance(s.shipdata(t.card).grid), weapon_stat(s, p, w, "strength"), t.shields, t.hull,
                                    tv.hull, max(1, n), damage_mod(s, t.card, w.tag))
                    room = max(1.0, tv.hull - t.hull + t.shields)
                    val = piece_value(s, t.card) * (float(o.expected_damage) / room + 0.8 * float(o.p_destroy))
                    if self.greedy:
                        val = float(o.p_hit)
                    val -= 0.35 * cost
                    if val > best_val:
                        best_val = val
                        best = {"type": "attack", "ship": pid, "weapon": w.id, "target": tid} if charged or cost == 0 else \
                            {"type": "charge", "ship": pid, "weapon": w.id}
        return best

    # --------------------------------------------------------------- tactics
    def choose_tactic(self, s: GState, seat: int, reaction: bool) -> Action | None:
        if self.greedy:
            return None
        side = s.side_of(seat)
        energy = s.sides[side].energy
        best, best_val = None, 0.25
        for a in tactic_actions(s, seat, reaction):
            data = s.tdata(a["card"])
            val = self._card_value(s, side, a, data) - 0.22 * data.cost
            if energy - data.cost < 3 and data.type in ("hero", "upgrade", "weapon"):
                val -= 1.0
            if val > best_val:
                best, best_val = a, val
        return best

    def _card_value(self, s: GState, side: int, a: Action, data: Any) -> float:
        targets = a.get("targets") or {}
        val = 0.0
        for e in data.effects:
            subject = targets.get(e.on or "ship") or targets.get("card") or ""
            if subject in s.pieces:
                pieces = [subject]
            elif subject in s.cards:
                pieces = [x for x in s.cards[subject].pieces if s.pieces[x].alive]
            else:
                pieces = []
            if e.op in ("modify", "add_weapon", "ecm_immunity") and (e.duration == "attached" or data.attaches):
                host = targets.get("card")
                if host:
                    val += 0.12 * s.vdata(host).cost * (1.3 if data.type == "hero" else 1.0)
            elif e.op == "repair_shields":
                for pid in pieces:
                    p = s.pieces[pid]
                    val += 0.5 * min(e.n or 0, s.vdata(p.card).shields - p.shields) * piece_value(s, p.card) / 6
            elif e.op == "repair_hull":
                for pid in pieces:
                    p = s.pieces[pid]
                    val += 0.7 * min(e.n or 0, p.hull) * piece_value(s, p.card) / 5
            elif e.op == "damage":
                for pid in pieces:
                    p = s.pieces[pid]
                    room = s.vdata(p.card).hull - p.hull + (p.shields if e.kind == "direct" else 0)
                    kill = (e.amount or 0) >= room if e.kind != "shield" else False
                    val += piece_value(s, p.card) * (0.15 * (e.amount or 0) + (1.2 if kill else 0))
            elif e.op == "take_over":
                for pid in pieces[:1]:
                    val += 1.6 * piece_value(s, s.pieces[pid].card) * len(s.cards[s.pieces[pid].card].pieces) / 3
            elif e.op == "cancel_hit" and s.roll is not None:
                t = s.pieces[s.roll.target]
                kills = s.roll.strength >= s.vdata(t.card).hull - t.hull + t.shields
                val += s.roll.strength * 0.6 * piece_value(s, t.card) / 6 + (2.0 if kills else 0.0)
            elif e.op == "reroll" and s.roll is not None:
                t = s.pieces[s.roll.target]
                mine = s.cards[t.card].side != side
                ph = p_hit_of(s, t.card)
                if mine and not s.roll.hit:
                    val += ph * s.roll.strength * piece_value(s, t.card) / 5
                elif not mine and s.roll.hit:
                    val += (1 - ph) * s.roll.strength * piece_value(s, t.card) / 5
            elif e.op == "drain_energy":
                val += 0.2 * min(e.n or 0, s.sides[1 - side].energy)
            elif e.op in ("gain_energy", "draw"):
                val += 0.3 * (e.n or 0)
            elif e.op == "extra_attacks":
                for pid in pieces:
                    p = s.pieces[pid]
                    if any(best_punch(s, p, x, reach_extra=move_points(s, pid)) for x in s.on_board(1 - side)):
                        val += 1.0
            elif e.op == "place_ship":
                hexes = (a.get("choices") or {}).get("hexes")
                for pid in pieces:
                    if hexes:
                        before = self.position_score(s, pid, list(s.pieces[pid].hexes), 0.0)
                        after = self.position_score(s, pid, [tuple(h) for h in hexes], 0.0)  # type: ignore[misc]
                        val += max(0.0, after - before)
        return val

    # ------------------------------------------------------------------ main
    def choose(self, s: GState, seat: int, legal: list[Action]) -> Action:
        phase = s.phase
        types = {a["type"] for a in legal}
        if phase == "fleet":
            return self.fleet(s, seat)
        if phase == "deck":
            return legal[0]
        if phase == "first":
            return {"type": "choose_first", "side": SIDES[s.side_of(seat)]}
        side = s.side_of(seat)
        if s.window is not None:
            card = self.choose_tactic(s, seat, reaction=s.window.kind != "after_attack_roll")
            return card or {"type": "pass"}
        if len(s.sides[side].hand) > 10 and "discard_for_energy" in types:
            return self._discard(s, side)
        if phase == "energy":
            if "market_draw" in types:
                return {"type": "market_draw", "take": True}
            if "regen_shield" in types:
                return next(a for a in legal if a["type"] == "regen_shield" and a.get("ship"))
            card = self.choose_tactic(s, seat, False)
            return card or {"type": "end_energy"}
        if phase == "deploy":
            card = self.choose_tactic(s, seat, False)
            if card:
                return card
            return self.deploy(s, seat)
        act = s.activation
        if act is None:
            card = self.choose_tactic(s, seat, False)
            if card:
                return card
            choice = self.choose_activation(s, seat, legal)
            if choice["type"] == "end_turn" and "end_turn" not in types:
                return self._discard(s, side)
            return choice
        if act.card not in s.cards or s.cards[act.card].zone != "play":
            return {"type": "end_activation"}
        card = self.choose_tactic(s, seat, False)
        if card:
            return card
        if act.step != "attack":
            for pid in self._move_order(s, act.card):
                if pid in act.moved:
                    continue
                mv = self.choose_move(s, seat, pid)
                if mv is not None:
                    return mv
            return {"type": "end_movement"}
        attack = self.choose_attack(s, seat)
        return attack or {"type": "end_activation"}

    def _move_order(self, s: GState, card: str) -> list[str]:
        alive = [pid for pid in s.cards[card].pieces if s.pieces[pid].alive and s.pieces[pid].hexes]
        side = s.cards[card].side
        enemies = s.on_board(1 - side)
        if not enemies:
            return alive
        return sorted(alive, key=lambda pid: (min(fp_distance(s.pieces[pid].hexes, e.hexes) for e in enemies), pid))

    def _discard(self, s: GState, side: int) -> Action:
        hand = s.sides[side].hand
        worst = min(hand, key=lambda t: (s.tdata(t).cost, t))
        return {"type": "discard_for_energy", "cards": [worst]}


