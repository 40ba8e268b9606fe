"""AI captains: random, heuristic and information-set MCTS (TH §5; agents see only their view).

* ``random`` — a uniformly random legal action (plans drawn by the fast sampler).
* ``heuristic`` — values ships by strength over the turns left, plans concentrated
  attacks on the best cities (with a little noise so equal captains do not all collide),
  fights when not clearly weaker, catches when the army odds pay, uses effects when behind.
* ``mcts`` — the generic :class:`spacetable.ai.mcts.MCTSAgent` (SO-ISMCTS over
  ``determinize``) searching a pruned game whose buy/plan choices are the heuristic's
  candidates, with heuristic rollouts.

Agents read only their own seat's private data and public data (the view); search
goes through ``determinize``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from spacetable.ai.mcts import MCTSAgent
from spacetable.core.errors import RuleError
from spacetable.core.game import Action, Game
from spacetable.core.hooks import AgentSpec
from spacetable.core.rng import Rng, mix_seed

from .battle import strength as group_str
from .battle import total as contest_total
from .buying import simulate_buy
from .cards import CardSet, army_pass_probability
from .effects import group_strength
from .game import TrembleGame
from .planning import _fuel_choice, _resources, fuel_limit
from .state import TState


def _card_value(cards: CardSet, cid: str, turns_left: int) -> float:
    if cid in cards.ships:
        sh = cards.ships[cid]
        bonus = sum(max(0, a.get("n", 0)) * 0.5 for a in sh.abilities)
        return (sh.strength + bonus) * 2600.0 * turns_left / max(1, sh.fuel) ** 0.35
    eff = cards.stations[cid].effect
    per_turn = STATION_VALUE.get(eff["op"], 2000.0) * float(eff.get("n", 1))
    if eff["op"] == "price_discount":
        return eff["amount"] * 0.5 * min(turns_left, 5)
    return per_turn * turns_left


#: rough worth of one use of a station per turn (humans), by op (multiplied by its ``n`` where it has one)
STATION_VALUE: dict[str, float] = {
    "boost_own_ship": 2000.0,
    "cancel_enemy_bonuses": 3500.0,
    "extra_fuel": 1300.0,
    "relocate_enemy_ship": 2000.0,
    "extra_draw": 3000.0,
    "reroll_own": 2500.0,
    "city_support": 2000.0,
    "army_peek": 600.0,
}


def buy_score(s: TState, cards: CardSet, seat: int, a: Action) -> float:
    left = int(cards.rules["turns"]) - s.turn + 1
    p = s.players[seat]
    gain = sum(_card_value(cards, c, left) for c in a["buy"]) - sum(_card_value(cards, c, left) for c in a["discard"])
    price = sum(cards.price(c) for c in a["buy"])
    score = gain - price - 15000 * a["credits"] + sum(cards.comps[c].effect["amount"] for c in a["comp"])
    if p.humans - price < 0:
        score -= 1e9
    return score


def plan_candidates(s: TState, cards: CardSet, seat: int, rng: Rng, count: int = 1) -> list[Action]:
    """Greedy concentrated plans: strongest ships to the most valuable cities until each group is
    comfortably strong, within fuel. Noise varies the city ranking between candidates."""
    p = s.players[seat]
    limit = fuel_limit(s)
    res = _resources(s, cards, seat)
    budget = limit + sum(r[2] for r in res)
    out: list[Action] = []
    seen: set[str] = set()
    for k in range(count):
        noise = [0.75 + 0.5 * rng.random() for _ in s.slots]
        ranked = sorted(range(len(s.slots)), key=lambda i: -(cards.cities[s.slots[i]].raid * noise[i]))
        ships = sorted(p.hand, key=lambda x: (-cards.ships[x].strength, x))
        target = 10 + s.turn + (k % 3) * 3
        groups: dict[int, list[str]] = {}
        fuel = 0
        gi = 0
        for sh in ships:
            f = cards.ships[sh].fuel
            if fuel + f > budget or gi >= len(ranked):
                continue
            slot = ranked[gi]
            groups.setdefault(slot, []).append(sh)
            fuel += f
            city = cards.cities[s.slots[slot]]
            if group_strength(cards, groups[slot], city, False) >= target:
                gi += 1
        choice = _fuel_choice(res, fuel - limit)
        if choice is None:
            continue
        stations = list(choice[1])
        for st in p.stations:
            if st not in p.tapped and cards.stations[st].op == "city_support" and groups:
                stations.append({"station": st, "slot": min(groups) + 1})
        a = {
            "type": "plan",
            "groups": [{"slot": g + 1, "ships": sorted(groups[g])} for g in sorted(groups)],
            "fuel_cards": choice[0],
            "stations": stations,
        }
        key = repr(a)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


class HeuristicAgent:
    """A rule-of-thumb captain (see module doc)."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng.from_seed(mix_seed(seed, "heuristic"))

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        assert isinstance(game, TrembleGame)
        return heuristic_action(game, state, player, self.rng)


def heuristic_buy(s: TState, cards: CardSet, seat: int) -> Action:
    """The heuristic's buy without enumerating every commit: each subset of the drawn cards, with or
    without one credit, discarding the least valuable owned cards the limits require."""
    p = s.players[seat]
    rules = cards.rules
    left = int(rules["turns"]) - s.turn + 1
    best: tuple[float, Action] | None = None
    subsets = [[]] + [[c] for c in p.drawn] + ([list(p.drawn[:2])] if len(p.drawn) >= 2 else [])
    if len(p.drawn) > 2:
        subsets += [[a, b] for i, a in enumerate(p.drawn) for b in p.drawn[i + 1 :]][1:]
    for credits in (0, 1):
        if credits and (
            s.turn > 6 or not (p.humans <= rules["credit"]["max_humans"] and len(p.hand) <= rules["credit"]["max_ships"])
        ):
            continue
        for buy in subsets:
            ships = [c for c in buy if c in cards.ships]
            sts = [c for c in buy if c in cards.stations]
            need = max(0, len(p.hand) + len(ships) - rules["max_ships"])
            disc = sorted(p.hand, key=lambda x: _card_value(cards, x, left))[:need]
            bases = {cards.base_id(c) for c in sts}
            dup = [c for c in p.stations if cards.base_id(c) in bases]
            rest = sorted((c for c in p.stations if c not in dup), key=lambda x: cards.price(x))
            extra = max(0, len(rest) + len(sts) - rules["max_stations"])
            a = {
                "type": "buy",
                "credits": credits,
                "buy": list(buy),
                "discard": disc + dup + rest[:extra],
                "repay": 0,
                "comp": [],
            }
            sc = buy_score(s, cards, seat, a)
            if best is not None and sc <= best[0]:
                continue
            try:
                simulate_buy(p, s, cards, rules, a, mutate=False)
            except RuleError:
                continue
            best = (sc, a)
    if best is None:
        return {"type": "buy", "credits": 0, "buy": [], "discard": [], "repay": 0, "comp": []}
    return best[1]


def heuristic_action(game: TrembleGame, s: TState, seat: int, rng: Rng) -> Action:
    cards = game.cards(s)
    ph = s.phase
    p = s.players[seat]
    if ph == "buy":
        return heuristic_buy(s, cards, seat)
    if ph == "plan":
        cands = plan_candidates(s, cards, seat, rng, 1)
        return cands[0] if cands else {"type": "plan", "groups": [], "fuel_cards": [], "stations": []}
    legal = game.legal_actions(s, seat)
    if len(legal) == 1:
        return legal[0]
    if ph == "redraw":
        owned = {cards.base_id(x) for x in p.stations}
        good = [c for c in p.drawn if cards.base_id(c) not in owned and cards.price(c) <= p.humans - 20000]
        return {"type": "keep"} if good and len(p.stations) < 2 else {"type": "redraw_stations"}
    c = s.contest
    if ph == "declare":
        assert c is not None
        mine = group_str(s, cards, seat, False, with_mods=False)
        others = [group_str(s, cards, x, False, with_mods=False) for x in s.groups[s.slot] if x != seat]
        only_immortal = all(cards.ships[x].immortal for x in s.groups[s.slot][seat])
        fight = only_immortal or not others or mine >= max(others) - 2
        return {"type": "declare", "choice": "fight" if fight else "flee"}
    if ph == "respond":
        assert c is not None
        mine = contest_total(s, cards, seat)
        if c.kind == "army":
            need = cards.armies[c.armies[c.army_pos]].strength
            behind = mine < need
        else:
            best_other = max(contest_total(s, cards, x) for x in c.seats if x != seat)
            behind = mine <= best_other
        if not behind:
            return {"type": "pass"}
        uses = [a for a in legal if a["type"] != "pass"]
        if c.dice.get(seat, 7) >= 8:
            uses = [a for a in uses if not _is_reroll(cards, a)]
        return uses[0] if uses else {"type": "pass"}
    if ph == "loss":
        ships = [a for a in legal if a["type"] == "choose_loss"]
        salv = [a for a in legal if a["type"] == "use_compensation"]
        weakest = min(ships, key=lambda a: (cards.ships[a["ship"]].strength, a["ship"]))
        if salv and cards.ships[weakest["ship"]].strength >= 6:
            return salv[0]
        return weakest
    if ph == "claim":
        claims = [a for a in legal if a["type"] == "claim_city"]
        return claims[0] if claims else {"type": "decline"}
    if ph == "reward":
        peek = [a for a in legal if a["type"] == "use_station"]
        if peek:
            return peek[0]
        city = cards.cities[s.slots[s.slot]]
        st = group_str(s, cards, seat, True)
        if p.peek:
            two = [a + b for a in range(1, 7) for b in range(1, 7)]
            prob = 1.0
            for army in p.peek[: city.catch_draw]:
                sa = cards.armies[army].strength
                prob *= 1.0 if sa == 0 else sum(1 for d in two if st + d >= sa) / 36
        else:
            prob = army_pass_probability(cards.armies, st) ** city.catch_draw
        return {"type": "reward", "choice": "catch" if prob * city.catch > city.raid else "raid"}
    if ph == "ignore_army":
        assert c is not None
        ign = [a for a in legal if a["type"] == "ignore_army"]
        if not ign:
            return {"type": "pass"}
        return max(ign, key=lambda a: cards.armies[c.armies[a["army_index"]]].strength)
    if ph == "army":
        assert c is not None
        st = group_str(s, cards, seat, True)
        need = cards.armies[c.armies[c.army_pos]].strength
        two = [a + b for a in range(1, 7) for b in range(1, 7)]
        prob = sum(1 for d in two if st + d >= need) / 36
        only_immortal = all(cards.ships[x].immortal for x in s.groups[s.slot][seat])
        return {"type": "army", "choice": "fight" if prob >= 0.45 or only_immortal else "flee"}
    if ph == "station_move":
        moves = [a for a in legal if a["type"] == "relocate_enemy"]
        return moves[rng.randbelow(len(moves))] if moves and rng.random() < 0.5 else {"type": "pass"}
    return legal[0]


def _is_reroll(cards: CardSet, a: Action) -> bool:
    cid = a.get("station") or a.get("card")
    if cid in cards.stations:
        return cards.stations[cid].op == "reroll_own"
    return cid in cards.comps and cards.comps[cid].op == "reroll_own"


class CaptainRng(Rng):
    """The random captain's own generator: the :class:`Rng` interface over Python's Mersenne Twister
    (seeded, reproducible, several times faster than SplitMix in pure Python). Only the captain's
    choices use it; the game's dice and shuffles stay on the state's ``Rng``."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._mt = random.Random(seed)
        self._bits = self._mt.getrandbits

    def randbelow(self, n: int) -> int:
        """``random.Random._randbelow`` written out (the same draws: ``getrandbits(n.bit_length())``
        until below ``n``), one Python call fewer on the captain's hottest path."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def randbelow_many(self, n: int, count: int) -> list[int]:
        """``[self.randbelow(n) for _ in range(count)]`` in one call (the same draws in the same order)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        bits = self._bits
        k = n.bit_length()
        out = []
        for _ in range(count):
            r = bits(k)
            while r >= n:
                r = bits(k)
            out.append(r)
        return out

    def random(self) -> float:
        return self._mt.random()

    def shuffle(self, items: Any) -> None:
        """``random.Random.shuffle`` written out over the same draws (Fisher-Yates from the end, each
        index by :meth:`randbelow`), without its per-element Python calls."""
        bits = self._bits
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = bits(k)
            while j >= n:
                j = bits(k)
            items[i], items[j] = items[j], items[i]


class RandomCaptain:
    """A random captain: every decision is a uniformly random member of ``legal_actions``, except the
    sealed buy and plan commits, which :meth:`TrembleGame.sample_action` draws directly (a random
    affordable subset of the drawn cards with the required discards, sometimes a credit or a
    repayment; each ship home or to a uniform slot, then random ships home until the fuel fits) —
    always legal, but not uniform over the thousands of legal commits."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng: Rng = CaptainRng(mix_seed(seed, "random"))

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        assert isinstance(game, TrembleGame)
        return game.sample_action(state, player, self.rng)


class PrunedTremble(TrembleGame):
    """The game as the MCTS captain searches it: buy and plan choices are the heuristic's
    candidates (a handful instead of thousands); every other decision is unchanged."""

    def legal_actions(self, state: TState, player: int) -> list[Action]:
        if state.phase == "buy" and player in self.to_act(state):
            cards = self.cards(state)
            full = super().legal_actions(state, player)
            full.sort(key=lambda a: -buy_score(state, cards, player, a))
            return full[:4]
        if state.phase == "plan" and player in self.to_act(state):
            cards = self.cards(state)
            rng = Rng(mix_seed(state.turn, player, len(state.players[player].hand)))
            cands = plan_candidates(state, cards, player, rng, 6)
            return [*cands, {"type": "plan", "groups": [], "fuel_cards": [], "stations": []}]
        return super().legal_actions(state, player)

    def apply(self, state: TState, player: int, action: Action) -> TState:
        """In-place apply: the search owns every state it applies to (each iteration starts from a
        fresh determinisation), so the clone of the public ``apply`` is skipped."""
        self._apply(state, player, action)
        return state

    def returns(self, state: TState) -> list[float]:
        """Win/loss blended with the score margin to the best other captain (lower-variance signal)."""
        out = self.outcome(state)
        n = state.num_players
        if out is None:
            return [0.0] * n
        res = []
        for i in range(n):
            best_other = max(out.scores[j] for j in range(n) if j != i)
            margin = max(-1.0, min(1.0, (out.scores[i] - best_other) / 300000.0))
            res.append(0.5 * (1.0 if i in out.winners else -1.0) + 0.5 * margin)
        return res


_PRUNED = PrunedTremble()


_BASE = TrembleGame()


def _rollout(game: Game[Any], state: Any, player: int, rng: Rng) -> Action:
    return heuristic_action(_BASE, state, player, rng)


class MCTSCaptain:
    """Information-set MCTS captain over the generic :class:`MCTSAgent` (determinised hidden hands and decks)."""

    name = "mcts"

    def __init__(self, seed: int = 0, seconds: float | None = None, iterations: int | None = 60) -> None:
        self.agent = MCTSAgent(
            iterations=iterations, seconds=seconds, c=0.5, seed=seed, max_rollout=3000, rollout_policy=_rollout, tree_depth=1
        )
        self.rng = Rng.from_seed(mix_seed(seed, "mcts-fallback"))

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        assert isinstance(game, TrembleGame)
        legal_small = _PRUNED.legal_actions(state, player)
        if len(legal_small) == 1:
            return legal_small[0]
        waiting = game.to_act(state)
        if waiting and waiting[0] != player:
            # the generic search expands the first seat to act: seal placeholder commits for the seats
            # before us (determinize replaces every other seat's commit by a guess, so nothing leaks)
            state = state.clone()
            for other in waiting:
                if other == player:
                    break
                state.sealed.commits[other] = heuristic_action(_BASE, state, other, self.rng)
        return self.agent.choose(_PRUNED, state, player)


def _mcts_factory(seed: int, seconds: float) -> MCTSCaptain:
    return MCTSCaptain(seed=seed, seconds=seconds, iterations=None if seconds else 60)


AGENTS: dict[str, Callable[[int, float], Any]] = {
    "random": lambda seed, seconds: RandomCaptain(seed),
    "heuristic": lambda seed, seconds: HeuristicAgent(seed),
    "mcts": _mcts_factory,
}
DEFAULT_AGENT = "mcts"

#: The players offered by the lobby and the terminal (:meth:`Game.agents`), the default first.
AGENT_SPECS = (
    AgentSpec("mcts", AGENTS["mcts"], level="hard", description="information-set MCTS captain"),
    AgentSpec("heuristic", AGENTS["heuristic"], level="medium", description="rule-of-thumb captain"),
    AgentSpec("random", AGENTS["random"], level="easy", description="a random legal choice at every decision"),
)


def make_agent(name: str, seed: int, seconds: float = 0.0, iterations: int | None = None) -> Any:
    if name == "mcts" and iterations:
        return MCTSCaptain(seed=seed, iterations=iterations)
    if name not in AGENTS:
        raise ValueError(f"unknown captain {name!r}; known: {', '.join(AGENTS)}")
    return AGENTS[name](seed, seconds)
