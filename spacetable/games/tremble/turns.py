"""Setup (TH-2) and the turn cycle (TH-3): draws, buying, city reveal, planning, relocation,
city-by-city resolution (TH-8, TH-D23), end of turn and end of game (TH-14)."""

from __future__ import annotations

from typing import Any

from spacetable.core.rng import Rng

from .battle import start_battle
from .buying import all_stations, apply_buy, draw_ships
from .cards import CardSet
from .credits import settle
from .missions import mission_count, split_prizes
from .planning import reveal_plans
from .reward import start_reward
from .state import PlayerState, TState
from .stations import resolve_self_moves, resolve_station_moves, self_movers, station_movers


def setup(cards: CardSet, players: int, seed: int, fuel: list[int], split_unit: int, log_events: bool = True) -> TState:
    """TH-2.1–2.8."""
    rules = cards.rules
    rng = Rng.from_seed(seed)
    s = TState(num_players=players, card_set="", fuel=list(fuel), split_unit=split_unit, rng=rng, log_events=log_events)
    lists = cards.setup_memo.get(players)
    if lists is None:
        lists = cards.setup_memo[players] = _setup_lists(cards, players)
    blue, red, training, blue_deck, red_deck, missions, armies, comps = (x[:] for x in lists)
    rng.shuffle(blue)
    rng.shuffle(red)
    per_turn = int(rules["cities_per_turn"][str(players)])
    if len(blue) != 5 * per_turn or len(red) != 5 * per_turn:
        raise ValueError(f"TH-2.2: {len(blue)} blue / {len(red)} red cities for {players} players, expected {5 * per_turn} each")
    s.city_deck = red + blue  # pop() takes from the end: blue is on top
    s.blue_deck = blue_deck
    s.red_deck = red_deck
    rng.shuffle(s.blue_deck)
    rng.shuffle(s.red_deck)
    s.out = training[players:]
    s.players = [PlayerState(humans=int(rules["start_humans"]), hand=[training[i]]) for i in range(players)]
    rng.shuffle(missions)
    shown = int(rules["missions_shown"][str(players)])
    s.missions, s.hidden_missions = sorted(missions[:shown]), missions[shown:]
    s.army_deck = armies
    rng.shuffle(s.army_deck)
    s.comp_deck = comps
    rng.shuffle(s.comp_deck)
    return s


def _setup_lists(cards: CardSet, players: int) -> tuple[list[str], ...]:
    """The sorted card lists of a setup for ``players`` before any shuffle (TH-2.2–2.7): blue cities,
    red cities, training saucers, blue and red ship decks, eligible missions, armies, compensations."""
    cities = [c for c in sorted(cards.cities) if cards.cities[c].min_players <= players]
    blue = [c for c in cities if cards.cities[c].deck == "blue"]
    red = [c for c in cities if cards.cities[c].deck == "red"]
    training = sorted(c for c, sh in cards.ships.items() if sh.deck == "training")
    deck = sorted(c for c in list(cards.ships) + list(cards.stations) if cards.deck_of[c] != "training")
    blue_deck = [c for c in deck if cards.deck_of[c] == "blue"]
    red_deck = [c for c in deck if cards.deck_of[c] == "red"]
    missions = sorted(m for m, rec in cards.missions.items() if rec.min_players <= players)
    return blue, red, training, blue_deck, red_deck, missions, sorted(cards.armies), sorted(cards.comps)


def start_turn(s: TState, cards: CardSet) -> None:
    """TH-3.2 and TH-4.1/4.2."""
    rules = cards.rules
    for p in s.players:
        p.tapped = []
    if s.turn == rules["red_from_turn"]:
        s.out.extend(s.blue_deck)  # TH-3.2: leaves the game unseen
        s.blue_deck = []
    s.log_events and s.note(f"turn {s.turn} begins; fuel limit {s.fuel[s.turn - 1]}")
    s.queue = []
    draw = int(rules["draw_per_turn"])
    stations = cards.stations
    for seat in s.seat_order():
        p = s.players[seat]
        n = draw
        for st in p.stations:
            if stations[st].op == "extra_draw" and st not in p.tapped:
                p.tapped.append(st)  # house decision: used automatically when drawing
                n += stations[st].effect["n"]
        deck = s.red_deck if s.turn >= rules["red_from_turn"] else s.blue_deck  # active_deck
        if len(deck) >= n:  # draw_ships without a reshuffle: the same cards off the top
            drawn = [deck.pop() for _ in range(n)]
        else:
            drawn = draw_ships(s, cards, rules, n)
        p.drawn = drawn
        if len(drawn) >= 2 and all(c in stations for c in drawn):  # all_stations
            s.queue.append(seat)
    if s.queue:
        s.phase = "redraw"
    else:
        begin_buy(s)


def redraw(s: TState, cards: CardSet, seat: int, again: bool) -> None:
    """TH-4.2 / TH-D20: show and discard both stations, draw again; repeat while still two stations."""
    p = s.players[seat]
    if again:
        s.log_events and s.note(f"seat {seat} shows and discards {', '.join(cards.card_name(c) for c in p.drawn)} and redraws")
        s.ship_discard.extend(p.drawn)
        p.drawn = draw_ships(s, cards, cards.rules, len(p.drawn))
        if all_stations(cards, p.drawn):
            return
    s.queue.pop(0)
    if not s.queue:
        begin_buy(s)


def begin_buy(s: TState) -> None:
    s.sealed.required = list(range(s.num_players))
    s.sealed.commits = {}
    s.phase = "buy"


def resolve_buys(s: TState, cards: CardSet) -> None:
    """TH-4.3: all buy commits applied together (each was validated on submission; called once all
    are in, so the sealed box is read directly)."""
    commits = s.sealed.commits
    for seat in s.seat_order():
        p = s.players[seat]
        before = p.humans
        gone = apply_buy(p, s, cards, cards.rules, commits[seat])
        for c in gone:
            if cards.deck_of[c] == "training":
                s.out.append(c)
            else:
                s.ship_discard.append(c)
        a = commits[seat]
        s.comp_discard.extend(a["comp"])  # TH-12.2: spent cards go face up to the compensation discard
        s.log_events and s.note(
            f"seat {seat} buys {len(a['buy'])} card(s); humans {before:,} → {p.humans:,}"
            + (f"; credits +{a['credits']}" if a["credits"] else "")
            + (f"; repays {a['repay']}" if a["repay"] else "")
        )
    s.sealed.required, s.sealed.commits = [], {}
    reveal_cities(s, cards)


def reveal_cities(s: TState, cards: CardSet) -> None:
    """TH-5.1, then planning (TH-6): players without ships plan nothing (TH-D10)."""
    n = int(cards.rules["cities_per_turn"][str(s.num_players)])
    s.slots = [s.city_deck.pop() for _ in range(n)]
    s.groups = [{} for _ in range(n)]
    s.support = [{} for _ in range(n)]
    s.log_events and s.note("cities: " + ", ".join(f"{i + 1}. {cards.card_name(c)}" for i, c in enumerate(s.slots)))
    s.sealed.required = [i for i, p in enumerate(s.players) if p.hand]
    s.sealed.commits = {}
    s.phase = "plan"
    if not s.sealed.required:
        after_plans(s, cards, {})


def after_plans(s: TState, cards: CardSet, plans: dict[int, dict[str, Any]]) -> None:
    s.sealed.required, s.sealed.commits = [], {}
    reveal_plans(s, cards, plans)
    movers = station_movers(s, cards)
    if movers:
        s.sealed.required, s.sealed.commits = movers, {}
        s.phase = "station_move"
    else:
        start_self_moves(s, cards)


def after_station_moves(s: TState, cards: CardSet) -> None:
    commits = s.sealed.revealed()
    s.sealed.required, s.sealed.commits = [], {}
    resolve_station_moves(s, cards, commits)
    start_self_moves(s, cards)


def start_self_moves(s: TState, cards: CardSet) -> None:
    movers = self_movers(s, cards)
    if movers:
        s.sealed.required, s.sealed.commits = movers, {}
        s.phase = "self_move"
    else:
        s.slot = -1
        end_slot(s, cards, first=True)


def after_self_moves(s: TState, cards: CardSet) -> None:
    commits = s.sealed.revealed()
    s.sealed.required, s.sealed.commits = [], {}
    resolve_self_moves(s, cards, commits)
    s.slot = -1
    end_slot(s, cards, first=True)


def end_slot(s: TState, cards: CardSet, first: bool = False) -> None:
    """Finish the current slot (ships back to hand) and resolve the next ones 1 → C(P) (TH-8)."""
    slot = s.slot
    groups = s.groups
    if not first and 0 <= slot < len(groups):
        groups[slot] = {}
    s.contest = None
    slots = s.slots
    n = len(slots)
    while True:
        slot += 1
        s.slot = slot
        if slot >= n:
            end_turn(s, cards)
            return
        attackers = groups[slot]
        if not attackers:  # TH-8.2: no attacker
            s.city_discard.append(slots[slot])
            continue
        if len(attackers) == 1:
            start_reward(s, cards, next(iter(attackers)))
        else:
            start_battle(s, cards, sorted(attackers))
        return


def end_turn(s: TState, cards: CardSet) -> None:
    """TH-3.3: slots empty, marker advances; after the last turn, TH-14."""
    s.slots, s.groups, s.support, s.slot = [], [], [], 0
    s.turn += 1
    if s.turn > int(cards.rules["turns"]):
        final_scoring(s, cards)
        return
    start_turn(s, cards)


def final_scoring(s: TState, cards: CardSet) -> None:
    """TH-14: mission prizes, then unpaid credits; the score is humans."""
    prizes = (int(cards.rules["mission_prizes"][0]), int(cards.rules["mission_prizes"][1]))
    totals = [0] * s.num_players
    for mid in s.missions:
        counts = [mission_count(cards, cards.missions[mid], p.trophies) for p in s.players]
        won = split_prizes(counts, prizes, s.split_unit)
        s.final[mid] = won
        for i, w in enumerate(won):
            totals[i] += w
        s.log_events and s.note(f"mission {cards.card_name(mid)}: counts {counts} → prizes {won}")
    s.final["missions"] = totals
    s.final["credits"] = [settle(p, cards.rules) for p in s.players]
    for i, p in enumerate(s.players):
        p.humans += totals[i] + s.final["credits"][i]
    s.phase = "over"
    s.log_events and s.note("game over: " + ", ".join(f"seat {i} {p.humans:,}" for i, p in enumerate(s.players)))
