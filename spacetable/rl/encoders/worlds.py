"""Worlds & Suns combat skirmish encoding (WS-*).

Cards are numbered in scenario order (each system's Sun, then its Worlds), at most
``MAX_CARDS``; battles in resolution order (WS-10.6), at most ``MAX_BATTLES``. Piece counts are
divided by 8, energy by 20, and capped at 1.

Tokens (``n_actions`` = 223):

* ``end_turn``; ``declare[card]`` (WS-2.3);
* ``alloc[piece * 8 + battle]``: an allocation (WS-4.2) is the series over the allocator's own
  participants – Populations then Factories, each in id order – of the battle each joins;
* ``event[e]``: e = 0 none, 1 MG, 2 CET, 3 RI (WS-5.1, sealed);
* ``energy[n]``: commit n energy, n ≤ 40 (WS-5.3, sealed; larger amounts are not offered);
* ``tie[k]``: lose a Population (0) or a Factory (1) after a tie (WS-5.6);
* ``retreat[n]``: the first n surviving Populations retreat (WS-6.3);
* ``convert[k]``: 0 declines, 1 + k converts the loser's k-th Factory in id order (WS-6.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spacetable.games.worlds.pieces import piece_sort_key

from .base import Action, Block, Encoder, Segment, View

MAX_CARDS = 12
MAX_BATTLES = 8
MAX_ALLOC = 16
MAX_ENERGY = 40
EVENTS = (None, "MG", "CET", "RI")
STEPS = ("allocate", "event", "energy", "tie", "retreat", "convert")
CARD_FEATURES = 11
BATTLE_FEATURES = 14


def kind_of(piece_id: str) -> str:
    """``P`` or ``F`` from a generated piece id ``<side>.<card>.<P|F><n>``."""
    return piece_id.rpartition(".")[2][:1]


def own_order(ids: Sequence[str]) -> list[str]:
    """The allocator's pieces as the allocation series lists them: Populations, then Factories, by id."""
    return sorted(ids, key=lambda p: (kind_of(p) != "P", piece_sort_key(p)))


def cards_of(view: View) -> list[dict[str, Any]]:
    out = []
    for sy in view["systems"]:
        start = sy["starting_system_of"]
        out.append({**sy["sun"], "world": False, "start": start})
        out.extend({**w, "world": True, "start": start} for w in sy["worlds"])
    return out


class WorldsEncoder(Encoder):
    game_id = "worlds"
    max_depth = MAX_ALLOC
    has_turns = True

    def turn_of(self, state: Any) -> int:
        return int(state.round)

    def action_segments(self) -> list[Segment]:
        return [
            Segment("end_turn", 1, "end the turn (WS-8.2)"),
            Segment("declare", MAX_CARDS, "declare a combat on card i (scenario order)"),
            Segment("alloc", MAX_ALLOC * MAX_BATTLES, "own piece i (P then F, id order) joins battle b: i * 8 + b"),
            Segment("event", len(EVENTS), "sealed event: none, MG, CET, RI"),
            Segment("energy", MAX_ENERGY + 1, "sealed energy commit n"),
            Segment("tie", 2, "tie loss: a Population, a Factory"),
            Segment("retreat", MAX_ALLOC + 1, "retreat the first n Populations"),
            Segment("convert", MAX_ALLOC + 1, "0: no conversion; 1 + k: the loser's k-th Factory"),
        ]

    def game_blocks(self) -> list[Block]:
        return [
            Block("cards", (MAX_CARDS, CARD_FEATURES),
                  "exists, World, in my starting system, in the opponent's, my P, my F, opponent P, opponent F, "
                  "fought this turn, eligible for the active side, the open combat's card"),
            Block("economy", (10,),
                  "my energy, opponent energy, my income, opponent income, round/max, max rounds/20, I am active, "
                  "my material/40, opponent material/40, I must act"),
            Block("events", (10,), "my hand per card (MG, CET, RI)/4, opponent hand size/10, my discards per card/4, "
                                   "opponent discards per card/4"),
            Block("combat", (23,),
                  "open, I attack, I allocate, step one-hot (allocate, event, energy, tie, retreat, convert), "
                  "current battle one-hot (8), my losses/8, opponent losses/8, I won, opponent won, "
                  "I have sealed, the opponent has sealed"),
            Block("battles", (MAX_BATTLES, BATTLE_FEATURES),
                  "exists, anchor is a Population, my P, my F, opponent P, opponent F, done, I won, opponent won, tie, "
                  "my event shown, opponent event shown, my energy, opponent energy"),
        ]

    # ----------------------------------------------------------------- tokens
    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        return [a for a in super().legal_actions(state, seat)
                if not (a["type"] == "commit_energy" and a["amount"] > MAX_ENERGY)]

    def sequences(self, view: View, seat: int, actions: Sequence[Action]) -> list[tuple[int, ...]]:
        o = self.offsets
        card_index = {c["id"]: i for i, c in enumerate(cards_of(view))}
        combat = view["combat"]
        out: list[tuple[int, ...]] = []
        for a in actions:
            t = a["type"]
            if t == "end_turn":
                out.append((o["end_turn"],))
            elif t == "declare_combat":
                out.append((self.token("declare", card_index[a["card"]]),))
            elif t == "allocate":
                mine = own_order(combat["participants"][combat["allocator"]])
                where = {pid: b for b, battle in enumerate(a["battles"]) for pid in battle["pieces"]}
                out.append(tuple(self.token("alloc", i * MAX_BATTLES + where[pid]) for i, pid in enumerate(mine)))
            elif t == "play_event":
                out.append((self.token("event", EVENTS.index(a["card"])),))
            elif t == "commit_energy":
                out.append((self.token("energy", a["amount"]),))
            elif t == "choose_tie_loss":
                out.append((self.token("tie", 0 if kind_of(a["piece"]) == "P" else 1),))
            elif t == "retreat":
                out.append((self.token("retreat", len(a["pieces"])),))
            elif t == "convert":
                if a["factory"] is None:
                    out.append((o["convert"],))
                else:
                    loser = 1 - combat["winner"]
                    facs = sorted((p["id"] for c in cards_of(view) if c["id"] == combat["card"] for p in c["pieces"]
                                   if p["owner"] == loser and p["kind"] == "F"), key=piece_sort_key)
                    out.append((self.token("convert", 1 + facs.index(a["factory"])),))
            else:
                raise ValueError(f"worlds encoder: unknown action type {t!r}")
        return out

    # ------------------------------------------------------------ observation
    def observe_view(self, view: View, seat: int, out: np.ndarray) -> None:
        me, opp = seat, 1 - seat
        cards = cards_of(view)
        if len(cards) > MAX_CARDS:
            raise ValueError(f"worlds encoder: at most {MAX_CARDS} cards")
        combat = view["combat"]
        sides = view["sides"]
        fought, eligible = set(view["fought"]), set(view["eligible"])
        at = 0
        for i, c in enumerate(cards):
            row = out[at + i * CARD_FEATURES: at + (i + 1) * CARD_FEATURES]
            row[0] = 1.0
            row[1] = 1.0 if c["world"] else 0.0
            row[2] = 1.0 if c["start"] == sides[me] else 0.0
            row[3] = 1.0 if c["start"] == sides[opp] else 0.0
            for p in c["pieces"]:
                k = (4 if p["owner"] == me else 6) + (0 if p["kind"] == "P" else 1)
                row[k] += 1.0 / 8.0
            row[8] = 1.0 if c["id"] in fought else 0.0
            row[9] = 1.0 if c["id"] in eligible else 0.0
            row[10] = 1.0 if combat is not None and combat["card"] == c["id"] else 0.0
        at += MAX_CARDS * CARD_FEATURES
        energy, income, material = view["energy"], view["income"], view["material"]
        eco = out[at: at + 10]
        eco[0], eco[1] = energy[me] / 20.0, energy[opp] / 20.0
        eco[2], eco[3] = income[me] / 5.0, income[opp] / 5.0
        eco[4] = view["round"] / max(1, view["max_rounds"])
        eco[5] = view["max_rounds"] / 20.0
        eco[6] = 1.0 if view["active"] == me else 0.0
        eco[7], eco[8] = material[me] / 40.0, material[opp] / 40.0
        eco[9] = 1.0 if me in view["to_act"] else 0.0
        at += 10
        ev = out[at: at + 10]
        for code in view["hand"] or []:
            ev[EVENTS.index(code) - 1] += 0.25
        ev[3] = view["hand_sizes"][opp] / 10.0
        for code in view["discards"][me]:
            ev[4 + EVENTS.index(code) - 1] += 0.25
        for code in view["discards"][opp]:
            ev[7 + EVENTS.index(code) - 1] += 0.25
        at += 10
        cb = out[at: at + 23]
        bt = out[at + 23: at + 23 + MAX_BATTLES * BATTLE_FEATURES]
        if combat is not None:
            cb[0] = 1.0
            cb[1] = 1.0 if combat["attacker"] == me else 0.0
            cb[2] = 1.0 if combat["allocator"] == me else 0.0
            cb[3 + STEPS.index(combat["step"])] = 1.0
            if combat["battles"] and combat["current"] < MAX_BATTLES:
                cb[9 + combat["current"]] = 1.0
            cb[17], cb[18] = combat["losses"][me] / 8.0, combat["losses"][opp] / 8.0
            if combat["winner"] is not None:
                cb[19 if combat["winner"] == me else 20] = 1.0
            committed = combat["sealed"]["committed"]
            cb[21] = 1.0 if committed.get(str(me)) else 0.0
            cb[22] = 1.0 if committed.get(str(opp)) else 0.0
            alloc = combat["allocator"]
            for b, battle in enumerate(combat["battles"][:MAX_BATTLES]):
                row = bt[b * BATTLE_FEATURES: (b + 1) * BATTLE_FEATURES]
                row[0] = 1.0
                row[1] = 1.0 if kind_of(battle["anchor"]) == "P" else 0.0
                for seat_of, ids in ((alloc, battle["pieces"]), (1 - alloc, [battle["anchor"]])):
                    base = 2 if seat_of == me else 4
                    for pid in ids:
                        row[base + (0 if kind_of(pid) == "P" else 1)] += 1.0 / 8.0
                row[6] = 1.0 if battle["done"] else 0.0
                res = battle["result"]
                if res == "tie":
                    row[9] = 1.0
                elif res != "":
                    row[7 if int(res) == me else 8] = 1.0
                row[10] = 1.0 if battle["events"][me] else 0.0
                row[11] = 1.0 if battle["events"][opp] else 0.0
                shown = battle["energy"]
                row[12] = (shown[me] or 0) / 20.0
                row[13] = (shown[opp] or 0) / 20.0
