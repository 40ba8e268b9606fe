"""Compact text notation of actions (terminal play and logs) and the arguments of their translated sentences.

``move 12 5,3`` · ``move 7 5,3/6,3`` (barge pair) · ``load C I`` · ``unload C I x,y`` ·
``unload C I #D`` (into carrier D) · ``transfer F I T`` · ``enter U S`` · ``exit U S x,y`` (or ``#D``) ·
``build W tank x,y`` · ``fire A B x,y`` · ``assault M x,y P:x,y [P:x,y]`` · ``capture A B T [colour]`` ·
``capture_ship D S`` · ``repair S x,y`` · ``retreat U x,y`` · ``take_off S`` · ``land x,y north`` ·
``deploy 31@5,6/5,7[36] 33@4,4`` (unit@cell[cargo]; a JSON list is read too) ·
``depart S=leave ...`` · ``end`` · ``resign``. JSON objects are accepted too.

Each ``*_text`` function is the ``notation`` of one declared move and each ``*_args`` function the
arguments of its sentence (``fullmetal.move.<type>`` in ``i18n/<lang>.json``); units are named by a
translated kind and their id, cells as ``x,y``. A sealed action (what other seats see of a deployment
or a turn-21 decision) has its own sentence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import parse_json_action
from spacetable.core.i18n import phrase

from .state import FMState

Action = dict[str, Any]
Text = Callable[[FMState, int, Action], str]
Args = Callable[[FMState, int, Action], Mapping[str, Any]]


def _cell(tok: str) -> Any:
    if "/" in tok:
        a, b = tok.split("/", 1)
        return [_cell(a), _cell(b)]
    x, y = tok.split(",")
    return [int(x), int(y)]


def pos(p: Any) -> str:
    """A cell ``x,y``, a barge pair ``x,y/x,y`` or a carrier ``#id``."""
    if isinstance(p, list) and p and isinstance(p[0], list):
        return "/".join(pos(q) for q in p)
    if isinstance(p, list):
        return f"{p[0]},{p[1]}"
    return f"#{p}"


# ------------------------------------------------------------------------------ text
def land_text(s: FMState, p: int, a: Action) -> str:
    return f"land {pos(a['dome'])} {a.get('orientation', 'north')}"


def _deploy_entry(e: Any) -> str:
    """One deployment entry: ``unit@cell`` (a barge ``unit@x,y/x,y``), its cargo in brackets: ``31@5,6/5,7[36,32[37]]``."""
    if not isinstance(e, dict):
        return str(e)
    out = str(e["unit"]) + ("@" + pos(e["at"]) if "at" in e else "")
    cargo = e.get("cargo") or []
    return out + ("[" + ",".join(_deploy_entry(c) for c in cargo) + "]" if cargo else "")


def deploy_text(s: FMState, p: int, a: Action) -> str:
    if "units" not in a:
        return "deploy (sealed)"
    return " ".join(["deploy", *(_deploy_entry(e) for e in a["units"])])


def departure_text(s: FMState, p: int, a: Action) -> str:
    if "choices" not in a:
        return "depart (sealed)"
    return "depart " + " ".join(f"{k}={v}" for k, v in sorted(a["choices"].items()))


def move_text(s: FMState, p: int, a: Action) -> str:
    return f"move {a['unit']} " + " ".join(pos(c) for c in a["path"])


def retreat_text(s: FMState, p: int, a: Action) -> str:
    return f"retreat {a['unit']} {pos(a['to'])}"


def load_text(s: FMState, p: int, a: Action) -> str:
    return f"load {a['carrier']} {a['item']}"


def unload_text(s: FMState, p: int, a: Action) -> str:
    return f"unload {a['carrier']} {a['item']} {pos(a['to'])}"


def transfer_text(s: FMState, p: int, a: Action) -> str:
    return f"transfer {a['from']} {a['item']} {a['to']}"


def enter_text(s: FMState, p: int, a: Action) -> str:
    return f"enter {a['unit']} {a['ship']}"


def exit_text(s: FMState, p: int, a: Action) -> str:
    return f"exit {a['unit']} {a['ship']} {pos(a['to'])}"


def build_text(s: FMState, p: int, a: Action) -> str:
    return f"build {a['wl']} {a['kind']} {pos(a['to'])}"


def fire_text(s: FMState, p: int, a: Action) -> str:
    return f"fire {a['a']} {a['b']} {pos(a['target'])}"


def assault_text(s: FMState, p: int, a: Action) -> str:
    shots = " ".join(f"{x['partner']}:{pos(x['target'])}" for x in a["shots"])
    return f"assault {a['mover']} " + " ".join(pos(c) for c in a["path"]) + " " + shots


def capture_text(s: FMState, p: int, a: Action) -> str:
    return f"capture {a['a']} {a['b']} {a['target']}" + (f" {a['colour']}" if a.get("colour") is not None else "")


def capture_ship_text(s: FMState, p: int, a: Action) -> str:
    return f"capture_ship {a['destroyer']} {a['ship']}"


def repair_text(s: FMState, p: int, a: Action) -> str:
    return f"repair {a['ship']} {pos(a['pod'])}"


def take_off_text(s: FMState, p: int, a: Action) -> str:
    return f"take_off {a['ship']}"


def end_turn_text(s: FMState, p: int, a: Action) -> str:
    return "end"


# ------------------------------------------------------------------------- sentence arguments
def unit(s: FMState | None, uid: Any) -> Any:
    """A unit as a phrase argument: its translated kind and its id (the id alone if unknown)."""
    u = s.units.get(uid) if s is not None and isinstance(uid, int) else None
    if u is None:
        return phrase("fullmetal.unit_id", id=uid)
    return phrase("fullmetal.unit", kind=phrase(f"fullmetal.kind.{u.kind}"), id=uid)


def place(s: FMState | None, to: Any) -> Any:
    """Where an unloaded item goes: a cell or pair as text, or a receiving carrier as a unit."""
    return pos(to) if isinstance(to, list) else unit(s, to)


def land_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"dome": pos(a["dome"]), "orientation": phrase(f"fullmetal.orientation.{a.get('orientation', 'north')}")}


def deploy_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    if "units" not in a:
        return {"what": phrase("fullmetal.sealed")}
    return {"what": phrase("fullmetal.units_placed", count=len(a["units"]))}


def departure_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    if "choices" not in a:
        return {"ships": phrase("fullmetal.sealed")}
    leaving = [unit(s, int(k)) for k, v in sorted(a["choices"].items()) if v == "leave"]
    return {"ships": leaving or phrase("fullmetal.no_ship")}


def move_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"unit": unit(s, a["unit"]), "path": " → ".join(pos(c) for c in a["path"])}


def retreat_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"unit": unit(s, a["unit"]), "to": pos(a["to"])}


def load_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"carrier": unit(s, a["carrier"]), "item": unit(s, a["item"])}


def unload_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"carrier": unit(s, a["carrier"]), "item": unit(s, a["item"]), "to": place(s, a["to"])}


def transfer_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"from": unit(s, a["from"]), "item": unit(s, a["item"]), "to": unit(s, a["to"])}


def enter_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"unit": unit(s, a["unit"]), "ship": unit(s, a["ship"])}


def exit_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"unit": unit(s, a["unit"]), "ship": unit(s, a["ship"]), "to": place(s, a["to"])}


def build_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"wl": unit(s, a["wl"]), "kind": phrase(f"fullmetal.kind.{a['kind']}"), "to": pos(a["to"])}


def fire_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"a": unit(s, a["a"]), "b": unit(s, a["b"]), "target": pos(a["target"])}


def assault_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    shots = [phrase("fullmetal.shot", partner=unit(s, x["partner"]), target=pos(x["target"])) for x in a["shots"]]
    return {"mover": unit(s, a["mover"]), "path": " → ".join(pos(c) for c in a["path"]), "shots": shots}


def capture_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    colour = a.get("colour")
    if colour is None:
        u = s.units.get(a["a"]) if s is not None else None
        colour = u.colour if u is not None else 0
    return {"a": unit(s, a["a"]), "b": unit(s, a["b"]), "target": unit(s, a["target"]),
            "colour": phrase(f"fullmetal.colour.{colour % 4}")}


def capture_ship_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"destroyer": unit(s, a["destroyer"]), "ship": unit(s, a["ship"])}


def repair_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"ship": unit(s, a["ship"]), "pod": pos(a["pod"])}


def take_off_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {"ship": unit(s, a["ship"])}


def no_args(s: FMState, p: int, a: Action) -> Mapping[str, Any]:
    return {}


# ------------------------------------------------------------------------------ parsing
def parse_action(state: FMState, player: int, text: str) -> Action:
    """Read an action typed in the notation (or as JSON); unreadable text is a ``CORE-ACTION`` error."""
    text = text.strip()
    if text.startswith("{"):
        return parse_json_action(text)
    parts = text.split()
    if not parts:
        raise RuleError("CORE-ACTION", "empty action")
    t, args = parts[0], parts[1:]
    try:
        if t in ("end", "end_turn"):
            return {"type": "end_turn"}
        if t == "resign":
            return {"type": "resign"}
        if t == "move":
            return {"type": "move", "unit": int(args[0]), "path": [_cell(p) for p in args[1:]]}
        if t == "retreat":
            return {"type": "retreat", "unit": int(args[0]), "to": _cell(args[1])}
        if t == "load":
            return {"type": "load", "carrier": int(args[0]), "item": int(args[1])}
        if t == "unload":
            return {"type": "unload", "carrier": int(args[0]), "item": int(args[1]), "to": _place(args[2])}
        if t == "transfer":
            return {"type": "transfer", "from": int(args[0]), "item": int(args[1]), "to": int(args[2])}
        if t == "enter":
            return {"type": "enter", "unit": int(args[0]), "ship": int(args[1])}
        if t == "exit":
            return {"type": "exit", "unit": int(args[0]), "ship": int(args[1]), "to": _place(args[2])}
        if t == "build":
            return {"type": "build", "wl": int(args[0]), "kind": args[1], "to": _cell(args[2])}
        if t == "fire":
            return {"type": "fire", "a": int(args[0]), "b": int(args[1]), "target": _cell(args[2])}
        if t == "assault":
            path = [_cell(p) for p in args[1:] if ":" not in p]
            shots = [{"partner": int(p.split(":")[0]), "target": _cell(p.split(":")[1])} for p in args[1:] if ":" in p]
            return {"type": "assault", "mover": int(args[0]), "path": path, "shots": shots}
        if t == "capture":
            out: Action = {"type": "capture", "a": int(args[0]), "b": int(args[1]), "target": int(args[2])}
            if len(args) > 3:
                out["colour"] = int(args[3])
            return out
        if t == "capture_ship":
            return {"type": "capture_ship", "destroyer": int(args[0]), "ship": int(args[1])}
        if t == "repair":
            return {"type": "repair", "ship": int(args[0]), "pod": _cell(args[1])}
        if t == "take_off":
            return {"type": "take_off", "ship": int(args[0])}
        if t == "land":
            return {"type": "land", "dome": _cell(args[0]), "orientation": args[1] if len(args) > 1 else "north"}
        if t == "deploy":
            rest = " ".join(args)
            units = json.loads(rest) if rest.startswith("[") else [_deploy_entry_parse(tok) for tok in args]
            return {"type": "deploy", "units": units}
        if t == "depart":
            return {"type": "decide_departure", "choices": dict(a.split("=") for a in args)}
    except (IndexError, ValueError, json.JSONDecodeError) as exc:
        raise RuleError("CORE-ACTION", f"cannot read {text!r}: {exc}") from exc
    raise RuleError("CORE-ACTION", f"unknown action {t!r}")


_DEPLOY_POS = re.compile(r"\d+,\d+(?:/\d+,\d+)?")


def _deploy_entry_parse(tok: str) -> Any:
    """Read ``unit@cell[cargo,...]`` as written by :func:`_deploy_entry` (cargo entries: an id, or an entry)."""
    entry, end = _deploy_read(tok, 0)
    if end != len(tok):
        raise ValueError(f"unexpected {tok[end:]!r} in {tok!r}")
    return entry


def _deploy_read(tok: str, i: int) -> tuple[Any, int]:
    m = re.match(r"\d+", tok[i:])
    if not m:
        raise ValueError(f"a unit id is expected in {tok!r}")
    out: dict[str, Any] = {"unit": int(m.group())}
    j = i + m.end()
    if tok.startswith("@", j):
        p = _DEPLOY_POS.match(tok, j + 1)
        if not p:
            raise ValueError(f"a cell is expected after @ in {tok!r}")
        out["at"] = _cell(p.group())
        j = p.end()
    if tok.startswith("[", j):
        cargo: list[Any] = []
        j += 1
        while not tok.startswith("]", j):
            if j >= len(tok):
                raise ValueError(f"unclosed cargo list in {tok!r}")
            sub, j = _deploy_read(tok, j)
            cargo.append(sub if len(sub) > 1 else sub["unit"])
            if tok.startswith(",", j):
                j += 1
        out["cargo"] = cargo
        j += 1
    return out, j


def _place(tok: str) -> Any:
    return int(tok[1:]) if tok.startswith("#") else _cell(tok)
