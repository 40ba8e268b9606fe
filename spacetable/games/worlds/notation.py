"""How Worlds & Suns actions are written (docs/rules/worlds.md, "Notation") and said.

Each move of the table declares its notation (``<side>: <what>``, the text of logs and the
terminal) and the arguments of its translated sentence (``worlds.move.<type>`` in
``i18n/<lang>.json``) with the functions below. A sealed choice shown to the other seat
(``{"type": ..., "sealed": true}``, IM-2) is written without its content. :func:`parse_action`
reads the typed notation back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import Action, parse_json_action
from spacetable.core.i18n import phrase

from .state import WorldsState

Text = Callable[[WorldsState, int, Action], str]


def _side(state: WorldsState, seat: int) -> str:
    return state.sides[seat] if 0 <= seat < len(state.sides) else str(seat)


def _said(what: Callable[[Action], str]) -> Text:
    """The notation ``<side>: <what>``; a sealed choice shows only its type (IM-2)."""

    def text(state: WorldsState, seat: int, action: Action) -> str:
        if action.get("sealed"):
            return f"{_side(state, seat)}: (sealed {action.get('type')})"
        return f"{_side(state, seat)}: {what(action)}"

    return text


declare_text = _said(lambda a: f"declare combat on {a.get('card')}")
allocate_text = _said(lambda a: "allocate " + " | ".join(f"{'+'.join(b['pieces'])} vs {b['anchor']}"
                                                          for b in a.get("battles", [])))
event_text = _said(lambda a: f"event {a.get('card') or 'none'}")
energy_text = _said(lambda a: f"energy {a.get('amount')}")
tie_text = _said(lambda a: f"tie loss {a.get('piece')}")
retreat_text = _said(lambda a: f"retreat {', '.join(a.get('pieces') or []) or 'nothing'}")
convert_text = _said(lambda a: f"convert {a.get('factory') or 'nothing'}")
end_text = _said(lambda a: "end turn")


# ------------------------------------------------------------------------------ sentences (i18n)
def card_term(code: str) -> dict[str, Any]:
    """An event card's translated name."""
    return phrase(f"worlds.card.{code}")


def short(pid: str) -> str:
    """A piece as a sentence names it: its kind and number on the card of the combat (``P2`` for
    ``red.M.w1.P2``), which is how the board labels it; the side is the sentence's subject."""
    return str(pid).rsplit(".", 1)[-1]


def allocate_args(state: WorldsState, seat: int, action: Action) -> Mapping[str, Any]:
    return {"battles": [phrase("worlds.allocate.battle", pieces="+".join(map(short, b["pieces"])), anchor=short(b["anchor"]))
                        for b in action.get("battles", [])]}


def tie_args(state: WorldsState, seat: int, action: Action) -> Mapping[str, Any]:
    return {"piece": short(action.get("piece", ""))}


def event_args(state: WorldsState, seat: int, action: Action) -> Mapping[str, Any]:
    if action.get("sealed"):
        return {"choice": phrase("worlds.event.sealed")}
    code = action.get("card")
    return {"choice": phrase("worlds.event.none") if code is None else phrase("worlds.event.card", card=card_term(code))}


def energy_args(state: WorldsState, seat: int, action: Action) -> Mapping[str, Any]:
    if action.get("sealed"):
        return {"choice": phrase("worlds.energy.sealed")}
    return {"choice": phrase("worlds.energy.amount", amount=action.get("amount"))}


def retreat_args(state: WorldsState, seat: int, action: Action) -> Mapping[str, Any]:
    pieces = list(action.get("pieces") or [])
    if not pieces:
        return {"choice": phrase("worlds.retreat.none")}
    return {"choice": phrase("worlds.retreat.pieces", pieces=", ".join(map(short, pieces)))}


def convert_args(state: WorldsState, seat: int, action: Action) -> Mapping[str, Any]:
    fid = action.get("factory")
    return {"choice": phrase("worlds.convert.none") if fid is None else phrase("worlds.convert.factory", factory=short(fid))}


# ------------------------------------------------------------------------------ typed at the prompt
def typed(action: Action) -> str:
    """The action as :func:`parse_action` reads it (what the terminal's Tab completes): ``declare X.w1``,
    ``alloc ANCHOR=ID,ID;ANCHOR=ID``, ``event MG``, ``energy 2``, ``tie ID``, ``retreat ID ID``, ``convert ID``,
    ``end``, ``offer draw``...; ``none`` where nothing is chosen."""
    kind = str(action.get("type"))
    if kind == "declare_combat":
        return f"declare {action.get('card')}"
    if kind == "allocate":
        return "alloc " + ";".join(f"{b['anchor']}={','.join(b['pieces'])}" for b in action.get("battles", []))
    if kind == "play_event":
        return f"event {action.get('card') or 'none'}"
    if kind == "commit_energy":
        return f"energy {action.get('amount')}"
    if kind == "choose_tie_loss":
        return f"tie {action.get('piece')}"
    if kind == "retreat":
        return "retreat " + (" ".join(action.get("pieces") or []) or "none")
    if kind == "convert":
        return f"convert {action.get('factory') or 'none'}"
    if kind == "end_turn":
        return "end"
    if kind.endswith("_draw"):
        return f"{kind[:-5]} draw"
    return kind


# ------------------------------------------------------------------------------ reading
def _battles(rest: str) -> list[dict[str, Any]]:
    battles = []
    for chunk in rest.split(";"):
        anchor, _, ids = chunk.partition("=")
        battles.append({"anchor": anchor.strip(), "pieces": [x.strip() for x in ids.split(",") if x.strip()]})
    return battles


def _energy(rest: str) -> dict[str, Any]:
    try:
        return {"type": "commit_energy", "amount": int(rest)}
    except ValueError as exc:
        raise RuleError("CORE-ACTION", "energy needs an integer") from exc


def _draw(kind: str, rest: str) -> Action:
    """``offer draw``, ``accept draw``, ``decline draw`` (the word ``draw`` may be left out; WS-D25)."""
    if rest.lower() not in ("", "draw"):
        raise RuleError("CORE-ACTION", f"write '{kind} draw'")
    return {"type": f"{kind}_draw"}


def parse_action(text: str) -> Action:
    """Notation: ``declare CARD``, ``alloc ANCHOR=ID,ID;ANCHOR=ID``, ``event MG|none``, ``energy N``,
    ``tie PIECE``, ``retreat [ID ...]``, ``convert ID|none``, ``end``, ``resign``, ``offer draw``, ``accept draw``,
    ``decline draw`` (WS-D25); or a JSON object."""
    text = text.strip()
    if text.startswith("{"):
        return parse_json_action(text)
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    word = word.lower()
    none = rest.lower() in ("", "none", "null", "-")
    readers: dict[str, Callable[[], Action]] = {
        "end": lambda: {"type": "end_turn"},
        "end_turn": lambda: {"type": "end_turn"},
        "resign": lambda: {"type": "resign"},
        "offer": lambda: _draw("offer", rest),
        "accept": lambda: _draw("accept", rest),
        "decline": lambda: _draw("decline", rest),
        "declare": lambda: {"type": "declare_combat", "card": rest},
        "attack": lambda: {"type": "declare_combat", "card": rest},
        "alloc": lambda: {"type": "allocate", "battles": _battles(rest)},
        "allocate": lambda: {"type": "allocate", "battles": _battles(rest)},
        "event": lambda: {"type": "play_event", "card": None if none else rest.upper()},
        "energy": lambda: _energy(rest),
        "tie": lambda: {"type": "choose_tie_loss", "piece": rest},
        "retreat": lambda: {"type": "retreat", "pieces": [] if none else rest.replace(",", " ").split()},
        "convert": lambda: {"type": "convert", "factory": None if none else rest},
    }
    if word not in readers:
        raise RuleError("CORE-ACTION", f"cannot read {text!r}")
    return readers[word]()
