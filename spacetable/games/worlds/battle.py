"""One battle (WS-5): the sealed event and energy steps, power, dice, the result and tie losses,
and the battle's exact law (WS-9.2).

Per battle, in the order the allocator declared (WS-4.4): each side may seal one legal event card
(WS-5.1, WS-7, WS-D3), then an amount of energy (WS-5.3, WS-D4); both are revealed together. Power
is the sum of the pieces' powers plus event bonuses plus energy (WS-5.2); each side adds 1d6
(WS-5.4). The lower total loses all its pieces in the battle (WS-5.5); equal totals cost each side
one piece of its own choice, the attacker announcing first (WS-5.6, WS-D5). Natives leave after the
battle (WS-5.7) and one battle never changes another's power (WS-5.8).

The functions ``play_event``, ``commit_energy`` and ``choose_tie_loss`` are the ``exec`` of the
moves of the same names; :mod:`.flow` reveals the sealed choices and rolls the dice once both are in.
Everything numeric is exact integer arithmetic: a battle's law is a count out of 36 for each of
(win, tie, loss) seen from one side.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from spacetable.core.errors import RuleError
from spacetable.core.game import Action
from spacetable.core.moves import Count, Name, Params

from .declare import card_by_id
from .events import card as event_card
from .events import event_number, house_deck
from .pieces import FACTORY, NATIVE_POWER, POPULATION, POWER, WORLD, Piece, piece_sort_key
from .state import Battle, Combat, WorldsState


# ------------------------------------------------------------------------------ power and dice
def group_power(pops: int, facs: int, natives: int = 0, pop_bonus: int = 0, energy: int = 0) -> int:
    """WS-5.2, WS-5.3 power: P 2 (+bonus each under MG), F 1, native 4, plus committed energy."""
    return pops * (POWER["P"] + pop_bonus) + facs * POWER["F"] + natives * NATIVE_POWER + energy


@cache
def dice_counts(d: int) -> tuple[int, int, int]:
    """WS-9.2: (win, tie, loss) counts out of 36 for a side whose power exceeds the other's by ``d``."""
    win = tie = loss = 0
    for a in range(1, 7):
        for b in range(1, 7):
            diff = d + a - b
            if diff > 0:
                win += 1
            elif diff == 0:
                tie += 1
            else:
                loss += 1
    return win, tie, loss


def compare(total_a: int, total_b: int) -> int:
    """WS-5.5, WS-5.6: +1 if A has the higher total, -1 if B, 0 on a tie."""
    return (total_a > total_b) - (total_a < total_b)


def battle_pieces(s: WorldsState, c: Combat, b: Battle, seat: int) -> list[Piece]:
    """``seat``'s surviving pieces in battle ``b``: Populations first, then by id."""
    ids = b.pieces if seat == c.allocator else [b.anchor]
    alive = {p.id: p for p in s.pieces}
    return sorted((alive[i] for i in ids if i in alive), key=lambda p: (p.kind != POPULATION, piece_sort_key(p.id)))


def _current(s: WorldsState) -> tuple[Combat, Battle]:
    c = s.combat
    assert c is not None
    return c, c.battles[c.current]


# ------------------------------------------------------------------------------ event step (WS-5.1)
class EventParams(Params):
    """The sealed event card of the current battle, or none (``null``)."""

    card: Name | None = None


_EVENT_WHY = {
    "MG": "Mobilisation Générale needs at least one of your Populations in this battle",
    "RI": "Révolte Indigène is only for the defender in a battle on a World",
}


def event_error(s: WorldsState, seat: int, code: Any) -> RuleError | None:
    """WS-7 legality of an event card for ``seat`` in the current battle (WS-5.1: from its own hand)."""
    c, b = _current(s)
    if code not in house_deck():
        return RuleError("WS-7", f"unknown event card {code!r}")
    if code not in s.hands[seat]:
        return RuleError("WS-5.1", f"{code} is not in your hand")
    pops = sum(1 for p in battle_pieces(s, c, b, seat) if p.kind == POPULATION)
    card = card_by_id(s, c.card)
    on_world = card is not None and card.kind == WORLD
    if not event_card(code).legal(pops, seat != c.attacker, on_world):
        return RuleError("WS-7", _EVENT_WHY.get(code, f"{code} is not legal in this battle"))
    return None


def play_event(s: WorldsState, seat: int, action: Action) -> None:
    """WS-5.1: at most one legal event card, sealed (WS-D3)."""
    c, _ = _current(s)
    code = action.get("card")
    if code is not None:
        err = event_error(s, seat, code)
        if err is not None:
            raise err
    c.sealed.submit(seat, code, "WS-5.1")


def legal_events(s: WorldsState, seat: int) -> list[Action]:
    """No card, then each distinct legal card of the hand in WS-10.6 code order."""
    cards: list[str | None] = [None]
    cards += sorted({x for x in s.hands[seat] if event_error(s, seat, x) is None}, key=event_number)
    return [{"type": "play_event", "card": x} for x in cards]


def reveal_events(s: WorldsState) -> None:
    """WS-5.1, WS-5.2: both choices revealed together; a card is used once and goes to the discard pile
    (WS-1.5), its effect (MG's +1 per Population, a native of power 4) lasts for this battle only (WS-7.1)."""
    c, b = _current(s)
    for p, code in c.sealed.revealed().items():
        if code is None:
            continue
        ec = event_card(code)
        s.hands[p].remove(code)
        s.discards[p].append(code)
        b.events[p] = code
        b.natives[p] += ec.natives
        b.pop_bonus[p] += ec.pop_bonus
    played = [f"{s.sides[p]} plays {b.events[p]}" for p in (0, 1) if b.events[p]]
    s.log.append(f"battle {c.current + 1} events: " + (", ".join(played) if played else "none"))


# ------------------------------------------------------------------------------ energy step (WS-5.3)
class EnergyParams(Params):
    """The sealed energy committed to the current battle."""

    amount: Count


def commit_energy(s: WorldsState, seat: int, action: Action) -> None:
    """WS-5.3: a sealed whole amount 0 <= e <= the pool (WS-D4)."""
    c, _ = _current(s)
    amount = action["amount"]
    if amount > s.energy[seat]:
        raise RuleError("WS-5.3", f"cannot commit {amount} energy: the pool holds {s.energy[seat]}")
    c.sealed.submit(seat, amount, "WS-5.3")


def legal_energy(s: WorldsState, seat: int) -> list[Action]:
    """Every amount from 0 to the pool (WS-5.3)."""
    return [{"type": "commit_energy", "amount": n} for n in range(s.energy[seat] + 1)]


def reveal_energy(s: WorldsState) -> None:
    """WS-5.3: both commitments revealed together; both pools drop whatever the outcome, spent energy is gone
    (WS-1.4, WS-A17)."""
    c, b = _current(s)
    for p, e in c.sealed.revealed().items():
        b.energy[p] = int(e)
        s.energy[p] -= int(e)
    spent = ", ".join(f"{s.sides[p]} {b.energy[p]}" for p in (0, 1))
    s.log.append(f"battle {c.current + 1} energy revealed: {spent} (pools now {s.energy[0]}/{s.energy[1]})")


# ------------------------------------------------------------------------------ dice and result
def roll(s: WorldsState) -> tuple[int, int]:
    """WS-8.5: ``dice_script`` pairs first (attacker, defender), then the seeded RNG."""
    if s.dice_script is not None and s.dice_used < len(s.dice_script):
        pair = s.dice_script[s.dice_used]
        s.dice_used += 1
        return pair[0], pair[1]
    return s.rng.die(), s.rng.die()


def remove_pieces(s: WorldsState, seat: int, ids: list[str]) -> None:
    """WS-5.5, WS-5.6: pieces leave play and count as the seat's losses (WS-6.1)."""
    c, b = _current(s)
    s.pieces = [p for p in s.pieces if p.id not in ids]
    b.lost[seat].extend(ids)
    c.losses[seat] += len(ids)
    s.lost[seat] += len(ids)
    if b.result == "tie":
        s.log.append(f"{s.sides[seat]} removes {', '.join(ids)}")


def resolve(s: WorldsState) -> bool:
    """WS-5.2, WS-5.4, WS-5.5, WS-5.6: powers, one die each, totals. The lower total loses all its pieces
    in the battle; on equal totals both sides owe one piece, the attacker first. The log shows powers, dice
    and totals (WS-D19). Returns True on a tie."""
    c, b = _current(s)
    powers = []
    for p in (0, 1):
        own = battle_pieces(s, c, b, p)
        pops = sum(1 for x in own if x.kind == POPULATION)
        powers.append(group_power(pops, len(own) - pops, b.natives[p], b.pop_bonus[p], b.energy[p]))
    da, dd = roll(s)
    dice = [0, 0]
    dice[c.attacker], dice[1 - c.attacker] = da, dd
    b.power, b.dice = powers, dice
    b.totals = [powers[0] + dice[0], powers[1] + dice[1]]
    res = compare(b.totals[0], b.totals[1])
    sides = [f"{s.sides[p]} {powers[p]}+{dice[p]}={b.totals[p]}" for p in (0, 1)]
    words = f"battle {c.current + 1}: {sides[0]} vs {sides[1]}"
    if res == 0:
        b.result = "tie"
        s.log.append(words + ": tie, each side loses one piece")
        c.tie_pending = [c.attacker, 1 - c.attacker]
        return True
    winner = 0 if res > 0 else 1
    loser = 1 - winner
    b.result = str(winner)
    lost = [p.id for p in battle_pieces(s, c, b, loser)]
    remove_pieces(s, loser, lost)
    s.log.append(words + f": {s.sides[winner]} wins, {s.sides[loser]} loses {len(lost)} piece(s)")
    return False


# ------------------------------------------------------------------------------ tie losses (WS-5.6)
class TieParams(Params):
    """The own piece removed after a tie."""

    piece: Name


def choose_tie_loss(s: WorldsState, seat: int, action: Action) -> None:
    """WS-5.6: remove one own Population or Factory of this battle (never a native, WS-7.1)."""
    c, b = _current(s)
    own = {p.id for p in battle_pieces(s, c, b, seat)}
    if action["piece"] not in own:
        raise RuleError("WS-5.6", f"{action['piece']!r} is not one of your pieces in this battle")
    remove_pieces(s, seat, [action["piece"]])
    c.tie_pending.pop(0)


def legal_tie_losses(s: WorldsState, seat: int) -> list[Action]:
    """One piece per kind the group holds (pieces of one kind are interchangeable): the lowest id."""
    c, b = _current(s)
    firsts: dict[str, str] = {}
    for p in battle_pieces(s, c, b, seat):
        firsts.setdefault(p.kind, p.id)
    return [{"type": "choose_tie_loss", "piece": firsts[k]} for k in (POPULATION, FACTORY) if k in firsts]


def forced_tie_losses(s: WorldsState) -> bool:
    """WS-5.6 in announcement order: a seat whose group holds one kind only loses its lowest id at once
    (WS-D14). Returns True when the next seat has a real choice (a Population or a Factory) to make."""
    c, b = _current(s)
    while c.tie_pending:
        own = battle_pieces(s, c, b, c.tie_pending[0])
        if len({p.kind for p in own}) > 1:
            return True
        remove_pieces(s, c.tie_pending[0], [own[0].id])
        c.tie_pending.pop(0)
    return False


def default_tie_loss(s: WorldsState, seat: int) -> str:
    """The default tie policy (WS-9.1): a Factory if the group has one, else a Population."""
    c, b = _current(s)
    own = battle_pieces(s, c, b, seat)
    facs = [p for p in own if p.kind == FACTORY]
    return (facs[0] if facs else own[0]).id

