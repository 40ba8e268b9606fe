"""The Full Metal Planète game object: the declared moves and the protocol around them.

Every action type is declared once in :data:`MOVES`: its rule, the phases where it may be played
(:mod:`.flow`), a strict parameter schema (also the JSON Schema the API publishes), the function of the
rule-area module that performs it, its notation and its translated sentence (:mod:`.notation`,
``i18n/<lang>.json``). ``resign`` is the core move (FM-D21). The game object delegates: the flow decides
who acts, :mod:`.legal` lists the legal actions, :mod:`.render` draws the views.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from spacetable.core import catalog
from spacetable.core.errors import ConfigError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.moves import Move, MoveTable, NoParams
from spacetable.core.rng import Rng, mix_seed

from . import building, capture, clock, endgame, fire, flow, legal, movement, notation, render, spaceship, transport
from .fmp import MAPS, FmpError, FmpMap, catalog_map, content_map
from .mapcheck import validate_map
from .mapgen import generate_map
from .setup import populate
from .state import FMState
from .variants import OPTIONS, apply_preset

peaceful = endgame.peaceful_on_fmg_turn_21
PLAY = ("play",)

#: Every action of the game (spec order); ``resign`` is added by the table (FM-D21).
MOVES: MoveTable[FMState] = MoveTable(
    "fullmetal",
    [
        Move("land", "FM-7.1", spaceship.land, spaceship.LandParams, phases=("land",),
             notation=notation.land_text, args=notation.land_args, doc="Land the ship on turn 1, in lot order."),
        Move("deploy", "FM-8.1", spaceship.deploy, spaceship.DeployParams, phases=("deploy",),
             notation=notation.deploy_text, args=notation.deploy_args, doc="Place units around the dome (sealed)."),
        Move("decide_departure", "FM-20.1", endgame.decide_departure, endgame.DepartureParams, phases=("depart",),
             notation=notation.departure_text, args=notation.departure_args,
             doc="Turn 21: choose, per ship, to leave now or stay (sealed)."),
        Move("move", "FM-10.1", movement.move, movement.MoveParams, phases=PLAY,
             notation=notation.move_text, args=notation.move_args, doc="Move a unit along a path, 1 AP per step."),
        Move("retreat", "FM-15.6", movement.retreat, movement.RetreatParams, phases=PLAY,
             notation=notation.retreat_text, args=notation.retreat_args,
             doc="A neutralized unit steps out of fire before any other action (1 AP)."),
        Move("load", "FM-11.1", transport.load, transport.LoadParams, phases=PLAY,
             notation=notation.load_text, args=notation.load_args, doc="Load an adjacent item (1 AP)."),
        Move("unload", "FM-11.2", transport.unload, transport.UnloadParams, phases=PLAY,
             notation=notation.unload_text, args=notation.unload_args,
             doc="Unload onto a cell, a pair of cells or into an adjacent carrier (1 AP)."),
        Move("transfer", "FM-12.4", transport.transfer, transport.TransferParams, phases=PLAY,
             notation=notation.transfer_text, args=notation.transfer_args,
             doc="Shift cargo inside a ship or between a barge and its crab (0 AP)."),
        Move("enter", "FM-12.2", transport.enter, transport.EnterParams, phases=PLAY,
             notation=notation.enter_text, args=notation.enter_args, doc="Enter an own ship through a pod (1 AP)."),
        Move("exit", "FM-12.3", transport.exit_ship, transport.ExitParams, phases=PLAY,
             notation=notation.exit_text, args=notation.exit_args,
             doc="Leave a ship through a pod with an intact turret (1 AP)."),
        Move("build", "FM-13.1", building.build, building.BuildParams, phases=PLAY,
             notation=notation.build_text, args=notation.build_args,
             doc="A weather layer turns its ore into a tank, crab or pontoon (1 AP)."),
        Move("fire", "FM-16.1", peaceful("fire", fire.fire), fire.FireParams, phases=PLAY,
             notation=notation.fire_text, args=notation.fire_args, doc="Two destroyers shoot at one cell (2 AP)."),
        Move("assault", "FM-16.5", peaceful("assault", fire.assault), fire.AssaultParams, phases=PLAY,
             notation=notation.assault_text, args=notation.assault_args,
             doc="Second arrival: enter enemy fire and shoot the defenders down, atomically."),
        Move("capture", "FM-17.1", peaceful("capture", capture.capture), capture.CaptureParams, phases=PLAY,
             notation=notation.capture_text, args=notation.capture_args,
             doc="Two adjacent destroyers take a unit (1 AP)."),
        Move("capture_ship", "FM-18.1", peaceful("capture_ship", capture.capture_ship), capture.CaptureShipParams,
             phases=PLAY, notation=notation.capture_ship_text, args=notation.capture_ship_args,
             doc="A destroyer enters a turretless opponent ship and takes it (1 AP, then +5)."),
        Move("repair", "FM-18.4", capture.repair, capture.RepairParams, phases=PLAY,
             notation=notation.repair_text, args=notation.repair_args, doc="Rebuild a turret of a captured ship (2 AP)."),
        Move("take_off", "FM-20.2", endgame.take_off, endgame.TakeOffParams, phases=PLAY,
             notation=notation.take_off_text, args=notation.take_off_args, doc="Take off on the last turn."),
        Move("end_turn", "FM-6.4", flow.end_turn, NoParams, phases=PLAY,
             notation=notation.end_turn_text, args=notation.no_args, doc="End the turn (saves AP in fives)."),
    ],
    phase_of=flow.phase_of,
    after=flow.after,
    phase_rule=flow.PHASE_RULES,
    resign=flow.resign,
    may_resign=flow.may_resign,
)


def load_map(config: dict[str, Any], seed: int, players: int) -> tuple[FmpMap, str]:
    """The map of a configuration: a catalogue entry by name, a seeded generated map, or the player's own
    ``.fmp`` text (``map=custom``, ``map_content``). Never a path."""
    if config["map"] == "generated":
        map_seed = config["map_seed"] or GAME.seed_for(seed, "map") % (1 << 31)
        return generate_map(map_seed, players, config["map_size"]), f"generated:{map_seed}"
    if config["map"] == "custom":
        try:
            return content_map(config.get("map_content")), "custom"
        except FmpError as exc:
            raise ConfigError(f"map_content: {exc}") from None
    return catalog_map(config["map"]), config["map"]


def map_choices() -> tuple[str, ...]:
    """Values of the ``map`` option: ``original`` and the other catalogue maps, ``generated``, ``custom``."""
    return ("original", *(n for n in catalog.names(MAPS) if n != "original"), "generated", "custom")


class FullMetalGame(Game[FMState]):
    """Full Metal Planète for 2-4 players (rules: ``docs/rules/fullmetal.md``)."""

    id = "fullmetal"
    name = "Full Metal Planète"
    min_players = 2
    max_players = 4
    state_type = FMState
    hidden_information = True
    stochastic = True
    moves = MOVES

    # ------------------------------------------------------------- configuration
    def options(self) -> list[Option]:
        return [dataclasses.replace(o, choices=map_choices()) if o.name == "map" else o for o in OPTIONS]

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        cfg = dict(config or {})
        preset = cfg.get("preset", "original")
        if preset not in ("original", "pc", "fmg"):
            raise ConfigError(f"unknown preset {preset!r}")
        out = super().normalize_config(apply_preset(cfg))
        if out["map"] == "custom":
            # the player's own map is read now (size, format) and must be playable as configured: enough ships
            # can land under the landing rule, its ore and zones lie on the board (mapcheck, the map editor's rules)
            fmap, _ = load_map(out, 0, self.num_players(out))
            problems = validate_map(fmap, players=self.num_players(out), landing_rule=out["landing_rule"],
                                    landing_min_distance=out["landing_min_distance"])
            if problems:
                raise ConfigError("map_content: " + "; ".join(f"{p.message} ({p.rule})" if p.rule else p.message
                                                              for p in problems))
        elif out["map_content"]:
            raise ConfigError("map_content is only read with map=custom")
        return out

    def seed_for(self, seed: int, label: str) -> int:
        """Sub-seeds of a match seed (FM-D4): ``map`` seeds a generated map, ``state`` the state's generator
        (whose named sub-streams draw everything else). ``state`` keeps the derivation games were recorded
        with, ``mix_seed(mix_seed(seed, "fullmetal"))``, so saved matches replay identically."""
        if label == "state":
            return mix_seed(mix_seed(seed, self.id))
        return super().seed_for(seed, label)

    # -------------------------------------------------------------------- set-up
    def initial_state(self, config: dict[str, Any], seed: int) -> FMState:
        config = self.normalize_config(config) if "landing_rule" not in config else config
        n = self.num_players(config)
        fmap, map_name = load_map(config, seed, n)
        if config["landing_rule"] == "zones" and fmap.zones is None:
            raise ConfigError("landing_rule=zones needs a map with a ZONES block")
        state = FMState(
            # the map's content is in the state (terrain, zones, ore); views do not repeat it
            num_players=n, config={k: v for k, v in config.items() if k != "map_content"},
            width=fmap.width, height=fmap.height, terrain="".join(fmap.terrain),
            rng=self.rng_for(seed, "state"), map_name=map_name,
            zones="".join(fmap.zones) if fmap.zones else "",
        )
        populate(state, fmap)
        return state

    # ------------------------------------------------------------------ protocol
    def to_act(self, state: FMState) -> tuple[int, ...]:
        return flow.to_act(state)

    def legal_actions(self, state: FMState, player: int) -> list[Action]:
        return legal.legal_actions(state, player)

    def timeout_action(self, state: FMState, seat: int) -> Action | None:
        return clock.timeout_action(state, seat)

    def outcome(self, state: FMState) -> Outcome | None:
        """FM-20.4 / FM-20.5 / FM-20.6 once the game is over."""
        if state.phase != "over":
            return None
        scores, order, ranks = endgame.ranking(state)
        winners = tuple(p for p in range(state.num_players) if ranks[p] == 1)
        return Outcome(tuple(scores), winners, "take_off", tuple(order), {"ranks": ranks, "departed": state.departed})

    def returns(self, state: FMState) -> list[float]:
        """Rank-graded rewards: +1 first, -1 last, evenly spaced between. Seats that tie share the places
        they take together: each gets the mean of those places' rewards (a 2-player tie is 0 for both;
        two seats tied first of three get +½), so the rewards always sum to 0."""
        out = self.outcome(state)
        n = state.num_players
        if out is None:
            return [0.0] * n
        ranks = out.details["ranks"]  # competition ranks: k seats tied at rank r take places r .. r + k - 1
        return [1.0 - 2.0 * ((r - 1) + (ranks.count(r) - 1) / 2) / (n - 1) for r in ranks]

    # ------------------------------------------------------------------- views
    def view(self, state: FMState, player: int | None) -> dict[str, Any]:
        return render.state_view(state, player)

    def public_view(self, state: FMState) -> dict[str, Any]:
        """The view's fields every viewer sees alike (all but the viewer, its sealed commits and its forecast)."""
        return render.public_view(state)

    def own_view(self, state: FMState, player: int | None) -> dict[str, Any]:
        return render.own_view(state, player)

    def action_view(self, state: FMState, player: int, action: Action, viewer: int | None) -> Action | None:
        """Sealed commits (FM-8.1, FM-20.1) are hidden from the other seats; ``deploy_secret=false`` shows
        deployments (FM-D44)."""
        if action.get("type") in ("deploy", "decide_departure") and viewer != player:
            if action.get("type") == "deploy" and not state.config["deploy_secret"]:
                return action
            return {"type": action["type"], "sealed": True}
        return action

    def render_text(self, state: FMState, player: int | None) -> str:
        return render.text_view(state, player)

    def parse_action(self, state: FMState, player: int, text: str) -> Action:
        return notation.parse_action(state, player, text)

    def determinize(self, state: FMState, player: int, rng: Rng) -> FMState:
        """Resample what ``player`` cannot know (the information model of the rules doc): unforecast deck
        order, set-aside cards, others' forecasts and sealed commits, the turn-3 first player before the
        deployment reveal (FM-8.3), and random-walk tides drawn for someone else's forecast (they are
        dropped and redrawn when needed)."""
        s = state.copy()
        s.rng = Rng(rng.next_u64())
        if s.phase in ("land", "deploy"):
            s.lot = s.rng.randbelow(s.num_players)
        known = state.forecasts[player] if 0 <= player < state.num_players else {}
        if s.config["tide_generator"] == "random_walk":
            prefix = 0
            while prefix < len(s.pile) and known.get(state.turn + 1 + prefix) is not None:
                prefix += 1
            s.pile = s.pile[:prefix]
        fixed = [known.get(state.turn + 1 + i) for i in range(len(s.pile))]
        unknown = [t for i, t in enumerate(s.pile) if fixed[i] is None] + list(s.aside)
        s.rng.shuffle(unknown)
        pile = []
        for f in fixed:
            pile.append(f if f is not None else unknown.pop())
        s.pile, s.aside = pile, unknown
        for p in range(s.num_players):
            if p != player:
                s.forecasts[p] = {}
                if p in s.sealed.commits:
                    s.sealed.commits[p] = [] if s.phase == "deploy" else {}
        return s

    def clone(self, state: FMState) -> FMState:
        return state.copy()

    def state_to_json(self, state: FMState) -> dict[str, Any]:
        data = super().state_to_json(state)
        return json.loads(json.dumps(data))


GAME = FullMetalGame()
