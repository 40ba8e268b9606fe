"""The reference Cosmic Arena rules engine (spec ``shared/specs/arena.md``, AR-*).

This module is the readable rules engine: every legal action is generated from the
rule modules (:mod:`.moves`, :mod:`.teleports`, :mod:`.setup`) and every rejected
action raises :class:`RuleError` naming its rule id. The compiled fast path for
playouts and search lives in :mod:`.fast` and is tested against this engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from spacetable.core.errors import ConfigError, MalformedAction, RuleError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from . import moves as mv
from . import teleports as tp
from .board import BLUE, CODES, COLOUR_NAMES, CORVETTE, RED, Face, get_face, ship_index
from .setup import check_place, default_layout, layout_action, layout_label, parse_layout

QUIET_LIMIT = 40  # AR-10.2
KINDS = ("corvette", "no_action", "quiet_limit", "agreement", "resignation")


@dataclass
class ArenaState:
    """Full state. ``loc[colour][ship]``: cell, ``N`` = banished (AR-1.7), −1 = not yet placed (AR-2.7).

    Colours: 0 = Red, 1 = Blue; ``red_seat`` is the seat playing Red (AR-2.2)."""

    board: str = "6x4"
    setup: str = "default"
    placement: str = "alternate"
    home: str = "standard"
    red_seat: int = 0
    loc: list[list[int]] = field(default_factory=lambda: [[-1] * 8, [-1] * 8])
    phase: str = "play"  # "place" | "play" | "over"
    to_move: int = RED
    quiet: int = 0
    last_capturer: int = -1
    offer: int = -1  # colour whose agreement offer is pending (AR-10.4)
    plies: int = 0
    sealed: SealedCommits | None = None
    winner: int = -1  # colour
    kind: str = ""
    points: float = 0.0
    num_players: int = 2
    rng: Rng = field(default_factory=Rng)

    @property
    def face(self) -> Face:
        return get_face(self.board)

    def seat_of(self, colour: int) -> int:
        return self.red_seat if colour == RED else 1 - self.red_seat

    def colour_of(self, seat: int) -> int:
        return RED if seat == self.red_seat else BLUE


# ---------------------------------------------------------------- action helpers
def teleport_action(name: str) -> Action:
    """JSON shape of a teleport (spec §5)."""
    if name in tp.PAIRS:
        return {"type": "permute", "pair": name}
    return {"type": "rotate", "cls": name[1], "dir": name[2]}


def teleport_name(action: Any) -> str:
    """Teleport name (``P112``, ``RD+``) of a permute/rotate object; MalformedAction otherwise."""
    if not isinstance(action, dict):
        raise MalformedAction("a teleport is a JSON object")
    if action.get("type") == "permute":
        pair = action.get("pair")
        if pair not in tp.PAIRS:
            raise MalformedAction(f"unknown pair {pair!r}; use P111, P112, P121 or P122")
        return str(pair)
    if action.get("type") == "rotate":
        cls, d = action.get("cls"), action.get("dir")
        if cls not in ("F", "D") or d not in ("+", "-"):
            raise MalformedAction("a rotation needs cls F|D and dir +|-")
        return f"R{cls}{d}"
    raise MalformedAction(f"not a teleport: {action.get('type')!r}")


def move_action(face: Face, origin: int, dest: int, bonus: str | None = None) -> Action:
    return {"type": "move", "from": face.cell_name(origin), "to": face.cell_name(dest),
            "bonus": teleport_action(bonus) if bonus else None}


def turn_actions(face: Face, loc: list[list[int]], colour: int) -> list[Action]:
    """Every turn action (AR-3.2) of ``colour`` in the canonical order of spec §5:
    moves by ship index then destination index, each triggering move followed by its
    bonus variants (AR-8.6) in teleport order; then the teleports."""
    out: list[Action] = []
    cells = mv.occupancy(face, loc)
    n = face.banished
    for ship in range(8):
        origin = loc[colour][ship]
        if not 0 <= origin < n:
            continue
        for dest in mv.destinations(face, loc, colour, ship, cells):
            out.append(move_action(face, origin, dest))
            occ = cells[dest]
            captured = occ % 8 if occ >= 0 else -1
            if mv.triggers_bonus(face, colour, origin, dest, captured):
                own = list(loc[colour])
                own[ship] = dest
                for name in tp.available(own, n):
                    if ship in tp.members(name):
                        out.append(move_action(face, origin, dest, name))
    out.extend(teleport_action(name) for name in tp.available(loc[colour], n))
    return out


def has_turn_action(face: Face, loc: list[list[int]], colour: int) -> bool:
    """Whether ``colour`` has any legal action (AR-9.2)."""
    if tp.available(loc[colour], face.banished):
        return True
    cells = mv.occupancy(face, loc)
    return any(mv.destinations(face, loc, colour, s, cells) for s in range(8))


def play_turn(face: Face, loc: list[list[int]], colour: int, action: Action) -> tuple[list[list[int]], int]:
    """Validate and apply one turn action; returns ``(new_loc, captured_ship or −1)``.

    Raises :class:`RuleError` with the rule id; ``loc`` is never modified."""
    n = face.banished
    kind = action.get("type")
    if kind == "move":
        origin, dest = face.parse_cell(str(action.get("from", ""))), face.parse_cell(str(action.get("to", "")))
        ship, captured = mv.check_move(face, loc, colour, origin, dest)
        new = [list(loc[0]), list(loc[1])]
        new[colour][ship] = dest
        if captured >= 0:
            new[1 - colour][captured] = n  # AR-5.1
        bonus = action.get("bonus")
        if bonus is not None:
            name = teleport_name(bonus)
            if captured == CORVETTE:
                raise RuleError("AR-8.5", "the game ended with the corvette capture; no bonus")
            if not mv.is_one_step(face, origin, dest):
                raise RuleError("AR-8.1", "a two-step move never triggers a bonus")
            if dest not in face.target_row(colour):
                raise RuleError("AR-8.1", "a bonus needs a one-step arrival on the opponent's back row")
            if ship not in tp.members(name):
                raise RuleError("AR-8.2", f"the moved ship {CODES[ship]} must take part in the bonus teleport")
            new[colour] = tp.teleport(new[colour], name, n)
        return new, captured
    if kind in ("permute", "rotate"):
        name = teleport_name(action)
        new = [list(loc[0]), list(loc[1])]
        new[colour] = tp.teleport(loc[colour], name, n)
        return new, -1
    raise MalformedAction(f"unknown action type {kind!r}")


# ---------------------------------------------------------------------- the game
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

    def options(self) -> list[Option]:
        return [
            Option("board", "6x4", ("6x4", "5x5"), help="board face (AR-2.1)"),
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
            from .notation import parse_position

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
        rng = Rng.from_seed(self.seed_for(seed, "state"))
        red_seat = cfg["red_seat"]
        if red_seat == "random":
            red_seat = Rng.from_seed(self.seed_for(seed, "colours")).randbelow(2)  # AR-2.2
        st = ArenaState(board=cfg["board"], setup=cfg["setup"], placement=cfg["placement"], home=cfg["home"],
                        red_seat=int(red_seat), rng=rng)
        if cfg["position"]:
            from .notation import parse_position

            pos = parse_position(str(cfg["position"]))
            st.setup = "position"
            st.loc = [list(pos.loc[0]), list(pos.loc[1])]
            st.to_move, st.quiet, st.last_capturer, st.offer = pos.to_move, pos.quiet, pos.last_capturer, pos.offer
            self._check_no_action(st)
            return st
        if cfg["setup"] == "default":
            red, blue = default_layout(cfg["board"])
            st.loc = [list(red), list(blue)]
            return st
        st.phase = "place"
        if cfg["placement"] == "simultaneous":
            st.sealed = SealedCommits.open([0, 1])
        return st

    # --------------------------------------------------------------- protocol
    def to_act(self, state: ArenaState) -> tuple[int, ...]:
        if state.phase == "over":
            return ()
        if state.phase == "place" and state.sealed is not None:
            return state.sealed.waiting()
        return (state.seat_of(state.to_move),)

    def legal_actions(self, state: ArenaState, player: int) -> list[Action]:
        """Canonical legal actions (spec §5). Resignation and the ``offer_end`` flag are
        always accepted by :meth:`apply` but not listed; ``accept_end`` is listed last
        while an offer of the opponent is pending."""
        if player not in self.to_act(state):
            return []
        face = state.face
        colour = state.colour_of(player)
        if state.phase == "place":
            wide = state.home == "wide"
            if state.sealed is not None:  # a suggestion list; any valid layout is accepted (AR-2.7)
                red, blue = default_layout(state.board)
                slots = list(red if colour == RED else blue)
                mirrored = [face.mirror_file(c) for c in slots]
                return [layout_action(face, slots), layout_action(face, mirrored)]
            occupied = {c for row in state.loc for c in row}
            return [{"type": "place", "ship": CODES[s], "cell": face.cell_name(c)}
                    for s in range(8) if state.loc[colour][s] == -1
                    for c in face.home(colour, wide) if c not in occupied]
        out = turn_actions(face, state.loc, colour)
        if state.offer == 1 - colour:
            out.append({"type": "accept_end"})
        return out

    def apply(self, state: ArenaState, player: int, action: Action) -> ArenaState:
        if not isinstance(action, dict):
            raise MalformedAction("an action is a JSON object")
        kind = action.get("type")
        if kind == "resign":  # AR-10.5: a platform feature, allowed to either seat while the game runs
            if state.phase == "over":
                raise RuleError("AR-10.1", "the game is over")
            if player not in (0, 1):
                raise MalformedAction("no such seat")
            new = self.clone(state)
            self._finish(new, 1 - new.colour_of(player), "resignation", 1.0)
            return new
        self.check_turn(state, player)
        colour = state.colour_of(player)
        offer = action.get("offer_end", False)
        if not isinstance(offer, bool):
            raise MalformedAction("offer_end must be true or false")
        if state.phase == "place":
            if offer:
                raise RuleError("AR-10.4", "offers belong to play, not to placement")
            return self._apply_place(state, player, colour, action)
        if kind == "accept_end":
            if state.offer != 1 - colour:
                raise RuleError("AR-10.4", "there is no pending offer to accept")
            new = self.clone(state)
            new.offer = -1
            new.plies += 1
            self._finish(new, new.last_capturer if new.last_capturer >= 0 else BLUE, "agreement", 0.5)
            return new
        if kind in ("place", "layout"):
            raise RuleError("AR-2.7", "placement is over")
        face = state.face
        loc, captured = play_turn(face, state.loc, colour, action)
        new = self.clone(state)
        new.loc = loc
        new.plies += 1
        new.offer = colour if offer else -1  # any other action lets an offer lapse (AR-10.4)
        if captured == CORVETTE:  # AR-10.6 (1)
            self._finish(new, colour, "corvette", 1.0)
            return new
        if captured >= 0:  # AR-10.6 (2)
            new.quiet, new.last_capturer = 0, colour
        else:
            new.quiet += 1
        if new.quiet >= QUIET_LIMIT:
            self._finish(new, new.last_capturer if new.last_capturer >= 0 else BLUE, "quiet_limit", 0.5)
            return new
        new.to_move = 1 - colour
        self._check_no_action(new)  # AR-10.6 (3)
        return new

    def _apply_place(self, state: ArenaState, player: int, colour: int, action: Action) -> ArenaState:
        face = state.face
        wide = state.home == "wide"
        kind = action.get("type")
        if state.sealed is not None:
            if kind != "layout":
                raise RuleError("AR-2.7", "simultaneous placement takes one full layout action")
            slots = parse_layout(face, colour, action.get("cells"), wide)
            new = self.clone(state)
            assert new.sealed is not None
            new.sealed.submit(player, slots, rule="AR-2.7")
            if new.sealed.complete():
                for seat, value in new.sealed.revealed().items():
                    new.loc[new.colour_of(seat)] = list(value)
                new.sealed = None
                self._start_play(new)
            return new
        if kind != "place":
            raise RuleError("AR-2.7", "alternate placement takes one place action at a time")
        code, cell_name = action.get("ship"), str(action.get("cell", ""))
        if code not in CODES:
            raise MalformedAction(f"not a ship code: {code!r}")
        ship = ship_index(str(code))
        cell = face.parse_cell(cell_name)
        check_place(face, state.loc, colour, ship, cell, wide)
        new = self.clone(state)
        new.loc[colour][ship] = cell
        if all(c >= 0 for row in new.loc for c in row):
            self._start_play(new)
        else:
            new.to_move = 1 - colour  # AR-2.7: R, B, R, B ...
        return new

    def _start_play(self, st: ArenaState) -> None:
        st.phase, st.to_move, st.quiet, st.last_capturer, st.plies = "play", RED, 0, -1, 0

    def _check_no_action(self, st: ArenaState) -> None:
        if st.phase == "play" and not has_turn_action(st.face, st.loc, st.to_move):
            st.offer = -1
            self._finish(st, 1 - st.to_move, "no_action", 1.0)  # AR-9.2

    def _finish(self, st: ArenaState, winner: int, kind: str, points: float) -> None:
        st.phase, st.winner, st.kind, st.points = "over", winner, kind, points

    # ------------------------------------------------------------- results
    def outcome(self, state: ArenaState) -> Outcome | None:
        if state.phase != "over":
            return None
        w = state.seat_of(state.winner)
        scores = [0.0, 0.0]
        scores[w] = state.points
        pts = "1–0" if state.points == 1.0 else "½–0"
        return Outcome(scores=tuple(scores), winners=(w,), kind=state.kind, ranking=(w, 1 - w),
                       details={"winner_colour": COLOUR_NAMES[state.winner], "points": pts, "plies": state.plies,
                                "semi_victory": state.points < 1.0})

    def returns(self, state: ArenaState) -> list[float]:
        """+1/−1 for a full victory, +½/−½ for a semi-victory (AR-10.5)."""
        if state.phase != "over":
            return [0.0, 0.0]
        w = state.seat_of(state.winner)
        out = [-state.points, -state.points]
        out[w] = state.points
        return out

    # ---------------------------------------------------------------- views
    def view(self, state: ArenaState, player: int | None) -> dict[str, Any]:
        """Everything is public (IM-1) except the other side's sealed layout."""
        face = state.face
        ships = [{"colour": COLOUR_NAMES[c], "code": CODES[s], "cell": face.cell_name(state.loc[c][s])}
                 for c in (0, 1) for s in range(8) if 0 <= state.loc[c][s] < face.size]
        out: dict[str, Any] = {
            "game": "arena", "board": state.board, "width": face.width, "height": face.height,
            "phase": state.phase, "setup": state.setup, "home": state.home,
            "seat_colours": {str(state.red_seat): "red", str(1 - state.red_seat): "blue"},
            "you": COLOUR_NAMES[state.colour_of(player)] if player in (0, 1) else None,
            "to_move": COLOUR_NAMES[state.to_move] if state.phase != "over" else None,
            "ships": ships,
            "reserve": {COLOUR_NAMES[c]: [CODES[s] for s in range(8) if state.loc[c][s] == face.banished] for c in (0, 1)},
            "unplaced": {COLOUR_NAMES[c]: [CODES[s] for s in range(8) if state.loc[c][s] == -1] for c in (0, 1)},
            "home_cells": {COLOUR_NAMES[c]: [face.cell_name(x) for x in face.home(c, state.home == "wide")] for c in (0, 1)},
            "quiet": state.quiet, "quiet_limit": QUIET_LIMIT,
            "last_capturer": COLOUR_NAMES[state.last_capturer] if state.last_capturer >= 0 else None,
            "offer": COLOUR_NAMES[state.offer] if state.offer >= 0 else None,
            "plies": state.plies,
        }
        if state.setup == "default":
            out["layout_label"] = layout_label(state.board)
        if state.sealed is not None:
            out["placement"] = {"committed": {str(s): d for s, d in state.sealed.public().items()}, "own": None}
            own = state.sealed.own(player)
            if own is not None and player is not None:
                out["placement"]["own"] = layout_action(face, own)["cells"]
        if state.phase != "place":
            from .notation import format_position

            out["position"] = format_position(state)
        if state.phase == "over":
            res = self.outcome(state)
            assert res is not None
            out["result"] = {"winner": COLOUR_NAMES[state.winner], "kind": state.kind,
                             "points": res.details["points"], "plies": state.plies}
        return out

    def action_view(self, state: ArenaState, player: int, action: Action, viewer: int | None) -> Action | None:
        if action.get("type") == "layout" and viewer != player:
            return {"type": "layout", "cells": "hidden"}  # AR-A24: sealed until both are in
        return action

    def determinize(self, state: ArenaState, player: int, rng: Rng) -> ArenaState:
        """Resample the opponent's sealed layout (the only hidden thing, IM-1)."""
        clone = self.clone(state)
        if clone.sealed is not None:
            face = clone.face
            for seat in list(clone.sealed.commits):
                if seat != player:
                    home = list(face.home(clone.colour_of(seat), clone.home == "wide"))
                    rng.shuffle(home)
                    clone.sealed.commits[seat] = home[:8]
        return clone

    # --------------------------------------------------------------- text
    def action_text(self, state: ArenaState, player: int, action: Action) -> str:
        from .notation import action_to_text

        return action_to_text(state, action)

    def parse_action(self, state: ArenaState, player: int, text: str) -> Action:
        from .notation import parse_action_text

        return parse_action_text(state, player, text)

    def render_text(self, state: ArenaState, player: int | None) -> str:
        from .notation import render_board

        return render_board(state, viewer=player)


GAME = ArenaGame()
