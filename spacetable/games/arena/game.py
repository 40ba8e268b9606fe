"""Cosmic Arena, the facade: the declared moves and the game protocol (rules doc ``docs/rules/arena.md``).

Every action type is declared once in :data:`MOVES` with its rule, window, strict schema,
``exec`` (in the rule-area module), legal list, notation and sentence; resignation is the
core move (AR-10.5). The rule modules are :mod:`.board` (AR-1), :mod:`.setup` (AR-2),
:mod:`.turns` (AR-3), :mod:`.movement` (AR-4, AR-5), :mod:`.teleports` (AR-6, AR-7,
AR-9.1), :mod:`.bonus` (AR-8) and :mod:`.endings` (AR-9.2, AR-10); :mod:`.flow` holds the
phases. The compiled fast path for playouts and search is :mod:`.fast`, tested against this
engine. Import order: state → rule modules → flow → views/notation → this facade → ai/cli.
"""

from __future__ import annotations

from typing import Any, ClassVar

from spacetable.core.errors import ConfigError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.moves import Move, MoveTable, NoParams
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from . import endings, flow, notation, setup, turns, views
from .board import FACES
from .notation import parse_position
from .state import PLAY, ArenaState
from .teleports import PermuteParams, RotateParams

TURN = (PLAY,)

MOVES: MoveTable[ArenaState] = MoveTable(
    "arena",
    [
        Move("move", "AR-3.2", turns.move, turns.MoveParams, phases=TURN, legal=turns.legal_moves,
             notation=notation.move_text, args=notation.move_args, text_key=notation.move_text_key,
             doc="Move one own ship, capturing an enemy ship on arrival (AR-4, AR-5), with an optional bonus (AR-8)."),
        Move("permute", "AR-6.1", turns.permute, PermuteParams, phases=TURN, legal=turns.legal_permutes,
             notation=notation.teleport_move_text, args=notation.teleport_args,
             doc="Permute one complementary pair of own ships (AR-6)."),
        Move("rotate", "AR-7.1", turns.rotate, RotateParams, phases=TURN, legal=turns.legal_rotations,
             notation=notation.teleport_move_text, args=notation.teleport_args,
             doc="Rotate the own frigates or destroyers (AR-7)."),
        Move("accept_end", "AR-10.4", endings.accept, NoParams, phases=TURN, legal=endings.legal_accept,
             notation=notation.accept_text,
             doc="Accept the opponent's offer to end the game with the quiet-limit result (AR-10.4)."),
        Move("place", "AR-2.7", setup.place, setup.PlaceParams, phases=(flow.PLACE_ALTERNATE,), legal=setup.legal_place,
             notation=notation.place_text, args=notation.place_args,
             doc="Place one own ship on the home area (free placement, mode alternate; AR-2.7)."),
        Move("layout", "AR-2.7", setup.layout, setup.LayoutParams, phases=(flow.PLACE_SEALED,), legal=setup.legal_layout,
             notation=notation.layout_text, args=notation.layout_args,
             doc="Seal a full layout (free placement, mode simultaneous; AR-2.7)."),
    ],
    phase_of=flow.window,
    after=flow.after,
    phase_rule=flow.WINDOW_RULES,
    resign=endings.resign,
    may_resign=lambda st, seat: seat in (0, 1),
)


class ArenaGame(Game[ArenaState]):
    """Cosmic Arena (working title): 2 players, perfect information except a sealed
    simultaneous free placement (IM-1)."""

    id: ClassVar[str] = "arena"
    name: ClassVar[str] = "Cosmic Arena"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    state_type: ClassVar[type] = ArenaState
    hidden_information: ClassVar[bool] = True  # only during simultaneous placement
    stochastic: ClassVar[bool] = False
    moves: ClassVar[MoveTable[Any] | None] = MOVES

    def options(self) -> list[Option]:
        return [
            Option("board", "6x4", FACES, help="board face (AR-2.1)"),
            Option("setup", "default", ("default", "free"), help="house default layout or free placement (AR-2.3)"),
            Option("placement", "alternate", ("alternate", "simultaneous"), help="free placement mode (AR-2.7)"),
            Option("home", "standard", ("standard", "wide"), help="home areas; wide = full home ranks, 5x5 only (AR-2.4)"),
            Option("red_seat", "random", ("random", 0, 1), kind="json", help="seat playing Red; random = seeded draw (AR-2.2)"),
            Option("position", "", kind="str", help="start from a position in arena notation (docs/rules/arena.md)"),
        ]

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        out = super().normalize_config(config)
        if out["home"] == "wide" and out["board"] != "5x5":
            raise ConfigError("home: wide exists on the 5x5 face only (AR-2.4)")
        if out["position"]:
            try:
                pos = parse_position(str(out["position"]))
            except ValueError as exc:
                raise ConfigError(f"bad position: {exc}") from exc
            out["board"] = pos.board
        return out

    def player_names(self, config: dict[str, Any]) -> list[str]:
        return ["Seat 1", "Seat 2"]

    # ------------------------------------------------------------------ setup
    def initial_state(self, config: dict[str, Any], seed: int) -> ArenaState:
        cfg = self.normalize_config(config)
        # Sub-seeds come from seed_for, the game's one derivation. Arena draws them through
        # Rng.from_seed(sub-seed), as it has since its first release, so recorded seeds keep their
        # colours (rng_for would start another stream).
        rng = Rng.from_seed(self.seed_for(seed, "state"))
        red_seat = cfg["red_seat"]
        if red_seat == "random":
            red_seat = Rng.from_seed(self.seed_for(seed, "colours")).randbelow(2)  # AR-2.2
        st = setup.new_state(cfg["board"], cfg["setup"], cfg["placement"], cfg["home"], int(red_seat), rng)
        if cfg["position"]:
            pos = parse_position(str(cfg["position"]))
            st.setup = "position"
            st.loc = [list(pos.loc[0]), list(pos.loc[1])]
            st.to_move, st.quiet, st.last_capturer, st.offer = pos.to_move, pos.quiet, pos.last_capturer, pos.offer
            endings.check_no_action(st)
        return st

    # --------------------------------------------------------------- protocol
    def to_act(self, state: ArenaState) -> tuple[int, ...]:
        return flow.to_act(state)

    def legal_actions(self, state: ArenaState, player: int) -> list[Action]:
        """Canonical legal actions (docs/rules/arena.md): moves with their bonus variants, permutations,
        rotations, then ``accept_end`` while an offer of the opponent is pending; placement
        actions while placing. Resignation and the ``offer_end`` flag are always accepted by
        :meth:`apply` but not listed."""
        if player not in flow.to_act(state):
            return []
        return MOVES.legal_actions(state, player)

    # ------------------------------------------------------------- results
    def outcome(self, state: ArenaState) -> Outcome | None:
        return endings.outcome(state)

    def returns(self, state: ArenaState) -> list[float]:
        """+1/−1 for a full victory, +½/−½ for a semi-victory (AR-10.5)."""
        return endings.returns(state)

    # ---------------------------------------------------------------- views
    def view(self, state: ArenaState, player: int | None) -> dict[str, Any]:
        """Everything is public (IM-1) except the other side's sealed layout."""
        return views.view(state, player)

    def public_view(self, state: ArenaState) -> dict[str, Any]:
        """The view's fields every viewer sees alike (all but ``you`` and a placement's layouts)."""
        return views.public_view(state)

    def own_view(self, state: ArenaState, player: int | None) -> dict[str, Any]:
        return views.own_view(state, player)

    def action_view(self, state: ArenaState, player: int, action: Action, viewer: int | None) -> Action | None:
        return views.action_view(state, player, action, viewer)

    def clone(self, state: ArenaState) -> ArenaState:
        """A copy sharing nothing mutable (the generic deep copy, written out for the reference
        engine's speed: ``apply`` copies the state once per action)."""
        sealed = state.sealed
        # ``dataclasses.replace`` goes through every field by name: a fifth of an action's ``apply``. Every field
        # is copied as it is (strings, numbers) except the three mutable ones, copied below.
        clone = object.__new__(ArenaState)
        clone.__dict__.update(state.__dict__)
        clone.loc = [list(state.loc[0]), list(state.loc[1])]
        clone.rng = state.rng.copy()
        clone.sealed = None if sealed is None else SealedCommits(list(sealed.required), {
            seat: list(slots) for seat, slots in sealed.commits.items()})
        return clone

    def determinize(self, state: ArenaState, player: int, rng: Rng) -> ArenaState:
        """Resample the opponent's sealed layout (the only hidden thing, IM-1)."""
        clone = self.clone(state)
        if clone.sealed is not None:
            face = clone.face
            for seat in list(clone.sealed.commits):
                if seat != player:
                    home = list(face.home(clone.colour_of(seat), clone.wide))
                    rng.shuffle(home)
                    clone.sealed.commits[seat] = home[:8]
        return clone

    # --------------------------------------------------------------- text
    def parse_action(self, state: ArenaState, player: int, text: str) -> Action:
        return notation.parse_action_text(state, player, text)

    def render_text(self, state: ArenaState, player: int | None) -> str:
        return notation.render_board(state, viewer=player)



GAME = ArenaGame()

__all__ = ["GAME", "MOVES", "ArenaGame", "ArenaState"]
