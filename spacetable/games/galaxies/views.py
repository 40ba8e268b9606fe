"""Per-seat views, action views and determinisation: the information model (rules doc, "Information model").

=====================================  ==========================  ==========================
item                                   own side (teammates too)    opponent / spectator
=====================================  ==========================  ==========================
cards behind the screen                identities                  nothing (a fixed-fleet mission
                                                                   lists the fleet, not where each
                                                                   card is)
hold contents                          identities                  count only (unless revealed by a
                                                                   card effect to that side)
in-play cards: version, attachments,   yes                         yes
hexes, pegs, activated flag
hand, prepped                          cards                       counts (mission-named prepped
                                                                   cards are public)
deck                                   count                       count (order: nobody)
discards, destroyed piles (revealed    yes                         yes
cargo too), energy, phase, round, score
face-down tile types                   nobody                      nobody
RNG                                    never                       never
=====================================  ==========================  ==========================

The event log in views, :func:`filter_action` (what another seat learns of an action: sealed
commits are hidden, a launch shows the cargo count, not the cargo) and errors follow the same
filter. :func:`determinize` samples everything a seat cannot see: the opponent's hidden fleet and
hold identities (consistent with hold counts, capacities, sizes and the budget), hands and deck
orders (own deck order too), face-down tiles and the RNG.

The views carry what a browser needs: the board (full and rim hexes, zones, obstacles, tiles),
ships with their footprints and pegs, card statistics and silhouettes, the hold count, the energy
track, the hand with each card's window, the open activation with per-ship reachable footprints
(cost and ECM risk) and attack targets with the exact hit chance.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.game import Action
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .attacks import attacks_left, targets_in_range
from .board import fp_distance
from .flow import phase_of, to_act
from .movement import reachable, warp_options
from .odds import attack_odds, hit_chance
from .packs import FOOTPRINT, HOUSE_LABEL, SIZE_RANK
from .setup import card_id, fleet_problem
from .state import SIDES, GState, Piece, ShipCard
from .stats import damage_mod, move_points, weapon_stat, weapons
from .victory import score
from .windows import timing_open


def _side_of_viewer(s: GState, viewer: int | None) -> int | None:
    return None if viewer is None or not 0 <= viewer < s.num_players else s.side_of(viewer)


def _tactic_json(s: GState, tid: str) -> dict[str, Any]:
    t = s.tactics[tid]
    d = s.pack.tactics[t.key]
    return {"id": tid, "key": t.key, "name": d.name, "type": d.type, "cost": d.cost, "timing": d.timing,
            "name_key": f"galaxies.tactic.{t.key}.name", "text_key": f"galaxies.tactic.{t.key}.text", "text": d.text}


def _weapons_json(s: GState, card: str, piece: Piece | None) -> list[dict[str, Any]]:
    out = []
    for w in weapons(s, card):
        row: dict[str, Any] = {"id": w.id, "name": w.name, "slot": w.slot, "tag": w.tag}
        for stat in ("range", "attacks", "strength", "charge_cost"):
            row[stat] = weapon_stat(s, piece, w, stat) if piece is not None else getattr(w, stat)
        out.append(row)
    return out


def card_stats(s: GState, cid: str) -> dict[str, Any]:
    """Public statistics of a ship card's version (house or owner data)."""
    c = s.cards[cid]
    ship = s.pack.ships[c.key]
    v = ship.versions[c.version]  # type: ignore[index]
    return {"name": ship.name, "faction": ship.faction, "size": ship.size, "squadron_size": ship.squadron_size,
            "footprint": FOOTPRINT[ship.size], "hold_space": ship.footprint, "fleet_cost": v.cost,
            "launch_cost": v.launch_cost, "activation_cost": v.activation_cost, "shields": v.shields, "hull": v.hull,
            "move": v.move, "capacity": v.capacity, "grid": list(ship.grid), "grid_cells": ship.cells,
            "p_hit": ship.cells / 80, "powers": [p.text for p in v.powers],
            "damage_mods": dict(v.damage_mods), "content_source": ship.content_source}


def _card_json(s: GState, c: ShipCard, side_v: int | None) -> dict[str, Any]:
    pieces = []
    for pid in c.pieces:
        p = s.pieces[pid]
        pieces.append({"id": pid, "hexes": [list(h) for h in p.hexes], "shields": p.shields, "hull": p.hull,
                       "alive": p.alive, "move": move_points(s, pid) if p.alive and p.hexes else 0})
    out: dict[str, Any] = {
        "id": c.id, "key": c.key, "version": c.version, "side": SIDES[c.side], "owner": SIDES[c.owner],
        "seat": c.seat, "zone": c.zone, "activated": c.activated, "launched_turn": c.launched_turn,
        "from_hold": c.from_hold, "ships": pieces, **card_stats(s, c.id),
        "weapons": _weapons_json(s, c.id, s.pieces[c.pieces[0]] if c.zone == "play" else None),
        "attachments": [_tactic_json(s, t) for t in c.attachments],
        "hold_count": len(c.cargo),
    }
    if c.cargo:
        hold = []
        for x in c.cargo:
            cargo = s.cards[x]
            if side_v is not None and (side_v == c.side or side_v in cargo.revealed_to):
                hold.append({"id": x, "key": cargo.key, "version": cargo.version, "name": s.pack.ships[cargo.key].name})
        if hold:
            out["hold"] = hold
    return out


def _screen_json(s: GState, c: ShipCard) -> dict[str, Any]:
    return {"id": c.id, "key": c.key, "version": c.version, "seat": c.seat, **card_stats(s, c.id)}


def _events(s: GState, side_v: int | None) -> list[dict[str, Any]]:
    out = []
    for e in s.events:
        to = e.get("to")
        if to is None or (side_v is not None and side_v in to):
            out.append({k: v for k, v in e.items() if k not in ("to", "n")})
    return out


def build_view(s: GState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or ``None`` for a spectator) may see (rules doc, "Information model"): the public
    fields with the viewer's own."""
    return {**public_view(s), **own_view(s, viewer)}


def public_view(s: GState) -> dict[str, Any]:
    """The fields every viewer sees alike: the pack, the mission, the board and its tiles, the phase and turn, the
    roll-off, the open window and the last roll, the result; a server writes them once per state for every seat."""
    pack = s.pack
    mission = s.missiondata
    over = s.phase == "over"
    view: dict[str, Any] = {
        "game": "galaxies", "label": pack.label, "content_source": pack.source, "pack": pack.pack_id,
        "house_label": HOUSE_LABEL,
        "mission": {"id": mission.id, "name": mission.name, "number": mission.number, "text": mission.text,
                    "max_rounds": mission.max_rounds, "victory": [v.model_dump(exclude_none=True) for v in mission.victory]},
        "board": s.geo.to_json(),
        "tiles": [{"hex": list(t.hex), "face": t.face, "kind": t.kind if t.face == "up" else None} for t in s.tiles],
        "phase": s.phase, "window": phase_of(s), "round": s.round, "turn": s.turn,
        "active": SIDES[s.active] if s.phase not in ("fleet", "deck", "first") else None,
        "first": SIDES[s.first] if s.first >= 0 else None, "helm": s.helm, "to_act": list(to_act(s)),
        "seat_sides": [SIDES[x] for x in s.seat_side],
        "rolloff": list(s.rolloff),
        "result": dict(s.result) if over and s.result else None, "draw_offer": s.draw.view(),
    }
    if s.window is not None:
        view["open_window"] = {"kind": s.window.kind, "side": SIDES[s.window.side], "seat": s.window.seat}
    if s.roll is not None:
        r = s.roll
        view["roll"] = {"ship": r.piece, "weapon": r.weapon, "target": r.target, "letter": "ABCDEFGHIJ"[r.letter - 1],
                        "number": r.number, "hit": r.hit, "cancelled": r.cancelled, "strength": r.strength}
    return view


def own_view(s: GState, viewer: int | None) -> dict[str, Any]:
    """The viewer's own fields: who it is; the sides (its own hand, screen and prepared tactics); the cards in play
    (a hold's ships only for their side or those they were shown to); the events meant for it; the sealed fleet and
    deck choices, its budget, roster and presets; its energy choice; the open activation (reachable footprints and
    targets for its own side); the tactics it may play now."""
    pack = s.pack
    mission = s.missiondata
    side_v = _side_of_viewer(s, viewer)
    sides = []
    for sd in s.sides:
        own = side_v == sd.index
        letter = SIDES[sd.index]
        entry: dict[str, Any] = {
            "side": letter, "faction": sd.faction, "seats": list(sd.seats), "energy": sd.energy,
            "hand_count": len(sd.hand), "prepped_count": len(sd.prepped), "deck_count": len(sd.deck),
            "discard": [_tactic_json(s, t) for t in sd.discard],
            "destroyed": [{"id": c, "key": s.cards[c].key, "version": s.cards[c].version,
                           "name": pack.ships[s.cards[c].key].name} for c in sd.destroyed],
            "score": _score_text(s, sd.index), "conceded": sd.conceded, "turns": sd.turns,
        }
        if own:
            entry["hand"] = [_tactic_json(s, t) for t in sd.hand]
            entry["screen"] = [_screen_json(s, s.cards[c]) for c in sd.fleet
                               if s.cards[c].zone == "screen" and s.cards[c].side == sd.index]
        if own or mission.prepped.get(letter):
            entry["prepped"] = [_tactic_json(s, t) for t in sd.prepped]
        if mission.fleets[letter].mode == "fixed":
            entry["fleet_list"] = [{"ship": e.ship, "version": e.version} for e in mission.fleets[letter].entries or []]
        sides.append(entry)
    view: dict[str, Any] = {
        "you": {"seat": viewer, "side": SIDES[side_v] if side_v is not None else None},
        "sides": sides,
        "cards": [_card_json(s, c, side_v) for c in s.cards.values() if c.zone == "play"],
        "events": _events(s, side_v),
    }
    if s.phase in ("fleet", "deck"):
        view["sealed"] = {"committed": {str(k): v for k, v in s.sealed.public().items()},
                          "own": s.sealed.own(viewer) if viewer is not None and viewer in s.sealed.required else None}
        if s.phase == "fleet" and side_v is not None:
            rule = mission.fleets[SIDES[side_v]]
            view["fleet_budget"] = rule.budget
            view["roster"] = [{"key": x.key, "name": x.name, "size": x.size, "squadron_size": x.squadron_size,
                               "versions": {k: card_stats_from(x, k) for k in x.versions}}
                              for x in pack.ships.values() if x.faction == s.sides[side_v].faction]
        if s.phase == "deck" and side_v is not None:
            view["deck_presets"] = mission.decks[SIDES[side_v]].presets or []
    if s.energy_choice is not None and side_v == s.active:
        view["energy_choice"] = {"market": s.energy_choice.market, "regen": list(s.energy_choice.regen)}
    if s.activation is not None:
        view["activation"] = activation_view(s, viewer)
    if side_v is not None and s.phase not in ("fleet", "deck", "first", "over"):
        view["playable_now"] = [t for t in s.sides[side_v].hand + s.sides[side_v].prepped
                                if timing_open(s, side_v, s.pack.tactics[s.tactics[t].key].timing)]
    return view


def card_stats_from(ship: Any, version: str) -> dict[str, Any]:
    v = ship.versions[version]
    return {"fleet_cost": v.cost, "launch_cost": v.launch_cost, "activation_cost": v.activation_cost,
            "shields": v.shields, "hull": v.hull, "move": v.move, "capacity": v.capacity,
            "weapons": [w.model_dump(exclude_none=True) for w in v.weapons], "powers": [p.text for p in v.powers]}


def _score_text(s: GState, side: int) -> str:
    return str(score(s, side))


def activation_view(s: GState, viewer: int | None) -> dict[str, Any]:
    """The open activation; for its own side, each ship's reachable footprints and attack targets."""
    act = s.activation
    assert act is not None
    out: dict[str, Any] = {"card": act.card, "step": act.step, "moved": list(act.moved), "on_gate": list(act.on_gate),
                           "charged": {k: dict(v) for k, v in act.charged.items()}, "charges": list(act.charges)}
    side_v = _side_of_viewer(s, viewer)
    if side_v != s.active or act.card not in s.cards:
        return out
    ships = {}
    for pid in s.cards[act.card].pieces:
        p = s.pieces[pid]
        if not p.alive or not p.hexes:
            continue
        entry: dict[str, Any] = {}
        if act.step != "attack" and pid not in act.moved:
            entry["reachable"] = reachable_view(s, pid)
            if pid in act.on_gate:
                entry["warp"] = [[list(h) for h in fp] for fp in warp_options(s, pid)]
        if act.step == "attack":
            entry["targets"] = attack_targets(s, pid)
        ships[pid] = entry
    out["ships"] = ships
    return out


def reachable_view(s: GState, piece: str) -> list[dict[str, Any]]:
    """Reachable footprints of a ship with their cost and ECM risk (browser and server helper)."""
    return [r.to_json() for r in reachable(s, piece)]


def attack_targets(s: GState, piece: str) -> list[dict[str, Any]]:
    """Every (weapon, target) the ship may attack now, with the exact odds of its attacks left."""
    p = s.pieces[piece]
    out = []
    for w in weapons(s, p.card):
        left = attacks_left(s, piece, w) or weapon_stat(s, p, w, "attacks")
        for tid in targets_in_range(s, piece, w):
            t = s.pieces[tid]
            ship = s.shipdata(t.card)
            o = attack_odds(hit_chance(ship.grid), weapon_stat(s, p, w, "strength"), t.shields, t.hull,
                            s.vdata(t.card).hull, 1, damage_mod(s, t.card, w.tag))
            many = attack_odds(o.p_hit, weapon_stat(s, p, w, "strength"), t.shields, t.hull, s.vdata(t.card).hull, left,
                               damage_mod(s, t.card, w.tag))
            out.append({"weapon": w.id, "target": tid, "distance": fp_distance(p.hexes, t.hexes), "attacks": left,
                        "charged": f"{piece}/{w.id}" in (s.activation.charges if s.activation else []),
                        "charge_cost": weapon_stat(s, p, w, "charge_cost"),
                        **{k: v for k, v in o.to_json().items() if k != "attacks"},
                        "all_attacks": many.to_json()})
    return out


# ---------------------------------------------------------------------- action views
def filter_action(s: GState, player: int, a: Action, viewer: int | None) -> Action | None:
    """What ``viewer`` learns of ``player`` playing ``a`` (before it is applied)."""
    if viewer is not None and 0 <= viewer < s.num_players and s.side_of(viewer) == s.side_of(player):
        return a
    t = a.get("type") if isinstance(a, dict) else None
    if t in ("submit_fleet", "submit_deck"):
        return {"type": t}
    if t == "launch":
        out = {k: v for k, v in a.items() if k != "cargo"}
        out["cargo_count"] = len(a.get("cargo") or [])
        return out
    return a


# --------------------------------------------------------------------- determinize
def determinize(s: GState, seat: int, rng: Rng) -> GState:
    """A full state consistent with ``seat``'s view: hidden parts sampled (rules doc, "Information model")."""
    d = s.copy()
    d.rng = Rng(rng.next_u64())
    if d.phase == "over":
        return d
    me = d.side_of(seat)
    them = 1 - me
    # own deck order is unknown to everybody
    rng.shuffle(d.sides[me].deck)
    _resample_tactics(d, them, rng)
    if d.phase in ("fleet", "deck"):
        _resample_commits(d, seat, rng)
    elif d.missiondata.fleets[SIDES[them]].mode == "budget":
        _resample_fleet(d, them, me, rng)
    else:
        _reshuffle_fixed_fleet(d, them, me, rng)
    down = [t for t in d.tiles if t.face == "down"]
    kinds = [t.kind for t in down]
    rng.shuffle(kinds)
    for t, k in zip(down, kinds, strict=True):
        t.kind = k
    return d


def _resample_tactics(d: GState, side: int, rng: Rng) -> None:
    """The other side's hand and deck: a sample from its possible cards, then dealt."""
    sd = d.sides[side]
    slots = list(sd.hand) + list(sd.deck)
    if not slots:
        return
    letter = SIDES[side]
    rule = d.missiondata.decks[letter]
    public: dict[str, int] = {}
    for tid, t in d.tactics.items():
        if t.owner == side and tid not in slots and t.zone != "prepped":
            public[t.key] = public.get(t.key, 0) + 1
    if rule.mode == "fixed":
        pool = list(rule.cards or [])
    else:
        pool = d.pack.faction_pool(sd.faction)
    for key, n in public.items():
        for _ in range(n):
            if key in pool:
                pool.remove(key)
    rng.shuffle(pool)
    if len(pool) < len(slots):  # pragma: no cover - the pool always covers the hidden slots
        pool += [d.tactics[x].key for x in slots][len(pool):]
    for tid, key in zip(slots, pool, strict=False):
        d.tactics[tid].key = key


def _resample_commits(d: GState, seat: int, rng: Rng) -> None:
    """Another side's sealed fleet or deck: replaced by a random legal one."""
    me = d.side_of(seat)
    for lead, value in list(d.sealed.commits.items()):
        if d.side_of(lead) == me:
            continue
        side = d.side_of(lead)
        if d.phase == "fleet":
            d.sealed.commits[lead] = _random_fleet(d, side, rng)
        else:
            presets = d.missiondata.decks[SIDES[side]].presets or [value]
            d.sealed.commits[lead] = list(presets[rng.randbelow(len(presets))])
    d.sealed = SealedCommits(list(d.sealed.required), dict(d.sealed.commits))


def _random_fleet(d: GState, side: int, rng: Rng) -> list[dict[str, Any]]:
    ships = [x for x in d.pack.ships.values() if x.faction == d.sides[side].faction]
    budget = d.missiondata.fleets[SIDES[side]].budget or 0
    for _ in range(50):
        order = list(ships)
        rng.shuffle(order)
        fleet: list[dict[str, Any]] = []
        total = 0
        for x in order:
            v = list(x.versions)[rng.randbelow(len(x.versions))]
            c = x.versions[v].cost  # type: ignore[index]
            if total + c <= budget and rng.randbelow(4) != 0:
                fleet.append({"ship": x.key, "version": v})
                total += c
        if fleet and fleet_problem(d, side, fleet) is None:
            return fleet
    cheapest = min(ships, key=lambda x: x.versions["standard"].cost)  # type: ignore[index]
    return [{"ship": cheapest.key, "version": "standard"}]


def _hidden_cards(d: GState, side: int, me: int) -> list[ShipCard]:
    """The side's cards the viewer cannot identify: behind the screen or in unrevealed holds."""
    return [c for c in d.cards.values() if c.owner == side and c.side == side
            and (c.zone == "screen" or (c.zone == "hold" and me not in c.revealed_to))]


def _slots(d: GState, side: int, me: int) -> list[tuple[str, int]]:
    """Hidden places to fill: (transporter id, count) per hold, ("", 0) for the screen."""
    out = []
    for c in d.cards.values():
        if c.side == side and c.zone == "play" and c.cargo:
            hidden = [x for x in c.cargo if me not in d.cards[x].revealed_to]
            if hidden:
                out.append((c.id, len(hidden)))
    return out


def _fits(d: GState, transporter: str, keys: list[tuple[str, str]], known: list[str]) -> bool:
    """BG-8.7, BG-8.8: the sampled cargo ``keys`` (with the cargo the viewer knows) fit the hold."""
    cap = d.vdata(transporter).capacity
    rank = SIZE_RANK[d.shipdata(transporter).size]
    used = sum(d.pack.ships[d.cards[k].key].footprint for k in known)
    for key, _ in keys:
        ship = d.pack.ships[key]
        if SIZE_RANK[ship.size] >= rank:
            return False
        used += ship.footprint
    return used <= cap


def _reshuffle_fixed_fleet(d: GState, side: int, me: int, rng: Rng) -> None:
    """A fixed fleet is public: only which hidden card sits in which hold (or the screen) is sampled."""
    hidden = _hidden_cards(d, side, me)
    if not hidden:
        return
    entries = [(c.key, c.version) for c in hidden]
    _assign(d, side, me, entries, rng, len(hidden))


def _resample_fleet(d: GState, side: int, me: int, rng: Rng) -> None:
    """A budget fleet: hidden cards are sampled from the faction's ships nobody has seen, within
    the budget, filling every hold to its public count (sizes and capacity respected)."""
    hidden = _hidden_cards(d, side, me)
    seen_keys = {c.key for c in d.cards.values() if c.owner == side and c not in hidden}
    spent = sum(d.vdata(c.id).cost for c in d.cards.values() if c.owner == side and c not in hidden)
    budget = (d.missiondata.fleets[SIDES[side]].budget or 0) - spent
    slots = _slots(d, side, me)
    need_hold = sum(n for _, n in slots)
    must_have = 1 if not d.on_board(side) else 0
    pool = [x for x in d.pack.ships.values() if x.faction == d.sides[side].faction and x.key not in seen_keys]
    for _ in range(60):
        order = list(pool)
        rng.shuffle(order)
        entries: list[tuple[str, str]] = []
        total = 0
        for x in order:
            versions = list(x.versions)
            v = versions[rng.randbelow(len(versions))]
            c = x.versions[v].cost  # type: ignore[index]
            if total + c > budget:
                v = versions[0]
                c = x.versions[v].cost  # type: ignore[index]
                if total + c > budget:
                    continue
            if len(entries) < need_hold or rng.randbelow(3) != 0:
                entries.append((x.key, v))
                total += c
        if len(entries) >= max(need_hold, must_have) and _assign(d, side, me, entries, rng, None, dry=True):
            _assign(d, side, me, entries, rng, None)
            return
    _reshuffle_fixed_fleet(d, side, me, rng)  # fall back to the true cards in new places


def _assign(d: GState, side: int, me: int, entries: list[tuple[str, str]], rng: Rng, count: int | None,
            dry: bool = False) -> bool:
    """Replace the side's hidden cards by ``entries``: holds first (to their public counts), the
    rest behind the screen. Returns False (and changes nothing) if the holds cannot be filled."""
    slots = _slots(d, side, me)
    order = list(range(len(entries)))
    for _ in range(20):
        rng.shuffle(order)
        chosen = [entries[i] for i in order]
        placed: list[tuple[str, list[tuple[str, str]]]] = []
        k = 0
        ok = True
        for tid, n in slots:
            take = chosen[k:k + n]
            known = [x for x in d.cards[tid].cargo if me in d.cards[x].revealed_to]
            if len(take) < n or not _fits(d, tid, take, known):
                ok = False
                break
            placed.append((tid, take))
            k += n
        if ok:
            if dry:
                return True
            _rebuild(d, side, me, placed, chosen[k:])
            return True
    return False


def _rebuild(d: GState, side: int, me: int, holds: list[tuple[str, list[tuple[str, str]]]],
             screen: list[tuple[str, str]]) -> None:
    hidden = _hidden_cards(d, side, me)
    hidden_ids = {c.id for c in hidden}
    seats = d.sides[side].seats
    commanders = {c.key: c.seat for c in hidden}
    for t in d.cards.values():
        if t.cargo:
            t.cargo = [x for x in t.cargo if x not in hidden_ids]
    for c in hidden:
        for pid in c.pieces:
            d.pieces.pop(pid, None)
        d.cards.pop(c.id, None)
        if c.id in d.sides[side].fleet:
            d.sides[side].fleet.remove(c.id)
    mission = d.missiondata

    def make(key: str, version: str, zone: str, holder: str) -> str:
        cid = card_id(mission, side, key)
        ship = d.pack.ships[key]
        pieces = [cid] if ship.squadron_size == 1 else [f"{cid}#{k + 1}" for k in range(ship.squadron_size)]
        seat = commanders.get(key, seats[len(d.sides[side].fleet) % len(seats)])
        d.cards[cid] = ShipCard(cid, key, version, side, side, seat, zone=zone, holder=holder, pieces=pieces)
        for pid in pieces:
            d.pieces[pid] = Piece(pid, cid)
        d.sides[side].fleet.append(cid)
        return cid

    for tid, cargo in holds:
        t = d.cards[tid]
        t.cargo = t.cargo + [make(k, v, "hold", tid) for k, v in cargo]
    for k, v in screen:
        make(k, v, "screen", "")

