"""Battles between captains (TH-9), response windows (TH-11.3, TH-D13) and losses (TH-9.7, TH-9.8, TH-9.9).

The contest lives in ``state.contest``. This module holds the rule steps: strengths and totals,
the declaration order, dice, offers in a response window, effect uses, losses, compensation
draws and the loss-window roll-off. What follows each step (the next window, the reward, the
next slot) is decided by :mod:`.flow`. Army fights (TH-10.4) reuse the response window with a
contest of kind ``army``.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .cards import CardSet
from .effects import group_strength
from .state import Contest, TState, new_contest

#: effect ops usable in a response window of a battle (TH-11.3, TH-C3 ``post_roll``) and of an army fight (TH-10.4)
BATTLE_OPS = frozenset({"boost_own_ship", "cancel_enemy_bonuses", "reroll_own", "boost_group"})
ARMY_OPS = frozenset({"boost_own_ship", "reroll_own", "boost_group"})


def strength(s: TState, cards: CardSet, seat: int, vs_army: bool, with_mods: bool = True) -> int:
    """TH-9.1 strength of ``seat``'s group at the current slot (with contest modifiers unless asked not to;
    TH-6.4 ``city_support`` tokens always count)."""
    c = s.contest
    slot = s.slot
    ships = s.groups[slot].get(seat) or []
    support = s.support[slot] if s.support else None
    group_mod = support.get(seat, 0) if support else 0
    city_id = s.slots[slot]
    if with_mods and c is not None:
        if c.group_mods:
            group_mod += c.group_mods.get(seat, 0)
        if c.cancelled:  # a cancelled ship counts its base only, without its modifiers (TH-D14)
            return group_strength(cards, ships, cards.cities[city_id], vs_army, c.ship_mods, c.cancelled, group_mod)
        mods = c.ship_mods
        if mods:  # modifiers placed on ships add to the passives, which they never change
            for x in ships:
                if x in mods:
                    group_mod += mods[x]
    return base_strength(cards, city_id, vs_army, ships) + group_mod


def base_strength(cards: CardSet, city_id: str, vs_army: bool, ships: list[str]) -> int:
    """Strength of a group from its cards alone (base + passives, TH-9.1), memoised per card set."""
    memo = cards.strength_memo
    key = (city_id, vs_army, *ships)
    base = memo.get(key)
    if base is None:
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        base = memo[key] = group_strength(cards, ships, cards.cities[city_id], vs_army)
    return base


_MEMO_LIMIT = 50_000


def order_key(s: TState, seat: int, value: int) -> tuple[int, int, int]:
    """TH-D4: ascending value, then fewer humans, then seat order from the lead seat."""
    return (value, s.players[seat].humans, (seat - s.lead) % s.num_players)


def total(s: TState, cards: CardSet, seat: int) -> int:
    """TH-9.1: strength plus the seat's current 2d6 in this contest."""
    c = s.contest
    assert c is not None
    return strength(s, cards, seat, c.kind == "army") + c.dice.get(seat, 0)


def open_battle(s: TState, cards: CardSet, seats: list[int]) -> None:
    """TH-9.2, TH-D4: a battle contest whose declaration order is ascending start strength (passive
    abilities and ``city_support`` only)."""
    start = {x: strength(s, cards, x, False, with_mods=False) for x in seats}
    order = sorted(seats, key=lambda x: order_key(s, x, start[x]))
    s.contest = new_contest("battle", order, [])
    s.log_events and s.note(
        f"battle at slot {s.slot + 1} ({cards.card_name(s.slots[s.slot])}): "
        + ", ".join(f"seat {x} strength {start[x]}" for x in order)
    )


def declare_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """TH-9.3: fight or flee."""
    return [{"type": "declare", "choice": "fight"}, {"type": "declare", "choice": "flee"}]


def declare(s: TState, seat: int, action: dict[str, Any]) -> None:
    """TH-9.3: the next captain in the declaration order fights or flees (ships back to hand, no loss,
    no compensation)."""
    c = s.contest
    assert c is not None
    choice = action["choice"]
    c.order.pop(0)
    s.log_events and s.note(f"seat {seat} declares {choice}")
    if choice == "fight":
        c.fight.append(seat)
    else:
        del s.groups[s.slot][seat]


def roll(s: TState, seats: list[int]) -> None:
    """TH-9.5, TH-9.6, TH-10.4: fresh 2d6 for each seat (in seat order), replacing earlier dice; from the
    match generator only (TH-P4)."""
    c = s.contest
    assert c is not None
    rng = s.rng
    for x in sorted(seats):
        a, b = rng.die(), rng.die()
        c.dice[x] = a + b
        s.log_events and s.note(f"seat {x} rolls {a}+{b}")


def has_option(s: TState, cards: CardSet, seat: int) -> bool:
    """Public test: an untapped station valid here or any usable compensation card (TH-11.3, TH-12.2); a
    fighter without either passes silently (TH-H3)."""
    c = s.contest
    assert c is not None
    p = s.players[seat]
    if p.comps and min(p.comp_turns) < s.turn:  # a usable compensation card (TH-12.2), without listing them
        return True
    if not p.stations:
        return False
    ops = BATTLE_OPS if c.kind == "battle" else ARMY_OPS
    tapped = p.tapped
    stations = cards.stations
    return any(st not in tapped and stations[st].op in ops for st in p.stations)


def next_offer(s: TState, cards: CardSet, known: dict[int, int]) -> int:
    """TH-11.3, TH-D4, TH-D30: the fighter offered the window next (lowest current total first; a fighter
    with no possible effect passes silently), or -1 once every fighter has passed. Totals met on the
    way are noted in ``known`` (nothing changes them until the window moves on)."""
    c = s.contest
    assert c is not None
    while True:
        passed = c.passed
        waiting = [x for x in c.seats if x not in passed]
        if not waiting:
            c.offer = -1
            return -1
        # the lowest of one seat needs no totals (army fights, the common case)
        seat = waiting[0] if len(waiting) == 1 else _lowest(s, cards, c, waiting, known)
        if has_option(s, cards, seat):
            c.offer = seat
            return seat
        c.passed.append(seat)


def _lowest(s: TState, cards: CardSet, c: Contest, waiting: list[int], known: dict[int, int]) -> int:
    """The first waiting seat with the lowest total by :func:`order_key`, noting each total in ``known``."""
    vs_army = c.kind == "army"
    dice = c.dice
    best = -1
    best_key = (0, 0, 0)
    for x in waiting:
        value = known[x] = strength(s, cards, x, vs_army) + dice.get(x, 0)
        k = order_key(s, x, value)
        if best < 0 or k < best_key:
            best, best_key = x, k
    return best


def window_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """The offered fighter's choices (TH-11.3): pass, or one use of an untapped station or a usable
    compensation card valid in this contest (one entry per kind of compensation card, TH-H5)."""
    c = s.contest
    assert c is not None
    p = s.players[seat]
    ops = BATTLE_OPS if c.kind == "battle" else ARMY_OPS
    out: list[dict[str, Any]] = [{"type": "pass"}]
    if p.stations:
        stations = cards.stations
        for st in sorted(p.stations):
            if st not in p.tapped:
                op = stations[st].op
                if op in ops:
                    _add_uses(out, s, c, seat, "use_station", "station", st, op)
    if p.comps:
        comps = cards.comps
        done: set[str] = set()
        for cp in sorted(p.usable_comps(s.turn)):
            op = comps[cp].op
            base = cards.base_id(cp)
            if op in ops and base not in done:
                done.add(base)
                _add_uses(out, s, c, seat, "use_compensation", "card", cp, op)
    return out


def _add_uses(out: list[dict[str, Any]], s: TState, c: Contest, seat: int, kind: str, key: str, cid: str, op: str) -> None:
    """The window uses of one station or compensation card (TH-11.3): per own fighting ship, per enemy
    fighting ship not yet cancelled, or a single use."""
    if op == "boost_own_ship":
        out.extend({"type": kind, key: cid, "target": t} for t in s.groups[s.slot].get(seat, []))
    elif op == "cancel_enemy_bonuses":
        group = s.groups[s.slot]
        enemies = [x for e in c.seats if e != seat for x in group.get(e, [])]
        out.extend({"type": kind, key: cid, "target": t} for t in enemies if t not in c.cancelled)
    else:
        out.append({"type": kind, key: cid})


def window_pass(s: TState, seat: int) -> None:
    """TH-11.3: the offered fighter passes."""
    c = s.contest
    assert c is not None
    c.passed.append(seat)


def use_effect(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-11.2, TH-11.3, TH-12.2, TH-D14, TH-D15: the offered fighter uses one untapped station
    (``use_station``) or one usable compensation card (``use_compensation``) valid in this contest; the
    station taps, the card goes to the compensation discard, and the offers restart."""
    c = s.contest
    assert c is not None
    p = s.players[seat]
    ops = BATTLE_OPS if c.kind == "battle" else ARMY_OPS
    station = action["type"] == "use_station"
    if station:
        cid = action["station"]
        if cid not in p.stations or cid in p.tapped:
            raise RuleError("TH-11.2", f"{cid} is not an untapped station of yours")
        eff = cards.stations[cid].effect
    else:
        cid = action["card"]
        if cid not in p.usable_comps(s.turn):
            raise RuleError("TH-12.2", f"{cid} is not a usable compensation card (received before this turn)")
        eff = cards.comps[cid].effect
    op = eff["op"]
    if op not in ops:
        raise RuleError("TH-11.3", f"{op} cannot be used in this {c.kind} contest")
    target = action.get("target")
    if op == "boost_own_ship":
        if target not in s.groups[s.slot].get(seat, []):
            raise RuleError("TH-11.3", "boost_own_ship needs one of your fighting ships as target")
        c.ship_mods[target] = c.ship_mods.get(target, 0) + eff["n"]
    elif op == "cancel_enemy_bonuses":
        if not any(target in s.groups[s.slot].get(e, []) for e in c.seats if e != seat):
            raise RuleError("TH-11.3", "cancel_enemy_bonuses needs an enemy fighting ship as target")
        if target not in c.cancelled:
            c.cancelled.append(target)
    elif op == "reroll_own":
        a, b = s.rng.die(), s.rng.die()
        c.dice[seat] = a + b
        s.log_events and s.note(f"seat {seat} rerolls {a}+{b}")
    elif op == "boost_group":
        c.group_mods[seat] = c.group_mods.get(seat, 0) + eff["n"]
    if station:
        p.tapped.append(cid)
    else:
        spend_comp(s, seat, cid)
    s.log_events and s.note(
        f"seat {seat} uses {cards.card_name(cid)}"
        + (f" on {cards.card_name(target)}" if target else "")
        + " → totals "
        + ", ".join(f"seat {x} {total(s, cards, x)}" for x in c.seats)
    )
    c.passed = []


def spend_comp(s: TState, seat: int, card: str) -> None:
    """TH-12.2: a played compensation card leaves the hand for the compensation discard."""
    p = s.players[seat]
    i = p.comps.index(card)
    del p.comps[i]
    del p.comp_turns[i]
    s.comp_discard.append(card)


def leaders(s: TState, cards: CardSet, known: dict[int, int]) -> list[int]:
    """TH-9.6: once the window has closed, the fighters sharing the highest total (``known`` holds totals
    already computed and unchanged since)."""
    c = s.contest
    assert c is not None
    dice = c.dice
    totals = {x: known[x] if x in known else strength(s, cards, x, False) + dice.get(x, 0) for x in c.seats}
    top = max(totals.values())
    s.log_events and s.note("battle totals: " + ", ".join(f"seat {x} {v}" for x, v in totals.items()))
    return [x for x in c.seats if totals[x] == top]


def set_winner(s: TState, winner: int) -> None:
    """TH-9.6, TH-9.7, TH-D9: the unique highest total wins; every other fighter has lost."""
    c = s.contest
    assert c is not None
    c.winner = winner
    c.losers = [x for x in c.fight if x != winner]
    s.log_events and s.note(f"seat {winner} wins the battle")


# ------------------------------------------------------------------ losses (TH-9.7, TH-10.6)
def loss_options(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """TH-9.7, TH-10.6: one non-immortal ship of the group, or a usable ``salvage`` card (one per kind)."""
    table = cards.ships
    ships = [x for x in s.groups[s.slot].get(seat, []) if not table[x].immortal]
    out: list[dict[str, Any]] = [{"type": "choose_loss", "ship": x} for x in sorted(ships)]
    if ships and s.players[seat].comps:
        done: set[str] = set()
        for cp in sorted(s.players[seat].usable_comps(s.turn)):
            if cards.comps[cp].op == "salvage" and cards.base_id(cp) not in done:
                done.add(cards.base_id(cp))
                out.append({"type": "use_compensation", "card": cp})
    return out


def auto_losses(s: TState, cards: CardSet, losers: list[int]) -> list[int]:
    """TH-9.7, TH-H3: a loss that only public facts fix (one non-immortal ship, no usable compensation card)
    is applied at once; a loser with only immortal ships destroys nothing (TH-A13). Returns the losers
    who must choose (sealed, simultaneous)."""
    auto: dict[int, dict[str, Any]] = {}
    deciders = []
    for x in losers:
        opts = loss_options(s, cards, x)
        if not opts:
            continue
        if len(opts) == 1 and not (s.players[x].comps and s.players[x].usable_comps(s.turn)):
            auto[x] = opts[0]
        else:
            deciders.append(x)
    for x, a in auto.items():
        apply_loss(s, cards, x, a)
    return deciders


def check_choose_loss(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-9.7: the lost ship is in the seat's group and not immortal (TH-A14)."""
    ship = action["ship"]
    if ship not in s.groups[s.slot].get(seat, []):
        raise RuleError("TH-9.7", f"{ship} is not in your group")
    if cards.ships[ship].immortal:
        raise RuleError("TH-9.7", f"{cards.card_name(ship)} is immortal and cannot be chosen as a loss")


def check_salvage(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-9.7, TH-12.2 (TH-C3 ``salvage``): a usable salvage card instead of a ship."""
    cp = action["card"]
    if cp not in s.players[seat].usable_comps(s.turn) or cards.comps[cp].op != "salvage":
        raise RuleError("TH-9.7", "choose_loss {ship} or a usable salvage card")


def apply_loss(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-9.7: the chosen ship goes face up to the ship discard, or the salvage card is spent instead."""
    p = s.players[seat]
    if action["type"] == "use_compensation":
        cp = action["card"]
        spend_comp(s, seat, cp)
        s.log_events and s.note(f"seat {seat} plays {cards.card_name(cp)}: no ship destroyed")
        return
    ship = action["ship"]
    s.groups[s.slot][seat].remove(ship)
    p.hand.remove(ship)
    if ship in p.known:
        p.known.remove(ship)
    s.ship_discard.append(ship)
    s.log_events and s.note(f"seat {seat} loses {cards.card_name(ship)}")


def draw_comp(s: TState, seat: int) -> None:
    """TH-9.8, TH-12.1, TH-D16: one private compensation card, usable from the next turn; an empty deck is
    rebuilt from the discard (TH-12.2), none at all when both are empty (TH-D19)."""
    if not s.comp_deck and s.comp_discard:
        s.comp_deck = s.comp_discard
        s.comp_discard = []
        s.rng.shuffle(s.comp_deck)
        s.log_events and s.note("the compensation discard is shuffled into a new deck")
    if s.comp_deck:
        p = s.players[seat]
        p.comps.append(s.comp_deck.pop())
        p.comp_turns.append(s.turn)
        s.log_events and s.note(f"seat {seat} draws a compensation card")


def claimers(s: TState, losers: list[int]) -> list[int]:
    """TH-9.9, TH-H4: the losers who may secretly play a card in the loss window (any usable compensation
    card, a public fact, so holding a ``take_city_after_loss`` card is not revealed)."""
    return sorted(x for x in losers if s.players[x].comps and s.players[x].usable_comps(s.turn))


def claim_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """TH-9.9: decline, or claim the city with a usable ``take_city_after_loss`` card (one per kind)."""
    out: list[dict[str, Any]] = [{"type": "decline"}]
    done: set[str] = set()
    for cp in sorted(s.players[seat].usable_comps(s.turn)):
        if cards.comps[cp].op == "take_city_after_loss" and cards.base_id(cp) not in done:
            done.add(cards.base_id(cp))
            out.append({"type": "claim_city", "card": cp})
    return out


def check_claim(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-9.9: the claim is made with a usable ``take_city_after_loss`` card of the seat."""
    cp = action["card"]
    if cp not in s.players[seat].usable_comps(s.turn) or cards.comps[cp].op != "take_city_after_loss":
        raise RuleError("TH-9.9", "claim_city {card} with a usable take_city_after_loss card, or decline")


def resolve_claims(s: TState, cards: CardSet, commits: dict[int, dict[str, Any]]) -> None:
    """TH-9.9, TH-D27: several claimants roll 1d6 (ties rerolled); the highest takes the city card as a
    trophy and spends the card, the others keep theirs; the winner keeps only the reward humans."""
    c = s.contest
    assert c is not None
    claimants = [x for x in sorted(commits) if commits[x]["type"] == "claim_city"]
    while len(claimants) > 1:
        rolls = {x: s.rng.die() for x in claimants}
        s.log_events and s.note("claim d6: " + ", ".join(f"seat {x} {r}" for x, r in rolls.items()))
        top = max(rolls.values())
        claimants = [x for x in claimants if rolls[x] == top]
    if claimants:
        x = claimants[0]
        spend_comp(s, x, commits[x]["card"])
        s.players[x].trophies.append(s.slots[s.slot])
        c.claim = x
        s.log_events and s.note(f"seat {x} takes {cards.card_name(s.slots[s.slot])} as a trophy after losing")
