"""Typed notation for Battleship Galaxies actions (terminal play, logs, scenario files).

Hexes are axial ``q,r`` (``-2,7``); a medium ship's two hexes are joined by ``+``; a large ship is
named by its centre. Directions are ``E NE NW W SW SE`` (BG-2.2 order 0–5).

=====================================  ===============================================
``fleet everest:veteran f47 f51@2``     submit_fleet (version after ``:``, commander after ``@``)
``deck 2`` / ``deck KEY KEY ...``       submit_deck (a preset of the mission, or 30 names)
``first A``                             choose_first
``discard a03 a07``                     discard_for_energy
``market yes`` / ``market no``          market_draw
``regen barrage`` / ``regen none``      regen_shield
``launch everest 9,2 cargo barrage``    launch (one placement per ship: ``f47 5,0 6,0 5,1``)
``unload everest f51 12,7 12,6 11,8``   launch_from_hold
``activate barrage``                    activate
``move f47#1 E E SE``                   move (medium: ``move barrage lead 6,5 E SE``)
``move f47#1 to 7,6``                   move along the least-ECM path to that footprint
``warp barrage 3,4+4,4``                warp
``charge everest torpedo-rack``         charge
``attack f47#1 vapor`` (primary) or ``attack f47#1 strike-missiles vapor``
``play a07 ship=vapor hexes=3,4``       play_tactic (``respond`` for reactions)
``pass`` ``end`` (the phase's end action) ``end turn`` ``resign``
=====================================  ===============================================

Any action may also be typed as JSON.
"""

from __future__ import annotations

import json
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import Action, parse_json_action
from spacetable.core.i18n import phrase
from spacetable.core.moves import DRAW_TYPES

from .board import DIR_NAMES, Hex, rosette
from .movement import reachable
from .state import GState
from .stats import weapons

END_TYPES = ("end_energy", "end_deploy", "end_movement", "end_activation", "end_turn")
END_WORDS = {"energy": "end_energy", "deploy": "end_deploy", "move": "end_movement", "movement": "end_movement",
             "act": "end_activation", "activation": "end_activation", "turn": "end_turn"}


def hex_text(h: Any) -> str:
    return f"{h[0]},{h[1]}"


def fp_text(hexes: list[Any]) -> str:
    if len(hexes) == 7:
        return hex_text(hexes[0])
    return "+".join(hex_text(h) for h in hexes)


def path_text(path: list[int]) -> str:
    return " ".join(DIR_NAMES[d] for d in path)


def write(s: GState, seat: int, a: Action) -> str:
    """The action in notation (what :func:`parse` reads back)."""
    t = a.get("type")
    if t == "submit_fleet":
        return "fleet " + " ".join(
            e["ship"] + (f":{e['version']}" if e.get("version", "standard") != "standard" else "")
            + (f"@{e['seat']}" if e.get("seat") is not None else "") for e in a["fleet"])
    if t == "submit_deck":
        return "deck " + " ".join(a["cards"])
    if t == "choose_first":
        return f"first {a['side']}"
    if t == "discard_for_energy":
        return "discard " + " ".join(a["cards"])
    if t == "market_draw":
        return "market " + ("yes" if a["take"] else "no")
    if t == "regen_shield":
        return f"regen {a.get('ship') or 'none'}"
    if t == "launch":
        text = f"launch {a['card']} " + " ".join(fp_text(v) for _, v in sorted(a["placement"].items()))
        return text + (" cargo " + " ".join(a["cargo"]) if a.get("cargo") else "")
    if t == "launch_from_hold":
        return f"unload {a['transporter']} {a['card']} " + " ".join(fp_text(v) for _, v in sorted(a["placement"].items()))
    if t == "activate":
        return f"activate {a['card']}"
    if t == "move":
        lead = f" lead {hex_text(a['lead'])}" if a.get("lead") else ""
        return f"move {a['ship']}{lead} {path_text(a['path'])}"
    if t == "warp":
        return f"warp {a['ship']} {fp_text(a['hexes'])}"
    if t == "charge":
        return f"charge {a['ship']} {a['weapon']}"
    if t == "attack":
        return f"attack {a['ship']} {a['weapon']} {a['target']}"
    if t in ("play_tactic", "respond"):
        word = "play" if t == "play_tactic" else "respond"
        parts = [f"{k}={v}" for k, v in sorted((a.get("targets") or {}).items())]
        hexes = (a.get("choices") or {}).get("hexes")
        if hexes:
            parts.append("hexes=" + fp_text(hexes))
        return " ".join([word, a["card"], *parts])
    if t in END_TYPES:
        return "end " + {"end_energy": "energy", "end_deploy": "deploy", "end_movement": "move",
                         "end_activation": "act", "end_turn": "turn"}[t]
    if t in ("pass", "resign"):
        return str(t)
    if t in DRAW_TYPES:
        return str(t).replace("_", " ")
    return json.dumps(a, sort_keys=True)


def _hex(text: str) -> Hex:
    try:
        q, r = text.split(",")
        return (int(q), int(r))
    except ValueError:
        raise RuleError("CORE-ACTION", f"a hex is written q,r (not {text!r})") from None


def _fp(s: GState, piece: str, text: str) -> list[list[int]]:
    hexes = [_hex(x) for x in text.split("+")]
    if len(hexes) == 1 and s.pieces.get(piece) is not None and s.shipdata(s.pieces[piece].card).size == "large":
        hexes = rosette(hexes[0])
    return [list(h) for h in hexes]


def _placement(s: GState, card: str, words: list[str]) -> dict[str, list[list[int]]]:
    c = s.cards.get(card)
    if c is None:
        raise RuleError("CORE-ACTION", f"unknown ship card {card!r}")
    if len(words) != len(c.pieces):
        raise RuleError("CORE-ACTION", f"{card} has {len(c.pieces)} ship(s): give one placement each")
    return {pid: _fp(s, pid, w) for pid, w in zip(c.pieces, words, strict=True)}


def parse(s: GState, seat: int, text: str) -> Action:
    """Read a typed action (notation or JSON)."""
    text = text.strip()
    if text.startswith("{"):
        return parse_json_action(text)
    words = text.split()
    if not words:
        raise RuleError("CORE-ACTION", "empty action")
    head, rest = words[0].lower(), words[1:]
    if head == "fleet":
        fleet = []
        for w in rest:
            seat_part = None
            if "@" in w:
                w, seat_text = w.split("@", 1)
                seat_part = int(seat_text)
            ship, _, version = w.partition(":")
            entry: dict[str, Any] = {"ship": ship, "version": version or "standard"}
            if seat_part is not None:
                entry["seat"] = seat_part
            fleet.append(entry)
        return {"type": "submit_fleet", "fleet": fleet}
    if head == "deck":
        if len(rest) == 1 and rest[0].isdigit():
            presets = s.missiondata.decks[("A", "B")[s.side_of(seat)]].presets or []
            k = int(rest[0]) - 1
            if not 0 <= k < len(presets):
                raise RuleError("CORE-ACTION", f"the mission offers {len(presets)} preset deck(s)")
            return {"type": "submit_deck", "cards": list(presets[k])}
        return {"type": "submit_deck", "cards": rest}
    if head == "first":
        return {"type": "choose_first", "side": rest[0].upper() if rest else "A"}
    if head == "discard":
        return {"type": "discard_for_energy", "cards": rest}
    if head == "market":
        return {"type": "market_draw", "take": bool(rest) and rest[0].lower() in ("yes", "y", "take", "true")}
    if head == "regen":
        return {"type": "regen_shield", "ship": None if not rest or rest[0] == "none" else rest[0]}
    if head == "launch":
        card = rest[0]
        cargo: list[str] = []
        if "cargo" in rest:
            k = rest.index("cargo")
            cargo, rest = rest[k + 1:], rest[:k]
        return {"type": "launch", "card": card, "placement": _placement(s, card, rest[1:]), "cargo": cargo}
    if head == "unload":
        return {"type": "launch_from_hold", "transporter": rest[0], "card": rest[1],
                "placement": _placement(s, rest[1], rest[2:])}
    if head in ("activate", "act"):
        return {"type": "activate", "card": rest[0]}
    if head == "move":
        ship = rest[0]
        if len(rest) == 3 and rest[1] == "to":
            return move_to(s, ship, [tuple(h) for h in _fp(s, ship, rest[2])])
        lead = None
        dirs = rest[1:]
        if dirs and dirs[0] == "lead":
            lead = list(_hex(dirs[1]))
            dirs = dirs[2:]
        names = [d.upper() for part in dirs for d in part.split(",") if d]
        try:
            path = [DIR_NAMES.index(d) for d in names]
        except ValueError:
            raise RuleError("CORE-ACTION", f"directions are {' '.join(DIR_NAMES)}") from None
        return {"type": "move", "ship": ship, "lead": lead, "path": path}
    if head == "warp":
        return {"type": "warp", "ship": rest[0], "hexes": _fp(s, rest[0], rest[1])}
    if head == "charge":
        return {"type": "charge", "ship": rest[0], "weapon": rest[1] if len(rest) > 1 else _primary(s, rest[0])}
    if head in ("attack", "fire"):
        if len(rest) == 2:
            return {"type": "attack", "ship": rest[0], "weapon": _primary(s, rest[0]), "target": rest[1]}
        return {"type": "attack", "ship": rest[0], "weapon": rest[1], "target": rest[2]}
    if head in ("play", "respond"):
        targets: dict[str, str] = {}
        choices: dict[str, Any] = {}
        for w in rest[1:]:
            k, _, v = w.partition("=")
            if k == "hexes":
                choices["hexes"] = [list(_hex(x)) for x in v.split("+")]
            else:
                targets[k] = v
        return {"type": "play_tactic" if head == "play" else "respond", "card": rest[0], "targets": targets, "choices": choices}
    if head == "end":
        if rest:
            kind = END_WORDS.get(rest[0].lower())
            if kind is None:
                raise RuleError("CORE-ACTION", f"end what? {', '.join(END_WORDS)}")
            return {"type": kind}
        return {"type": _current_end(s)}
    if head in ("pass", "resign"):
        return {"type": head}
    if head == "concede":
        return {"type": "resign"}
    if head in ("offer", "accept", "decline") and [w.lower() for w in rest] in ([], ["draw"]):
        return {"type": f"{head}_draw"}
    raise RuleError("CORE-ACTION", f"cannot read {text!r} (see the notation in docs/rules/galaxies.md)")


def _primary(s: GState, piece: str) -> str:
    p = s.pieces.get(piece)
    if p is None:
        raise RuleError("CORE-ACTION", f"unknown ship {piece!r}")
    return next(w.id for w in weapons(s, p.card) if w.slot == "primary")


def _current_end(s: GState) -> str:
    if s.phase == "energy":
        return "end_energy"
    if s.phase == "deploy":
        return "end_deploy"
    if s.activation is not None:
        return "end_movement" if s.activation.step != "attack" else "end_activation"
    return "end_turn"


def move_to(s: GState, piece: str, hexes: list[Hex]) -> Action:
    """``move_to(dest)``: the canonical (least-ECM) path to a reachable footprint."""
    if piece not in s.pieces:
        raise RuleError("CORE-ACTION", f"unknown ship {piece!r}")
    want = {tuple(h) for h in hexes}
    for r in reachable(s, piece):
        if set(r.hexes) == want:
            return r.action(piece)
    raise RuleError("BG-10.1", f"{piece} cannot reach {fp_text([list(h) for h in hexes])} this move")


# --------------------------------------------------------------------- translation
def ship_name(s: GState, ref: str) -> str:
    if ref in s.pieces:
        card = s.cards[s.pieces[ref].card]
        name = s.pack.ships[card.key].name
        return f"{name} #{ref.split('#')[1]}" if "#" in ref else name
    if ref in s.cards:
        return s.pack.ships[s.cards[ref].key].name
    return ref


def phrase_args(s: GState, seat: int, a: Action) -> dict[str, Any]:
    """Named arguments of an action's sentence (``galaxies.move.<type>`` in ``i18n/``)."""
    t = a.get("type")
    if t == "submit_fleet":
        return {"count": len(a["fleet"])}
    if t == "submit_deck":
        return {"count": len(a["cards"])}
    if t == "choose_first":
        return {"side": a["side"]}
    if t == "discard_for_energy":
        return {"count": len(a["cards"]),
                "cards": [phrase(f"galaxies.tactic.{s.tactics[c].key}.name") for c in a["cards"] if c in s.tactics]}
    if t == "market_draw":
        return {"choice": phrase("galaxies.word.yes" if a["take"] else "galaxies.word.no")}
    if t == "regen_shield":
        return {"ship": ship_name(s, a["ship"]) if a.get("ship") else phrase("galaxies.word.none")}
    if t in ("launch", "launch_from_hold", "activate"):
        card = a["card"]
        out: dict[str, Any] = {"card": ship_name(s, card)}
        if card in s.cards:
            out["version"] = phrase(f"galaxies.version.{s.cards[card].version}")
        if t == "launch":
            out["cargo"] = len(a.get("cargo") or [])
        if t == "launch_from_hold":
            out["transporter"] = ship_name(s, a["transporter"])
        return out
    if t == "move":
        return {"ship": ship_name(s, a["ship"]), "steps": len(a["path"]), "path": path_text(a["path"])}
    if t == "warp":
        return {"ship": ship_name(s, a["ship"]), "to": fp_text(a["hexes"])}
    if t in ("charge", "attack"):
        out = {"ship": ship_name(s, a["ship"]), "weapon": a["weapon"]}
        if t == "attack":
            out["target"] = ship_name(s, a["target"])
        return out
    if t in ("play_tactic", "respond"):
        key = s.tactics[a["card"]].key if a["card"] in s.tactics else a["card"]
        return {"card": phrase(f"galaxies.tactic.{key}.name")}
    return {}
