"""Tremble, Humans! encoding (TH-*): fleets, cards and cities as feature rows, plans and buys as
short token series.

Seats are *relative*: row 0 is the observing seat, row r the seat r places after it. Cards are
described by features, never by name: carrier kind (ship, station, compensation), strength,
fuel, price, ship kind, deck, and the effect vocabulary of TH §6.3 (one entry per op, holding
its ``n``/``amount``/``k`` scaled, plus the kind, city type and region it names). Everything
is scaled into [0, 1] (humans by 500,000; prices by 100,000; strengths by 10).

Cards in actions are named by their position in the seat's own lists, as the view shows them:
``hand`` (ships, sorted by id), ``comp`` (compensation cards, in the order received), ``station``
(own stations), ``drawn`` (this turn's draws); ships on the board by ``target[j]``, the j-th
ship of the groups listed slot by slot, seats in relative order, as in the ``targets`` block.

Series (every one that reaches its end names one legal action):

* buy (TH-4.3): ``credit[k]`` or ``repay[k]``; then the compensation cards played
  (``comp``), the draws bought (``drawn``), the discards (``hand`` / ``station``), each list in
  ascending position; then ``done``;
* plan (TH-6.1): ``plan[i * 7 + s]`` for every ship i of the hand in order (s = 0 stays home,
  1..6 = slot), then ``support[j * 7 + s]`` for each untapped city-support station, then
  ``done`` (fuel cards and fuel stations follow the engine's canonical choice, TH-6.3);
* self move (TH-7.2): ``relocate[i * 7 + s]`` per listed ship (s = 0 stay), then ``done``;
* station move: ``station[j]``, ``target[k]``, ``to_slot[s]``; window and reward uses:
  ``station[j]`` or ``comp[j]`` (+ ``target[k]``); losses ``hand[i]`` or ``comp[j]``; claims
  ``hand[i]``/``comp[j]``; army ignores ``comp[j]`` + ``army[a]``;
* single tokens: ``fight``, ``flee``, ``raid``, ``catch``, ``pass``, ``keep``, ``redraw``, ``decline``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spacetable.games.tremble.effects import CITY_TYPES, KINDS, OPS, REGIONS

from .base import Action, Block, Encoder, Segment, View

SEATS = 5
MAX_HAND = 8
MAX_DRAWN = 6
MAX_STATIONS = 4
MAX_COMPS = 10
MAX_SLOTS = 6
MAX_TARGETS = 32
MAX_ARMIES = 6
MAX_MISSIONS = 5
MAX_CREDIT = 6
PHASES = ("buy", "plan", "station_move", "self_move", "loss", "claim", "declare", "respond", "reward", "army",
          "ignore_army", "redraw", "over")
DECKS = ("training", "blue", "red")
OP_NAMES = tuple(sorted(OPS))
SIMPLE = ("fight", "flee", "raid", "catch", "pass", "keep", "redraw", "decline")
CARD = 3 + 3 + 3 + 3 + len(OP_NAMES) + len(KINDS) + len(CITY_TYPES) + len(REGIONS)
CITY = 3 + len(CITY_TYPES) + len(REGIONS)


def card_features(c: dict[str, Any], out: np.ndarray) -> None:
    """Features of a ship, station or compensation card (its view JSON) into ``out[:CARD]``."""
    if "strength" in c:
        out[0] = 1.0
        out[3] = c["strength"] / 10.0
        out[4] = c["fuel"] / 5.0
        out[9 + KINDS.index(c["kind"])] = 1.0
        effects = c["abilities"]
    elif "price" in c:
        out[1] = 1.0
        effects = [c["effect"]]
    else:
        out[2] = 1.0
        effects = [c["effect"]]
    out[5] = c.get("price", 0) / 100000.0
    deck = c.get("deck")
    if deck in DECKS:
        out[6 + DECKS.index(deck)] = 1.0
    base = 12
    for e in effects:
        op = e["op"]
        value = e.get("n", e.get("k", 0)) / 5.0 + e.get("amount", 0) / 100000.0
        out[base + OP_NAMES.index(op)] = max(value, 0.2)  # present ops are never 0
        at = base + len(OP_NAMES)
        if e.get("kind") in KINDS:
            out[at + KINDS.index(e["kind"])] = 1.0
        at += len(KINDS)
        if e.get("city_type") in CITY_TYPES:
            out[at + CITY_TYPES.index(e["city_type"])] = 1.0
        at += len(CITY_TYPES)
        if e.get("region") in REGIONS:
            out[at + REGIONS.index(e["region"])] = 1.0


def city_features(c: dict[str, Any], out: np.ndarray) -> None:
    out[0] = c["raid"] / 100000.0
    out[1] = c["catch"] / 100000.0
    out[2] = c["catch_draw"] / 4.0
    if c["city_type"] in CITY_TYPES:
        out[3 + CITY_TYPES.index(c["city_type"])] = 1.0
    if c["region"] in REGIONS:
        out[6 + REGIONS.index(c["region"])] = 1.0


def targets(view: View, seat: int) -> list[tuple[dict[str, Any], int, int]]:
    """Ships in groups on the board: (ship JSON, relative seat, slot index), slot by slot, seats
    in relative order, ships in group order."""
    n = len(view["players"])
    out = []
    for k, sl in enumerate(view["slots"]):
        groups = sl["groups"]
        for r in range(n):
            for sh in groups.get(str((seat + r) % n), []):
                out.append((sh, r, k))
    return out


class TrembleEncoder(Encoder):
    game_id = "tremble"
    max_depth = MAX_HAND + MAX_STATIONS + 1 + 2 + MAX_DRAWN  # a buy: credit, comps, draws, discards, done
    has_turns = True

    def turn_of(self, state: Any) -> int:
        return int(state.turn)

    def action_segments(self) -> list[Segment]:
        return [
            *(Segment(name, 1, f"the choice {name!r}") for name in SIMPLE),
            Segment("credit", MAX_CREDIT + 1, "a buy starts: take k credits (TH-13)"),
            Segment("repay", MAX_CREDIT, "a buy starts: repay k + 1 credits"),
            Segment("hand", MAX_HAND, "own ship i (hand sorted by id)"),
            Segment("comp", MAX_COMPS, "own compensation card i"),
            Segment("station", MAX_STATIONS, "own station i"),
            Segment("drawn", MAX_DRAWN, "this turn's draw i"),
            Segment("plan", MAX_HAND * (MAX_SLOTS + 1), "ship i goes to slot s (0 home): i * 7 + s"),
            Segment("support", MAX_STATIONS * (MAX_SLOTS + 1), "city-support station j on slot s (0 unused): j * 7 + s"),
            Segment("relocate", MAX_HAND * (MAX_SLOTS + 1), "ship i moves to slot s (0 stays): i * 7 + s"),
            Segment("target", MAX_TARGETS, "ship j on the board (see the targets block)"),
            Segment("to_slot", MAX_SLOTS, "to slot s + 1"),
            Segment("army", MAX_ARMIES, "army card a of the catch"),
            Segment("done", 1, "end of a buy, plan or move series"),
        ]

    def game_blocks(self) -> list[Block]:
        return [
            Block("general", (len(PHASES) + 2 + SEATS + 4 + SEATS + SEATS + 1,),
                  "phase one-hot, turn/turns, fuel limit/12, lead seat (relative), players 2..5, seats to act, "
                  "seats that sealed, I sealed"),
            Block("players", (SEATS, 10), "exists, humans, credits, credits taken, ships, compensation cards, draws, "
                                          "trophies/12, stations, known ships"),
            Block("hand", (MAX_HAND, CARD), "own ships (card features)"),
            Block("drawn", (MAX_DRAWN, CARD), "own draws this turn"),
            Block("comps", (MAX_COMPS, CARD + 1), "own compensation cards + received this turn"),
            Block("stations", (SEATS, MAX_STATIONS, CARD + 1), "every seat's stations + tapped"),
            Block("slots", (MAX_SLOTS, CITY + 3 * SEATS),
                  "city (raid, catch, draws, type, region); per seat ships in the group/6, group strength/30, support/5"),
            Block("targets", (MAX_TARGETS, CARD + SEATS + MAX_SLOTS), "ships on the board: card, seat, slot"),
            Block("contest", (2 + MAX_SLOTS + 8 * SEATS + 2 * MAX_ARMIES + 1,),
                  "present, army fight, slot, per seat: order, fighting, in play, die/12, total/40, offer, winner, "
                  "loser; armies (strength/10), revealed armies, army position/6"),
            Block("missions", (MAX_MISSIONS, 2 + len(CITY_TYPES) + len(REGIONS)), "mission kind and target"),
        ]

    # ----------------------------------------------------------------- tokens
    def sequences(self, view: View, seat: int, actions: Sequence[Action]) -> list[tuple[int, ...]]:
        me = view["players"][seat]
        hand = {c["id"]: i for i, c in enumerate(me.get("hand", []))}
        comps = {c["id"]: i for i, c in enumerate(me.get("comps", []))}
        stations = {c["id"]: i for i, c in enumerate(me["stations"])}
        drawn = {c["id"]: i for i, c in enumerate(me.get("drawn", []))}
        tg = targets(view, seat)
        tindex: dict[str, int] = {}
        for j, (sh, _, _) in enumerate(tg):
            tindex.setdefault(sh["id"], j)
        supports = [c["id"] for c in me["stations"] if not c["tapped"] and c["effect"]["op"] == "city_support"]
        tok = self.token
        done = self.offsets["done"]
        plan0 = self.offsets["plan"]
        hand_ids = [c["id"] for c in me.get("hand", [])]
        if len(hand_ids) > MAX_HAND or len(me["stations"]) > MAX_STATIONS:
            raise ValueError(f"tremble encoder: at most {MAX_HAND} ships and {MAX_STATIONS} stations per seat")

        def own(card: str) -> int:
            if card in hand:
                return tok("hand", hand[card])
            if card in comps:
                return tok("comp", comps[card])
            if card in stations:
                return tok("station", stations[card])
            raise KeyError(f"tremble encoder: {card} is not an own card")

        out: list[tuple[int, ...]] = []
        for a in actions:
            t = a["type"]
            if t in ("declare", "army", "reward"):
                out.append((self.offsets[a["choice"]],))
            elif t in ("pass", "keep", "decline"):
                out.append((self.offsets[t],))
            elif t == "redraw_stations":
                out.append((self.offsets["redraw"],))
            elif t == "buy":
                head = tok("repay", a["repay"] - 1) if a["repay"] else tok("credit", a["credits"])
                seq = [head]
                seq += sorted(tok("comp", comps[c]) for c in a["comp"])
                seq += sorted(tok("drawn", drawn[c]) for c in a["buy"])
                seq += sorted(own(c) for c in a["discard"])
                out.append((*seq, done))
            elif t == "plan":  # the hot case: thousands of plans, written without per-token checks
                slot_of = {sh: g["slot"] for g in a["groups"] for sh in g["ships"]}
                seq = [plan0 + i * (MAX_SLOTS + 1) + slot_of.get(sid, 0) for i, sid in enumerate(hand_ids)]
                if supports:
                    placed = {st["station"]: st.get("slot", 0) for st in a["stations"]}
                    seq += [tok("support", j * (MAX_SLOTS + 1) + placed.get(sid, 0)) for j, sid in enumerate(supports)]
                seq.append(done)
                out.append(tuple(seq))
            elif t == "relocate_self":
                seq = [tok("relocate", hand[m["ship"]] * (MAX_SLOTS + 1) + (0 if m["to_slot"] == "stay" else m["to_slot"]))
                       for m in a["moves"]]
                out.append((*seq, done))
            elif t == "relocate_enemy":
                out.append((own(a["station"]), tok("target", tindex[a["ship"]]), tok("to_slot", a["to_slot"] - 1)))
            elif t in ("use_station", "use_compensation"):
                seq = [own(a["station"] if t == "use_station" else a["card"])]
                if a.get("target") is not None:
                    seq.append(tok("target", tindex[a["target"]]))
                out.append(tuple(seq))
            elif t in ("choose_loss", "claim_city"):
                out.append((own(a["ship"] if t == "choose_loss" else a["card"]),))
            elif t == "ignore_army":
                out.append((own(a["card"]), tok("army", a["army_index"])))
            else:
                raise ValueError(f"tremble encoder: unknown action type {t!r}")
        return out

    # ------------------------------------------------------------ observation
    def observe_view(self, view: View, seat: int, out: np.ndarray) -> None:
        players = view["players"]
        n = len(players)

        def rel(s: int) -> int:
            return (s - seat) % n

        blocks = self.split_game(out)
        g = blocks["general"]
        g[PHASES.index(view["phase"])] = 1.0
        at = len(PHASES)
        g[at] = view["turn"] / view["turns"]
        g[at + 1] = (view["fuel_limit"] or 0) / 12.0
        at += 2
        g[at + rel(view["lead"])] = 1.0
        at += SEATS
        g[at + n - 2] = 1.0
        at += 4
        for s in view["to_act"]:
            g[at + rel(s)] = 1.0
        at += SEATS
        sealed = view["sealed"]
        if sealed is not None:
            for s, done in sealed["committed"].items():
                if done:
                    g[at + rel(int(s))] = 1.0
            g[at + SEATS] = 1.0 if sealed["own"] is not None else 0.0
        pl = blocks["players"]
        for i, p in enumerate(players):
            row = pl[rel(i)]
            row[:] = (1.0, p["humans"] / 500000.0, p["credits"] / 4.0, p["credits_taken"] / 4.0, p["hand_count"] / 8.0,
                      p["comp_count"] / 10.0, p["drawn_count"] / 6.0, len(p["trophies"]) / 12.0,
                      len(p["stations"]) / 4.0, len(p["known_ships"]) / 8.0)
            for j, st in enumerate(p["stations"][:MAX_STATIONS]):
                card_features(st, blocks["stations"][rel(i), j])
                blocks["stations"][rel(i), j, CARD] = 1.0 if st["tapped"] else 0.0
        me = players[seat]
        for i, c in enumerate(me.get("hand", [])[:MAX_HAND]):
            card_features(c, blocks["hand"][i])
        for i, c in enumerate(me.get("drawn", [])[:MAX_DRAWN]):
            card_features(c, blocks["drawn"][i])
        for i, c in enumerate(me.get("comps", [])[:MAX_COMPS]):
            card_features(c, blocks["comps"][i])
            blocks["comps"][i, CARD] = 1.0 if c["received"] >= view["turn"] else 0.0
        sl = blocks["slots"]
        for k, slot in enumerate(view["slots"][:MAX_SLOTS]):
            city_features(slot["city"], sl[k])
            for s, ships in slot["groups"].items():
                r = rel(int(s))
                sl[k, CITY + r] = len(ships) / 6.0
                sl[k, CITY + SEATS + r] = sum(x["strength"] for x in ships) / 30.0
            for s, v in slot["support"].items():
                sl[k, CITY + 2 * SEATS + rel(int(s))] = v / 5.0
        tb = blocks["targets"]
        for j, (sh, r, k) in enumerate(targets(view, seat)[:MAX_TARGETS]):
            card_features(sh, tb[j])
            tb[j, CARD + r] = 1.0
            tb[j, CARD + SEATS + k] = 1.0
        c = view["contest"]
        if c is not None:
            cb = blocks["contest"]
            cb[0] = 1.0
            cb[1] = 0.0 if c["kind"] == "battle" else 1.0
            if 1 <= c["slot"] <= MAX_SLOTS:
                cb[2 + c["slot"] - 1] = 1.0
            at = 2 + MAX_SLOTS
            for pos, s in enumerate(c["order"]):
                cb[at + rel(s)] = (pos + 1) / SEATS
            for s in c["fighters"]:
                cb[at + SEATS + rel(s)] = 1.0
            for s in c["in_play"]:
                cb[at + 2 * SEATS + rel(s)] = 1.0
            for s, v in c["dice"].items():
                cb[at + 3 * SEATS + rel(int(s))] = v / 12.0
            for s, v in c.get("totals", {}).items():
                cb[at + 4 * SEATS + rel(int(s))] = min(max(v, 0), 40) / 40.0
            if c["offer"] >= 0:
                cb[at + 5 * SEATS + rel(c["offer"])] = 1.0
            if c["winner"] >= 0:
                cb[at + 6 * SEATS + rel(c["winner"])] = 1.0
            for s in c["losers"]:
                cb[at + 7 * SEATS + rel(s)] = 1.0
            at += 8 * SEATS
            for i, v in enumerate(c["armies"][:MAX_ARMIES]):
                cb[at + i] = v / 10.0
            for i, v in enumerate(c["revealed"][:MAX_ARMIES]):
                cb[at + MAX_ARMIES + i] = v / 10.0
            cb[at + 2 * MAX_ARMIES] = c["army_pos"] / 6.0
        mb = blocks["missions"]
        for i, m in enumerate(view["missions"][:MAX_MISSIONS]):
            mb[i, 0 if m["kind"] == "city_type" else 1] = 1.0
            names = (*CITY_TYPES, *REGIONS)
            if m["target"] in names:
                mb[i, 2 + names.index(m["target"])] = 1.0

    def split_game(self, out: np.ndarray) -> dict[str, np.ndarray]:
        blocks = {}
        at = 0
        for b in self.game_blocks():
            blocks[b.name] = out[at: at + b.size].reshape(b.shape)
            at += b.size
        return blocks
