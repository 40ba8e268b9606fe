"""Compact text notation for actions (terminal play and logs).

``move 12 5,3`` · ``move 7 5,3/6,3`` (barge pair) · ``load C I`` · ``unload C I x,y`` ·
``unload C I #D`` (into carrier D) · ``transfer F I T`` · ``enter U S`` · ``exit U S x,y`` ·
``build W tank x,y`` · ``fire A B x,y`` · ``assault M x,y P:x,y [P:x,y]`` · ``capture A B T [colour]`` ·
``capture_ship D S`` · ``repair S x,y`` · ``retreat U x,y`` · ``take_off S`` · ``land x,y north`` ·
``deploy []`` (JSON list) · ``depart S=leave ...`` · ``end`` · ``resign``. JSON objects are accepted too.
"""

from __future__ import annotations

import json
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import parse_json_action

from .units import FMState


def _cell(tok: str) -> Any:
    if "/" in tok:
        a, b = tok.split("/", 1)
        return [_cell(a), _cell(b)]
    x, y = tok.split(",")
    return [int(x), int(y)]


def _fmt_pos(p: Any) -> str:
    if isinstance(p, list) and p and isinstance(p[0], list):
        return "/".join(_fmt_pos(q) for q in p)
    if isinstance(p, list):
        return f"{p[0]},{p[1]}"
    return f"#{p}"


def format_action(a: dict[str, Any]) -> str:
    t = a.get("type")
    try:
        if t == "move":
            return f"move {a['unit']} " + " ".join(_fmt_pos(p) for p in a["path"])
        if t == "retreat":
            return f"retreat {a['unit']} {_fmt_pos(a['to'])}"
        if t == "load":
            return f"load {a['carrier']} {a['item']}"
        if t == "unload":
            return f"unload {a['carrier']} {a['item']} {_fmt_pos(a['to'])}"
        if t == "transfer":
            return f"transfer {a['from']} {a['item']} {a['to']}"
        if t == "enter":
            return f"enter {a['unit']} {a['ship']}"
        if t == "exit":
            return f"exit {a['unit']} {a['ship']} {_fmt_pos(a['to'])}"
        if t == "build":
            return f"build {a['wl']} {a['kind']} {_fmt_pos(a['to'])}"
        if t == "fire":
            return f"fire {a['a']} {a['b']} {_fmt_pos(a['target'])}"
        if t == "assault":
            shots = " ".join(f"{s['partner']}:{_fmt_pos(s['target'])}" for s in a["shots"])
            return f"assault {a['mover']} " + " ".join(_fmt_pos(p) for p in a["path"]) + " " + shots
        if t == "capture":
            return f"capture {a['a']} {a['b']} {a['target']}" + (f" {a['colour']}" if "colour" in a else "")
        if t == "capture_ship":
            return f"capture_ship {a['destroyer']} {a['ship']}"
        if t == "repair":
            return f"repair {a['ship']} {_fmt_pos(a['pod'])}"
        if t == "take_off":
            return f"take_off {a['ship']}"
        if t == "land":
            return f"land {_fmt_pos(a['dome'])} {a.get('orientation', 'north')}"
        if t == "deploy":
            return "deploy " + json.dumps(a.get("units", []), separators=(",", ":")) if "units" in a else "deploy (sealed)"
        if t == "decide_departure":
            if "choices" not in a:
                return "depart (sealed)"
            return "depart " + " ".join(f"{k}={v}" for k, v in sorted(a["choices"].items()))
        if t == "end_turn":
            return "end"
        if t == "resign":
            return "resign"
    except (KeyError, TypeError, IndexError):
        pass
    return json.dumps(a, sort_keys=True, separators=(",", ":"))


def parse_action(state: FMState, player: int, text: str) -> dict[str, Any]:
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
            to: Any = int(args[2][1:]) if args[2].startswith("#") else _cell(args[2])
            return {"type": "unload", "carrier": int(args[0]), "item": int(args[1]), "to": to}
        if t == "transfer":
            return {"type": "transfer", "from": int(args[0]), "item": int(args[1]), "to": int(args[2])}
        if t == "enter":
            return {"type": "enter", "unit": int(args[0]), "ship": int(args[1])}
        if t == "exit":
            return {"type": "exit", "unit": int(args[0]), "ship": int(args[1]), "to": _cell(args[2])}
        if t == "build":
            return {"type": "build", "wl": int(args[0]), "kind": args[1], "to": _cell(args[2])}
        if t == "fire":
            return {"type": "fire", "a": int(args[0]), "b": int(args[1]), "target": _cell(args[2])}
        if t == "assault":
            path = [_cell(p) for p in args[1:] if ":" not in p]
            shots = [{"partner": int(p.split(":")[0]), "target": _cell(p.split(":")[1])} for p in args[1:] if ":" in p]
            return {"type": "assault", "mover": int(args[0]), "path": path, "shots": shots}
        if t == "capture":
            out: dict[str, Any] = {"type": "capture", "a": int(args[0]), "b": int(args[1]), "target": int(args[2])}
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
            return {"type": "deploy", "units": json.loads(" ".join(args) or "[]")}
        if t == "depart":
            return {"type": "decide_departure", "choices": dict(a.split("=") for a in args)}
    except (IndexError, ValueError, json.JSONDecodeError) as exc:
        raise RuleError("CORE-ACTION", f"cannot read {text!r}: {exc}") from exc
    raise RuleError("CORE-ACTION", f"unknown action {t!r}")
