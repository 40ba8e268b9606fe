"""The Full Metal Planète game object: set-up, turn flow (FM-6, FM-9) and the protocol."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, ClassVar

from spacetable.core import catalog
from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.rng import Rng, mix_seed
from spacetable.core.simultaneous import SealedCommits

from . import building, capture, endgame, fire, movement, spaceship, transport
from .ap import income, saved_after
from .firezones import settle, sync_cover
from .fmp import MAPS, FmpError, FmpMap, catalog_map, content_map
from .pontoons import sink
from .terrain import MOUNTAIN, SEA
from .tides import draw_tide, ensure_walk, forecast, setup_deck
from .units import CRAB, ORE, PONTOON, SHIP, STARTING_FORCE, TANK, WL, FMState
from .variants import OPTIONS, apply_preset

AGGRESSIVE = ("fire", "assault", "capture", "capture_ship")


def last_turn(state: FMState) -> int:
    return 26 if state.config["endgame"] == "fmg" else 25


def load_map(config: dict[str, Any], seed: int, players: int) -> tuple[FmpMap, str]:
    """The map of a configuration: a catalogue entry by name, a seeded generated map, or the player's own
    ``.fmp`` text (``map=custom``, ``map_content``). Never a path (FM-7.1)."""
    if config["map"] == "generated":
        from .mapgen import generate_map

        map_seed = config["map_seed"] or mix_seed(seed, "fullmetal", "map") % (1 << 31)
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


def place_ore(state: FMState, fmap: FmpMap) -> None:
    """FM-3.1 lattice (or the REPARTITION layer, or the ``random`` variant)."""
    board = state.board
    rng = state.rng.split("ore")
    cells: list[tuple[int, str]] = []
    if fmap.ore is not None:
        cells = [(board.index(x, y), ch) for x, y, ch in fmap.ore_cells()]
    else:
        a, b = rng.randbelow(3), rng.randbelow(3)
        lattice = [c for c in board.cells
                   if board.axial[c][0] % 3 == a and board.axial[c][1] % 3 == b and board.terrain[c] != SEA]
        if state.config["ore_placement"] == "random":
            pool = [c for c in board.cells if board.terrain[c] != SEA]
            rng.shuffle(pool)
            chosen: list[int] = []
            taken: set[int] = set()
            for c in pool:
                if len(chosen) >= len(lattice):
                    break
                if c in taken or any(n in taken for n in board.neigh[c]):
                    continue
                chosen.append(c)
                taken.add(c)
            lattice = sorted(chosen)
        cells = [(c, "2") for c in lattice]
    for c, ch in cells:
        value = 2
        if state.config["ore_values"] == "multi":
            value = int(ch) if ch in "0235" and fmap.ore is not None else [0, 2, 2, 2, 3, 3, 5, 0, 2, 2][rng.randbelow(10)]
        u = state.new_unit(ORE, -1, cells=[c], value=value)
        state.occ[c] = u.id


class FullMetalGame(Game[FMState]):
    """Full Metal Planète for 2-4 players (spec ``fullmetal``)."""

    id = "fullmetal"
    name = "Full Metal Planète"
    min_players = 2
    max_players = 4
    state_type = FMState
    hidden_information = True
    stochastic = True
    HANDLERS: ClassVar[dict[str, Any]] = {
        "move": movement.move, "retreat": movement.retreat, "load": transport.load, "unload": transport.unload,
        "transfer": transport.transfer, "enter": transport.enter, "exit": transport.exit_ship, "build": building.build,
        "fire": fire.fire, "assault": fire.assault, "capture": capture.capture, "capture_ship": capture.capture_ship,
        "repair": capture.repair, "take_off": endgame.take_off,
    }

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
            load_map(out, 0, self.num_players(out))  # validates the player's own map now (size, format)
        elif out["map_content"]:
            raise ConfigError("map_content is only read with map=custom")
        return out

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
            rng=Rng.from_seed(mix_seed(seed, "fullmetal")), map_name=map_name,
            zones="".join(fmap.zones) if fmap.zones else "",
        )
        state.init_seats()
        if config["reserve"] == "per_player":
            state.reserve = {TANK: 4 * n, CRAB: n, PONTOON: n}
        elif n == 3:
            state.reserve = {TANK: 12, CRAB: 3, PONTOON: 3}
        else:
            state.reserve = {TANK: 16, CRAB: 4, PONTOON: 4}
        place_ore(state, fmap)
        for p in range(n):
            ship = state.new_unit(SHIP, p)
            state.ships.append(ship.id)
            for kind, count in STARTING_FORCE:
                for _ in range(count):
                    u = state.new_unit(kind, p, carrier=ship.id, shots=2 if kind in ("tank", "gt", "mb") else 0)
                    ship.cargo.append(u.id)
        lots = state.rng.split("lots")
        state.land_order = list(range(n))
        lots.shuffle(state.land_order)
        state.lot = lots.randbelow(n)
        setup_deck(state)
        state.phase = "land"
        return state

    # ------------------------------------------------------------------ protocol
    def to_act(self, state: FMState) -> tuple[int, ...]:
        if state.phase == "land":
            waiting = self._to_land(state)
            return (waiting[0],) if waiting else ()
        if state.phase in ("deploy", "depart"):
            return state.sealed.waiting()
        if state.phase == "play":
            return (state.active_player(),)
        return ()

    def may_resign(self, state: FMState, player: int) -> bool:
        """D-21 / spec §5: ``resign`` is open at any time to a player still in the game (not eliminated,
        not already gone with all their ships)."""
        if state.phase == "over" or not 0 <= player < state.num_players or state.eliminated[player] >= 0:
            return False
        return state.phase in ("land", "deploy") or state.is_active(player) or player in self.to_act(state)

    def apply(self, state: FMState, player: int, action: Action) -> FMState:
        if isinstance(action, dict) and action.get("type") == "resign":
            if not self.may_resign(state, player):
                raise RuleError("D-21", "only a player still in the game can resign")
            s = state.copy()
            self._resign(s, player)
            return s
        self.check_turn(state, player)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RuleError("CORE-ACTION", "an action is a JSON object with a type")
        s = state.copy()
        kind = action["type"]
        if s.phase == "land":
            if kind != "land":
                raise RuleError("FM-7", "turn 1: land your ship")
            spaceship.land(s, player, action)
            self._after_landing(s)
            return s
        if s.phase == "deploy":
            if kind != "deploy":
                raise RuleError("FM-8", "turn 2: submit your deployment")
            spaceship.validate_deploy(s.copy(), player, action.get("units"))
            s.sealed.submit(player, action.get("units"), "FM-8.1")
            if s.sealed.complete():
                self._finish_deploy(s)
            return s
        if s.phase == "depart":
            if kind != "decide_departure":
                raise RuleError("FM-20.1", "turn 21: decide which ships leave")
            choices = action.get("choices", {})
            if not isinstance(choices, dict) or any(v not in ("stay", "leave") for v in choices.values()):
                raise RuleError("CORE-ACTION", "choices map ship ids to stay/leave")
            own = {str(x.id) for x in s.ships_of(player)}
            if any(k not in own for k in choices):
                raise RuleError("FM-20.1", "decide only for ships you control")
            s.sealed.submit(player, {k: choices[k] for k in sorted(choices)}, "FM-20.1")
            if s.sealed.complete():
                self._finish_departure(s)
            return s
        if s.phase != "play":
            raise RuleError("CORE-TURN", "the game is over")
        if kind == "end_turn":
            self._end_turn(s, player)
            return s
        handler = self.HANDLERS.get(kind)
        if handler is None:
            raise RuleError("CORE-ACTION", f"unknown action type {kind!r}")
        if s.config["endgame"] == "fmg" and s.turn == 21 and kind in AGGRESSIVE:
            raise RuleError("FM-20.1", "fmg turn 21: saved AP serve only non-aggressive actions")
        window = s.retreat_window
        handler(s, player, action)
        if kind not in ("retreat", "capture_ship"):
            s.retreat_window = False
            s.retreat_only = None
        elif kind == "retreat":
            s.retreat_window = window
        s.acted = True
        return s

    # ---------------------------------------------------------------- turn flow
    def _to_land(self, s: FMState) -> list[int]:
        """FM-7: players still to land, in lot order (resigned players are skipped)."""
        return [p for p in s.land_order if s.eliminated[p] < 0 and not s.units[s.ships[p]].cells]

    def _after_landing(self, s: FMState) -> None:
        if self._to_land(s):
            return
        players = [p for p in range(s.num_players) if s.eliminated[p] < 0]
        if not players:
            s.phase = "over"
            return
        s.phase, s.turn = "deploy", 2
        s.sealed = SealedCommits.open(players)
        if s.config["deploy_forecast"]:
            # spec §1.2 (PC): a weather layer sees the turn-3 tide while deploying (all are still aboard)
            if s.config["tide_generator"] == "random_walk":
                ensure_walk(s, 1)
            for p in players:
                if s.pile and any(u.kind == WL and s.ctl(u) == p for u in s.units.values()):
                    s.forecasts[p][3] = s.pile[0]

    def _finish_deploy(self, s: FMState) -> None:
        commits = s.sealed.revealed()
        s.sealed = SealedCommits()
        spaceship.reveal_deploy(s, commits)
        order = spaceship.seat_order(s)
        first = s.lot % s.num_players
        k = order.index(first) if first in order else s.lot % len(order)
        s.order = order[k:] + order[:k]
        s.current = 0
        s.phase = "play"
        settle(s, s.order[0], lock=False)
        self._start_game_turn(s, 3)

    def _start_game_turn(self, s: FMState, turn: int) -> None:
        """FM-6.2: tide, stranding, sinking, settle, forecasts; turn 21 decision."""
        s.turn = turn
        s.current = 0
        if turn > last_turn(s) or not any(s.is_active(p) for p in range(s.num_players)):
            s.phase = "over"
            return
        draw_tide(s)
        sink(s)
        settle(s, s.order[0], lock=False)
        forecast(s)
        if turn == 21 and s.config["endgame"] == "original":
            active = [p for p in range(s.num_players) if s.is_active(p)]
            s.phase = "depart"
            s.sealed = SealedCommits.open(active)
            return
        s.phase = "play"
        self._start_player_turn(s)

    def _start_player_turn(self, s: FMState) -> None:
        """FM-6.3: skip players who cannot play; reset shots, locks, builds; pool; retreat window."""
        while s.current < len(s.order) and not s.is_active(s.order[s.current]):
            s.current += 1
        if s.current >= len(s.order):
            self._start_game_turn(s, s.turn + 1)
            return
        p = s.order[s.current]
        for u in s.units.values():
            u.locked = False
            u.builds = []
            if u.kind in ("tank", "gt", "mb", "turret") and s.ctl(u) == p:
                u.shots = 2
        s.pool[p] = income(s, p) + s.saved[p]
        s.saved[p] = 0
        s.retreat_window = True
        s.retreat_only = None
        s.acted = False
        sync_cover(s)

    def mountain_pairs(self, s: FMState, player: int) -> list[tuple[int, int]]:
        out = []
        for u in s.units.values():
            if u.kind == TANK and s.on_board(u) and s.ctl(u) == player and s.board.terrain[u.cells[0]] == MOUNTAIN:
                for o in s.mountain_partners(u):
                    if o > u.id:
                        out.append((u.id, o))
        return out

    def can_separate(self, s: FMState, player: int, pairs: list[tuple[int, int]]) -> bool:
        for pair in pairs:
            for uid in pair:
                u = s.units[uid]
                for n in s.board.neigh[u.cells[0]]:
                    try:
                        movement.move(s.copy(), player, {"unit": uid, "path": [s.xy(n)]})
                    except RuleError:
                        continue
                    return True
        return False

    def _end_turn(self, s: FMState, player: int, forced: bool = False) -> None:
        """FM-6.4: mountain pairs (FM-19), saving (FM-9.3), turn-25 take-off (FM-20.3), next player."""
        mode = s.config["mountain_tanks"]
        pairs = self.mountain_pairs(s, player)
        if not forced and pairs and mode in ("end_of_turn", "no_zone") and self.can_separate(s, player, pairs):
            raise RuleError("FM-19.1", "two of your tanks stand on adjacent mountains; separate them first")
        if pairs and mode == "end_of_turn":
            s.disq = sorted(set(s.disq) | {b for _, b in pairs})
        if pairs and mode == "penalty":
            s.penalty[player] = 1
        if s.turn == last_turn(s):
            endgame.auto_takeoff(s, player)
        s.saved[player] = saved_after(s.pool[player])
        s.pool[player] = 0
        sync_cover(s)
        settle(s, player, lock=False)
        s.current += 1
        self._start_player_turn(s)

    def _finish_departure(self, s: FMState) -> None:
        """FM-20.1 / D-19: leaving ships take off at once, free, and are scored."""
        commits = s.sealed.revealed()
        s.sealed = SealedCommits()
        for p in sorted(commits):
            for sid, choice in commits[p].items():
                if choice == "leave":
                    endgame.lift_off(s, s.units[int(sid)], p)
        settle(s, s.order[0], lock=False)
        s.phase = "play"
        s.current = 0
        self._start_player_turn(s)

    def _resign(self, s: FMState, player: int) -> None:
        """D-21: all the player's colours are deactivated and the player is eliminated."""
        was_current = s.phase == "play" and s.active_player() == player
        for c in range(len(s.controller)):
            if s.controller[c] == player:
                s.controller[c] = -1
        s.eliminated[player] = s.lot_counter_next()
        s.resigned[player] = True
        s.saved[player] = s.pool[player] = 0
        if s.phase in ("deploy", "depart") and player in s.sealed.required:
            s.sealed.required.remove(player)
            s.sealed.commits.pop(player, None)
            if s.sealed.complete():
                if s.phase == "deploy":
                    self._finish_deploy(s)
                else:
                    self._finish_departure(s)
                return
        if s.phase == "land":
            self._after_landing(s)
            return
        sync_cover(s)
        if s.order:
            settle(s, s.order[min(s.current, len(s.order) - 1)], lock=False)
        if was_current:
            s.current += 1
            self._start_player_turn(s)
        elif s.phase == "play" and not any(s.is_active(p) for p in range(s.num_players)):
            s.phase = "over"

    def clock_expired(self, state: FMState) -> FMState:
        """FM-22.1: the running clock ran out. Play: ``end_turn`` (the FM-19.1 fallback applies);
        landing: a uniformly random legal site; deployment: undeployed units stay aboard;
        departure: ``stay``. The server calls this; the engine keeps no wall clock (D-27)."""
        s = state.copy()
        if s.phase == "play":
            self._end_turn(s, s.active_player(), forced=True)
        elif s.phase == "land":
            from .legal import landing_actions

            p = self.to_act(s)[0]
            options = landing_actions(s, p)
            pick = s.rng.split("auto-landing").randbelow(len(options))
            s = self.apply(s, p, options[pick])
        elif s.phase in ("deploy", "depart"):
            for p in self.to_act(s):
                action = {"type": "deploy", "units": []} if s.phase == "deploy" else {"type": "decide_departure", "choices": {}}
                s = self.apply(s, p, action)
        return s

    def timeout_action(self, state: FMState, seat: int) -> Action | None:
        """FM-22.1 as one legal action, for a server whose clock ran out (it would resign otherwise):
        landing at a uniformly random legal site, an empty deployment (units stay aboard), ``stay``
        for every ship on turn 21, and ``end_turn`` in play. When FM-19.1 rejects ``end_turn`` (a
        mountain pair that could still separate), the first move that separates it; the next expiry
        then ends the turn. :meth:`clock_expired` applies the rule in one go for a caller that can."""
        if seat not in self.to_act(state):
            return None
        if state.phase == "land":
            from .legal import landing_actions

            options = landing_actions(state, seat)
            if not options:
                return None
            return options[state.rng.copy().split("auto-landing").randbelow(len(options))]  # never advance the live RNG
        if state.phase == "deploy":
            return {"type": "deploy", "units": []}
        if state.phase == "depart":
            return {"type": "decide_departure", "choices": {str(s.id): "stay" for s in state.ships_of(seat)}}
        if state.phase != "play":
            return None
        from .legal import game_end_turn_ok

        if game_end_turn_ok(self, state, seat):
            return {"type": "end_turn"}
        pairs = self.mountain_pairs(state, seat)
        paired = {uid for pair in pairs for uid in pair}
        moves = [a for a in self.legal_actions(state, seat) if a["type"] == "move" and a["unit"] in paired]
        for action in moves:
            if len(self.mountain_pairs(self.apply(state, seat, action), seat)) < len(pairs):
                return action
        return moves[0] if moves else None

    # ------------------------------------------------------------------ results
    def outcome(self, state: FMState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores, order, ranks = endgame.ranking(state)
        winners = tuple(p for p in range(state.num_players) if ranks[p] == 1)
        return Outcome(tuple(scores), winners, "take_off", tuple(order), {"ranks": ranks, "departed": state.departed})

    def returns(self, state: FMState) -> list[float]:
        out = self.outcome(state)
        n = state.num_players
        if out is None:
            return [0.0] * n
        ranks = out.details["ranks"]
        if n == 1:
            return [1.0]
        return [1.0 - 2.0 * (r - 1) / (n - 1) for r in ranks]

    # ------------------------------------------------------------------- views
    def legal_actions(self, state: FMState, player: int) -> list[Action]:
        from .legal import legal_actions

        return legal_actions(self, state, player)

    def view(self, state: FMState, player: int | None) -> dict[str, Any]:
        from .render import state_view

        return state_view(state, player)

    def action_view(self, state: FMState, player: int, action: Action, viewer: int | None) -> Action | None:
        if action.get("type") in ("deploy", "decide_departure") and viewer != player:
            if action.get("type") == "deploy" and not state.config["deploy_secret"]:
                return action
            return {"type": action["type"], "sealed": True}
        return action

    def render_text(self, state: FMState, player: int | None) -> str:
        from .render import text_view

        return text_view(state, player)

    def action_text(self, state: FMState, player: int, action: Action) -> str:
        from .notation import format_action

        return format_action(action)

    def parse_action(self, state: FMState, player: int, text: str) -> Action:
        from .notation import parse_action

        return parse_action(state, player, text)

    def determinize(self, state: FMState, player: int, rng: Rng) -> FMState:
        """Resample what ``player`` cannot know (spec §4): unforecast deck order, set-aside cards, others'
        forecasts and sealed commits, the turn-3 first player before the deployment reveal (FM-8.3), and
        random-walk tides drawn for someone else's forecast (they are dropped and redrawn when needed)."""
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
