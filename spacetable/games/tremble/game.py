"""Tremble, Humans! on the core protocol: the declared moves and the game object (TH-0.1, TH-P1).

Every action type is declared once in :data:`MOVES`: its rule, the windows where it may be played
(see :mod:`.flow`), a strict parameter schema (also the JSON Schema the API publishes), the rule
steps that perform it (in the rule-area modules), its notation and its translated sentence. The
game object adds the protocol around them: legal actions per window, views, determinisation,
the outcome, and the core ``resign`` move (house rule below). AI players, the server and the
simulations act on a game only through this protocol (TH-0.1).

House rule for ``resign`` (TH-H7; the rulebook has none): a captain who resigns stays at the table with
his humans but can no longer win and ranks after every other captain; from then on each of his
decisions is the window's timeout default (buy nothing, empty plan, pass, flee, raid...). When only
one captain has not resigned, the game ends at once and he wins.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from spacetable.core import catalog
from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.moves import Move, MoveTable, Name, Params, bounded_list
from spacetable.core.rng import Rng

from . import battle, buying, flow, missions, notation, planning, reward, stations, views
from .cards import CARD_SETS, FUEL_PRESETS, CardSet, content_key, get_set
from .fast import TRUSTED
from .flow import SEALED, cards_of
from .notation import written
from .setup import setup
from .state import TState

#: a slot number as written in actions (1-based; 0 and numbers past the last slot are rule errors)
Slot = Annotated[int, Field(ge=0, le=64)]


# ------------------------------------------------------------------------- parameter schemas
class BuyParams(Params):
    """TH-4.3: the sealed buy commit; absent fields are empty."""

    credits: Annotated[int, Field(ge=0, le=20)] = 0
    buy: bounded_list(Name, 8) = Field(default_factory=list)  # type: ignore[valid-type]
    discard: bounded_list(Name, 16) = Field(default_factory=list)  # type: ignore[valid-type]
    repay: Annotated[int, Field(ge=0, le=100)] = 0
    comp: bounded_list(Name, 32) = Field(default_factory=list)  # type: ignore[valid-type]


class Group(Params):
    """One group of a plan: a slot and the ships sent there (TH-6.1)."""

    slot: Slot
    ships: bounded_list(Name, 16)  # type: ignore[valid-type]


class StationUse(Params):
    """A station used in a plan (TH-6.4); ``slot`` only for a ``city_support`` token."""

    station: Name
    slot: Slot = None  # type: ignore[assignment]


class PlanParams(Params):
    """TH-6.1: the sealed plan; absent fields are empty."""

    groups: bounded_list(Group, 16) = Field(default_factory=list)  # type: ignore[valid-type]
    fuel_cards: bounded_list(Name, 32) = Field(default_factory=list)  # type: ignore[valid-type]
    stations: bounded_list(StationUse, 8) = Field(default_factory=list)  # type: ignore[valid-type]


class RelocateEnemyParams(Params):
    """TH-7.2 (a): a station move."""

    station: Name
    ship: Name
    to_slot: Slot


class SelfMove(Params):
    """One ``relocate_self`` ship: a slot or ``"stay"`` (TH-7.2 (b))."""

    ship: Name
    to_slot: Slot | Literal["stay"]


class RelocateSelfParams(Params):
    """TH-7.2 (b): the sealed self moves (an empty list: every ship stays)."""

    moves: bounded_list(SelfMove, 16)  # type: ignore[valid-type]


class FightParams(Params):
    """Fight or flee (TH-9.3, TH-10.3)."""

    choice: Literal["fight", "flee"]


class RewardParams(Params):
    """TH-10.1: raid or catch."""

    choice: Literal["raid", "catch"]


class UseStationParams(Params):
    """TH-11.2: use an untapped station (``target``: a ship, for the ops that name one)."""

    station: Name
    target: Name = None  # type: ignore[assignment]


class UseCompParams(Params):
    """TH-12.2: play a usable compensation card (``target``: a ship, for the ops that name one)."""

    card: Name
    target: Name = None  # type: ignore[assignment]


class ShipParams(Params):
    """TH-9.7: the ship lost."""

    ship: Name


class CardParams(Params):
    """TH-9.9: the ``take_city_after_loss`` card played."""

    card: Name


class IgnoreParams(Params):
    """TH-10.3: the ``ignore_army`` card and the revealed army it discards (0-based)."""

    card: Name
    army_index: Annotated[int, Field(ge=0, le=64)]


# ------------------------------------------------------------------------- rule steps per move
# (the execs below look the card set up with ``get_set`` directly: they run for every action of a simulation)
Exec = Callable[[TState, int, Action], None]


def _by_window(execs: Mapping[str, Exec]) -> Exec:
    """The exec of an action type that several windows accept (``pass``, ``use_station``...)."""

    def run(s: TState, seat: int, a: Action) -> None:
        execs[s.phase](s, seat, a)

    return run


def _sealed(check: Callable[[TState, CardSet, int, Action], None] | None, rule: str) -> Exec:
    """The exec of a sealed commit stored as sent (IM-5): validated, then sealed."""

    def run(s: TState, seat: int, a: Action) -> None:
        if check is not None:
            check(s, get_set(s.card_set), seat, a)
        s.sealed.submit(seat, a, rule)

    return run


def _buy(s: TState, seat: int, a: Action) -> None:
    """TH-4.3, TH-4.4: validate the commit and seal it with every field present."""
    cards = get_set(s.card_set)
    buying.check_buy(s, cards, cards.rules, seat, a)
    s.sealed.submit(seat, buying.full_buy(a), "TH-4.3")


def _plan(s: TState, seat: int, a: Action) -> None:
    """TH-6.1: validate the plan and seal it with every field present."""
    planning.check_plan(s, get_set(s.card_set), seat, a)
    s.sealed.submit(seat, planning.full_plan(a), "TH-6.1")


def _reward(s: TState, seat: int, a: Action) -> None:
    if a["choice"] == "raid":
        reward.raid(s, get_set(s.card_set), seat)
    else:
        reward.start_catch(s, get_set(s.card_set), seat)


def _nothing(s: TState, seat: int, a: Action) -> None:
    """A choice whose consequence is all in the flow (keep the drawn cards, pass before the armies)."""


def _use_effect(s: TState, seat: int, a: Action) -> None:
    battle.use_effect(s, get_set(s.card_set), seat, a)


def _resign(s: TState, seat: int, a: Action) -> None:
    """The core resign move (TH-H7, house rule in the module doc)."""
    s.resigned.append(seat)
    s.log_events and s.note(f"seat {seat} resigns")
    if s.num_players - len(s.resigned) <= 1:
        flow.end_game(s)


def _may_resign(s: TState, seat: int) -> bool:
    return 0 <= seat < s.num_players and seat not in s.resigned


MOVES: MoveTable[TState] = MoveTable(
    "tremble",
    [
        Move("redraw_stations", "TH-4.2", lambda s, seat, a: buying.redraw_stations(s, cards_of(s), seat),
             phases=("redraw",), notation=written(notation.type_text), args=notation.no_args,
             doc="Show the two drawn stations, discard them and draw again."),
        Move("keep", "TH-4.2", _nothing, phases=("redraw",), notation=written(notation.type_text), args=notation.no_args,
             doc="Keep the two drawn stations."),
        Move("buy", "TH-4.3", _buy, BuyParams, phases=("buy",), notation=written(notation.buy_text), args=notation.buy_args),
        Move("plan", "TH-6.1", _plan, PlanParams, phases=("plan",), notation=written(notation.plan_text),
             args=notation.plan_args),
        Move("pass", "TH-11.3",
             _by_window({"station_move": _sealed(None, "TH-7.2"), "respond": lambda s, seat, a: battle.window_pass(s, seat),
                         "ignore_army": _nothing}),
             phases=("station_move", "respond", "ignore_army"), notation=written(notation.type_text), args=notation.no_args,
             doc="Decline: no station move (TH-7.2), no effect in a response window (TH-11.3), no ignore_army card (TH-10.3)."),
        Move("relocate_enemy", "TH-7.2", _sealed(stations.check_relocate_enemy, "TH-7.2"), RelocateEnemyParams,
             phases=("station_move",), notation=written(notation.relocate_enemy_text), args=notation.relocate_enemy_args),
        Move("relocate_self", "TH-7.2", _sealed(stations.check_self_move, "TH-7.2"), RelocateSelfParams,
             phases=("self_move",), notation=written(notation.relocate_self_text), args=notation.relocate_self_args),
        Move("declare", "TH-9.3", battle.declare, FightParams, phases=("declare",),
             notation=written(notation.choice_text), args=notation.choice_args),
        Move("reward", "TH-10.1", _reward, RewardParams, phases=("reward",), notation=written(notation.choice_text),
             args=notation.choice_args),
        Move("choose_loss", "TH-9.7", _sealed(battle.check_choose_loss, "TH-9.7"), ShipParams, phases=("loss",),
             notation=written(notation.loss_text), args=notation.ship_args),
        Move("decline", "TH-9.9", _sealed(None, "TH-9.9"), phases=("claim",), notation=written(notation.type_text),
             args=notation.no_args, doc="Play no card in the loss window."),
        Move("claim_city", "TH-9.9", _sealed(battle.check_claim, "TH-9.9"), CardParams, phases=("claim",),
             notation=written(notation.claim_text), args=notation.card_args),
        Move("use_station", "TH-11.2",
             _by_window({"respond": _use_effect, "reward": lambda s, seat, a: reward.peek(s, cards_of(s), seat, a)}),
             UseStationParams, phases=("respond", "reward"), notation=written(notation.use_text), args=notation.use_args),
        Move("use_compensation", "TH-12.2",
             _by_window({"respond": _use_effect, "loss": _sealed(battle.check_salvage, "TH-9.7")}),
             UseCompParams, phases=("respond", "loss"), notation=written(notation.use_text), args=notation.use_args),
        Move("ignore_army", "TH-10.3", lambda s, seat, a: reward.ignore_army(s, cards_of(s), seat, a), IgnoreParams,
             phases=("ignore_army",), notation=written(notation.ignore_text), args=notation.ignore_args),
        Move("army", "TH-10.3", reward.army_choice, FightParams, phases=("army",),
             notation=written(notation.choice_text), args=notation.choice_args),
    ],
    phase_of=lambda s: s.phase,
    after=flow.after,
    phase_rule={ph: w.rule for ph, w in flow.WINDOWS.items()},
    resign=_resign,
    may_resign=_may_resign,
)

#: action type -> move, and the execs of ``apply_in_place(..., checked=True)`` (trusted buy and plan)
_BY_TYPE: dict[str, Move] = {m.type: m for m in MOVES}
_TRUSTED_EXEC: dict[str, Exec] = {m.type: TRUSTED.get(m.type, m.exec) for m in MOVES}


def _autopilot(s: TState) -> None:
    """TH-H7: resigned seats play the timeout default (TH-P3) of every window they must act in."""
    gone = s.resigned
    while s.phase != "over":
        seat = next((x for x in flow.to_act(s) if x in gone), None)
        if seat is None:
            return
        a = flow.default_action(s, cards_of(s), seat)
        move = _BY_TYPE[a["type"]]
        move.exec(s, seat, a)
        flow.after(s, seat, move, a)


def set_key(config: dict[str, Any]) -> str:
    """The card-set key of a normalised config: the catalogue name, or for ``card_set=custom`` the canonical
    JSON of ``card_set_content`` (TH-0.3; kept in the state so that the set can always be rebuilt)."""
    if config["card_set"] != "custom":
        return str(config["card_set"])
    doc = config.get("card_set_content")
    if not isinstance(doc, dict):
        raise ConfigError("card_set=custom needs card_set_content: the card set as one JSON object")
    return content_key(doc)


class TrembleGame(Game[TState]):
    id = "tremble"
    name = "Tremble, Humans! (Трепещите, человеки!)"
    min_players = 2
    max_players = 5
    state_type = TState
    hidden_information = True
    #: the plan decision has thousands of legal plans (up to a third of a second to list): servers list them off the loop
    slow_legal_actions = True
    stochastic = True
    moves = MOVES
    #: the last state's legal actions by notation (:meth:`_notations`): the state, a mark of its position, the index
    _said: tuple[TState, tuple[Any, ...], dict[str, list[Action]]] | None = None

    def options(self) -> list[Option]:
        return [
            Option("card_set", "house", ("house", *(n for n in catalog.names(CARD_SETS) if n != "house"), "custom"),
                   help="a card set of the catalogue ('house': the house set), or custom (card_set_content)"),
            Option("card_set_content", None, kind="json",
                   help="your own card set as one JSON document {set, cities, ships, ...} (with card_set=custom; "
                        "at most 512 KiB)"),
            Option("fuel", "default", choices=tuple(FUEL_PRESETS), help="fuel table preset (TH-D1, unverified)"),
            Option("split_unit", 10000, choices=(10000, 1), kind="int", help="mission prize rounding unit (TH-D7)",
                   minimum=1, maximum=10000),
            Option("log_events", True, kind="bool", help="keep a readable event log in the state"),
        ]

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        cfg = dict(config or {})
        cfg.setdefault("players", 4)
        out = super().normalize_config(cfg)
        if out["card_set"] != "custom" and out["card_set_content"] is not None:
            raise ConfigError("card_set_content is only read with card_set=custom")
        try:
            get_set(set_key(out))
        except ValueError as exc:  # CardSetError and CatalogError: they name the set, never a path
            raise ConfigError(str(exc)) from None
        return out

    def cards(self, s: TState) -> CardSet:
        """The card set of a state (TH-0.3)."""
        return cards_of(s)

    # ----------------------------------------------------------------- protocol
    def initial_state(self, config: dict[str, Any], seed: int) -> TState:
        cfg = self.normalize_config(config)
        cards = get_set(set_key(cfg))
        fuel = FUEL_PRESETS[cfg["fuel"]] if cfg["fuel"] != "default" else list(cards.rules["fuel_by_turn"])
        s = setup(cards, cfg["players"], seed, fuel, cfg["split_unit"], cfg["log_events"])
        s.card_set = set_key(cfg)
        flow.start_turn(s, cards)
        return s

    #: who acts (:func:`.flow.to_act`), bound without a wrapper: simulations ask it before every action
    to_act = staticmethod(flow.to_act)  # type: ignore[assignment]

    def legal_actions(self, state: TState, player: int) -> list[Action]:
        """TH-P2: every legal action of an acting seat in its window's canonical order (``resign`` is a core
        move, always open and not listed)."""
        if player not in flow.to_act(state):
            return []
        return flow.legal(state, cards_of(state), player)

    def apply(self, state: TState, player: int, action: Action) -> TState:
        new, _ = MOVES.play(state, player, action, to_act=flow.to_act(state), copy=TState.clone)
        if new.resigned:
            _autopilot(new)
        return new

    def apply_in_place(self, s: TState, player: int, action: Action, checked: bool = False) -> None:
        """Play ``action`` on ``s`` itself, for in-process callers that own the state (simulations, search):
        no copy, no turn check and no schema check (the action must have the declared JSON shape), every
        rule still checked. ``checked=True`` is for actions this engine produced itself (``legal_actions``
        or the samplers of :mod:`.sampling`: legal by construction, every field present): the sealed buy
        and plan commits are then not validated a second time and are stored as given (see :mod:`.fast`),
        so the caller must not change them afterwards. Never use it for actions from outside."""
        move = _BY_TYPE.get(action["type"])
        if move is None:
            raise RuleError("CORE-ACTION", f"unknown action type {action['type']!r}")
        if move.phases:
            if s.phase not in move.phases:
                raise RuleError(MOVES.phase_rule.get(s.phase, "CORE-TURN"), f"{move.type} cannot be played now ({s.phase})")
            (_TRUSTED_EXEC[move.type] if checked else move.exec)(s, player, action)
            flow.after(s, player, move, action)
        else:  # resign, open out of turn
            MOVES.check_window(s, player, move, flow.to_act(s))
            move.exec(s, player, action)
        if s.resigned:
            _autopilot(s)

    def timeout_action(self, state: TState, player: int) -> Action:
        """The TH-P3 default of the open window (see :data:`.flow.WINDOWS`)."""
        return flow.default_action(state, cards_of(state), player)

    def clone(self, state: TState) -> TState:
        return state.clone()

    # ------------------------------------------------------------------ results
    def outcome(self, state: TState) -> Outcome | None:
        """TH-14.6, TH-D22: the most humans wins; ties by trophies, then fewer credits taken, then shared.
        Resigned captains cannot win and rank last."""
        if state.phase != "over":
            return None
        n = state.num_players
        scores = [p.humans for p in state.players]
        active = [i for i in range(n) if i not in state.resigned]
        best = max(missions.ranking_key(state, i) for i in active)
        winners = tuple(i for i in active if missions.ranking_key(state, i) == best)
        ranking = sorted(active, key=lambda i: missions.ranking_key(state, i), reverse=True)
        ranking += sorted(state.resigned, key=lambda i: missions.ranking_key(state, i), reverse=True)
        details: dict[str, Any] = {
            "missions": state.final.get("missions", []),
            "credits": state.final.get("credits", []),
            "trophies": [len(p.trophies) for p in state.players],
            "card_set": cards_of(state).label,
        }
        if state.resigned:
            details["resigned"] = list(state.resigned)
        kind = "score" if state.final else "resignation"
        return Outcome(tuple(float(x) for x in scores), winners, kind, tuple(ranking), details)

    def returns(self, state: TState) -> list[float]:
        """+1 to the winner, −1 + ½ · humans / the most humans to every other seat. Seats tied for first
        share the places they take: each gets the mean of +1 and a loser's reward for the rest (two tied
        with equal humans: +¼ each, not a win each)."""
        out = self.outcome(state)
        n = state.num_players
        if out is None:
            return [0.0] * n
        top = max(out.scores)
        lost = [-1.0 + 0.5 * max(0.0, out.scores[i]) / max(1.0, top) for i in range(n)]
        # k seats tied for first (TH-D22) share the first k places: +1 for one, a loser's reward for the others
        k = len(out.winners)
        return [(1.0 + (k - 1) * lost[i]) / k if i in out.winners else lost[i] for i in range(n)]

    # --------------------------------------------------------------------- views
    def view(self, state: TState, player: int | None) -> dict[str, Any]:
        return views.build_view(state, player)

    def public_view(self, state: TState) -> dict[str, Any]:
        """The view's fields every viewer sees alike (all but the viewer, the players and the sealed commits)."""
        return views.public_view(state)

    def own_view(self, state: TState, player: int | None) -> dict[str, Any]:
        return views.own_view(state, player)

    def action_view(self, state: TState, player: int, action: Action, viewer: int | None) -> Action | None:
        """Sealed commits (buy, plan, moves, loss choices, claims) are hidden from others (IM-4, IM-5);
        a resignation is public."""
        if state.phase in SEALED and viewer != player and action.get("type") != "resign":
            return {"type": "committed", "phase": state.phase}
        return action

    def render_text(self, state: TState, player: int | None) -> str:
        return views.render_text(state, player)

    def parse_action(self, state: TState, player: int, text: str) -> Action:
        """A number from the listed legal actions, a legal action's notation (``buy Reaper Tripod``), a JSON
        action, or the plan notation
        ``plan 2=1,3 4=reaper_tripod#2 fuel=spare_tank#1 station=beacon#1@2`` (see :func:`.notation.parse_plan`)."""
        text = text.strip()
        if text.startswith("plan"):
            return notation.parse_plan(state, player, text[4:])
        if text.isdigit():
            legal = self.legal_actions(state, player)
            i = int(text)
            if not 1 <= i <= len(legal):
                raise RuleError("CORE-ACTION", f"choose 1..{len(legal)}")
            return legal[i - 1]
        if text and not text.startswith("{"):  # a legal action's notation, as listed and as Tab completes it
            found = self._notations(state, player).get(" ".join(text.split()).casefold(), [])
            if found and all(a == found[0] for a in found):
                return found[0]
            if found:
                raise RuleError("CORE-ACTION", f"{text!r} names several actions; type the number listed by 'legal'")
        return super().parse_action(state, player, text)

    def _notations(self, state: TState, player: int) -> dict[str, list[Action]]:
        """The legal actions by their notation (spaces and case folded), for the last state asked about: the
        terminal's completion reads every listed action back once per prompt."""
        mark = (player, state.turn, state.phase, state.slot, len(state.events), len(state.queue),
                tuple(sorted(state.players[player].hand)) if 0 <= player < len(state.players) else ())
        cached = self._said
        if cached is not None and cached[0] is state and cached[1] == mark:  # the same state, not changed since
            return cached[2]
        index: dict[str, list[Action]] = {}
        for a in self.legal_actions(state, player):
            index.setdefault(" ".join(self.action_text(state, player, a).split()).casefold(), []).append(a)
        self._said = (state, mark, index)
        return index

    # ----------------------------------------------------------- determinisation
    def determinize(self, state: TState, player: int, rng: Rng) -> TState:
        return views.determinize(state, player, rng)

    def state_to_json(self, state: TState) -> dict[str, Any]:
        data = super().state_to_json(state)
        return json.loads(json.dumps(data))  # integer keys (seats) as JSON writes them


GAME = TrembleGame()
