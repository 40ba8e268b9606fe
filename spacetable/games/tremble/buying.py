"""Buying (TH-4): the draws, the station redraw and the sealed buy commit.

A commit ``{"type": "buy", "credits", "buy", "discard", "repay", "comp"}`` is validated
step by step in the order of TH-4.4 (:func:`simulate_buy`, the reference) and applied together
with the others (TH-4.3; the resolution without a second validation is :func:`.fast.apply_buy`).
House decisions (TH-H1): an untapped ``price_discount`` station is applied automatically to the most
expensive card of the purchase (it can only help); an untapped ``extra_draw`` station is used
automatically when drawing.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from spacetable.core.errors import RuleError

from .cards import CardSet
from .credits import max_credits, take_credits
from .state import PlayerState, TState


def no_buy() -> dict[str, Any]:
    """The buy commit of a seat that buys nothing (TH-4.3; the timeout default)."""
    return {"type": "buy", "credits": 0, "buy": [], "discard": [], "repay": 0, "comp": []}


def active_deck(s: TState, rules: dict[str, Any]) -> list[str]:
    """TH-2.4, TH-3.2: blue until ``red_from_turn``, then red."""
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
    """TH-4.2, TH-H2: the station redraw is offered when every drawn card (at least two) is a station."""
    return len(drawn) >= 2 and all(c in cards.stations for c in drawn)


def draw_for_turn(s: TState, cards: CardSet) -> None:
    """TH-4.1: in seat order each player privately draws from the active deck (an untapped
    ``extra_draw`` station adds its cards and taps); the seats that drew only stations queue for
    the redraw (TH-4.2)."""
    rules = cards.rules
    s.queue = []
    draw = int(rules["draw_per_turn"])
    stations = cards.stations
    for seat in s.seat_order():
        p = s.players[seat]
        n = draw
        for st in p.stations:
            if stations[st].op == "extra_draw" and st not in p.tapped:
                p.tapped.append(st)  # TH-H1: used automatically when drawing
                n += stations[st].effect["n"]
        deck = active_deck(s, rules)
        if len(deck) >= n:  # no reshuffle needed: the same cards off the top as draw_ships
            drawn = [deck.pop() for _ in range(n)]
        else:
            drawn = draw_ships(s, cards, rules, n)
        p.drawn = drawn
        if all_stations(cards, drawn):
            s.queue.append(seat)


def redraw_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """TH-4.2: show and redraw, or keep."""
    return [{"type": "redraw_stations"}, {"type": "keep"}]


def redraw_stations(s: TState, cards: CardSet, seat: int) -> None:
    """TH-4.2, TH-D20, TH-H2: show the stations, discard them face up and draw as many cards again."""
    p = s.players[seat]
    s.log_events and s.note(f"seat {seat} shows and discards {', '.join(cards.card_name(c) for c in p.drawn)} and redraws")
    s.ship_discard.extend(p.drawn)
    p.drawn = draw_ships(s, cards, cards.rules, len(p.drawn))


def full_buy(action: dict[str, Any]) -> dict[str, Any]:
    """A buy commit with every field present (the stored form, TH-4.3; absent fields are empty)."""
    get = action.get
    return {
        "type": "buy",
        "credits": get("credits", 0),
        "buy": list(get("buy", ())),
        "discard": list(get("discard", ())),
        "repay": get("repay", 0),
        "comp": list(get("comp", ())),
    }


def check_buy(s: TState, cards: CardSet, rules: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    """Validate a buy commit without changing the state (TH-4.4, TH-4.5, TH-4.6, TH-13.1, TH-13.4)."""
    simulate_buy(s.players[seat], s, cards, rules, action, mutate=False)


def simulate_buy(
    p: PlayerState, s: TState, cards: CardSet, rules: dict[str, Any], action: dict[str, Any], mutate: bool = True
) -> list[str]:
    """Apply a buy commit to player ``p`` (a copy or the real one) in the TH-4.4 order, each step
    validated (TH-4.4, TH-4.5, TH-4.6, TH-13.1, TH-13.3, TH-13.4, TH-D8, TH-D29); returns the cards it
    sends to the ship discard (unbought, discarded). Raises :class:`RuleError` on the first broken
    rule. With ``mutate=False`` it only validates (nothing is changed; the player is not copied).
    The action's JSON shape was checked by the move schema."""
    credits = action.get("credits", 0)
    buy = action.get("buy", [])
    discard = action.get("discard", [])
    repay = action.get("repay", 0)
    comp = action.get("comp", [])
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
                disc_station = st  # TH-H1: used automatically on the dearest card
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
    return commit_buy(p, action, humans, disc_station, ship_disc, st_disc, bought_ships, bought_st)


def commit_buy(
    p: PlayerState,
    action: dict[str, Any],
    humans: int,
    disc_station: str | None,
    ship_disc: list[str],
    st_disc: list[str],
    bought_ships: list[str],
    bought_st: list[str],
) -> list[str]:
    """The state changes of a buy commit (TH-4.4, TH-4.5, TH-4.6, TH-13.2, TH-13.4): balance, credits,
    spent compensation cards, a used discount station, discards, new cards; returns the cards for the
    ship discard. Shared by the validating :func:`simulate_buy` and :func:`.fast.apply_buy`."""
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
    """Every legal buy commit of ``seat`` in a canonical order (TH-4.3: the enumerator beside the validator)."""
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


def settle_purchase(s: TState, cards: CardSet, seat: int, commit: dict[str, Any], before: int, gone: list[str]) -> None:
    """TH-4.5, TH-4.6, TH-12.2 after a commit is applied: unbought and discarded cards go face up to the ship
    discard, a training saucer leaves the game instead (TH-D11); spent compensation cards go to their discard."""
    for c in gone:
        if cards.deck_of[c] == "training":
            s.out.append(c)
        else:
            s.ship_discard.append(c)
    s.comp_discard.extend(commit["comp"])
    p = s.players[seat]
    s.log_events and s.note(
        f"seat {seat} buys {len(commit['buy'])} card(s); humans {before:,} → {p.humans:,}"
        + (f"; credits +{commit['credits']}" if commit["credits"] else "")
        + (f"; repays {commit['repay']}" if commit["repay"] else "")
    )
