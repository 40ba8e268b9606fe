"""Battleship Galaxies encoding (BG-*): hex-board planes in odd-r offset and card tables by ship name.

Grid: the board's full hexes in odd-r offset (BG-2.2: ``col = q + (r - (r & 1)) / 2``, ``row = r``),
``H × W`` taken from the configured board (19 × 15 for ``house-standard``, 38 wide for
``house-double``). Sides are relative: the observing seat's side first ("own"), the other side
second ("enemy"); teammates (BG-18) share their side's view.

Observation planes (``H × W`` each): full hex, own zone, enemy zone, asteroid, debris, face-down
tile, face-up tile by kind (7, :data:`TILE_KINDS`), own ships by size (small, medium, large), enemy
ships by size, shield pegs / card shield value, hull pegs / card hull value, ship of an activated
card, ship of the open activation, ship that moved in the open activation, transporter holding
cargo. Scalars: phase and window one-hots, round / max rounds, turn / (2 × max rounds), own side
active, own side first, per side (own, enemy) energy / 40, hand count / 10, prepped / 5, deck / 30,
discards / 30, destroyed cards / ships in the pack, score / 100, conceded, sealed commit pending,
sealed commit made; open roll (present, letter / 10, number / 8, hit, cancelled); open window
(present, own, after-attack-roll, enemy-activation, enemy-hit); activation (present, own, step
start/move/attack); energy choice (market, regeneration). Card table (per side × ship name of the
pack): in play, behind the own screen, in a hold and known, destroyed, activated, hold count / 4,
launched this turn, shield pegs / value, hull pegs / value (summed over a squadron). Hand table (per
tactic name of the pack): own hand count / 3, own prepped count / 3, playable now.

Things are named by *reference* tokens: ``side × ship name × slot`` where the slot is 0 for the card
(and a solo ship, whose id is its card's) and ``n`` for squadron ship ``#n`` (BG-1.3). Roles get their
own segments so that no token repeats in one series: ``a`` (the acting card or ship), ``b`` (the
second one: the cargo launched from a hold, the attack target) and ``t0``–``t3`` (tactic targets in
the card's selector order).

Series: the action type first, then –
``submit_fleet``: one ``fleet[ship * 4 + version]`` token per own-faction ship of the pack in pack
order (version 0 = not taken, 1 standard, 2 seasoned, 3 veteran; BG-4.4);
``submit_deck``: ``option[k]`` (the mission's k-th preset, D-18);
``choose_first``: ``first[0]`` own side, ``first[1]`` the other side (BG-5.4);
``market_draw``: ``take[1]`` / ``take[0]``; ``regen_shield``: ``a`` or ``none`` (BG-7.1);
``launch``: ``a`` (card), placement, then, for a transporter, its cargo as ``cargo[ship]`` tokens in
ascending order and ``done`` (BG-8.1, BG-8.6); ``launch_from_hold``: ``a`` (transporter), ``b``
(cargo), placement (BG-8.5); placement = the cell ``d`` of the first ship's first hex, plus
``dir[k]`` (the direction to its second hex) for a medium ship (a large ship's first hex is its
centre, D-1); ``activate``: ``a`` (BG-9.2); ``move``: ``a``, the final cell ``d`` of the ship
(a medium ship's lead, BG-10.3; a large ship's centre) and for a medium ship ``dir[k]`` from the lead
to the trailing hex; ``warp``: ``a``, ``d`` (+ ``dir``) (BG-15.4); ``charge``: ``a``, ``weapon[k]``
(k-th weapon of the card, BG-12.2); ``attack``: ``a``, ``weapon[k]``, ``b`` (BG-12.5);
``play_tactic``/``respond``: ``tactic[name]``, targets ``t0``…, chosen hexes ``d`` (+ ``dir``)
(BG-14.2); ``discard_for_energy``: ``tactic[name]`` (BG-6.4); the ``end_*`` types and ``pass`` are
the type token alone. When the engine lists several actions with the same series (other squadron
formations, copies of a tactic), a last token ``variant[k]`` picks the k-th in the engine's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spacetable.games.galaxies.board import DIRS, step
from spacetable.games.galaxies.packs import TILE_KINDS, pack_of_config

from ..decision import Decision
from .base import Action, Block, Encoder, Segment, View

TYPES = ("submit_fleet", "submit_deck", "choose_first", "market_draw", "regen_shield", "end_energy", "launch",
         "launch_from_hold", "end_deploy", "activate", "move", "warp", "end_movement", "charge", "attack",
         "end_activation", "play_tactic", "respond", "pass", "discard_for_energy", "end_turn")
PHASES = ("fleet", "deck", "first", "energy", "deploy", "action", "over")
WINDOWS = ("fleet", "deck", "first", "energy", "deploy", "action", "activation", "roll", "reaction", "over")
SIZES = ("small", "medium", "large")
STEPS = ("start", "move", "attack")
VERSIONS = ("standard", "seasoned", "veteran")
MAX_WEAPONS = 4
MAX_OPTIONS = 16
MAX_VARIANTS = 32
MAX_TARGETS = 4
PLANES = 6 + len(TILE_KINDS) + 2 * len(SIZES) + 6
SIDE_ROW = 10
SCALARS = len(PHASES) + len(WINDOWS) + 4 + 2 * SIDE_ROW + 5 + 5 + 5 + 2
CARD_ROW = 9


def _cell_of(q: int, r: int) -> tuple[int, int]:
    """Odd-r offset ``(col, row)`` of an axial hex (BG-2.2)."""
    return q + (r - (r & 1)) // 2, r


class GalaxiesEncoder(Encoder):
    game_id = "galaxies"
    max_depth = 16
    has_turns = True

    def __init__(self, game: Any, config: dict[str, Any]) -> None:
        pack = pack_of_config(config)
        self.ships = list(pack.ships)
        self.ship_index = {k: i for i, k in enumerate(self.ships)}
        self.squad = max(1, *(s.squadron_size for s in pack.ships.values())) + 1
        self.tactics = list(pack.tactics)
        self.tactic_index = {k: i for i, k in enumerate(self.tactics)}
        self.factions = {k: s.faction for k, s in pack.ships.items()}
        board = game.view(game.initial_state(config, 0), None)["board"]  # the configured board's geometry
        cells = [_cell_of(q, r) for r, q0, q1 in board["full"] for q in range(q0, q1 + 1)]
        self.col0 = min(c for c, _ in cells)
        self.row0 = min(r for _, r in cells)
        self.width = max(c for c, _ in cells) - self.col0 + 1
        self.height = max(r for _, r in cells) - self.row0 + 1
        #: axial hex -> flat index ``row * W + col`` of every full hex (nothing else is ever drawn)
        self.flat = {(q, r): (r - self.row0) * self.width + (q + (r - (r & 1)) // 2 - self.col0)
                     for r, q0, q1 in board["full"] for q in range(q0, q1 + 1)}
        self._static: dict[str, np.ndarray] = {}  # own side -> the board's fixed planes seen by it
        super().__init__(game, config)

    def turn_of(self, state: Any) -> int:
        return int(state.round)

    def team_of(self, state: Any, seat: int) -> int:
        """BG-18: the seats of a side (Missions 4 and 5) win and lose together."""
        return int(state.side_of(seat))

    # ------------------------------------------------------------ declarations
    def action_segments(self) -> list[Segment]:
        n, refs = len(self.ships), 2 * len(self.ships) * self.squad
        ref_doc = "side (own, other) × ship name × slot (0 card/solo, n squadron ship #n)"
        return [
            *(Segment(t, 1, f"action type {t}") for t in TYPES),
            Segment("fleet", n * 4, "own-faction ship × version (0 none, standard, seasoned, veteran) (BG-4.4)"),
            Segment("option", MAX_OPTIONS, "the mission's k-th deck preset (D-18)"),
            Segment("first", 2, "who starts: own side, other side (BG-5.4)"),
            Segment("take", 2, "market draw: decline, take (BG-7.1)"),
            Segment("none", 1, "no shield regeneration (BG-7.1)"),
            Segment("a", refs, f"acting card or ship: {ref_doc}"),
            Segment("b", refs, f"second card or ship (cargo, attack target): {ref_doc}"),
            *(Segment(f"t{k}", refs, f"tactic target {k} in the card's selector order: {ref_doc}") for k in range(MAX_TARGETS)),
            Segment("tactic", len(self.tactics), "tactic card by name, pack order (BG-14.2, BG-6.4)"),
            Segment("d_x", self.width, "cell: offset column"),
            Segment("d_y", self.height, "cell: row"),
            Segment("dir", 6, "direction to a medium ship's second hex (BG-2.2: E, NE, NW, W, SW, SE)"),
            Segment("weapon", MAX_WEAPONS, "the card's k-th weapon (BG-12.1)"),
            Segment("cargo", n, "a cargo card by ship name (BG-8.6)"),
            Segment("done", 1, "end of the cargo list"),
            Segment("variant", MAX_VARIANTS, "k-th of several listed actions with the same series"),
        ]

    def game_blocks(self) -> list[Block]:
        return [
            Block("planes", (PLANES, self.height, self.width),
                  "full, own zone, enemy zone, asteroid, debris, face-down tile, face-up tiles by kind (7), own ships "
                  "by size (3), enemy ships by size (3), shields/value, hull/value, activated, in the open activation, "
                  "moved, holds cargo"),
            Block("scalars", (SCALARS,),
                  "phase, window, round, turn, own active, own first, per side energy/hand/prepped/deck/discards/"
                  "destroyed/score/conceded/commit pending/committed, roll, window, activation, energy choice"),
            Block("cards", (2, len(self.ships), CARD_ROW),
                  "per side × ship name: in play, on own screen, known in a hold, destroyed, activated, hold count/4, "
                  "launched this turn, shields/value, hull/value"),
            Block("hand", (len(self.tactics), 3), "per tactic name: own hand count/3, own prepped count/3, playable now"),
        ]

    # ------------------------------------------------------------ references
    def _cell(self, h: Sequence[int]) -> tuple[int, int]:
        c, r = _cell_of(int(h[0]), int(h[1]))
        return c - self.col0, r - self.row0

    def _refs(self, view: View) -> dict[str, int]:
        """Reference index of every card and ship id the seat can name."""
        me = view["you"]["side"]
        out: dict[str, int] = {}

        def add(cid: str, key: str, side: str, ships: Sequence[str] = ()) -> None:
            base = ((0 if side == me else 1) * len(self.ships) + self.ship_index[key]) * self.squad
            out[cid] = base
            for pid in ships:
                _, _, num = pid.rpartition("#")
                out[pid] = base + (int(num) if num.isdigit() and pid != cid else 0)

        for c in view["cards"]:
            add(c["id"], c["key"], c["side"], [p["id"] for p in c["ships"]])
            for h in c.get("hold", []):
                add(h["id"], h["key"], c["side"])
        for sd in view["sides"]:
            for c in sd.get("screen", []):
                add(c["id"], c["key"], sd["side"])
        return out

    def _place(self, hexes: Sequence[Sequence[int]]) -> list[int]:
        """Cell of the first hex, and the direction to an adjacent second hex (a medium footprint)."""
        x, y = self._cell(hexes[0])
        out = [self.token("d_x", x), self.token("d_y", y)]
        if len(hexes) == 2:
            delta = (hexes[1][0] - hexes[0][0], hexes[1][1] - hexes[0][1])
            out.append(self.token("dir", DIRS.index(delta)))
        return out

    # ----------------------------------------------------------------- actions
    def sequences(self, view: View, seat: int, actions: Sequence[Action]) -> list[tuple[int, ...]]:
        tok = self.token
        refs = self._refs(view)
        me = view["you"]["side"]
        own = next(sd for sd in view["sides"] if sd["side"] == me)
        tactic_key = {t["id"]: t["key"] for t in own.get("hand", []) + own.get("prepped", [])}
        screen = {c["id"]: c["key"] for c in own.get("screen", [])}
        piece_card: dict[str, dict[str, Any]] = {p["id"]: c for c in view["cards"] for p in c["ships"]}
        faction_ships = [k for k in self.ships if self.factions[k] == own["faction"]]
        weapons = {c["id"]: [w["id"] for w in c["weapons"]] for c in view["cards"]}
        sealed_preset = view.get("deck_presets") or []

        out: list[tuple[int, ...]] = []
        for a in actions:
            t = a["type"]
            seq = [self.offsets[t]]
            if t == "submit_fleet":
                chosen = {e["ship"]: e["version"] for e in a["fleet"]}
                seq += [tok("fleet", self.ship_index[k] * 4 + (VERSIONS.index(chosen[k]) + 1 if k in chosen else 0))
                        for k in faction_ships]
            elif t == "submit_deck":
                seq.append(tok("option", [list(p) for p in sealed_preset].index(list(a["cards"]))))
            elif t == "choose_first":
                seq.append(tok("first", 0 if a["side"] == me else 1))
            elif t == "market_draw":
                seq.append(tok("take", 1 if a["take"] else 0))
            elif t == "regen_shield":
                seq.append(tok("a", refs[a["ship"]]) if a.get("ship") else self.offsets["none"])
            elif t == "launch":
                seq += [tok("a", refs[a["card"]]), *self._place(next(iter(a["placement"].values())))]
                if any(x["type"] == "launch" and x["card"] == a["card"] and x.get("cargo") for x in actions):
                    seq += sorted(tok("cargo", self.ship_index[screen[c]]) for c in a.get("cargo") or [])
                    seq.append(self.offsets["done"])
            elif t == "launch_from_hold":
                seq += [tok("a", refs[a["transporter"]]), tok("b", refs[a["card"]]),
                        *self._place(next(iter(a["placement"].values())))]
            elif t == "activate":
                seq.append(tok("a", refs[a["card"]]))
            elif t == "move":
                seq += [tok("a", refs[a["ship"]]), *self._place(self._final(piece_card[a["ship"]], a))]
            elif t == "warp":
                seq += [tok("a", refs[a["ship"]]), *self._place(a["hexes"])]
            elif t in ("charge", "attack"):
                card = piece_card[a["ship"]]
                seq += [tok("a", refs[a["ship"]]), tok("weapon", weapons[card["id"]].index(a["weapon"]))]
                if t == "attack":
                    seq.append(tok("b", refs[a["target"]]))
            elif t in ("play_tactic", "respond"):
                key = tactic_key[a["card"]]
                seq.append(tok("tactic", self.tactic_index[key]))
                for k, role in enumerate(sorted(a.get("targets") or {})):
                    seq.append(tok(f"t{k}", refs[a["targets"][role]]))
                hexes = (a.get("choices") or {}).get("hexes")
                if hexes:
                    seq += self._place(hexes)
            elif t == "discard_for_energy":
                seq.append(tok("tactic", self.tactic_index[tactic_key[a["cards"][0]]]))
            out.append(tuple(seq))
        return self._disambiguate(out)

    def _disambiguate(self, seqs: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        groups: dict[tuple[int, ...], list[int]] = {}
        for i, s in enumerate(seqs):
            groups.setdefault(s, []).append(i)
        for s, idx in groups.items():
            if len(idx) > 1:
                for k, i in enumerate(idx):  # beyond MAX_VARIANTS: an out-of-segment token, dropped by decision()
                    seqs[i] = (*s, self.offsets["variant"] + k)
        return seqs

    def decision(self, state: Any, seat: int, view: View | None = None) -> Decision:
        """The legal actions (without ``resign``) as a trie; beyond :data:`MAX_VARIANTS` actions sharing
        one series the rest are left out (the engine's canonical lists rarely have more than a few)."""
        actions = self.legal_actions(state, seat)
        if view is None:
            view = self.game.view(state, seat)
        seqs = self.sequences(view, seat, actions)
        keep = [i for i, s in enumerate(seqs) if s[-1] < self.offsets["variant"] + MAX_VARIANTS]
        if len(keep) != len(seqs):
            actions, seqs = [actions[i] for i in keep], [seqs[i] for i in keep]
        return Decision(actions, seqs)

    @staticmethod
    def _final(card: dict[str, Any], a: Action) -> list[list[int]]:
        """The footprint a move ends on, as the encoding names it (BG-10.2, BG-10.3, BG-10.4): first the
        lead (medium) or the centre (large) or the hex (small), then a medium ship's trailing hex."""
        hexes = next(p["hexes"] for p in card["ships"] if p["id"] == a["ship"])
        if card["size"] == "medium":
            lead = tuple(a["lead"]) if a.get("lead") else tuple(hexes[0])
            trail = tuple(hexes[1]) if tuple(hexes[0]) == lead else tuple(hexes[0])
            for d in a["path"]:
                lead, trail = step(lead, d), lead
            return [list(lead), list(trail)]
        pos = tuple(hexes[0])
        for d in a["path"]:
            pos = step(pos, d)
        return [list(pos)]

    # ------------------------------------------------------------ observation
    def _static_planes(self, view: View, me: str) -> np.ndarray:
        """Planes 0–4 (full hexes, zones, asteroids, debris): fixed by the board, kept per own side."""
        cached = self._static.get(me)
        if cached is None:
            cached = np.zeros((5, self.height * self.width), np.float32)
            board = view["board"]
            flat = self.flat

            def mark(plane: int, hexes: Any) -> None:
                for hx in hexes:
                    i = flat.get((hx[0], hx[1]))
                    if i is not None:
                        cached[plane, i] = 1.0

            def run_hexes(runs: Any) -> list[tuple[int, int]]:
                return [(q, r) for r, q0, q1 in runs for q in range(q0, q1 + 1)]

            mark(0, run_hexes(board["full"]))
            for side, runs in board["zones"].items():
                mark(1 if side == me else 2, run_hexes(runs))
            mark(3, board["obstacles"].get("asteroid", []))
            mark(4, board["obstacles"].get("debris", []))
            cached = self._static[me] = cached.reshape(-1)
        return cached

    def observe_view(self, view: View, seat: int, out: np.ndarray) -> None:
        h, w = self.height, self.width
        hw = h * w
        flat_planes = out[: PLANES * hw]
        me = view["you"]["side"]
        flat = self.flat
        flat_planes[: 5 * hw] = self._static_planes(view, me)

        def put(plane: int, hexes: Any, value: float = 1.0) -> None:
            base = plane * hw
            for hx in hexes:
                i = flat.get((hx[0], hx[1]))
                if i is not None:
                    flat_planes[base + i] = value

        for t in view["tiles"]:
            put(5 if t["face"] != "up" else 6 + TILE_KINDS.index(t["kind"]), [t["hex"]])
        ship_p = 6 + len(TILE_KINDS)
        shields_p = ship_p + 2 * len(SIZES)
        act = view.get("activation") or {}
        moved = set(act.get("moved", []))
        n = len(self.ships)
        cards_tbl = out[PLANES * h * w + SCALARS: PLANES * h * w + SCALARS + 2 * n * CARD_ROW].reshape(2, n, CARD_ROW)
        for c in view["cards"]:
            rel = 0 if c["side"] == me else 1
            row = cards_tbl[rel, self.ship_index[c["key"]]]
            row[0] = 1.0
            row[4] = 1.0 if c["activated"] else 0.0
            row[5] = min(c["hold_count"], 4) / 4.0
            row[6] = 1.0 if c["launched_turn"] == view["turn"] else 0.0
            alive = [p for p in c["ships"] if p["alive"]]
            row[7] = sum(p["shields"] for p in alive) / max(1, c["shields"] * len(c["ships"]))
            row[8] = sum(p["hull"] for p in c["ships"]) / max(1, c["hull"] * len(c["ships"]))
            for p in alive:
                hexes = p["hexes"]
                put(ship_p + 3 * rel + SIZES.index(c["size"]), hexes)
                put(shields_p, hexes, min(1.0, p["shields"] / max(1, c["shields"])))
                put(shields_p + 1, hexes, min(1.0, p["hull"] / max(1, c["hull"])))
                if c["activated"]:
                    put(shields_p + 2, hexes)
                if act.get("card") == c["id"]:
                    put(shields_p + 3, hexes)
                if p["id"] in moved:
                    put(shields_p + 4, hexes)
                if c["hold_count"]:
                    put(shields_p + 5, hexes)
            for hold in c.get("hold", []):
                cards_tbl[rel, self.ship_index[hold["key"]], 2] = 1.0
        for sd in view["sides"]:
            rel = 0 if sd["side"] == me else 1
            for c in sd.get("screen", []):
                cards_tbl[rel, self.ship_index[c["key"]], 1] = 1.0
            for d in sd["destroyed"]:
                cards_tbl[rel, self.ship_index[d["key"]], 3] = 1.0

        sc = out[PLANES * h * w: PLANES * h * w + SCALARS]
        sc[PHASES.index(view["phase"])] = 1.0
        at = len(PHASES)
        sc[at + WINDOWS.index(view["window"])] = 1.0
        at += len(WINDOWS)
        rounds = max(1, view["mission"]["max_rounds"] or 20)
        sc[at] = min(1.0, view["round"] / rounds)
        sc[at + 1] = min(1.0, view["turn"] / (2 * rounds))
        sc[at + 2] = 1.0 if view["active"] == me else 0.0
        sc[at + 3] = 1.0 if view["first"] == me else 0.0
        at += 4
        committed = (view.get("sealed") or {}).get("committed", {})
        for sd in view["sides"]:
            rel = 0 if sd["side"] == me else 1
            row = sc[at + SIDE_ROW * rel: at + SIDE_ROW * (rel + 1)]
            row[0] = sd["energy"] / 40.0
            row[1] = min(sd["hand_count"], 10) / 10.0
            row[2] = min(sd["prepped_count"], 5) / 5.0
            row[3] = min(sd["deck_count"], 30) / 30.0
            row[4] = min(len(sd["discard"]), 30) / 30.0
            row[5] = len(sd["destroyed"]) / max(1, n)
            try:
                row[6] = min(1.0, max(0.0, float(sd["score"]) / 100.0))
            except ValueError:
                row[6] = 0.0
            row[7] = 1.0 if sd["conceded"] else 0.0
            states = [committed.get(str(s)) for s in sd["seats"] if str(s) in committed]
            row[8] = 1.0 if any(x is False for x in states) else 0.0
            row[9] = 1.0 if states and all(states) else 0.0
        at += 2 * SIDE_ROW
        roll = view.get("roll")
        if roll:
            sc[at: at + 5] = (1.0, ("ABCDEFGHIJ".index(roll["letter"]) + 1) / 10.0, roll["number"] / 8.0,
                              1.0 if roll["hit"] else 0.0, 1.0 if roll["cancelled"] else 0.0)
        at += 5
        win = view.get("open_window")
        if win:
            sc[at] = 1.0
            sc[at + 1] = 1.0 if win["side"] == me else 0.0
            kinds = ("after_attack_roll", "enemy_activation", "enemy_hit")
            if win["kind"] in kinds:
                sc[at + 2 + kinds.index(win["kind"])] = 1.0
        at += 5
        if act:
            sc[at] = 1.0
            sc[at + 1] = 1.0 if view["active"] == me else 0.0
            if act.get("step") in STEPS:
                sc[at + 2 + STEPS.index(act["step"])] = 1.0
        at += 5
        ec = view.get("energy_choice")
        if ec:
            sc[at] = 1.0 if ec["market"] else 0.0
            sc[at + 1] = 1.0 if ec["regen"] else 0.0

        hand = out[PLANES * h * w + SCALARS + 2 * n * CARD_ROW: self.game_size].reshape(len(self.tactics), 3)
        own = next(sd for sd in view["sides"] if sd["side"] == me)
        for t in own.get("hand", []):
            hand[self.tactic_index[t["key"]], 0] += 1.0 / 3.0
        for t in own.get("prepped", []):
            hand[self.tactic_index[t["key"]], 1] += 1.0 / 3.0
        keys = {t["id"]: t["key"] for t in own.get("hand", []) + own.get("prepped", [])}
        for tid in view.get("playable_now", []):
            if tid in keys:
                hand[self.tactic_index[keys[tid]], 2] = 1.0
