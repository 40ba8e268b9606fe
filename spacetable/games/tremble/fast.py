"""The engine's trusted paths: the same rules without a second validation, for simulations.

Each function here has a validating twin elsewhere, and tests/tremble/test_fast.py proves the two
equal (identical states, identical returned cards):

* :func:`apply_buy` resolves a sealed buy commit that was validated when it was sealed (TH-4.3: the
  commits are applied together later) in the TH-4.4 order without checking it again; its twin is
  :func:`.buying.simulate_buy`. The engine always resolves buys with it.
* :data:`TRUSTED` seals the buy and plan commits that the engine produced itself (legal by
  construction, every field present) as given: not validated a second time (TH-4.4, TH-6.1) and not
  copied, so the caller must not change them afterwards. Used only by
  :meth:`.game.TrembleGame.apply_in_place` with ``checked=True``; never for actions from outside.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .buying import commit_buy
from .cards import CardSet
from .state import PlayerState, TState


def apply_buy(p: PlayerState, s: TState, cards: CardSet, rules: dict[str, Any], action: dict[str, Any]) -> list[str]:
    """Apply a buy commit that :func:`.buying.check_buy` accepted when it was sealed (TH-4.3, TH-4.4,
    TH-4.5, TH-4.6, TH-13.2, TH-13.4); returns what :func:`.buying.simulate_buy` returns."""
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
    return commit_buy(p, action, humans, disc_station, ship_disc, st_disc, bought_ships, bought_st)


def _seal_buy_as_given(s: TState, seat: int, action: dict[str, Any]) -> None:
    """TH-4.3: the engine's own buy commit, sealed without a second check."""
    s.sealed.submit(seat, action, "TH-4.3")


def _seal_plan_as_given(s: TState, seat: int, action: dict[str, Any]) -> None:
    """TH-6.1: the engine's own plan, sealed without a second check."""
    s.sealed.submit(seat, action, "TH-6.1")


#: action type -> the trusted exec replacing the move's validating one (``apply_in_place(..., checked=True)``)
TRUSTED: dict[str, Callable[[TState, int, dict[str, Any]], None]] = {"buy": _seal_buy_as_given, "plan": _seal_plan_as_given}
