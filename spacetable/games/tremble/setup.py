"""Setup (TH-2): the starting position of a match, all chance from the match generator.

TH-2.1 cities and missions marked for more players leave the game; TH-2.2 the city deck is
blue over red, each shuffled, checked for 5·(P+1) cards of each colour; TH-2.3 one training
saucer each, the others leave the game; TH-2.4 the blue and red ship decks are shuffled; TH-2.5
everybody starts with the same humans and nothing else; TH-2.6 M(P) missions are revealed, the
rest stay hidden; TH-2.7 the army and compensation decks are shuffled; TH-2.8 seats are numbered
0..P-1 and the lead seat of a turn follows from the turn number (:attr:`TState.lead`).
"""

from __future__ import annotations

from spacetable.core.rng import Rng

from .cards import CardSet
from .state import PlayerState, TState


def setup(cards: CardSet, players: int, seed: int, fuel: list[int], split_unit: int, log_events: bool = True) -> TState:
    """TH-2.1, TH-2.2, TH-2.3, TH-2.4, TH-2.5, TH-2.6, TH-2.7: the state before the first turn begins.
    The match seed is the one generator of the game: every shuffle and die roll comes from it (TH-P4)."""
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
        # TH-2.2, TH-15: five turns of blue cities over five turns of red
        raise ValueError(f"TH-2.2: {len(blue)} blue / {len(red)} red cities for {players} players, expected {5 * per_turn} each")
    s.city_deck = red + blue  # pop() takes from the end: blue is on top
    s.blue_deck = blue_deck
    s.red_deck = red_deck
    rng.shuffle(s.blue_deck)
    rng.shuffle(s.red_deck)
    s.out = training[players:]  # TH-2.3: unused training saucers leave the game
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
    """The sorted card lists a setup for ``players`` starts from, before any shuffle (TH-2.1, TH-2.2,
    TH-2.3, TH-2.4, TH-2.6, TH-2.7): blue cities, red cities, training saucers, blue and red ship
    decks, eligible missions, armies, compensations."""
    cities = [c for c in sorted(cards.cities) if cards.cities[c].min_players <= players]
    blue = [c for c in cities if cards.cities[c].deck == "blue"]
    red = [c for c in cities if cards.cities[c].deck == "red"]
    training = sorted(c for c, sh in cards.ships.items() if sh.deck == "training")
    deck = sorted(c for c in list(cards.ships) + list(cards.stations) if cards.deck_of[c] != "training")
    blue_deck = [c for c in deck if cards.deck_of[c] == "blue"]
    red_deck = [c for c in deck if cards.deck_of[c] == "red"]
    missions = sorted(m for m, rec in cards.missions.items() if rec.min_players <= players)
    return blue, red, training, blue_deck, red_deck, missions, sorted(cards.armies), sorted(cards.comps)
