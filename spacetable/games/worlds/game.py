"""Worlds & Suns combat skirmish, the facade: the declared moves and the game protocol (rules doc
``docs/rules/worlds.md``).

Only the combat chapter of an unidentified game is known (WS-0.2, WS-0.3). The package holds the four
parts of WS-0.1: this engine, which plays combats between two sides on a fixed map from a scenario
with a house turn structure, ending and score (WS-8, house rules); the odds calculator (:mod:`.odds`);
the allocation advisor (:mod:`.advisor`). Seat 0 is the scenario's first side, seat 1 the second.

Every action type is declared once in :data:`MOVES` with its rule, window, strict schema,
``exec`` (in the rule-area module), legal list, notation and sentence; resignation and the draw
offer (WS-D25) are core moves. The rule modules are :mod:`.declare` (WS-2, WS-3), :mod:`.pairing` (WS-4), :mod:`.battle`
(WS-5), :mod:`.aftermath` (WS-6), :mod:`.events` (WS-7) and :mod:`.skirmish` (WS-8); :mod:`.flow`
holds the sequence of turns, battles and steps. Import order: state → rule modules → flow →
views, notation, render → this facade → ai, advisor tools, situation, cli.
"""

from __future__ import annotations

from typing import Any, ClassVar

from spacetable.core.errors import ConfigError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.moves import Move, MoveTable, NoParams
from spacetable.core.rng import Rng

from . import aftermath, battle, declare, flow, notation, pairing, skirmish, views
from . import scenario as scen
from .render import render_text
from .state import WorldsState, clone

W = flow.WINDOW_OF


class WorldsMoveTable(MoveTable[WorldsState]):
    """The move table, with the rule an action breaks out of its window named first (:func:`.flow.check_window`):
    the rules doc cites WS-4.3 for the defender's ``allocate`` and WS-2.4 for a declaration during a combat, where
    the generic check would name the turn rule (WS-D21)."""

    def check_window(self, state: Any, seat: int, move: Move, to_act: tuple[int, ...]) -> None:
        flow.check_window(state, seat, move.type)
        super().check_window(state, seat, move, to_act)


MOVES: MoveTable[WorldsState] = WorldsMoveTable(
    "worlds",
    [
        Move("declare_combat", "WS-3.1", declare.declare_combat, declare.DeclareParams, phases=W["declare_combat"],
             legal=declare.legal_declares, notation=notation.declare_text,
             doc="Declare a combat on an eligible card (WS-2.3, WS-3.1)."),
        Move("end_turn", "WS-8.2", skirmish.end_turn, NoParams, phases=W["end_turn"], legal=skirmish.legal_end_turn,
             notation=notation.end_text, doc="End the turn, with or without a combat (WS-8.2)."),
        Move("allocate", "WS-4.2", pairing.allocate, pairing.AllocateParams, phases=W["allocate"],
             legal=pairing.legal_allocations, notation=notation.allocate_text, args=notation.allocate_args,
             doc="Pair the allocator's pieces with the anchors, battles in resolution order (WS-4)."),
        Move("play_event", "WS-5.1", battle.play_event, battle.EventParams, phases=W["play_event"],
             legal=battle.legal_events, notation=notation.event_text, args=notation.event_args,
             doc="Seal an event card for the current battle, or none (WS-5.1, WS-7)."),
        Move("commit_energy", "WS-5.3", battle.commit_energy, battle.EnergyParams, phases=W["commit_energy"],
             legal=battle.legal_energy, notation=notation.energy_text, args=notation.energy_args,
             doc="Seal an amount of energy for the current battle (WS-5.3)."),
        Move("choose_tie_loss", "WS-5.6", battle.choose_tie_loss, battle.TieParams, phases=W["choose_tie_loss"],
             legal=battle.legal_tie_losses, notation=notation.tie_text, args=notation.tie_args,
             doc="Remove one own piece of the battle after a tie (WS-5.6)."),
        Move("retreat", "WS-6.3", aftermath.retreat, aftermath.RetreatParams, phases=W["retreat"],
             legal=aftermath.legal_retreats, notation=notation.retreat_text, args=notation.retreat_args,
             doc="Move surviving Populations of the losing side to the Sun (WS-6.3)."),
        Move("convert", "WS-6.4", aftermath.convert, aftermath.ConvertParams, phases=W["convert"],
             legal=aftermath.legal_conversions, notation=notation.convert_text, args=notation.convert_args,
             doc="Take one of the loser's Factories, or none (WS-6.4)."),
    ],
    phase_of=flow.window,
    after=flow.after,
    phase_rule=flow.WINDOW_RULES,
    resign=skirmish.resign,
    may_resign=lambda st, seat: seat in (0, 1),
    draw=skirmish.agree_draw,
    draw_offer=lambda st: st.draw,
)


class WorldsGame(Game[WorldsState]):
    id: ClassVar[str] = "worlds"
    name: ClassVar[str] = "Worlds & Suns — combat skirmish (combat chapter only)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    state_type: ClassVar[type] = WorldsState
    hidden_information: ClassVar[bool] = True
    stochastic: ClassVar[bool] = True
    moves: ClassVar[MoveTable[Any] | None] = MOVES

    # ------------------------------------------------------------ configuration
    def options(self) -> list[Option]:
        return [
            Option("scenario", "s1-example", tuple(scen.names()), "str",
                   "a scenario of the catalogue: shipped, or the operator's data folder (WS-8.1)"),
            Option("scenario_json", None, None, "json", "a full worlds-skirmish/1 scenario; overrides 'scenario'"),
        ]

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        out = super().normalize_config(config)
        if out.get("scenario_json") is not None:
            scen.validate(out["scenario_json"])
        return out

    def scenario_data(self, config: dict[str, Any]) -> dict[str, Any]:
        if config.get("scenario_json") is not None:
            data: dict[str, Any] = config["scenario_json"]
            scen.validate(data)
            return data
        return scen.named(str(config.get("scenario", "s1-example")))

    def player_names(self, config: dict[str, Any]) -> list[str]:
        try:
            return list(self.scenario_data(self.normalize_config(config))["sides"])
        except ConfigError:
            return super().player_names(config)

    # ------------------------------------------------------------------- setup
    def initial_state(self, config: dict[str, Any], seed: int) -> WorldsState:
        return self._set_up(self.scenario_data(config), seed)  # validated by scenario_data

    def from_scenario(self, data: dict[str, Any], seed: int | None = None) -> WorldsState:
        """WS-8.1 setup from a scenario, validated here; ``seed`` defaults to the scenario's. Random hands and
        the dice draw from the sub-seeds ``hands`` and ``dice`` of the seed."""
        scen.validate(data)
        return self._set_up(data, seed)

    def _set_up(self, data: dict[str, Any], seed: int | None) -> WorldsState:
        if seed is None:
            seed = int(data.get("seed", 0))
        st = skirmish.new_state(data, self.rng_for(seed, "hands"), self.rng_for(seed, "dice"))
        flow.start_turn(st)
        return st

    # ---------------------------------------------------------------- protocol
    def to_act(self, state: WorldsState) -> tuple[int, ...]:
        return flow.to_act(state)

    def legal_actions(self, state: WorldsState, player: int) -> list[Action]:
        """The declared moves' legal lists of the open window, then the open draw moves (WS-D25; also for the
        side not to act, which may offer or answer out of turn). Resignation is accepted but not listed."""
        if player not in flow.to_act(state):
            return MOVES.draw_actions(state, player) if player in (0, 1) else []
        return MOVES.legal_actions(state, player)

    def allocations(self, state: WorldsState) -> list[Action]:
        """WS-4.5: one ``allocate`` per canonical split, battles in anchor order (any order is accepted)."""
        return pairing.legal_allocations(state)

    def timeout_action(self, state: WorldsState, player: int) -> Action:
        """Timeout defaults (WS-D22, :func:`.flow.timeout_action`)."""
        return flow.timeout_action(state, player)

    def clone(self, state: WorldsState) -> WorldsState:
        """The written-out copy of :func:`.state.clone` (``apply`` copies the state once per action)."""
        return clone(state)

    def material(self, state: WorldsState) -> list[int]:
        """WS-8.4 material per seat (house rule): 2 per Population, 1 per Factory."""
        return skirmish.material(state)

    def outcome(self, state: WorldsState) -> Outcome | None:
        return skirmish.outcome(state)

    def returns(self, state: WorldsState) -> list[float]:
        """The generic +1/-1 once over; before that the material lead (search rewards)."""
        lead = skirmish.material_returns(state)
        return lead if lead is not None else super().returns(state)

    # ------------------------------------------------------------------- views
    def view(self, state: WorldsState, player: int | None) -> dict[str, Any]:
        return views.view(state, player)

    def public_view(self, state: WorldsState) -> dict[str, Any]:
        """The view's fields every viewer sees alike (all but the seat, its hand and the combats)."""
        return views.public_view(state)

    def own_view(self, state: WorldsState, player: int | None) -> dict[str, Any]:
        return views.own_view(state, player)

    def action_view(self, state: WorldsState, player: int, action: Action, viewer: int | None) -> Action | None:
        return views.action_view(player, action, viewer)

    def determinize(self, state: WorldsState, player: int, rng: Rng) -> WorldsState:
        return views.determinize(state, player, rng)

    def parse_action(self, state: WorldsState, player: int, text: str) -> Action:
        return notation.parse_action(text)

    def typed_action(self, state: WorldsState, player: int, action: Action) -> str:
        return notation.typed(action)

    def render_text(self, state: WorldsState, player: int | None) -> str:
        return render_text(state, player)


GAME = WorldsGame()

__all__ = ["GAME", "MOVES", "WorldsGame", "WorldsState"]
