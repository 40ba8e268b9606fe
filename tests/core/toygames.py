"""Two small but complete games used to test the core and the generic AI
without depending on any real game's package.

* ``Nim``: one pile, players alternately take 1–3 stones; who takes the last wins.
* ``SealedDuel``: each round both players secretly bid 0..budget energy; the higher
  bid wins the round, a tie is broken by a die roll (seeded); best total of rounds wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spacetable.core import Game, Option, Outcome, Rng, RuleError, SealedCommits
from spacetable.core.errors import MalformedAction


@dataclass
class NimState:
    pile: int
    to_move: int = 0
    last_taker: int = -1
    num_players: int = 2


class Nim(Game[NimState]):
    id = "toy-nim"
    name = "Nim"
    state_type = NimState

    def options(self) -> list[Option]:
        return [Option("pile", 10, kind="int", minimum=1, maximum=100)]

    def initial_state(self, config: dict[str, Any], seed: int) -> NimState:
        return NimState(pile=config["pile"])

    def to_act(self, state: NimState) -> tuple[int, ...]:
        return () if state.pile == 0 else (state.to_move,)

    def legal_actions(self, state: NimState, player: int) -> list[dict[str, Any]]:
        if player not in self.to_act(state):
            return []
        return [{"type": "take", "n": n} for n in range(1, min(3, state.pile) + 1)]

    def apply(self, state: NimState, player: int, action: dict[str, Any]) -> NimState:
        self.check_turn(state, player)
        if action.get("type") != "take" or not isinstance(action.get("n"), int):
            raise MalformedAction("expected {'type': 'take', 'n': int}")
        n = action["n"]
        if not 1 <= n <= min(3, state.pile):
            raise RuleError("NIM-1", f"take 1 to 3 stones, at most the pile ({state.pile})")
        return NimState(pile=state.pile - n, to_move=1 - player, last_taker=player)

    def view(self, state: NimState, player: int | None) -> dict[str, Any]:
        return {"pile": state.pile, "to_move": state.to_move}

    def outcome(self, state: NimState) -> Outcome | None:
        if state.pile:
            return None
        w = state.last_taker
        return Outcome(scores=tuple(1.0 if i == w else 0.0 for i in range(2)), winners=(w,), kind="last_stone")


@dataclass
class DuelState:
    rounds_left: int
    budgets: list[int]
    points: list[int]
    rng: Rng
    commits: SealedCommits = field(default_factory=SealedCommits)
    history: list[list[int]] = field(default_factory=list)
    num_players: int = 2


class SealedDuel(Game[DuelState]):
    id = "toy-duel"
    name = "Sealed duel"
    state_type = DuelState
    hidden_information = True
    stochastic = True

    def options(self) -> list[Option]:
        return [Option("rounds", 3, kind="int", minimum=1, maximum=9), Option("budget", 5, kind="int", minimum=1)]

    def initial_state(self, config: dict[str, Any], seed: int) -> DuelState:
        return DuelState(
            rounds_left=config["rounds"],
            budgets=[config["budget"]] * 2,
            points=[0, 0],
            rng=Rng.from_seed(seed),
            commits=SealedCommits.open([0, 1]),
        )

    def to_act(self, state: DuelState) -> tuple[int, ...]:
        return state.commits.waiting() if state.rounds_left else ()

    def legal_actions(self, state: DuelState, player: int) -> list[dict[str, Any]]:
        if player not in self.to_act(state):
            return []
        return [{"type": "bid", "amount": a} for a in range(state.budgets[player] + 1)]

    def apply(self, state: DuelState, player: int, action: dict[str, Any]) -> DuelState:
        self.check_turn(state, player)
        amount = action.get("amount")
        if action.get("type") != "bid" or not isinstance(amount, int):
            raise MalformedAction("expected {'type': 'bid', 'amount': int}")
        if not 0 <= amount <= state.budgets[player]:
            raise RuleError("DUEL-1", f"bid between 0 and your budget {state.budgets[player]}")
        s = self.clone(state)
        s.commits.submit(player, amount)
        if s.commits.complete():
            bids = s.commits.revealed()
            for p in (0, 1):
                s.budgets[p] -= bids[p]
            if bids[0] == bids[1]:
                winner = 0 if s.rng.die(6) <= 3 else 1
            else:
                winner = 0 if bids[0] > bids[1] else 1
            s.points[winner] += 1
            s.history.append([bids[0], bids[1], winner])
            s.rounds_left -= 1
            s.commits = SealedCommits.open([0, 1]) if s.rounds_left else SealedCommits()
        return s

    def view(self, state: DuelState, player: int | None) -> dict[str, Any]:
        return {
            "rounds_left": state.rounds_left,
            "budgets": state.budgets,
            "points": state.points,
            "history": state.history,
            "commits": state.commits.view(player),
        }

    def action_view(self, state: DuelState, player: int, action: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
        return action if viewer == player else {"type": "bid", "sealed": True}

    def determinize(self, state: DuelState, player: int, rng: Rng) -> DuelState:
        s = super().determinize(state, player, rng)
        other = 1 - player
        if other in s.commits.commits:  # the opponent's sealed bid is unknown: resample it
            s.commits.commits[other] = rng.randint(0, s.budgets[other])
        return s

    def outcome(self, state: DuelState) -> Outcome | None:
        if state.rounds_left:
            return None
        a, b = state.points
        winners = (0,) if a > b else (1,) if b > a else ()
        return Outcome(scores=(float(a), float(b)), winners=winners, kind="points")
