"""Teams of 3–4 seats (BG-18, D-16).

A team is **one side**: one energy track, deck, hand, prepped area and screen, one turn per round.
Each ship card is assigned to a commanding seat, and only that seat launches and activates it.
Any seat of the side may play tactic cards while it holds the helm; seat 1 of the side (its lowest
seat, the *lead*) takes the energy-phase decisions and answers reaction windows.

Within the deploy and action phases the **helm** passes through the side's seats in seat order,
starting with the lead: ``end_deploy`` or ``end_turn`` by a seat hands the helm to the next seat
of the side, and the last seat's ends the phase (so exactly one seat is to act at any time, and
each commander gets its part of every phase). Mission data balances unequal seat counts (BG-18.2).
"""

from __future__ import annotations

from .state import GState


def default_commanders(seats: list[int], count: int) -> list[int]:
    """D-16: cards without a named seat are assigned round-robin over the side's seats, in list order."""
    return [seats[i % len(seats)] for i in range(count)]


def next_seat(s: GState) -> int | None:
    """The side's next seat after the helm in seat order, or ``None`` when the helm is the last."""
    seats = s.sides[s.active].seats
    k = seats.index(s.helm)
    return seats[k + 1] if k + 1 < len(seats) else None


def commands(s: GState, seat: int, card: str) -> bool:
    """BG-18.1 only the commanding seat launches or activates a card."""
    return s.cards[card].seat == seat
