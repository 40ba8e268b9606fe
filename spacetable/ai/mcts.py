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
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spacetable.core.game import Action, Game
from spacetable.core.rng import Rng
from spacetable.core.serial import action_key

RolloutPolicy = Callable[[Game[Any], Any, int, Rng], Action]
Evaluator = Callable[[Game[Any], Any], list[float]]


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
        self.last_stats: dict[str, Any] = {}

    # ----------------------------------------------------------------- public
    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        legal = game.legal_actions(state, player)
        if not legal:
            raise ValueError(f"player {player} has no legal action")
        if len(legal) == 1:
            return legal[0]
        root = _Node(player=player)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        n = 0
        while (self.iterations is None or n < self.iterations) and time.perf_counter() < deadline:
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
            legal = game.legal_actions(state, actor)
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
                state = game.apply(state, actor, action)
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
            state = game.apply(state, actor, node.action)
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
                return game.returns(state)
            if self.rollout_policy is not None:
                action = self.rollout_policy(game, state, actor, self.rng)
            else:
                legal = game.legal_actions(state, actor)
                if not legal:
                    break
                action = legal[self.rng.randbelow(len(legal))]
            state = game.apply(state, actor, action)
        if game.is_terminal(state):
            return game.returns(state)
        if self.evaluate is not None:
            return self.evaluate(game, state)
        return [0.0] * game.seats(state)
