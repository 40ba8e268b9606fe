"""Battles between captains (TH-9), response windows (TH-11.3, TH-D13) and losses (TH-9.7–9.9).

The contest lives in ``state.contest``; the phases are ``declare`` (fight/flee in
ascending start strength, TH-9.2/TH-D4), ``respond`` (post-roll windows, lowest total
first, restarting after every use), ``loss`` (sealed ship choices) and ``claim``
(sealed ``take_city_after_loss`` plays). Army fights reuse the window (kind ``army``).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .cards import CardSet
from .effects import group_strength
from .state import Contest, TState, new_contest

BATTLE_OPS = frozenset({"boost_own_ship", "cancel_enemy_bonuses", "reroll_own", "boost_group"})
ARMY_OPS = frozenset({"boost_own_ship", "reroll_own", "boost_group"})


def city_of(s: TState, cards: CardSet) -> Any:
    return cards.cities[s.slots[s.slot]]


def strength(s: TState, cards: CardSet, seat: int, vs_army: bool, with_mods: bool = True) -> int:
    """TH-9.1 strength of ``seat``'s group at the current slot (with contest modifiers unless asked not to)."""
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
    """TH-D4: ascending value, then fewer humans, then seat order from the lead seat (the reference
    ordering; ``start_battle`` and ``_lowest`` write it out)."""
    return (value, s.players[seat].humans, (seat - s.lead) % s.num_players)


def total(s: TState, cards: CardSet, seat: int) -> int:
    c = s.contest
    assert c is not None
    return strength(s, cards, seat, c.kind == "army") + c.dice.get(seat, 0)


def start_battle(s: TState, cards: CardSet, seats: list[int]) -> None:
    """TH-9.2: declaration order by start strength (passives and city_support only)."""
    slot = s.slot
    city_id = s.slots[slot]
    group = s.groups[slot]
    support = s.support[slot] if s.support else None
    start = {}  # strength(..., with_mods=False) per seat, written out
    for x in seats:
        start[x] = base_strength(cards, city_id, False, group.get(x) or []) + (support.get(x, 0) if support else 0)
    players = s.players
    n = s.num_players
    lead = (s.turn - 1) % n
    order = sorted(seats, key=lambda x: (start[x], players[x].humans, (x - lead) % n))  # order_key, written out
    s.contest = new_contest("battle", order, [])
    s.phase = "declare"
    s.log_events and s.note(
        f"battle at slot {s.slot + 1} ({cards.card_name(s.slots[s.slot])}): "
        + ", ".join(f"seat {x} strength {start[x]}" for x in order)
    )


def declare(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    c = s.contest
    assert c is not None
    choice = action.get("choice")
    if action.get("type") != "declare" or choice not in ("fight", "flee"):
        raise RuleError("TH-9.3", "declare fight or flee")
    c.order.pop(0)
    s.log_events and s.note(f"seat {seat} declares {choice}")
    if choice == "fight":
        c.fight.append(seat)
    else:
        del s.groups[s.slot][seat]  # TH-9.3: ships back to hand, no loss, no compensation
    if c.order:
        return
    if not c.fight:  # TH-D3
        s.log_events and s.note("everybody fled; the city is discarded")
        s.city_discard.append(s.slots[s.slot])
        _turns.end_slot(s, cards)
    elif len(c.fight) == 1:  # TH-9.4
        _reward.start_reward(s, cards, c.fight[0])
    else:
        c.seats = sorted(c.fight)
        roll(s, c.seats)
        open_window(s, cards)


def roll(s: TState, seats: list[int]) -> None:
    c = s.contest
    assert c is not None
    rng = s.rng
    for x in sorted(seats) if len(seats) > 1 else seats:
        if rng.forced:
            a, b = rng.die(), rng.die()
        else:  # Rng.die() without its two wrapper calls: the same draws
            a = 1 + rng.randbelow(6)
            b = 1 + rng.randbelow(6)
        c.dice[x] = a + b
        s.log_events and s.note(f"seat {x} rolls {a}+{b}")


def _valid_ops(c: Contest) -> frozenset[str]:
    return BATTLE_OPS if c.kind == "battle" else ARMY_OPS


def has_option(s: TState, cards: CardSet, seat: int) -> bool:
    """Public test: an untapped station valid here or any usable compensation card (TH-11.3)."""
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


def open_window(s: TState, cards: CardSet) -> None:
    c = s.contest
    assert c is not None
    c.passed = []
    next_offer(s, cards)


def next_offer(s: TState, cards: CardSet) -> None:
    """TH-11.3: offer the lowest current total first; seats with no possible effect pass silently."""
    c = s.contest
    assert c is not None
    known: dict[int, int] = {}  # totals met in this call: nothing changes them until it returns
    while True:
        passed = c.passed
        waiting = [x for x in c.seats if x not in passed]
        if not waiting:
            c.offer = -1
            close_window(s, cards, known)
            return
        # the lowest of one seat needs no totals (army fights, the common case)
        seat = waiting[0] if len(waiting) == 1 else _lowest(s, cards, c, waiting, known)
        if has_option(s, cards, seat):
            c.offer = seat
            s.phase = "respond"
            return
        c.passed.append(seat)


def _lowest(s: TState, cards: CardSet, c: Contest, waiting: list[int], known: dict[int, int]) -> int:
    """``min(waiting, key=order_key over total)`` written out (the first minimum), noting each total in ``known``."""
    vs_army = c.kind == "army"
    dice = c.dice
    players = s.players
    n = s.num_players
    lead = (s.turn - 1) % n
    best = -1
    best_key = (0, 0, 0)
    for x in waiting:
        value = known[x] = strength(s, cards, x, vs_army) + dice.get(x, 0)
        k = (value, players[x].humans, (x - lead) % n)
        if best < 0 or k < best_key:
            best, best_key = x, k
    return best


def window_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
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
            base = cp.split("#", 1)[0]  # CardSet.base_id
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


def window_act(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    c = s.contest
    assert c is not None
    t = action.get("type")
    if t == "pass":
        c.passed.append(seat)
        next_offer(s, cards)
        return
    p = s.players[seat]
    ops = _valid_ops(c)
    if t == "use_station":
        cid = action.get("station")
        if cid not in p.stations or cid in p.tapped:
            raise RuleError("TH-11.2", f"{cid} is not an untapped station of yours")
        eff = cards.stations[cid].effect
    elif t == "use_compensation":
        cid = action.get("card")
        if cid not in p.usable_comps(s.turn):
            raise RuleError("TH-12.2", f"{cid} is not a usable compensation card (received before this turn)")
        eff = cards.comps[cid].effect
    else:
        raise RuleError("TH-11.3", "response window: pass, use_station or use_compensation")
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
    if t == "use_station":
        p.tapped.append(cid)
    else:
        i = p.comps.index(cid)
        del p.comps[i]
        del p.comp_turns[i]
        s.comp_discard.append(cid)
    s.log_events and s.note(
        f"seat {seat} uses {cards.card_name(cid)}"
        + (f" on {cards.card_name(target)}" if target else "")
        + " → totals "
        + ", ".join(f"seat {x} {total(s, cards, x)}" for x in c.seats)
    )
    c.passed = []
    next_offer(s, cards)


def close_window(s: TState, cards: CardSet, known: dict[int, int] | None = None) -> None:
    """TH-9.5/9.6: everybody passed; ``known`` holds totals the caller already computed (unchanged since)."""
    c = s.contest
    assert c is not None
    if c.kind == "army":
        _reward.close_army_window(s, cards)
        return
    dice = c.dice
    known = known or {}
    totals = {x: known[x] if x in known else strength(s, cards, x, False) + dice.get(x, 0) for x in c.seats}
    top = max(totals.values())
    best = [x for x in c.seats if totals[x] == top]
    s.log_events and s.note("battle totals: " + ", ".join(f"seat {x} {v}" for x, v in totals.items()))
    if len(best) > 1:  # TH-9.6 / TH-D9: lower ones have lost; the tied reroll
        c.seats = best
        roll(s, best)
        open_window(s, cards)
        return
    c.winner = best[0]
    c.losers = [x for x in c.fight if x != c.winner]
    s.log_events and s.note(f"seat {c.winner} wins the battle")
    start_losses(s, cards, c.losers)


# ------------------------------------------------------------------ losses (TH-9.7, TH-10.6)
def loss_options(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
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


def start_losses(s: TState, cards: CardSet, losers: list[int]) -> None:
    """Losers choose simultaneously; a choice only public facts fix is made at once."""
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
    if deciders:
        s.sealed.required = sorted(deciders)
        s.sealed.commits = {}
        s.phase = "loss"
    else:
        after_losses(s, cards)


def check_loss(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    if action.get("type") == "choose_loss":
        ship = action.get("ship")
        if ship not in s.groups[s.slot].get(seat, []):
            raise RuleError("TH-9.7", f"{ship} is not in your group")
        if cards.ships[ship].immortal:
            raise RuleError("TH-9.7", f"{cards.card_name(ship)} is immortal and cannot be chosen as a loss")
        return
    if action.get("type") == "use_compensation":
        cp = action.get("card")
        if cp in s.players[seat].usable_comps(s.turn) and cards.comps[cp].op == "salvage":
            return
    raise RuleError("TH-9.7", "choose_loss {ship} or a usable salvage card")


def apply_loss(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    p = s.players[seat]
    if action["type"] == "use_compensation":
        cp = action["card"]
        i = p.comps.index(cp)
        del p.comps[i]
        del p.comp_turns[i]
        s.comp_discard.append(cp)
        s.log_events and s.note(f"seat {seat} plays {cards.card_name(cp)}: no ship destroyed")
        return
    ship = action["ship"]
    s.groups[s.slot][seat].remove(ship)
    p.hand.remove(ship)
    if ship in p.known:
        p.known.remove(ship)
    s.ship_discard.append(ship)
    s.log_events and s.note(f"seat {seat} loses {cards.card_name(ship)}")


def resolve_losses(s: TState, cards: CardSet) -> None:
    commits = s.sealed.revealed()
    s.sealed.required, s.sealed.commits = [], {}
    for seat in sorted(commits):
        apply_loss(s, cards, seat, commits[seat])
    after_losses(s, cards)


def draw_comp(s: TState, seat: int) -> None:
    """TH-9.8 / TH-12: one private compensation card, usable from the next turn; reshuffle if empty (TH-D19)."""
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


def after_losses(s: TState, cards: CardSet) -> None:
    c = s.contest
    assert c is not None
    if c.kind == "army":
        _reward.army_failed(s, cards)
        return
    for x in c.losers:
        draw_comp(s, x)
    claimers = [x for x in c.losers if s.players[x].comps and s.players[x].usable_comps(s.turn)]
    if claimers:
        s.sealed.required = sorted(claimers)
        s.sealed.commits = {}
        s.phase = "claim"
        return
    _reward.start_reward(s, cards, c.winner)


def claim_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "decline"}]
    done: set[str] = set()
    for cp in sorted(s.players[seat].usable_comps(s.turn)):
        if cards.comps[cp].op == "take_city_after_loss" and cards.base_id(cp) not in done:
            done.add(cards.base_id(cp))
            out.append({"type": "claim_city", "card": cp})
    return out


def check_claim(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    if action.get("type") == "decline":
        return
    if action.get("type") == "claim_city":
        cp = action.get("card")
        if cp in s.players[seat].usable_comps(s.turn) and cards.comps[cp].op == "take_city_after_loss":
            return
    raise RuleError("TH-9.9", "claim_city {card} with a usable take_city_after_loss card, or decline")


def resolve_claims(s: TState, cards: CardSet) -> None:
    """TH-9.9: several claimants roll 1d6 (ties rerolled); the highest takes the trophy, the others keep their cards."""
    c = s.contest
    assert c is not None
    commits = s.sealed.revealed()
    s.sealed.required, s.sealed.commits = [], {}
    claimants = [x for x in sorted(commits) if commits[x]["type"] == "claim_city"]
    while len(claimants) > 1:
        rolls = {x: s.rng.die() for x in claimants}
        s.log_events and s.note("claim d6: " + ", ".join(f"seat {x} {r}" for x, r in rolls.items()))
        top = max(rolls.values())
        claimants = [x for x in claimants if rolls[x] == top]
    if claimants:
        x = claimants[0]
        cp = commits[x]["card"]
        p = s.players[x]
        i = p.comps.index(cp)
        del p.comps[i]
        del p.comp_turns[i]
        s.comp_discard.append(cp)
        p.trophies.append(s.slots[s.slot])
        c.claim = x
        s.log_events and s.note(f"seat {x} takes {cards.card_name(s.slots[s.slot])} as a trophy after losing")
    _reward.start_reward(s, cards, c.winner)


# Late imports: ``reward`` and ``turns`` import this module (an import cycle), so they are bound once
# every function above exists; the package always loads this module first (via ``game``).
from . import reward as _reward  # noqa: E402
from . import turns as _turns  # noqa: E402
