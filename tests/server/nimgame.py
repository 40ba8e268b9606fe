"""A tiny real game for server tests: Nim, with a sealed-bid and a dice variant.

Rules (ids NIM-n):
* NIM-1 ``plain``: seats alternate; ``{"type": "take", "heap": i, "count": k}`` removes 1..3
  stones from a non-empty heap; whoever takes the last stone wins.
* NIM-2 ``sealed``: both seats secretly bid ``{"type": "bid", "amount": 1..3}`` at once; when both
  are in, the bids are revealed, their sum leaves heap 0 and the higher bid scores a point. Empty heap:
  most points wins. Another seat sees only "committed yes/no".
* NIM-3 ``dice``: like plain, but after each take a die is rolled and on a 6 one stone is added back
  to that heap.
* NIM-4 ``{"type": "resign"}`` is legal (unless the option ``resign`` is off) and loses at once.
* NIM-5 seat 1 keeps a secret ``hand`` number (hidden information) shown only to itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits


@dataclass
class NimState:
    num_players: int = 2
    mode: str = "plain"
    heaps: list[int] = field(default_factory=list)
    turn: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    sealed: SealedCommits = field(default_factory=SealedCommits)
    hand: int = 0
    winner: int | None = None
    resigned: bool = False
    may_resign: bool = True
    rng: Rng = field(default_factory=Rng)


class Nim(Game[NimState]):
    id = "nim"
    name = "Test Nim"
    state_type = NimState
    hidden_information = True
    stochastic = True

    def options(self) -> list[Option]:
        return [
            Option("mode", "plain", ("plain", "sealed", "dice")),
            Option("heaps", 3, kind="int", minimum=1, maximum=5),
            Option("size", 4, kind="int", minimum=1, maximum=30),
            Option("resign", True, kind="bool"),
        ]

    def initial_state(self, config: dict[str, Any], seed: int) -> NimState:
        rng = Rng.from_seed(seed)
        st = NimState(mode=config["mode"], heaps=[config["size"]] * config["heaps"], rng=rng, hand=rng.randint(1, 1000),
                      may_resign=config["resign"])
        if st.mode == "sealed":
            st.sealed = SealedCommits.open([0, 1])
        return st

    def to_act(self, state: NimState) -> tuple[int, ...]:
        if state.winner is not None:
            return ()
        if state.mode == "sealed":
            return state.sealed.waiting()
        return (state.turn,)

    def legal_actions(self, state: NimState, player: int) -> list[Action]:
        if player not in self.to_act(state):
            return []
        if state.mode == "sealed":
            acts: list[Action] = [{"type": "bid", "amount": a} for a in (1, 2, 3)]
        else:
            acts = [{"type": "take", "heap": h, "count": c} for h, n in enumerate(state.heaps) for c in range(1, min(3, n) + 1)]
        return [*acts, {"type": "resign"}] if state.may_resign else acts

    def apply(self, state: NimState, player: int, action: Action) -> NimState:
        self.check_turn(state, player)
        st = self.clone(state)
        kind = action.get("type")
        if kind == "resign" and state.may_resign:
            st.winner, st.resigned = 1 - player, True
            return st
        if state.mode == "sealed":
            amount = action.get("amount")
            if kind != "bid" or amount not in (1, 2, 3):
                raise RuleError("NIM-2", "bid 1, 2 or 3")
            st.sealed.submit(player, amount, rule="NIM-2")
            if st.sealed.complete():
                bids = st.sealed.revealed()
                st.heaps[0] = max(0, st.heaps[0] - bids[0] - bids[1])
                if bids[0] != bids[1]:
                    st.points[0 if bids[0] > bids[1] else 1] += 1
                if st.heaps[0] == 0:
                    st.winner = 0 if st.points[0] >= st.points[1] else 1
                    st.sealed = SealedCommits()
                else:
                    st.sealed = SealedCommits.open([0, 1])
            return st
        heap, count = action.get("heap"), action.get("count")
        if kind != "take":
            raise RuleError("NIM-1", f"unknown action type {kind!r}")
        if not isinstance(heap, int) or not 0 <= heap < len(st.heaps) or st.heaps[heap] == 0:
            raise RuleError("NIM-1", "take from a non-empty heap")
        if not isinstance(count, int) or not 1 <= count <= min(3, st.heaps[heap]):
            raise RuleError("NIM-1", "take 1 to 3 stones, at most what the heap holds")
        st.heaps[heap] -= count
        if not any(st.heaps):
            st.winner = player
            return st
        if state.mode == "dice" and st.rng.die() == 6:
            st.heaps[heap] += 1
        st.turn = 1 - player
        return st

    def view(self, state: NimState, player: int | None) -> dict[str, Any]:
        return {
            "mode": state.mode,
            "heaps": list(state.heaps),
            "turn": state.turn,
            "points": list(state.points),
            "sealed": state.sealed.view(player),
            "hand": state.hand if player == 1 else None,
            "winner": state.winner,
        }

    def action_view(self, state: NimState, player: int, action: Action, viewer: int | None) -> Action | None:
        if action.get("type") == "bid" and viewer != player:
            return {"type": "bid", "amount": None}
        return action

    def outcome(self, state: NimState) -> Outcome | None:
        if state.winner is None:
            return None
        scores = [0.0, 0.0]
        scores[state.winner] = 1.0
        kind = "resignation" if state.resigned else "last_stone"
        return Outcome(tuple(scores), (state.winner,), kind, (state.winner, 1 - state.winner))

    def determinize(self, state: NimState, player: int, rng: Rng) -> NimState:
        st = self.clone(state)
        st.rng = Rng(rng.next_u64())
        if player != 1:
            st.hand = rng.randint(1, 1000)
        for seat in list(st.sealed.commits):
            if seat != player:
                st.sealed.commits[seat] = rng.randint(1, 3)
        return st


GAME = Nim()
