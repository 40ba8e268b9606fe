"""The Battleship Galaxies game object: configuration, the declared moves (rules doc, "Actions and notation") and the protocol.

Every action type of the rules doc's vocabulary is declared once in :data:`MOVES` with its strict,
bounded parameter schema, its windows (phases of :func:`.flow.phase_of`), its rule id, its
notation and its translation arguments; the rules live in the rule-area modules. The doc's
``concede`` is the core ``resign`` move.

Views, notation and the text board (:mod:`.views`, :mod:`.notation`, :mod:`.render`) depend only on
the state and the rule modules, so this facade imports them; the AI and the CLI import the facade.

Legal-action lists are canonical: moves list one path per reachable footprint, launches one
formation per first hex for squadrons and a few cargo variants, discards one card at a time, fleet
choices every fleet within the budget with default commanders, constructed decks the mission's
presets. ``apply`` accepts every legal action, listed or not (other paths, formations, cargo sets,
multi-card discards, named commanders, any 30-card deck).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from spacetable.core.errors import ConfigError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.moves import Coord, Move, MoveTable, Name, NoParams, Params, bounded_list
from spacetable.core.rng import Rng

from . import activation, attacks, energy, flow, launch, movement, setup, tactics, victory
from .attacks import attacks_left, targets_in_range
from .energy import over_limit
from .notation import parse, phrase_args, write
from .packs import HOUSE_LABEL, Pack, bundled_pack, named_pack, pack_of_config
from .render import render_text
from .state import SIDES, GState
from .stats import weapon_stat, weapons
from .views import build_view, determinize, filter_action, own_view, public_view

HexP = bounded_list(Coord, 2, 2)
Dir = Annotated[int, Field(ge=0, le=5)]
Placement = Annotated[dict[Name, bounded_list(HexP, 7, 1)], Field(min_length=1, max_length=3)]  # type: ignore[valid-type]


class FleetEntryP(Params):
    ship: Name
    version: Literal["standard", "seasoned", "veteran"] = "standard"
    seat: Annotated[int, Field(ge=0, le=3)] | None = None


class SubmitFleet(Params):
    """Seal the side's fleet (budget missions)."""

    fleet: bounded_list(FleetEntryP, 12, 1)  # type: ignore[valid-type]


class SubmitDeck(Params):
    """Seal the side's constructed deck: 30 tactic card names."""

    cards: bounded_list(Name, 40, 1)  # type: ignore[valid-type]


class ChooseFirst(Params):
    side: Literal["A", "B"]


class CardsP(Params):
    cards: bounded_list(Name, 20, 1)  # type: ignore[valid-type]


class MarketP(Params):
    take: bool


class RegenP(Params):
    ship: Name | None = None


class LaunchP(Params):
    card: Name
    placement: Placement
    cargo: bounded_list(Name, 8) = Field(default_factory=list)  # type: ignore[valid-type]


class HoldP(Params):
    transporter: Name
    card: Name
    placement: Placement


class CardP(Params):
    card: Name


class MoveP(Params):
    ship: Name
    lead: HexP | None = None  # type: ignore[valid-type]
    path: bounded_list(Dir, 24, 1)  # type: ignore[valid-type]


class WarpP(Params):
    ship: Name
    hexes: bounded_list(HexP, 2, 1)  # type: ignore[valid-type]


class ChargeP(Params):
    ship: Name
    weapon: Name


class AttackP(Params):
    ship: Name
    weapon: Name
    target: Name


class ChoicesP(Params):
    hexes: bounded_list(HexP, 2, 1) | None = None  # type: ignore[valid-type]


class PlayP(Params):
    card: Name
    targets: Annotated[dict[Name, Name], Field(max_length=4)] = Field(default_factory=dict)
    choices: ChoicesP = ChoicesP()


# ----------------------------------------------------------------------- legal lists
def _fleets(s: GState, seat: int) -> list[Action]:
    """BG-4.4: every fleet of the side's ships (each ship in none or one of its versions) within the mission's budget."""
    side = s.side_of(seat)
    rule = s.missiondata.fleets[SIDES[side]]
    ships = tuple((x.key, tuple((v, x.versions[v].cost) for v in x.versions))
                  for x in s.pack.ships.values() if x.faction == s.sides[side].faction)
    return [{"type": "submit_fleet", "fleet": [{"ship": ship, "version": v} for ship, v in fleet]}
            for fleet in _fleet_choices(ships, rule.budget)]


@lru_cache(maxsize=256)
def _fleet_choices(ships: tuple[tuple[str, tuple[tuple[str, int], ...]], ...],
                   budget: int | None) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The fleets of :func:`_fleets` as (ship, version) pairs, for ships given as (key, ((version, cost), ...)):
    the same for every match of a pack and mission, so worked out once (hundreds of combinations)."""
    out = []
    for combo in product(*[[None, *versions] for _, versions in ships]):
        fleet = tuple((ship, v[0]) for (ship, _), v in zip(ships, combo, strict=True) if v)
        cost = sum(v[1] for v in combo if v)
        if fleet and (budget is None or cost <= budget):
            out.append(fleet)
    return tuple(out)


def _decks(s: GState, seat: int) -> list[Action]:
    rule = s.missiondata.decks[SIDES[s.side_of(seat)]]
    return [{"type": "submit_deck", "cards": list(p)} for p in (rule.presets or [])]


def _discards(s: GState, seat: int) -> list[Action]:
    side = s.side_of(seat)
    if side != s.active or s.window is not None or s.roll is not None:
        return []
    seen: set[str] = set()
    out = []
    for tid in s.sides[side].hand:
        key = s.tactics[tid].key
        if key not in seen:
            seen.add(key)
            out.append({"type": "discard_for_energy", "cards": [tid]})
    return out


def _market(s: GState, seat: int) -> list[Action]:
    ec = s.energy_choice
    return [{"type": "market_draw", "take": True}, {"type": "market_draw", "take": False}] if ec and ec.market else []


def _regen(s: GState, seat: int) -> list[Action]:
    ec = s.energy_choice
    if not ec or not ec.regen:
        return []
    return [{"type": "regen_shield", "ship": x} for x in dict.fromkeys(ec.regen)] + [{"type": "regen_shield", "ship": None}]


def _end_energy(s: GState, seat: int) -> list[Action]:
    return [] if over_limit(s, s.active) else [{"type": "end_energy"}]


def _launches(s: GState, seat: int) -> list[Action]:
    side = s.side_of(seat)
    energy_left = s.sides[side].energy
    out: list[Action] = []
    for c in list(s.cards.values()):
        if c.side != side or c.zone != "screen" or c.seat != seat or s.vdata(c.id).launch_cost > energy_left:
            continue
        cargos = launch.cargo_options(s, c.id)
        for placement in launch.zone_placements(s, c.id):
            for cargo in cargos:
                out.append({"type": "launch", "card": c.id, "placement": placement, "cargo": cargo})
    return out


def _hold_launches(s: GState, seat: int) -> list[Action]:
    side = s.side_of(seat)
    energy_left = s.sides[side].energy
    out: list[Action] = []
    for t in list(s.cards.values()):
        if t.side != side or t.zone != "play" or not t.cargo or t.launched_turn >= s.turn:
            continue
        for cid in t.cargo:
            if s.cards[cid].seat != seat or s.vdata(cid).launch_cost > energy_left:
                continue
            for placement in launch.hold_placements(s, t.id, cid):
                out.append({"type": "launch_from_hold", "transporter": t.id, "card": cid, "placement": placement})
    return out


def _activations(s: GState, seat: int) -> list[Action]:
    side = s.side_of(seat)
    e = s.sides[side].energy
    return [{"type": "activate", "card": c.id} for c in s.cards.values()
            if c.side == side and c.zone == "play" and c.seat == seat and not c.activated and s.vdata(c.id).activation_cost <= e]


def _end_turn(s: GState, seat: int) -> list[Action]:
    return [] if over_limit(s, s.active) else [{"type": "end_turn"}]


def _open_pieces(s: GState) -> list[str]:
    act = s.activation
    if act is None or act.card not in s.cards:
        return []
    return [pid for pid in s.cards[act.card].pieces if s.pieces[pid].alive and s.pieces[pid].hexes]


def _moves(s: GState, seat: int) -> list[Action]:
    act = s.activation
    if act is None or act.step == "attack":
        return []
    out: list[Action] = []
    for pid in _open_pieces(s):
        if pid not in act.moved:
            out.extend(r.action(pid) for r in movement.reachable(s, pid, least_ecm=False, exposure=False))
    return out


def _warps(s: GState, seat: int) -> list[Action]:
    act = s.activation
    if act is None or act.step == "attack":
        return []
    out: list[Action] = []
    for pid in _open_pieces(s):
        if pid in act.on_gate and pid not in act.moved:
            out.extend({"type": "warp", "ship": pid, "hexes": [list(h) for h in fp]} for fp in movement.warp_options(s, pid))
    return out


def _end_movement(s: GState, seat: int) -> list[Action]:
    act = s.activation
    return [{"type": "end_movement"}] if act is not None and act.step != "attack" else []


def _charges(s: GState, seat: int) -> list[Action]:
    act = s.activation
    if act is None or act.step != "attack":
        return []
    e = s.sides[s.active].energy
    out: list[Action] = []
    for pid in _open_pieces(s):
        p = s.pieces[pid]
        for w in weapons(s, p.card):
            if f"{pid}/{w.id}" not in act.charges and weapon_stat(s, p, w, "charge_cost") <= e:
                out.append({"type": "charge", "ship": pid, "weapon": w.id})
    return out


def _attacks(s: GState, seat: int) -> list[Action]:
    act = s.activation
    if act is None or act.step != "attack":
        return []
    out: list[Action] = []
    for pid in _open_pieces(s):
        p = s.pieces[pid]
        for w in weapons(s, p.card):
            if attacks_left(s, pid, w) > 0:
                out.extend({"type": "attack", "ship": pid, "weapon": w.id, "target": t} for t in targets_in_range(s, pid, w))
    return out


def _end_activation(s: GState, seat: int) -> list[Action]:
    return [{"type": "end_activation"}] if s.activation is not None else []


ACTION_PHASES = ("energy", "deploy", "action", "activation")
_T: dict[str, Any] = {"notation": write, "args": phrase_args}
MOVES: MoveTable[GState] = MoveTable(
    "galaxies",
    [
        Move("submit_fleet", "BG-4.4", setup.submit_fleet, SubmitFleet, ("fleet",), legal=_fleets, **_T),
        Move("submit_deck", "D-18", setup.submit_deck, SubmitDeck, ("deck",), legal=_decks, **_T),
        Move("choose_first", "BG-5.4", flow.choose_first, ChooseFirst, ("first",),
             legal=lambda s, p: [{"type": "choose_first", "side": x} for x in SIDES], **_T),
        Move("market_draw", "BG-7.1", flow.market_draw, MarketP, ("energy",), legal=_market, **_T),
        Move("regen_shield", "BG-7.1", flow.regen_shield, RegenP, ("energy",), legal=_regen, **_T),
        Move("end_energy", "BG-7.1", flow.end_energy, NoParams, ("energy",), legal=_end_energy, **_T),
        Move("launch", "BG-8.1", launch.launch, LaunchP, ("deploy",), legal=_launches, **_T),
        Move("launch_from_hold", "BG-8.5", launch.launch_from_hold, HoldP, ("deploy",), legal=_hold_launches, **_T),
        Move("end_deploy", "BG-8.12", flow.end_deploy, NoParams, ("deploy",), legal=lambda s, p: [{"type": "end_deploy"}], **_T),
        Move("activate", "BG-9.2", activation.activate, CardP, ("action",), legal=_activations, **_T),
        Move("move", "BG-10", movement.move, MoveP, ("activation",), legal=_moves, **_T),
        Move("warp", "BG-15.4", movement.warp, WarpP, ("activation",), legal=_warps, **_T),
        Move("end_movement", "BG-9.3", movement.end_movement, NoParams, ("activation",), legal=_end_movement, **_T),
        Move("charge", "BG-12.2", attacks.charge, ChargeP, ("activation",), legal=_charges, **_T),
        Move("attack", "BG-12.5", attacks.attack, AttackP, ("activation",), legal=_attacks, **_T),
        Move("end_activation", "BG-12.6", activation.end_activation, NoParams, ("activation",), legal=_end_activation, **_T),
        Move("play_tactic", "BG-14.2", tactics.play_tactic, PlayP, ("energy", "deploy", "action", "activation", "roll"),
             legal=lambda s, p: tactics.tactic_actions(s, p, False), **_T),
        Move("respond", "BG-14.4", tactics.respond, PlayP, ("reaction",),
             legal=lambda s, p: tactics.tactic_actions(s, p, True), **_T),
        Move("pass", "D-20", flow.pass_window, NoParams, ("roll", "reaction"), legal=lambda s, p: [{"type": "pass"}], **_T),
        Move("discard_for_energy", "BG-6.4", energy.discard_for_energy, CardsP, (*ACTION_PHASES, "roll", "reaction"),
             legal=_discards, **_T),
        Move("end_turn", "BG-9.4", flow.end_turn, NoParams, ("action",), legal=_end_turn, **_T),
    ],
    phase_of=flow.phase_of,
    after=flow.after,
    phase_rule={"fleet": "BG-4.4", "deck": "BG-4.4", "first": "BG-5.4", "energy": "BG-7.1", "deploy": "BG-8",
                "action": "BG-9.2", "activation": "BG-9.2", "roll": "BG-12.5", "reaction": "BG-14.4"},
    resign=flow.resign,
    may_resign=flow.may_resign,
    draw=victory.agree_draw,
    draw_offer=lambda s: s.draw,
    draw_side=lambda s, p: s.side_of(p),
)

MISSION_BY_PLAYERS = {2: "m2-skirmish", 3: "m5-pan-base", 4: "m4-double-front"}
#: Actions that are deterministic and reveal nothing when they succeed without dice or reveals.
QUIET = frozenset({"activate", "move", "warp", "end_movement", "charge", "end_activation", "end_deploy",
                   "end_energy", "regen_shield", "pass"})


class GalaxiesGame(Game[GState]):
    """Battleship Galaxies for 2–4 seats (rules BG-1 to BG-18 of docs/rules/galaxies.md) with the house set."""

    id = "galaxies"
    name = "Battleship Galaxies"
    min_players = 2
    max_players = 4
    state_type = GState
    hidden_information = True
    stochastic = True
    moves: ClassVar[MoveTable[Any] | None] = MOVES
    label = HOUSE_LABEL

    # ------------------------------------------------------------- configuration
    def options(self) -> list[Option]:
        house = bundled_pack("house")
        return [
            Option("mission", "", tuple(["", *house.missions]), help="mission id (default: by seat count)"),
            Option("board", "", help="one of the mission's boards (default: its first)"),
            Option("pack", "house", help="a card pack of the catalogue, by name (house: the bundled house set)"),
            Option("pack_content", None, kind="json", help="an owner pack passed as content (never a path)"),
        ]

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        cfg = dict(config or {})
        content = cfg.get("pack_content")
        mission = cfg.get("mission") or ""
        if content is not None:  # an owner pack may name missions the house option list does not know
            pack = pack_of_config(cfg)
            cfg.pop("pack_content")
            if mission and mission not in pack.missions:
                raise ConfigError(f"unknown mission {mission!r}; the pack has {sorted(pack.missions)}")
            cfg.pop("mission", None)
            out = super().normalize_config(cfg)
            out["pack_content"] = content
            out["mission"] = mission
        else:
            pack = named_pack(str(cfg.get("pack", "house")))
            out = super().normalize_config(cfg)
        players = self.num_players(out)
        if not out["mission"]:
            out["mission"] = MISSION_BY_PLAYERS[players]
        m = pack.missions[out["mission"]]
        if len(m.seats) != players:
            if "players" in (config or {}):
                raise ConfigError(f"mission {m.id} is for {len(m.seats)} seats, not {players}")
            out["players"] = len(m.seats)
        elif players != self.min_players:
            out["players"] = players
        if out.get("board") and out["board"] not in m.boards:
            raise ConfigError(f"mission {m.id} is played on {', '.join(m.boards)}")
        return out

    def num_players(self, config: dict[str, Any]) -> int:
        if config.get("mission") and "players" not in config:
            try:
                return len(pack_of_config(config).missions[config["mission"]].seats)
            except KeyError:
                pass
        return int(config.get("players", self.min_players))

    def pack(self, config: dict[str, Any]) -> Pack:
        return pack_of_config(config)

    # ------------------------------------------------------------------ protocol
    def initial_state(self, config: dict[str, Any], seed: int) -> GState:
        if "mission" not in config or not config.get("mission"):
            config = self.normalize_config(config)
        pack = pack_of_config(config)
        return setup.new_state(dict(config), pack, self.rng_for(seed, "play"))

    def to_act(self, state: GState) -> tuple[int, ...]:
        return flow.to_act(state)

    def legal_actions(self, state: GState, player: int) -> list[Action]:
        """The open moves of the seat to act, then the open draw moves (D-23; a seat not to act may offer or
        answer too)."""
        if player not in self.to_act(state):
            return MOVES.draw_actions(state, player) if 0 <= player < state.num_players else []
        return MOVES.legal_actions(state, player)

    def outcome(self, state: GState) -> Outcome | None:
        r = state.result
        if r is None:
            return None
        n = state.num_players
        scores = tuple(float(eval_fraction(r["scores"][state.side_of(p)])) for p in range(n))
        winner = r["winner"]
        winners = tuple(p for p in range(n) if winner is not None and state.side_of(p) == winner)
        ranking = tuple(sorted(range(n), key=lambda p: (state.side_of(p) != winner, p))) if winner is not None else ()
        return Outcome(scores, winners, r["kind"], ranking,
                       {"winner_side": SIDES[winner] if winner is not None else None, "scores_exact": r["scores"],
                        "rounds": state.round, **{k: v for k, v in r.items() if k not in ("winner", "kind", "scores")}})

    def clone(self, state: GState) -> GState:
        return state.copy()

    def view(self, state: GState, player: int | None) -> dict[str, Any]:
        return build_view(state, player)

    def public_view(self, state: GState) -> dict[str, Any]:
        """The view's fields every viewer sees alike (the pack, mission, board, phase, rolls, result)."""
        return public_view(state)

    def own_view(self, state: GState, player: int | None) -> dict[str, Any]:
        return own_view(state, player)

    def action_view(self, state: GState, player: int, action: Action, viewer: int | None) -> Action | None:
        return filter_action(state, player, action, viewer)

    def determinize(self, state: GState, player: int, rng: Rng) -> GState:
        return determinize(state, player, rng)

    def action_text(self, state: GState, player: int, action: Action) -> str:
        return write(state, player, action)

    def parse_action(self, state: GState, player: int, text: str) -> Action:
        return parse(state, player, text)

    def render_text(self, state: GState, player: int | None) -> str:
        return render_text(state, player)

    def undoable(self, state: GState, player: int, action: Action) -> bool:
        """§4 undo: True when ``action`` is deterministic and reveals nothing (no die, draw,
        shuffle, tile flip, launch, card or cargo revealed), so an undo may take it back."""
        if not isinstance(action, dict) or action.get("type") not in QUIET:
            return False
        try:
            after = self.apply(state, player, action)
        except Exception:
            return False
        return after.rng.state == state.rng.state and after.rng.forced == state.rng.forced and after.reveals == state.reveals


def eval_fraction(text: str) -> float:
    num, _, den = str(text).partition("/")
    return int(num) / int(den or 1)


GAME = GalaxiesGame()
