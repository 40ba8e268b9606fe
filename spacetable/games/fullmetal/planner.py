"""The searching commander of Full Metal Planète: it plans each of its turns as a whole.

At the first decision of a turn the ``planner`` draws candidate plans, each one a complete sequence of
actions for the turn played out by the commander's rules of thumb in a different *style*
(:class:`~.ai.Style`: fire threshold, captures and assaults on or off, how hard carriers run for ore or
home, how far units stray, when the homecoming starts, some randomness among the best moves). The first
candidate is the plain commander's own turn, so the planner only departs from it when another plan
looks better. Every plan is then judged by what follows it: from the state after the plan, the
opponents' turns up to the planner's next one are played out by commanders, on game states sampled
with :meth:`~spacetable.core.game.Game.determinize` (the tides nobody has forecast yet are drawn
again for each sample), and the position reached is scored by :func:`potential`. The plan with the
best mean score is played action by action; the search runs again when something unforeseen happens
(an action of the plan is no longer legal) and at every new turn.

The budget is counted in plans and samples, not seconds, so a game is reproducible from its seeds.
Within a turn nothing is random (no dice in the game), so the plan's actions lead exactly to the
state that was scored.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.game import Action, Game
from spacetable.core.rng import Rng

from .commander import CommanderAgent, Style, Trail, fields
from .endgame import ship_score
from .flow import last_turn
from .state import BARGE, CRAB, GT, MB, ORE, TANK, WL, FMState

#: Points a unit on the board is worth beyond the one it scores once home: what it still does for the
#: player (carriers collect ore, destroyers protect and take).
UTILITY = {CRAB: 1.5, BARGE: 2.0, WL: 1.0, TANK: 0.6, GT: 0.8, MB: 0.4}
CAPACITY = {CRAB: 2, BARGE: 4, WL: 1}
FAR = 40


def _home_fields(state: FMState, player: int) -> tuple[list[int], list[int]]:
    """Land and sea BFS distances to the free cells next to the player's pods."""
    pods = [p for s in state.ships_of(player) for p in s.cells[1:]]
    src = sorted({n for p in pods for n in state.board.neigh[p] if n not in state.occ})
    return fields(state, src, False), fields(state, src, True)


def _ore_fields(state: FMState) -> tuple[list[int], list[int]]:
    """Land and sea BFS distances to the free cells next to loadable ore on the ground."""
    board = state.board
    ores = [u.cells[0] for u in state.units.values() if u.kind == ORE and u.cells and u.carrier < 0
            and (board.land(u.cells[0], state.tide) or u.cells[0] in state.pontoon_at)]
    src = sorted({n for o in ores for n in board.neigh[o] if n not in state.occ})
    return fields(state, src, False), fields(state, src, True)


def potential(state: FMState, player: int, ore_field: tuple[list[int], list[int]] | None = None) -> float:
    """What ``player`` can expect to score, in points (FM-20.4): what already left, what the ships hold, and
    every unit on the board with its cargo, discounted by how far it is from home and how many turns are left;
    neutralized units count half (they are about to be taken), carriers gain as they near ore."""
    score = float(sum(d["score"] for d in state.departed if d["player"] == player))
    if state.eliminated[player] >= 0:
        return 0.0
    ships = state.ships_of(player)
    if not ships:
        return score
    for ship in ships:
        score += ship_score(state, ship)[0]
    if state.phase == "over":
        return score
    land, sea = _home_fields(state, player)
    ore_land, ore_sea = ore_field if ore_field is not None else _ore_fields(state)
    left = max(0, last_turn(state) - state.turn) + 1
    reach = 5.0 * left  # steps a unit can still hope to make (AP are shared by the whole army)
    late = left <= 4
    for u in state.units.values():
        if not u.cells or u.carrier >= 0 or u.kind not in UTILITY or u.colour < 0 or state.controller[u.colour] != player:
            continue
        sea_unit = u.kind in (BARGE, MB)
        home = sea if sea_unit else land
        d = min(home[c] for c in u.cells)
        cargo = state.all_cargo(u)
        ore = sum(1 for c in cargo if c.kind == ORE)
        points = 1.0 + 2.0 * ore + (len(cargo) - ore)
        if d >= 10**6 or d > reach:
            back = 0.0
        else:
            back = max(0.0, 1.0 - 0.025 * d - (0.5 * d / reach if late else 0.0))
        value = points * back + (0.0 if late else UTILITY[u.kind] * min(1.0, left / 8))
        cap = CAPACITY.get(u.kind)
        if cap is not None and not late and ore < cap:
            field = ore_sea if sea_unit else ore_land
            dist = min(field[c] for c in u.cells)
            value -= 0.08 * min(dist, FAR)
        if u.neut:
            value *= 0.5
        score += value
    return score


def evaluate(state: FMState, player: int) -> float:
    """The player's potential minus the best opponent's (a winner's margin, FM-20.5)."""
    ore = _ore_fields(state)
    mine = potential(state, player, ore)
    others = [potential(state, q, ore) for q in range(state.num_players) if q != player]
    return mine - max(others, default=0.0)


def random_style(rng: Rng) -> Style:
    """A commander style drawn for one candidate plan."""
    return Style(
        fire_threshold=rng.choice([2.0, 3.5, 3.5, 5.0, 99.0]),
        capture=rng.random() < 0.9,
        assault=rng.random() < 0.7,
        go_home_weight=rng.choice([2.0, 3.0, 4.0]),
        ore_weight=rng.choice([1.0, 2.0, 3.0]),
        late_weight=rng.choice([1.0, 1.5, 2.5]),
        approach_weight=rng.choice([0.0, 0.3, 0.6, 1.2]),
        escort_weight=rng.choice([0.0, 0.4, 0.8]),
        leash=rng.choice([5, 8, 12]),
        late_from=rng.choice([2, 3, 4, 5]),
        top=rng.choice([1, 2, 3]),
        early_end=rng.choice([0.0, 0.0, 0.0, 0.05]),
    )


class PlannerAgent:
    """Plans whole turns: commander-style candidate plans judged after the opponents' replies (module doc).

    Budget: ``plans`` candidate plans per turn, all scored on the position they reach (:func:`evaluate`);
    the best ``finalists`` of them are judged again after ``samples`` sampled futures of ``horizon`` rounds
    (1: the opponents' turns up to the planner's next one; 2: those, the planner's own next turn as the
    commander would play it, and the opponents' turns after it)."""

    name = "planner"

    def __init__(self, seed: int = 0, seconds: float = 1.0, plans: int = 24, finalists: int = 8, samples: int = 1,
                 horizon: int = 2, max_steps: int = 150) -> None:
        self.rng = Rng.from_seed(seed)
        self.base = CommanderAgent(seed)
        self.plans = max(1, plans)
        self.finalists = max(1, finalists)
        self.samples = max(1, samples)
        self.horizon = max(1, horizon)
        self.max_steps = max_steps
        self.plan: list[Action] = []
        self.plan_turn: tuple[int, int] = (-1, -1)
        self.last: dict[str, Any] = {}
        self.trail = Trail()  # the cells its units left this turn: every plan drawn mid-turn knows them

    def choose(self, game: Game[Any], state: FMState, player: int) -> Action:
        if state.phase != "play":
            return self.base.choose(game, state, player)
        legal = game.legal_actions(state, player)
        a = self._choose(game, state, player, legal)
        self.trail.note(state, player, a)
        return a

    def _choose(self, game: Game[Any], state: FMState, player: int, legal: list[Action]) -> Action:
        if self.plan and self.plan_turn == (state.turn, player) and self.plan[0] in legal:
            return self.plan.pop(0)
        if len(legal) == 1:
            return legal[0]
        self.plan = self.search(game, state, player)
        self.plan_turn = (state.turn, player)
        if not self.plan or self.plan[0] not in legal:  # cannot happen with legal plans; play safe
            self.plan = []
            self.base.trail = self.trail.copy()
            return self.base.choose(game, state, player)
        return self.plan.pop(0)

    # ------------------------------------------------------------------------------------ search
    def search(self, game: Game[Any], state: FMState, player: int) -> list[Action]:
        seeds = [self.rng.next_u64() for _ in range(self.plans)]
        # common random numbers: every finalist is judged on the same sampled tides and opponents' seeds, so
        # plans are compared on equal terms and not on their luck
        samples = [self.rng.next_u64() for _ in range(self.samples)]
        candidates: list[tuple[float, int, list[Action], FMState]] = []
        seen: set[str] = set()
        for i, seed in enumerate(seeds):
            rng = Rng(seed)
            style = Style() if i == 0 else random_style(rng)
            commander = CommanderAgent(rng.next_u64(), style=style, trail=self.trail.copy())
            actions, after = self.play_turn(game, state, player, commander)
            key = repr(actions)
            if key in seen:
                continue
            seen.add(key)
            candidates.append((evaluate(after, player), i, actions, after))
        # the commander's own plan always reaches the final round, so a plan replaces it only on the deeper look
        candidates.sort(key=lambda c: (c[1] != 0, -c[0]))
        finalists = candidates[:1] + sorted(candidates[1:], key=lambda c: -c[0])[: self.finalists - 1]
        best: list[Action] = []
        best_v = -1e18
        values = []
        for _, i, actions, after in finalists:
            v = sum(self.judge(game, after, player, Rng(x)) for x in samples) / self.samples
            values.append((i, round(v, 2)))
            if v > best_v:
                best, best_v = actions, v
        self.last = {"values": values, "best": round(best_v, 2), "plans": len(candidates)}
        return best

    def play_turn(self, game: Game[Any], state: FMState, player: int, agent: CommanderAgent) -> tuple[list[Action], FMState]:
        """The rest of the player's turn as ``agent`` plays it: its actions and the state after them."""
        actions: list[Action] = []
        s = state
        turn = state.turn
        while len(actions) < self.max_steps and s.phase == "play" and s.turn == turn and game.to_act(s) == (player,):
            a = agent.choose(game, s, player)
            actions.append(a)
            s = game.apply(s, player, a)
        return actions, s

    def judge(self, game: Game[Any], state: FMState, player: int, rng: Rng) -> float:
        """``horizon`` rounds played by commanders from ``state`` (the end of the player's planned turn) on a
        state sampled for the player (unknown tides drawn again), then :func:`evaluate`."""
        s = game.determinize(state, player, rng)
        agents: dict[int, CommanderAgent] = {}
        own_turns = 0
        for _ in range(self.max_steps * state.num_players * self.horizon):
            seats = game.to_act(s)
            if not seats:
                break
            if s.phase == "play" and seats == (player,):
                if own_turns == self.horizon - 1:
                    break
                own_turns += 1
                turn = s.turn
                agent = agents.setdefault(player, CommanderAgent(rng.next_u64()))
                while s.phase == "play" and s.turn == turn and game.to_act(s) == (player,):
                    s = game.apply(s, player, agent.choose(game, s, player))
                continue
            seat = seats[0]
            agent = agents.setdefault(seat, CommanderAgent(rng.next_u64()))
            s = game.apply(s, seat, agent.choose(game, s, seat))
        return evaluate(s, player)
