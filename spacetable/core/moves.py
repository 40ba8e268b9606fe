"""Declared moves: every action type of a game is declared once, in a :class:`MoveTable`.

A :class:`Move` names the action ``type``, the rule it implements, the phases (windows)
where it may be played, a strict parameter schema, the function that performs it on a
copy of the state, and how it is written (notation) and translated (key and arguments).
From that one declaration the core derives:

* **validation** – :meth:`MoveTable.normalize` checks an incoming action against its
  schema: unknown fields, wrong JSON types, non-finite numbers, over-long strings or
  lists and nesting are a ``CORE-ACTION`` :class:`RuleError`; the returned action is the
  normalised one that servers store and broadcast;
* **dispatch** – :meth:`MoveTable.play` checks the turn and the phase and calls the
  move's ``exec`` on a copy, then the table's ``after`` hook (the game's flow);
* **documentation** – :meth:`MoveTable.json_schema` is the JSON Schema the API publishes,
  :meth:`MoveTable.rules` the rule id of each action type;
* **text** – :meth:`MoveTable.notation` and :meth:`MoveTable.phrase` (translation key and
  arguments, rendered by the i18n catalogues).

Parameter schemas are pydantic models deriving from :class:`Params` (strict JSON types,
``extra="forbid"``, no NaN or infinity). Use the bounded field types below (:data:`Name`,
:data:`Count`, :func:`bounded_list`) so that no field is unbounded.

Resignation is a core move: a game passes ``resign=`` (the function that records a seat's
resignation on a copy) and ``may_resign=`` and the table declares ``{"type": "resign"}``
playable out of turn, under the rule ``CORE-RESIGN``.

A draw by agreement is a core option for games whose rules know a draw: a game passes ``draw=``
(the function that ends the game as a draw on a copy) and ``draw_offer=`` (the accessor of the
:class:`DrawOffer` its state holds, so an offer is saved, replayed and shown like any other state)
and the table declares ``offer_draw``, ``accept_draw`` and ``decline_draw``, all playable out of
turn, under the rule ``CORE-DRAW``. Every seat named by ``draw_seats`` (default: the seats that may
resign) must agree: the offering seat, then each other seat accepts. An offer lapses when a seat
other than the offering one plays a move of the game (as in chess, a move answers "no"), unless
``draw_side`` puts both seats on one side (team games: a partner's move keeps the offer); a declined
offer bars its seat from offering again until that seat has played a move of its own. The draw
moves skip the flow hook, as resign does. Agents choose among :func:`agent_actions` (the legal list
without the agreement moves): they never offer, and their next move lets an offer lapse.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from .errors import NotYourTurn, RuleError
from .serial import action_key

S = TypeVar("S")
Action = dict[str, Any]

#: Largest nesting depth of an action (objects and lists).
MAX_DEPTH = 8
#: Largest number of scalar values (strings, numbers, booleans, nulls) in one action.
MAX_VALUES = 4096
#: Longest string anywhere in an action.
MAX_STRING = 256

CORE_ACTION = "CORE-ACTION"
CORE_RESIGN = "CORE-RESIGN"
CORE_PHASE = "CORE-PHASE"
CORE_DRAW = "CORE-DRAW"

#: The core moves of the draw agreement (not moves of any game).
OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW = "offer_draw", "accept_draw", "decline_draw"
DRAW_TYPES = frozenset({OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW})


class Params(BaseModel):
    """Base class of a move's parameter schema (every field of the action but ``type``)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


class NoParams(Params):
    """A move without parameters (``{"type": "end_turn"}``)."""


#: A short identifier or cell name.
Name = Annotated[str, StringConstraints(min_length=1, max_length=64)]
#: A small non-negative integer (ids, counts, indices).
Count = Annotated[int, Field(ge=0, le=1_000_000)]
#: A small signed integer (coordinates, offsets).
Coord = Annotated[int, Field(ge=-100_000, le=100_000)]


def bounded_list(item: Any, max_length: int = 64, min_length: int = 0) -> Any:
    """``list[item]`` with a length bound, for schemas (``path: bounded_list(Cell, 32)``)."""
    return Annotated[list[item], Field(min_length=min_length, max_length=max_length)]


Exec = Callable[[Any, int, Action], None]
Text = Callable[[Any, int, Action], str]
Args = Callable[[Any, int, Action], Mapping[str, Any]]
Legal = Callable[[Any, int], Iterable[Action]]
TextKey = Callable[[Any, int, Action], Hashable]


@dataclass(frozen=True)
class Move:
    """One action type of a game.

    ``exec(state, seat, action)`` performs the (already schema-checked) action on a state the
    table has copied, raising :class:`RuleError` when a rule forbids it; it lives in the
    rule-area module of the rulebook (``fire.py``, ``transport.py``). ``phases`` lists the
    windows (values of the table's ``phase_of``) where the move may be played; empty means
    any phase but the finished one. ``out_of_turn`` moves (resign, some responses) do not
    require the seat to be in ``to_act``. ``legal`` optionally enumerates the move's legal
    instances; ``notation`` writes one in the game's notation; ``args`` gives the named
    values of its translated sentence (key ``<game>.move.<type>`` unless ``key`` is set);
    ``text_key`` optionally names, as one hashable value, everything that sentence depends on (the
    action's fields and what of the state ``args`` reads): sentences are then remembered by it
    (``Game.describe_action``) instead of being built again for every legal action of every state.
    """

    type: str
    rule: str
    exec: Exec
    schema: type[Params] = NoParams
    phases: tuple[str, ...] = ()
    out_of_turn: bool = False
    legal: Legal | None = None
    notation: Text | None = None
    args: Args | None = None
    key: str = ""
    doc: str = ""
    text_key: TextKey | None = None


def _scan(value: Any, depth: int, budget: list[int]) -> None:
    """Reject what no JSON action may hold, before the schema is consulted."""
    if depth > MAX_DEPTH:
        raise RuleError(CORE_ACTION, f"an action nests at most {MAX_DEPTH} levels deep")
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise RuleError(CORE_ACTION, "object keys are strings")
            _scan(k, depth + 1, budget)
            _scan(v, depth + 1, budget)
        return
    if isinstance(value, list):
        for v in value:
            _scan(v, depth + 1, budget)
        return
    budget[0] -= 1
    if budget[0] < 0:
        raise RuleError(CORE_ACTION, f"an action holds at most {MAX_VALUES} values")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise RuleError(CORE_ACTION, f"strings in an action are at most {MAX_STRING} characters")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise RuleError(CORE_ACTION, "strings must be valid Unicode text") from None
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise RuleError(CORE_ACTION, "numbers must be finite")
    elif value is not None and not isinstance(value, (bool, int)):
        raise RuleError(CORE_ACTION, f"an action holds JSON values only, not {type(value).__name__}")


def check_json_action(action: Any) -> Action:
    """The checks every action passes, declared table or not: a JSON object with a string
    ``type``, finite numbers, valid text, bounded depth and size. Returns the action."""
    if not isinstance(action, dict):
        raise RuleError(CORE_ACTION, "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or not kind:
        raise RuleError(CORE_ACTION, "an action is a JSON object with a string 'type'")
    _scan(action, 0, [MAX_VALUES])
    return action


def _explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "action"
        if err.get("type") == "extra_forbidden":
            parts.append(f"unknown field {where!r}")
        else:
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def _resign_text(state: Any, seat: int, action: Action) -> str:
    return "resign"


@dataclass
class DrawOffer:
    """The draw agreement, held in a game's state (a field of its state dataclass).

    ``by`` is the seat whose offer is pending (``None``: no offer); ``accepted`` the seats that
    have accepted it; ``barred`` the seats whose offer was declined and that have not played a
    move of their own since; ``agreed`` is set once every seat agreed and the game ended drawn.
    """

    by: int | None = None
    accepted: list[int] = field(default_factory=list)
    barred: list[int] = field(default_factory=list)
    agreed: bool = False

    def copy(self) -> DrawOffer:
        return DrawOffer(self.by, list(self.accepted), list(self.barred), self.agreed)

    def view(self) -> dict[str, Any]:
        """What every seat and spectator sees (nothing about an offer is secret)."""
        return {"by": self.by, "accepted": list(self.accepted), "barred": list(self.barred), "agreed": self.agreed}

    def after_move(self, seat: int, ally: bool = False) -> None:
        """A move of the game by ``seat``: an offer by another seat lapses (unless ``seat`` is on the
        offering seat's side: ``ally``), ``seat`` may offer again."""
        if self.by is not None and self.by != seat and not ally:
            self.by, self.accepted = None, []
        if seat in self.barred:
            self.barred.remove(seat)


def agent_actions(actions: list[Action]) -> list[Action]:
    """The legal list an AI player chooses from: without the core draw-agreement moves (agents
    neither offer nor answer; their next move lets a pending offer lapse)."""
    return [a for a in actions if a.get("type") not in DRAW_TYPES]


def _draw_text(state: Any, seat: int, action: Action) -> str:
    return str(action.get("type", "")).replace("_", " ")


@dataclass
class MoveTable(Generic[S]):
    """The declared moves of one game, with its phase function and flow hook.

    ``phase_of(state)`` names the current window (``"play"``, ``"deploy"``, ...);
    ``over`` is the phase name of a finished game. ``after(state, seat, move, action)``
    runs after every successful ``exec`` (turn bookkeeping, phase changes: the game's
    ``flow.py``). ``phase_rule`` maps a phase to the rule cited when a move is played
    outside its windows (default ``CORE-PHASE``).
    """

    game_id: str
    moves: list[Move]
    phase_of: Callable[[Any], str]
    after: Callable[[Any, int, Move, Action], None] | None = None
    phase_rule: Mapping[str, str] = field(default_factory=dict)
    over: str = "over"
    resign: Exec | None = None
    may_resign: Callable[[Any, int], bool] | None = None
    draw: Exec | None = None
    draw_offer: Callable[[Any], DrawOffer] | None = None
    draw_seats: Callable[[Any], Iterable[int]] | None = None
    draw_side: Callable[[Any, int], int] | None = None

    RESIGN: ClassVar[str] = "resign"

    def __post_init__(self) -> None:
        moves = list(self.moves)
        if self.resign is not None:
            moves.append(Move(self.RESIGN, CORE_RESIGN, self.resign, out_of_turn=True, notation=_resign_text,
                              key="core.move.resign", doc="Give up the game (a core move of every game)."))
        if (self.draw is None) != (self.draw_offer is None):
            raise ValueError(f"{self.game_id}: draw= and draw_offer= are declared together")
        if self.draw is not None:
            for kind, run, doc in (
                (OFFER_DRAW, self._offer_draw, "Offer a draw to the other seats (a core move)."),
                (ACCEPT_DRAW, self._accept_draw, "Accept the pending draw offer (a core move)."),
                (DECLINE_DRAW, self._decline_draw, "Decline the pending draw offer (a core move)."),
            ):
                moves.append(Move(kind, CORE_DRAW, run, out_of_turn=True, legal=self._draw_legal(kind),
                                  notation=_draw_text, args=lambda s, p, a: {}, key=f"core.move.{kind}", doc=doc))
        self._by_type: dict[str, Move] = {}
        for m in moves:
            if m.type in self._by_type:
                raise ValueError(f"{self.game_id}: action type {m.type!r} declared twice")
            self._by_type[m.type] = m
        self.moves = moves

    # ------------------------------------------------------------------ lookup
    def __contains__(self, kind: str) -> bool:
        return kind in self._by_type

    def __getitem__(self, kind: str) -> Move:
        return self._by_type[kind]

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def types(self) -> list[str]:
        return [m.type for m in self.moves]

    def rules(self) -> dict[str, str]:
        """Action type -> the rule id it implements."""
        return {m.type: m.rule for m in self.moves}

    # ------------------------------------------------------------ draw offers
    def drawing_seats(self, state: Any) -> list[int]:
        """The seats that must all agree to a draw: ``draw_seats`` if declared, else the seats
        that may resign (``num_players`` of the state, 2 if it has none)."""
        if self.draw_seats is not None:
            return sorted(self.draw_seats(state))
        seats = range(int(getattr(state, "num_players", 2)))
        return [p for p in seats if self.may_resign is None or self.may_resign(state, p)]

    def draw_refusal(self, state: Any, seat: int, kind: str) -> str | None:
        """Why ``seat`` may not play the draw move ``kind`` now (``None``: it may). The game is
        assumed not over (the window check comes first)."""
        assert self.draw_offer is not None
        offer = self.draw_offer(state)
        if offer.agreed:
            return "the draw is already agreed"
        if seat not in self.drawing_seats(state):
            return "this seat takes no part in a draw agreement now"
        if kind == OFFER_DRAW:
            if offer.by is not None:
                return "a draw offer is already pending; accept or decline it"
            if seat in offer.barred:
                return "your draw offer was declined: play a move before offering again"
            return None
        if offer.by is None:
            return "no draw offer is pending"
        if seat == offer.by:
            return "the offering seat cannot answer its own offer"
        if seat in offer.accepted:
            return "this seat has already accepted the offer"
        return None

    def draw_actions(self, state: Any, seat: int) -> list[Action]:
        """The draw moves open to ``seat`` now (``[]`` for a table without a draw), for games that
        list them for seats not in ``to_act`` (an offer or an answer out of turn)."""
        if self.draw is None:
            return []
        return [a for kind in (OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW) for a in self._draw_legal(kind)(state, seat)]

    def _draw_legal(self, kind: str) -> Legal:
        def legal(state: Any, seat: int) -> list[Action]:
            if self.phase_of(state) == self.over or self.draw_refusal(state, seat, kind) is not None:
                return []
            return [{"type": kind}]
        return legal

    def _offer_draw(self, state: Any, seat: int, action: Action) -> None:
        assert self.draw_offer is not None
        offer = self.draw_offer(state)
        offer.by, offer.accepted = seat, []
        self._agree_if_all(state, seat, action)

    def _accept_draw(self, state: Any, seat: int, action: Action) -> None:
        assert self.draw_offer is not None
        self.draw_offer(state).accepted.append(seat)
        self._agree_if_all(state, seat, action)

    def _decline_draw(self, state: Any, seat: int, action: Action) -> None:
        assert self.draw_offer is not None
        offer = self.draw_offer(state)
        if offer.by is not None and offer.by not in offer.barred:
            offer.barred.append(offer.by)
            offer.barred.sort()
        offer.by, offer.accepted = None, []

    def _agree_if_all(self, state: Any, seat: int, action: Action) -> None:
        assert self.draw_offer is not None and self.draw is not None
        offer = self.draw_offer(state)
        if offer.by is None or any(p != offer.by and p not in offer.accepted for p in self.drawing_seats(state)):
            return
        offer.agreed = True
        self.draw(state, seat, action)

    # -------------------------------------------------------------- validation
    def normalize(self, action: Any) -> Action:
        """The action checked against its declared schema, in normal form (``type`` first,
        then the schema's fields in declaration order). Raises ``CORE-ACTION``."""
        check_json_action(action)
        move = self._by_type.get(action["type"])
        if move is None:
            raise RuleError(CORE_ACTION, f"unknown action type {action['type']!r}; known: {', '.join(self.types())}")
        params = {k: v for k, v in action.items() if k != "type"}
        try:
            move.schema.model_validate(params)
        except ValidationError as exc:
            raise RuleError(CORE_ACTION, f"{move.type}: {_explain(exc)}") from None
        out: Action = {"type": move.type}
        for name, info in move.schema.model_fields.items():
            key = info.alias or name  # a field named after a keyword (``from``) is declared with an alias
            if key in params:
                out[key] = params[key]
        return out

    # ---------------------------------------------------------------- dispatch
    def check_window(self, state: Any, seat: int, move: Move, to_act: tuple[int, ...]) -> None:
        """Raise unless ``seat`` may play ``move`` now (turn and phase)."""
        phase = self.phase_of(state)
        if phase == self.over:
            raise RuleError("CORE-TURN", "the game is over")
        if move.type == self.RESIGN:
            if self.may_resign is not None and not self.may_resign(state, seat):
                raise RuleError(CORE_RESIGN, "this seat cannot resign now")
            return
        if move.type in DRAW_TYPES and self.draw is not None:
            why = self.draw_refusal(state, seat, move.type)
            if why is not None:
                raise RuleError(CORE_DRAW, why)
            return
        if not move.out_of_turn and seat not in to_act:
            raise NotYourTurn(seat, to_act)
        if move.phases and phase not in move.phases:
            rule = self.phase_rule.get(phase, CORE_PHASE)
            raise RuleError(rule, f"{move.type} cannot be played now ({phase})")

    def play(self, state: S, seat: int, action: Any, *, to_act: tuple[int, ...], copy: Callable[[S], S],
             normal: bool = False) -> tuple[S, Action]:
        """Validate, check the window, and perform ``action`` on a copy of ``state``.
        Returns the new state and the normalised action; ``state`` is never changed. ``normal``: ``action`` is
        what :meth:`normalize` returned (``Game.apply_normal``), not validated again."""
        act = action if normal else self.normalize(action)
        move = self._by_type[act["type"]]
        self.check_window(state, seat, move, to_act)
        new = copy(state)
        move.exec(new, seat, act)
        if move.type == self.RESIGN or (move.type in DRAW_TYPES and self.draw is not None):
            return new, act
        if self.draw_offer is not None:
            offer = self.draw_offer(new)
            ally = (offer.by is not None and self.draw_side is not None
                    and self.draw_side(new, seat) == self.draw_side(new, offer.by))
            offer.after_move(seat, ally)
        if self.after is not None:
            self.after(new, seat, move, act)
        return new, act

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Concatenate the ``legal`` enumerations of the moves open in the current phase
        (in declaration order). Games with one integrated generator may ignore this."""
        phase = self.phase_of(state)
        out: list[Action] = []
        for m in self.moves:
            if m.legal is not None and (not m.phases or phase in m.phases):
                out.extend(m.legal(state, seat))
        return out

    # -------------------------------------------------------------------- text
    def notation(self, state: Any, seat: int, action: Action) -> str:
        move = self._by_type.get(action.get("type", "")) if isinstance(action, dict) else None
        if move is not None and move.notation is not None:
            return move.notation(state, seat, action)
        return action_key(action)

    def sentence_key(self, state: Any, seat: int, action: Action) -> Hashable | None:
        """What names the action's sentence (its move's ``text_key``), or ``None`` when the move declares none or
        the action cannot be named so (a malformed one)."""
        move = self._by_type.get(action.get("type", ""))
        if move is None or move.text_key is None:
            return None
        try:
            key = (move.type, move.text_key(state, seat, action))
            hash(key)
        except (TypeError, ValueError, KeyError, AttributeError):
            return None
        return key

    def phrase(self, state: Any, seat: int, action: Action) -> tuple[str, dict[str, Any]]:
        """The translation key and named arguments of an action's sentence."""
        kind = action.get("type", "")
        move = self._by_type.get(kind)
        key = move.key if move and move.key else f"{self.game_id}.move.{kind}"
        if move is not None and move.args is not None:
            return key, dict(move.args(state, seat, action))
        return key, {k: v for k, v in action.items() if k != "type"}

    # ------------------------------------------------------------------ schema
    def json_schema(self) -> dict[str, Any]:
        """JSON Schema of every action of the game (``oneOf`` keyed by ``type``)."""
        defs: dict[str, Any] = {}
        variants = []
        for m in self.moves:
            sch = m.schema.model_json_schema(ref_template="#/$defs/{model}")
            defs.update(sch.pop("$defs", {}))
            props = {"type": {"const": m.type}, **sch.get("properties", {})}
            variants.append({
                "title": m.type,
                "description": (m.doc or m.schema.__doc__ or "").strip() + f" ({m.rule})",
                "type": "object",
                "properties": props,
                "required": ["type", *sch.get("required", [])],
                "additionalProperties": False,
            })
        out: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                               "title": f"{self.game_id} action", "oneOf": variants}
        if defs:
            out["$defs"] = defs
        return out
