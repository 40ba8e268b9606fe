"""Tides: the card deck, the random walk and forecasts (FM-2.3, FM-2.6, FM-13.3, FM-D23)."""

from __future__ import annotations

from .state import WL, FMState

DECK = ["low"] * 5 + ["normal"] * 5 + ["high"] * 5
STEP = {"high": 1, "normal": 0, "low": -1}


def setup_deck(state: FMState) -> None:
    """FM-2.3 set-up: shuffle 15 cards, 6 aside unseen, 9 in the pile."""
    if state.config["tide_generator"] == "deck":
        cards = list(DECK)
        state.rng.shuffle(cards)
        state.aside, state.pile = cards[:6], cards[6:]
    else:
        state.aside, state.pile = [], []


def _walk_next(state: FMState, level: int) -> str:
    """FM-2.6: the next random-walk tide from level ``level``."""
    if level > 2:
        return state.rng.choice(["low", "normal"])
    if level < -2:
        return state.rng.choice(["normal", "high"])
    return state.rng.choice(["low", "normal", "high"])


def ensure_walk(state: FMState, count: int) -> None:
    """Draw random-walk tides until ``count`` future ones are fixed."""
    level = state.walk_level + sum(STEP[t] for t in state.pile)
    while len(state.pile) < count:
        t = _walk_next(state, level)
        state.pile.append(t)
        level += STEP[t]


def draw_tide(state: FMState) -> None:
    """Turn the next tide into the present one (FM-2.3 / FM-2.6); reshuffle an empty pile."""
    if state.config["tide_generator"] == "deck":
        state.tide = state.pile.pop(0)
        if not state.pile:
            cards = list(DECK)
            cards.remove(state.tide)
            state.rng.shuffle(cards)
            state.aside, state.pile = cards[:6], cards[6:]
    else:
        ensure_walk(state, 1)
        state.tide = state.pile.pop(0)
        state.walk_level += STEP[state.tide]


def operational_wls(state: FMState, player: int) -> int:
    """FM-13.3: WLs on the board, not carried, stranded or neutralized."""
    return sum(1 for u in state.units.values() if u.kind == WL and state.operational(u, player))


def forecast(state: FMState) -> None:
    """FM-13.3: each player with k operational WLs privately sees the next k tides."""
    mode = state.config["forecast"]
    for p in range(state.num_players):
        if not state.is_active(p):
            continue
        k = operational_wls(state, p)
        if k == 0:
            continue
        if mode == "single":
            k = 1
        elif mode == "max2":
            k = min(k, 2)
        if state.config["tide_generator"] == "random_walk":
            ensure_walk(state, k)
        for i, t in enumerate(state.pile[:k]):
            state.forecasts[p][state.turn + 1 + i] = t
