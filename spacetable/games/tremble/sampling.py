"""Random legal actions without listing them all: the random captain's samplers (TH-4.3, TH-6.1, TH-7.2).

A seat that must act gets a random legal action from :func:`sample_action`. In every window but
buy and plan it is exactly ``legal[rng.randbelow(len(legal))]`` over :func:`.flow.legal`, and the
same single draw (a test compares the two); some lists are not built to draw from them:

* fight or flee (TH-9.3, TH-10.3), raid or catch without an ``army_peek`` station (TH-10.1): the
  two choices are indexed directly;
* station moves and self moves (:func:`sample_station_move`, :func:`sample_self_move`) decode the
  same single draw into the same member of the legal list (a test compares them with indexing);
* the sealed buy and plan commits (:func:`random_buy`, :func:`random_plan`) are drawn directly by
  a documented procedure: always legal (a test finds every sample among the enumerated commits),
  but not uniform over the thousands of legal commits.

The generator is any object with ``randbelow(n)`` and ``shuffle(items)`` (:class:`Draws`): the
core :class:`~spacetable.core.rng.Rng`, or a captain's own generator.
"""

from __future__ import annotations

from typing import Any, Protocol

from .cards import CardSet
from .credits import credit_allowed
from .flow import legal
from .planning import fuel_choice, fuel_resources
from .state import TState
from .stations import ship_location


class Draws(Protocol):
    """What the samplers draw from: a uniform integer below ``n``, and an in-place shuffle."""

    def randbelow(self, n: int) -> int: ...

    def shuffle(self, items: list[Any]) -> None: ...


_FIGHT = ("fight", "flee")  # the order of battle.declare_actions and reward.army_actions
_REWARD = ("raid", "catch")  # the order of reward.reward_actions


def sample_action(s: TState, cards: CardSet, seat: int, rng: Draws) -> dict[str, Any]:
    """A random legal action of ``seat``, which must be one to act now (see the module doc)."""
    ph = s.phase
    if ph == "declare" or ph == "army":
        return {"type": ph, "choice": _FIGHT[rng.randbelow(2)]}
    if ph == "plan":
        return random_plan(s, cards, seat, rng)
    if ph == "buy":
        return random_buy(s, cards, seat, rng)
    if ph == "reward" and not s.players[seat].stations:
        return {"type": "reward", "choice": _REWARD[rng.randbelow(2)]}
    if ph == "station_move":
        return sample_station_move(s, cards, seat, rng)
    if ph == "self_move":
        return sample_self_move(s, cards, seat, rng)
    actions = legal(s, cards, seat)
    return actions[rng.randbelow(len(actions))]


def random_buy(s: TState, cards: CardSet, seat: int, rng: Draws) -> dict[str, Any]:
    """A random legal buy commit drawn without enumerating (fast random captains), legal by
    construction (TH-4.4 order): one time in four up to 0–2 credits while TH-13.1 allows them; each
    drawn card with probability 1/2 while at most ``buy_max`` are bought, no station id repeats and the
    total (after the automatic ``price_discount``) fits the humans; exactly the discards TH-4.6
    requires (random ships, every owned copy of a bought station id, random other stations); one
    time in three a single repayment (TH-13.4) when there are open credits and it fits. No
    compensation cards are played. Not uniform over the legal commits."""
    p = s.players[seat]
    rules = cards.rules
    below = rng.randbelow
    credit = rules["credit"]
    humans = p.humans
    credits = 0
    if below(4) == 0:
        want = below(3)
        while credits < want and credit_allowed(p, humans, rules):
            credits += 1
            humans += credit["amount"]
    stations = cards.stations
    disc = 0
    for st in p.stations:
        if st not in p.tapped and stations[st].op == "price_discount":
            disc = stations[st].effect["amount"]
            break
    ships = cards.ships
    buy_max = rules["buy_max"]
    buy: list[str] = []
    total = top = 0  # sum and maximum of the bought prices
    bases: set[str] = set()
    cost = 0
    bought_ships = 0
    drawn = p.drawn
    coins = [below(2) for _ in drawn]
    for c, coin in zip(drawn, coins, strict=True):
        if coin and len(buy) < buy_max:
            station = stations.get(c)
            if station is not None:
                base = c.split("#", 1)[0]
                if base in bases:
                    continue
                price = station.price
            else:
                price = ships[c].price
            trial_total = total + price
            trial_top = price if price > top else top
            trial_cost = trial_total - (disc if disc < trial_top else trial_top)  # the discount, at most the dearest card
            if trial_cost <= humans:
                buy.append(c)
                total, top = trial_total, trial_top
                cost = trial_cost
                if station is not None:
                    bases.add(base)
                else:
                    bought_ships += 1
    humans -= cost
    repay = 0
    if not credits and p.credits and below(3) == 0 and credit["repay"] <= humans:
        repay = 1
    need = max(0, len(p.hand) + bought_ships - rules["max_ships"])
    if need:
        hand = p.hand[:]
        rng.shuffle(hand)
    else:
        hand = []  # hand[:0] is all that is used
    if bases:
        dup = [c for c in p.stations if c.split("#", 1)[0] in bases]
        rest = [c for c in p.stations if c not in dup]
    else:
        dup, rest = [], p.stations[:]
    extra = max(0, len(rest) + len(bases) - rules["max_stations"])
    if extra:
        rng.shuffle(rest)
    return {
        "type": "buy",
        "credits": credits,
        "buy": buy,
        "discard": hand[:need] + dup + rest[:extra],
        "repay": repay,
        "comp": [],
    }


def random_plan(s: TState, cards: CardSet, seat: int, rng: Draws) -> dict[str, Any]:
    """A random legal plan drawn without enumerating (fast path for random captains): each ship
    goes home or to a uniform slot, then random ships go home until the fuel fits."""
    p = s.players[seat]
    hand = sorted(p.hand)
    below = rng.randbelow
    k = len(s.slots) + 1
    limit = s.fuel[s.turn - 1]
    res = fuel_resources(s, cards, seat) if p.stations or p.comps else []
    max_fuel = limit + sum(r[2] for r in res) if res else limit
    fuel_of = cards.ship_fuel
    assign = [below(k) for _ in hand]
    total = 0
    groups: dict[int, list[str]] = {}
    for a, h in zip(assign, hand, strict=False):
        if a:
            total += fuel_of[h]
            if a in groups:
                groups[a].append(h)
            else:
                groups[a] = [h]
    if total > max_fuel:
        active = [i for i, a in enumerate(assign) if a]
        while total > max_fuel:  # the ships still out, kept in seat order as they go home
            i = active.pop(below(len(active)))
            assign[i] = 0
            total -= fuel_of[hand[i]]
        groups = {}  # regrouped after the trim (the same order as without one)
        for a, h in zip(assign, hand, strict=False):
            if a:
                if a in groups:
                    groups[a].append(h)
                else:
                    groups[a] = [h]
    if res:
        choice = fuel_choice(res, total - limit)
        assert choice is not None
        fuel_cards, stations = choice[0], list(choice[1])
    else:  # _fuel_choice with no resources: the plan fits the limit (the loop above made sure)
        fuel_cards, stations = [], []
    keys = sorted(groups)
    if p.stations:
        support = cards.support_stations
        for sup in sorted(st for st in p.stations if st in support and st not in p.tapped):
            if groups and below(2):
                stations.append({"station": sup, "slot": keys[below(len(keys))]})
    return {
        "type": "plan",
        "groups": [{"slot": g, "ships": groups[g]} for g in keys],
        "fuel_cards": fuel_cards,
        "stations": stations,
    }


def sample_station_move(s: TState, cards: CardSet, seat: int, rng: Draws) -> dict[str, Any]:
    """``station_move_actions(...)[rng.randbelow(len(...))]`` without building the list: the same single
    draw decoded into the same action (random captains; TH-7.2)."""
    p = s.players[seat]
    sts = sorted(x for x in p.stations if x not in p.tapped and cards.stations[x].op == "relocate_enemy_ship")
    dests = len(s.slots) - 1
    targets = [
        (slot, ship)
        for slot, groups in enumerate(s.groups)
        for other in sorted(groups)
        if other != seat
        for ship in groups[other]
    ]
    per = len(targets) * dests
    i = rng.randbelow(1 + len(sts) * per)
    if i == 0:
        return {"type": "pass"}
    st, r = divmod(i - 1, per)
    slot, ship = targets[r // dests]
    to = r % dests
    if to >= slot:
        to += 1  # destinations skip the ship's own slot
    return {"type": "relocate_enemy", "station": sts[st], "ship": ship, "to_slot": to + 1}


def sample_self_move(s: TState, cards: CardSet, seat: int, rng: Draws) -> dict[str, Any]:
    """``self_move_actions(...)[rng.randbelow(len(...))]`` without building the product: the same single
    draw decoded in mixed radix, the first ship the most significant digit (random captains; TH-7.2)."""
    mine = sorted(x for g in s.groups for x in g.get(seat, []) if cards.ships[x].relocate_self)
    per_ship: list[list[Any]] = []
    count = 1
    for ship in mine:
        loc = ship_location(s, ship)
        assert loc is not None
        choices: list[Any] = ["stay", *[k + 1 for k in range(len(s.slots)) if k != loc[0]]]
        per_ship.append(choices)
        count *= len(choices)
    i = rng.randbelow(count)
    moves: list[dict[str, Any]] = []
    for ship, choices in zip(reversed(mine), reversed(per_ship), strict=True):
        i, d = divmod(i, len(choices))
        moves.append({"ship": ship, "to_slot": choices[d]})
    moves.reverse()
    return {"type": "relocate_self", "moves": moves}
