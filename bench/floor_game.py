"""The server's floor: a game with no rules to speak of, so that ``bench/server_load.py --game floor`` measures what
the play server costs per action when the game itself costs nothing (docs/architecture.md, "Where the time goes").

Two seats take turns; each turn the seat to act has one legal action (``step``); the match ends when each seat has
stepped ``steps`` times (default 17: 34 actions, about as many as a Cosmic Arena match of the benchmark's calm play
lasts). A view is the two counts. Everything else of an action is the server's: the socket's frame and JSON, the
checks (seat, token, version, rate limit), the move table's validation, storing the action, the per-seat events and
sending them, and, every ``2 * steps`` actions, a new match (the lobby's create and join, two socket handshakes).
``--config '{"steps": 170}'`` makes the matches ten times longer, which leaves the per-action part alone.

The game exists only in the benchmark: this module registers it in the server process it starts (``python
bench/floor_game.py <serve options>`` runs ``spacetable.server.cli`` with it registered) and in the bench's own
process. It is not a game of the product and is never listed by an ordinary server.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.moves import Move, MoveTable, NoParams
from spacetable.games import register_game

ID = "floor"


@dataclass
class Floor:
    steps: int = 17
    turn: int = 0
    done: list[int] = field(default_factory=lambda: [0, 0])
    over: bool = False


def _step(s: Floor, seat: int, a: Action) -> None:
    s.done[seat] += 1
    s.over = min(s.done) >= s.steps


def _after(s: Floor, seat: int, move: Move, a: Action) -> None:
    s.turn = 1 - s.turn


def _legal(s: Floor, seat: int) -> list[Action]:
    return [{"type": "step"}] if seat == s.turn else []


TABLE: MoveTable[Floor] = MoveTable(
    ID, [Move("step", "FLOOR-1", _step, NoParams, legal=_legal)],
    phase_of=lambda s: "over" if s.over else "play", after=_after, resign=lambda s, p, a: setattr(s, "over", True))


class FloorGame(Game[Floor]):
    id: ClassVar[str] = ID
    name: ClassVar[str] = "Floor (benchmark)"
    state_type: ClassVar[type] = Floor
    moves: ClassVar[MoveTable[Any] | None] = TABLE

    def options(self) -> list[Option]:
        return [Option("steps", 17, kind="int", minimum=1, maximum=100_000, help="steps of each seat")]

    def initial_state(self, config: dict[str, Any], seed: int) -> Floor:
        return Floor(steps=int(self.normalize_config(config)["steps"]))

    def to_act(self, state: Floor) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def legal_actions(self, state: Floor, player: int) -> list[Action]:
        return [] if state.over else TABLE.legal_actions(state, player)

    def clone(self, state: Floor) -> Floor:
        return replace(state, done=list(state.done))

    def view(self, state: Floor, player: int | None) -> dict[str, Any]:
        return {"game": ID, "done": list(state.done), "turn": state.turn}

    def outcome(self, state: Floor) -> Outcome | None:
        if not state.over:
            return None
        first = state.done[0] >= state.done[1]
        return Outcome(scores=(1.0, 0.0) if first else (0.0, 1.0), winners=(0,) if first else (1,), kind="steps")


GAME = FloorGame()


def register() -> None:
    register_game(GAME)


if __name__ == "__main__":  # the benchmark's server: spacetable serve with the floor game registered
    register()
    from spacetable.server.cli import main

    sys.exit(main(sys.argv[1:]))
