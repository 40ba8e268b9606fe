"""Buying phase (TH-4): draws, the station redraw and the sealed buy commit.

A commit ``{"type": "buy", "credits", "buy", "discard", "repay", "comp"}`` is validated
step by step in the order of TH-4.4 and applied together with the others.
Decision (house, recorded in docs): an untapped ``price_discount`` station is applied
automatically to the most expensive card of the purchase (it can only help).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.rng import Rng

from .cards import CardSet
from .credits import credit_allowed, max_credits, take_credits
from .state import PlayerState, TState


def active_deck(s: TState, rules: dict[str, Any]) -> list[str]:
    return s.red_deck if s.turn >= rules["red_from_turn"] else s.blue_deck


def draw_ships(s: TState, cards: CardSet, rules: dict[str, Any], n: int) -> list[str]:
    """Draw from the active deck; an empty deck is rebuilt from the active colour's discards (TH-D17)."""
    colour = "red" if s.turn >= rules["red_from_turn"] else "blue"
    deck = active_deck(s, rules)
    out: list[str] = []
    for _ in range(n):
        if not deck:
            pool = [c for c in s.ship_discard if cards.deck_of[c] == colour]
            if not pool:
                break
            s.ship_discard = [c for c in s.ship_discard if cards.deck_of[c] != colour]
            s.rng.shuffle(pool)
            deck.extend(pool)
            s.log_events and s.note(f"the {colour} ship discard ({len(pool)} cards) is shuffled into a new deck (TH-D17)")
        out.append(deck.pop())
    return out


def all_stations(cards: CardSet, drawn: list[str]) -> bool:
    return len(drawn) >= 2 and all(c in cards.stations for c in drawn)


def _str(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def check_buy(s: TState, cards: CardSet, rules: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    """Validate a buy commit without changing the state (TH-4.4–4.6, TH-13)."""
    simulate_buy(s.players[seat], s, cards, rules, action, mutate=False)


def simulate_buy(
    p: PlayerState, s: TState, cards: CardSet, rules: dict[str, Any], action: dict[str, Any], mutate: bool = True
) -> list[str]:
    """Apply a buy commit to player ``p`` (a copy or the real one); returns the cards it sends to the
    ship discard (unbought, discarded). Raises :class:`RuleError` on the first broken rule. With
    ``mutate=False`` it only validates (nothing is changed; the player is not copied)."""
    credits = action.get("credits", 0)
    buy = action.get("buy", [])
    discard = action.get("discard", [])
    repay = action.get("repay", 0)
    comp = action.get("comp", [])
    if not (
        isinstance(credits, int)
        and isinstance(repay, int)
        and credits >= 0
        and repay >= 0
        and _str(buy)
        and _str(discard)
        and _str(comp)
    ):
        raise RuleError("CORE-ACTION", "buy needs credits:int, buy:[card], discard:[card], repay:int, comp:[card]")
    if credits and repay:
        raise RuleError("TH-4.4", "taking and repaying credit in one commit is illegal")
    humans = p.humans
    # (1) gain_humans compensation cards
    if comp:
        usable = p.usable_comps(s.turn)
        if len(set(comp)) != len(comp):
            raise RuleError("TH-4.4", "a compensation card is listed twice")
        for c in comp:
            if c not in usable:
                raise RuleError("TH-12.2", f"{c} is not a usable compensation card of yours (received before this turn)")
            eff = cards.comps[c].effect
            if eff["op"] != "gain_humans":
                raise RuleError("TH-4.4", f"{c} cannot be played while buying")
            humans += eff["amount"]
    # (2) credits, one at a time
    if credits:
        humans = take_credits(p, humans, credits, rules)
    # (3) purchases
    ships = cards.ships
    disc_station = None
    if buy:
        drawn = p.drawn
        if len(set(buy)) != len(buy) or any(c not in drawn for c in buy):
            raise RuleError("TH-4.3", "you may buy only cards you drew this turn, each once")
        if len(buy) > rules["buy_max"]:
            raise RuleError("TH-4.3", f"at most {rules['buy_max']} cards may be bought")
        prices = sorted((cards.price(c) for c in buy), reverse=True)
        for st in p.stations:
            if st not in p.tapped and cards.stations[st].op == "price_discount":
                disc_station = st
                break
        if disc_station is not None:
            prices[0] = max(0, prices[0] - cards.stations[disc_station].effect["amount"])
        total = sum(prices)
        if total > humans:
            raise RuleError("TH-4.4", f"the purchase costs {total:,} but you have {humans:,} humans")
        humans -= total
        bought_ships = [c for c in buy if c in ships]
        bought_st = [c for c in buy if c not in ships]
    else:
        bought_ships = bought_st = []
    # (4) discards: exactly as many owned cards as the limits require (TH-4.6, TH-D29)
    if discard and (len(set(discard)) != len(discard) or any(c not in p.hand and c not in p.stations for c in discard)):
        raise RuleError("TH-4.6", "you may discard only ships or stations you owned before this commit")
    bought_bases = {c.split("#", 1)[0] for c in bought_st}
    if len(bought_bases) != len(bought_st):
        raise RuleError("TH-4.6", "two stations with the same card id cannot be owned")
    ship_disc = [c for c in discard if c in p.hand] if discard else []
    st_disc = [c for c in discard if c in p.stations] if discard else []
    need_ships = len(p.hand) + len(bought_ships) - rules["max_ships"]
    if need_ships < 0:
        need_ships = 0
    if len(ship_disc) != need_ships:
        raise RuleError("TH-4.6", f"this purchase needs exactly {need_ships} ship discard(s), not {len(ship_disc)}")
    if bought_st or st_disc:
        dup = [c for c in p.stations if c.split("#", 1)[0] in bought_bases]
        need_st = len(dup) + max(0, len(p.stations) - len(dup) + len(bought_st) - rules["max_stations"])
        kept = [c for c in p.stations if c not in st_disc]
        if len(st_disc) != need_st or any(c.split("#", 1)[0] in bought_bases for c in kept):
            raise RuleError("TH-4.6", f"this purchase needs exactly {need_st} station discard(s) of the right cards")
    elif len(p.stations) > rules["max_stations"]:
        need_st = len(p.stations) - rules["max_stations"]
        raise RuleError("TH-4.6", f"this purchase needs exactly {need_st} station discard(s) of the right cards")
    # (5) repayments
    if repay:
        if repay > p.credits:
            raise RuleError("TH-13.4", f"you have only {p.credits} open credit(s)")
        cost = repay * rules["credit"]["repay"]
        if cost > humans:
            raise RuleError("TH-D8", f"repaying {repay} credit(s) costs {cost:,}; you would have {humans:,}")
        humans -= cost
    if not mutate:
        return []
    return _commit_buy(p, action, humans, disc_station, ship_disc, st_disc, bought_ships, bought_st)


def apply_buy(p: PlayerState, s: TState, cards: CardSet, rules: dict[str, Any], action: dict[str, Any]) -> list[str]:
    """Apply a buy commit that :func:`check_buy` accepted when it was sealed (TH-4.3: the commits are
    applied together later), in the TH-4.4 order but without checking it again; returns what
    :func:`simulate_buy` returns (a test keeps the two equal)."""
    get = action.get
    credit = rules["credit"]
    buy = get("buy", [])
    discard = get("discard", [])
    humans = p.humans + get("credits", 0) * credit["amount"]
    for c in get("comp", ()):
        humans += cards.comps[c].effect["amount"]
    disc_station = None
    bought_ships: list[str] = []
    bought_st: list[str] = []
    if buy:
        ships = cards.ships
        stations = cards.stations
        prices = []
        for c in buy:
            ship = ships.get(c)
            if ship is not None:
                prices.append(ship.price)
                bought_ships.append(c)
            else:
                prices.append(stations[c].price)
                bought_st.append(c)
        for st in p.stations:
            if st not in p.tapped and stations[st].op == "price_discount":
                disc_station = st
                break
        humans -= sum(prices)
        if disc_station is not None:
            humans += min(stations[disc_station].effect["amount"], max(prices))
    humans -= get("repay", 0) * credit["repay"]
    if discard:
        ship_disc = [c for c in discard if c in p.hand]
        st_disc = [c for c in discard if c in p.stations]
    else:
        ship_disc, st_disc = [], []
    return _commit_buy(p, action, humans, disc_station, ship_disc, st_disc, bought_ships, bought_st)


def _commit_buy(
    p: PlayerState,
    action: dict[str, Any],
    humans: int,
    disc_station: str | None,
    ship_disc: list[str],
    st_disc: list[str],
    bought_ships: list[str],
    bought_st: list[str],
) -> list[str]:
    """The state changes of a buy commit (TH-4.4–4.6, TH-13): balance, credits, spent compensation
    cards, a used discount station, discards, new cards; returns the cards for the ship discard."""
    credits = action.get("credits", 0)
    repay = action.get("repay", 0)
    buy = action.get("buy", [])
    p.credits += credits - repay
    p.credits_taken += credits
    p.humans = humans
    for c in action.get("comp", []):
        i = p.comps.index(c)
        del p.comps[i]
        del p.comp_turns[i]
    if disc_station is not None and buy:
        p.tapped.append(disc_station)
    to_discard = [c for c in p.drawn if c not in buy]
    for c in ship_disc:
        p.hand.remove(c)
        if c in p.known:
            p.known.remove(c)
    for c in st_disc:
        p.stations.remove(c)
        if c in p.tapped:
            p.tapped.remove(c)
    to_discard += action.get("discard", [])
    p.hand.extend(bought_ships)
    p.stations.extend(bought_st)
    p.drawn = []
    return to_discard


def enumerate_buys(s: TState, cards: CardSet, rules: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every legal buy commit of ``seat`` in a canonical order (TH §5 enumerator)."""
    p = s.players[seat]
    usable = [c for c in p.usable_comps(s.turn) if cards.comps[c].op == "gain_humans"]
    out: list[dict[str, Any]] = []
    comp_sets = [list(x) for k in range(len(usable) + 1) for x in combinations(sorted(usable), k)]
    buy_sets = [list(x) for k in range(min(rules["buy_max"], len(p.drawn)) + 1) for x in combinations(p.drawn, k)]
    for comp in comp_sets:
        h0 = p.humans + sum(cards.comps[c].effect["amount"] for c in comp)
        for credits in range(max_credits(p, h0, rules) + 1):
            for buy in buy_sets:
                bought_ships = sum(1 for c in buy if c in cards.ships)
                need = max(0, len(p.hand) + bought_ships - rules["max_ships"])
                ship_opts = [list(x) for x in combinations(p.hand, need)]
                bought_bases = {cards.base_id(c) for c in buy if c in cards.stations}
                dup = [c for c in p.stations if cards.base_id(c) in bought_bases]
                rest = [c for c in p.stations if c not in dup]
                extra = max(0, len(rest) + len(bought_bases) - rules["max_stations"])
                st_opts = [dup + list(x) for x in combinations(rest, extra)]
                for sd in ship_opts:
                    for td in st_opts:
                        base = {"type": "buy", "credits": credits, "buy": buy, "discard": sd + td, "repay": 0, "comp": comp}
                        try:
                            q = p.clone()
                            simulate_buy(q, s, cards, rules, base)
                        except RuleError:
                            continue
                        out.append(base)
                        if credits == 0:
                            for r in range(1, min(p.credits, q.humans // rules["credit"]["repay"]) + 1):
                                out.append({**base, "repay": r})
    return out


def random_buy(s: TState, cards: CardSet, rules: dict[str, Any], seat: int, rng: Rng) -> dict[str, Any]:
    """A random legal buy commit drawn without enumerating (fast random captains), legal by
    construction (TH-4.4 order): one time in four up to 0–2 credits while TH-13.1 allows them; each
    drawn card with probability 1/2 while at most ``buy_max`` are bought, no station id repeats and the
    total (after the automatic ``price_discount``) fits the humans; exactly the discards TH-4.6
    requires (random ships, every owned copy of a bought station id, random other stations); one
    time in three a single repayment (TH-13.4) when there are open credits and it fits. No
    compensation cards are played. Not uniform over the legal commits."""
    p = s.players[seat]
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
    many = getattr(rng, "randbelow_many", None)  # the random captain's batched draw (same values, same order)
    coins = many(2, len(drawn)) if many is not None else [below(2) for _ in drawn]
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
