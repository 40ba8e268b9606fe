"""Generic Monte Carlo tree search over the game protocol.

One implementation serves every game:

* perfect-information games get plain UCT (``determinize`` only reseeds future
  chance, so dice and draws are never known in advance);
* hidden-information games get single-observer information-set MCTS: each
  iteration samples a state consistent with the searching seat's view
  (``game.determinize``) and descends a tree keyed by action, counting how often
  each action was *available* (the SO-ISMCTS selection rule);
* several seats acting at once (sealed commits) are searched in seat order,
  each node's choice made by the seat acting there;
* rewards are vectors (one per seat), so 2–5 players work (max^n style).

Rollouts are random by default; a ``rollout_policy`` or an ``evaluate`` function
(cut-off heuristic returning per-seat values in [-1, 1]) may be supplied.

A game-specific captain tunes the search through hooks instead of subclassing the game:

* ``actions(game, state, seat)`` – the actions the search considers (pruning: e.g. a handful of
  good candidates instead of thousands of sealed commits); default ``game.legal_actions``;
* ``determinize(game, state, seat, rng)`` – how a world consistent with the seat's view is sampled
  (e.g. guessing other seats' sealed commits); default ``game.determinize``;
* ``returns(game, state)`` – the reward vector of a finished game; default ``game.returns``.

**In-place stepping.** A game that offers ``apply_in_place(state, seat, action)`` (see
:class:`InPlaceGame`) is stepped without copies: every iteration starts from a state of its own
(``determinize`` returns a new state), so the search may change it freely and nothing has to be
undone. Pass ``in_place=False`` to use the pure ``apply``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from spacetable.core.game import Action, Game
from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng
from spacetable.core.serial import action_key

RolloutPolicy = Callable[[Game[Any], Any, int, Rng], Action]
Evaluator = Callable[[Game[Any], Any], list[float]]
ActionFilter = Callable[[Game[Any], Any, int], list[Action]]
Determinizer = Callable[[Game[Any], Any, int, Rng], Any]


@runtime_checkable
class InPlaceGame(Protocol):
    """A game that can play an action on a state it is handed, changing that state (no copy).
    Rule errors are raised as by ``apply``; the caller owns the state."""

    def apply_in_place(self, state: Any, player: int, action: Action) -> None: ...


@dataclass
class _Node:
    player: int = -1
    visits: int = 0
    total: list[float] = field(default_factory=list)
    avail: int = 0
    action: Action | None = None
    children: dict[str, _Node] = field(default_factory=dict)


class MCTSAgent:
    """UCT / SO-ISMCTS. Budget: ``iterations`` and/or ``seconds`` (whichever ends first)."""

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = 1000,
        seconds: float | None = None,
        c: float = 1.4,
        seed: int = 0,
        max_rollout: int = 400,
        rollout_policy: RolloutPolicy | None = None,
        evaluate: Evaluator | None = None,
        tree_depth: int | None = None,
        actions: ActionFilter | None = None,
        determinize: Determinizer | None = None,
        returns: Evaluator | None = None,
        in_place: bool | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("MCTS needs an iteration or a time budget")
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rng = Rng.from_seed(seed)
        self.max_rollout = max_rollout
        self.rollout_policy = rollout_policy
        self.evaluate = evaluate
        self.tree_depth = tree_depth
        self.actions = actions
        self.sample_world = determinize
        self.final_returns = returns
        self.in_place = in_place
        self._step: Callable[[Any, int, Action], Any] = self._unset
        self.last_stats: dict[str, Any] = {}

    @staticmethod
    def _unset(state: Any, seat: int, action: Action) -> Any:
        raise RuntimeError("the search steps only inside choose()")

    # ----------------------------------------------------------------- public
    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        legal = self._legal(game, state, player)
        if not legal:
            raise ValueError(f"player {player} has no legal action")
        if len(legal) == 1:
            return legal[0]
        root = _Node(player=player)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        self._step = self._stepper(game)
        n = 0
        while (self.iterations is None or n < self.iterations) and time.perf_counter() < deadline:
            if self.sample_world is not None:
                det = self.sample_world(game, state, player, self.rng)
            else:
                det = game.determinize(state, player, self.rng)
            self._iterate(game, det, root, player)
            n += 1
        keys = {action_key(a) for a in legal}
        best = max(
            (c for k, c in root.children.items() if k in keys),
            key=lambda c: (c.visits, c.total[player] if c.total else 0.0),
            default=None,
        )
        self.last_stats = {"iterations": n, "children": len(root.children)}
        if best is None or best.action is None:
            return legal[0]
        return best.action

    # -------------------------------------------------------------- internals
    def _legal(self, game: Game[Any], state: Any, player: int) -> list[Action]:
        if self.actions is not None:
            return self.actions(game, state, player)
        return agent_actions(game.legal_actions(state, player))

    def _stepper(self, game: Game[Any]) -> Callable[[Any, int, Action], Any]:
        """``step(state, seat, action) -> next state``: in place when the game offers it (see the module doc)."""
        use = self.in_place if self.in_place is not None else isinstance(game, InPlaceGame)
        if not use:
            return game.apply
        apply_in_place = game.apply_in_place  # type: ignore[attr-defined]

        def step(state: Any, seat: int, action: Action) -> Any:
            apply_in_place(state, seat, action)
            return state

        return step

    def _returns(self, game: Game[Any], state: Any) -> list[float]:
        if self.final_returns is not None:
            return self.final_returns(game, state)
        return game.returns(state)

    def _acting(self, game: Game[Any], state: Any) -> int | None:
        seats = game.to_act(state)
        return seats[0] if seats else None

    def _iterate(self, game: Game[Any], state: Any, root: _Node, me: int) -> None:
        node = root
        path = [node]
        depth = 0
        # selection / expansion; at the root the searching seat acts even when
        # other seats also have a sealed decision pending (they follow in seat order)
        while True:
            actor = me if depth == 0 else self._acting(game, state)
            if actor is None:
                break
            if self.tree_depth is not None and depth >= self.tree_depth:
                break
            legal = self._legal(game, state, actor)
            if not legal:
                break
            node.player = actor
            keyed = [(action_key(a), a) for a in legal]
            for key, _ in keyed:
                child = node.children.get(key)
                if child is not None:
                    child.avail += 1
            untried = [(k, a) for k, a in keyed if k not in node.children]
            if untried:
                key, action = untried[self.rng.randbelow(len(untried))]
                child = _Node(action=action, avail=1)
                node.children[key] = child
                state = self._step(state, actor, action)
                path.append(child)
                node = child
                break
            best_val = -math.inf
            best_key = keyed[0][0]
            for key, _ in keyed:
                ch = node.children[key]
                if ch.visits == 0:
                    val = math.inf
                else:
                    mean = ch.total[actor] / ch.visits
                    val = mean + self.c * math.sqrt(math.log(max(1, ch.avail)) / ch.visits)
                if val > best_val:
                    best_val, best_key = val, key
            node = node.children[best_key]
            assert node.action is not None
            state = self._step(state, actor, node.action)
            path.append(node)
            depth += 1
        # rollout
        reward = self._rollout(game, state)
        # backpropagation
        for nd in path:
            nd.visits += 1
            if not nd.total:
                nd.total = [0.0] * len(reward)
            for i, r in enumerate(reward):
                nd.total[i] += r
        # a child's reward is read from the viewpoint of the seat that chose it,
        # which is its parent's player; totals are per seat so no sign flips.

    def _rollout(self, game: Game[Any], state: Any) -> list[float]:
        for _ in range(self.max_rollout):
            actor = self._acting(game, state)
            if actor is None:
                return self._returns(game, state)
            if self.rollout_policy is not None:
                action = self.rollout_policy(game, state, actor, self.rng)
            else:
                legal = self._legal(game, state, actor)
                if not legal:
                    break
                action = legal[self.rng.randbelow(len(legal))]
            state = self._step(state, actor, action)
        if game.is_terminal(state):
            return self._returns(game, state)
        if self.evaluate is not None:
            return self.evaluate(game, state)
        return [0.0] * game.seats(state)
