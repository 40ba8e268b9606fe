"""AI captains: random, heuristic and information-set MCTS (IM-6: agents use only their own view;
search goes through ``determinize``).

* ``random`` — a uniformly random legal action, the sealed buy and plan commits drawn directly
  (:mod:`.sampling`), from the captain's own Mersenne Twister generator.
* ``heuristic`` — values ships by strength over the turns left, plans concentrated
  attacks on the best cities (with a little noise so equal captains do not all collide),
  fights when not clearly weaker, catches when the army odds pay, uses effects when behind.
* ``mcts`` — the generic :class:`spacetable.ai.mcts.MCTSAgent` (SO-ISMCTS) with three hooks:
  the buy and plan choices it searches are the heuristic's candidates (:func:`search_actions`),
  the other seats' sealed commits in a sampled world are the heuristic's guesses
  (:func:`sample_world`), and finished games score win/loss blended with the margin
  (:func:`margin_returns`); rollouts are heuristic. It steps the game in place
  (``TrembleGame.apply_in_place``), each iteration on its own sampled world.
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
from .buying import no_buy, simulate_buy
from .cards import CardSet, army_pass_probability, get_set
from .effects import group_strength
from .flow import SEALED
from .game import TrembleGame
from .planning import empty_plan, fuel_choice, fuel_limit, fuel_resources
from .sampling import sample_action
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
    res = fuel_resources(s, cards, seat)
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
        choice = fuel_choice(res, fuel - limit)
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
        return no_buy()
    return best[1]


def heuristic_action(game: TrembleGame, s: TState, seat: int, rng: Rng) -> Action:
    cards = game.cards(s)
    ph = s.phase
    p = s.players[seat]
    if ph == "buy":
        return heuristic_buy(s, cards, seat)
    if ph == "plan":
        cands = plan_candidates(s, cards, seat, rng, 1)
        return cands[0] if cands else empty_plan()
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


class CaptainDraws:
    """The random captain's own generator: Python's Mersenne Twister (seeded, reproducible, cheaper per
    draw than the engine's SplitMix in pure Python), offering what :class:`.sampling.Draws` asks for.
    Only the captain's choices use it; the game's dice and shuffles stay on the state's ``Rng``.
    ``randbelow(n)`` rejects ``getrandbits(n.bit_length())`` draws until one is below ``n``, which gives
    the values of ``random.Random.randrange(n)`` without its argument handling (a test compares them)."""

    def __init__(self, seed: int) -> None:
        mt = random.Random(seed)
        bits = mt.getrandbits

        def randbelow(n: int) -> int:
            k = n.bit_length()
            r = bits(k)
            while r >= n:
                r = bits(k)
            return r

        self.randbelow: Callable[[int], int] = randbelow
        self.shuffle: Callable[[list[Any]], None] = mt.shuffle


class RandomCaptain:
    """A random captain: every decision is a uniformly random member of ``legal_actions``, except the
    sealed buy and plan commits, which :func:`.sampling.sample_action` draws directly (a random
    affordable subset of the drawn cards with the required discards, sometimes a credit or a
    repayment; each ship home or to a uniform slot, then random ships home until the fuel fits) —
    always legal, but not uniform over the thousands of legal commits."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = CaptainDraws(mix_seed(seed, "random"))

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        assert isinstance(game, TrembleGame)
        return sample_action(state, get_set(state.card_set), player, self.rng)


# ------------------------------------------------------------------ the MCTS captain's search hooks
def search_actions(game: Game[Any], state: TState, seat: int) -> list[Action]:
    """The actions the MCTS captain searches: the 4 best buy commits by :func:`buy_score` and the
    heuristic's plan candidates (plus the empty plan) instead of thousands; every other decision in full."""
    assert isinstance(game, TrembleGame)
    if state.phase == "buy" and seat in game.to_act(state):
        cards = game.cards(state)
        full = game.legal_actions(state, seat)
        full.sort(key=lambda a: -buy_score(state, cards, seat, a))
        return full[:4]
    if state.phase == "plan" and seat in game.to_act(state):
        cards = game.cards(state)
        rng = Rng(mix_seed(state.turn, seat, len(state.players[seat].hand)))
        return [*plan_candidates(state, cards, seat, rng, 6), empty_plan()]
    return game.legal_actions(state, seat)


def sample_world(game: Game[Any], state: TState, seat: int, rng: Rng) -> TState:
    """A world for one search iteration: the game's determinisation (IM-6), then the heuristic's guess in
    place of every other seat's sealed commit (the engine puts neutral defaults there, TH-H6)."""
    assert isinstance(game, TrembleGame)
    d = game.determinize(state, seat, rng)
    if d.phase in SEALED:
        guess_rng = Rng(rng.next_u64())
        commits = d.sealed.commits
        for other in sorted(k for k in commits if k != seat):
            del commits[other]
            commits[other] = heuristic_action(game, d, other, guess_rng)
    return d


def margin_returns(game: Game[Any], state: TState) -> list[float]:
    """Win/loss blended with the score margin to the best other captain (a lower-variance signal)."""
    out = game.outcome(state)
    n = state.num_players
    if out is None:
        return [0.0] * n
    res = []
    for i in range(n):
        best_other = max(out.scores[j] for j in range(n) if j != i)
        margin = max(-1.0, min(1.0, (out.scores[i] - best_other) / 300000.0))
        res.append(0.5 * (1.0 if i in out.winners else -1.0) + 0.5 * margin)
    return res


def _rollout(game: Game[Any], state: Any, player: int, rng: Rng) -> Action:
    assert isinstance(game, TrembleGame)
    return heuristic_action(game, state, player, rng)


class MCTSCaptain:
    """Information-set MCTS captain over the generic :class:`MCTSAgent` (see the module doc)."""

    name = "mcts"

    def __init__(self, seed: int = 0, seconds: float | None = None, iterations: int | None = 60) -> None:
        self.agent = MCTSAgent(
            iterations=iterations, seconds=seconds, c=0.5, seed=seed, max_rollout=3000, rollout_policy=_rollout, tree_depth=1,
            actions=search_actions, determinize=sample_world, returns=margin_returns,
        )
        self.rng = Rng.from_seed(mix_seed(seed, "mcts-fallback"))

    def choose(self, game: Game[Any], state: Any, player: int) -> Action:
        assert isinstance(game, TrembleGame)
        candidates = search_actions(game, state, player)
        if len(candidates) == 1:
            return candidates[0]
        waiting = game.to_act(state)
        if waiting and waiting[0] != player:
            # the generic search expands the first seat to act: seal placeholder commits for the seats
            # before us (sample_world replaces every other seat's commit by a guess, so nothing leaks)
            state = state.clone()
            for other in waiting:
                if other == player:
                    break
                state.sealed.commits[other] = heuristic_action(game, state, other, self.rng)
        return self.agent.choose(game, state, player)


# ------------------------------------------------------------------ the captains a server or CLI may seat
#: The hard level's fixed budget: search iterations per decision (each a full heuristic rollout on its
#: own sampled world). 60 won 67.5% of 2-player games against the heuristic captain; see docs/ai.md.
HARD_ITERATIONS = 150


def _mcts_factory(seed: int = 0, seconds: float = 0.0, **_: Any) -> MCTSCaptain:
    """A time budget when ``seconds`` is positive, else :data:`HARD_ITERATIONS` iterations per decision
    (the default: the hard level's fixed budget)."""
    return MCTSCaptain(seed=seed, seconds=seconds or None, iterations=None if seconds else HARD_ITERATIONS)


AGENTS: dict[str, Callable[[int, float], Any]] = {
    "random": lambda seed=0, seconds=1.0, **_: RandomCaptain(seed),
    "heuristic": lambda seed=0, seconds=1.0, **_: HeuristicAgent(seed),
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
    """A captain by name; ``iterations`` fixes the MCTS budget (else ``seconds``, else
    :data:`HARD_ITERATIONS`)."""
    if name == "mcts" and iterations:
        return MCTSCaptain(seed=seed, iterations=iterations)
    if name not in AGENTS:
        raise ValueError(f"unknown captain {name!r}; known: {', '.join(AGENTS)}")
    return AGENTS[name](seed, seconds)
