"""Reward and armies (TH-10): raid or catch, army cards, ``ignore_army``, fights and flights.

Phases: ``reward`` (raid / catch, or use an ``army_peek`` station first), ``ignore_army``
(play ``ignore_army`` cards or pass), ``army`` (fight or flee before each army), army
response windows (kind ``army``) and army losses (TH-10.6, TH-D2: a lost fight ends the
catch with nothing and no compensation).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .battle import city_of, next_offer, roll, start_losses, strength
from .cards import CardSet
from .state import TState, new_contest


def start_reward(s: TState, cards: CardSet, winner: int) -> None:
    c = s.contest
    claim = c.claim if c is not None else -1
    s.contest = new_contest("army", [], [winner], winner, claim)
    s.phase = "reward"


def reward_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "reward", "choice": "raid"}, {"type": "reward", "choice": "catch"}]
    p = s.players[seat]
    if p.stations:
        for st in sorted(p.stations):
            if st not in p.tapped and cards.stations[st].op == "army_peek":
                out.append({"type": "use_station", "station": st})
    return out


def draw_armies(s: TState, k: int, keep_out: list[str]) -> list[str]:
    """Reveal k army cards; an empty deck is rebuilt from its discard (TH-10.8, TH-D18)."""
    out = []
    for _ in range(k):
        if not s.army_deck:
            pool = [a for a in s.army_discard if a not in keep_out]
            if not pool:
                break
            s.army_discard = []
            s.rng.shuffle(pool)
            s.army_deck = pool
            s.log_events and s.note("the army discard is shuffled into a new deck")
        out.append(s.army_deck.pop())
    return out


def reward_act(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    c = s.contest
    assert c is not None
    p = s.players[seat]
    if action.get("type") == "use_station":
        st = action.get("station")
        if st not in p.stations or st in p.tapped or cards.stations[st].op != "army_peek":
            raise RuleError("TH-11.2", f"{st} is not an untapped army_peek station of yours")
        p.tapped.append(st)
        k = cards.stations[st].effect["k"]
        if len(s.army_deck) < k and s.army_discard:
            rest = s.army_discard
            s.army_discard = []
            s.rng.shuffle(rest)
            s.army_deck = rest + s.army_deck
        p.peek = list(reversed(s.army_deck[-k:]))
        s.log_events and s.note(f"seat {seat} peeks at the top {k} army cards")
        return
    choice = action.get("choice")
    if action.get("type") != "reward" or choice not in ("raid", "catch"):
        raise RuleError("TH-10.1", "reward: raid or catch")
    slot = s.slot
    city = cards.cities[s.slots[slot]]  # city_of
    p.peek = []
    if choice == "raid":  # TH-10.2
        ships = cards.ships
        bonus = 0
        for x in s.groups[slot].get(seat, ()):
            bonus += ships[x].raid_bonus
        p.humans += city.raid + bonus
        s.log_events and s.note(f"seat {seat} raids {city.name}: +{city.raid + bonus:,}")
        if c.claim < 0:  # take_trophy: the card goes to the winner unless a loser claimed it (TH-D27)
            p.trophies.append(s.slots[slot])
        _turns.end_slot(s, cards)
        return
    revealed = draw_armies(s, city.catch_draw, [])
    c.revealed = revealed
    c.armies = [a for a in revealed if cards.armies[a].strength > 0]
    s.log_events and s.note(
        f"seat {seat} tries to catch {city.name}: armies " + ", ".join(str(cards.armies[a].strength or "none") for a in revealed)
    )
    next_army(s, cards)


def take_trophy(s: TState, cards: CardSet, seat: int) -> None:
    c = s.contest
    assert c is not None
    if c.claim >= 0:  # TH-D27: the card went to the loser who claimed it
        return
    s.players[seat].trophies.append(s.slots[s.slot])


def next_army(s: TState, cards: CardSet) -> None:
    c = s.contest
    assert c is not None
    seat = c.winner
    if c.army_pos >= len(c.armies):
        city = city_of(s, cards)
        s.players[seat].humans += city.catch
        s.log_events and s.note(f"seat {seat} catches {city.name}: +{city.catch:,}")
        take_trophy(s, cards, seat)
        finish_catch(s, cards)
        return
    if (
        c.army_pos == 0
        and c.beaten == 0
        and s.players[seat].comps
        and any(cards.comps[x].op == "ignore_army" for x in s.players[seat].usable_comps(s.turn))
        and s.phase != "ignore_army"
    ):
        s.phase = "ignore_army"
        return
    s.phase = "army"


def ignore_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    c = s.contest
    assert c is not None
    out: list[dict[str, Any]] = [{"type": "pass"}]
    done: set[str] = set()
    for cp in sorted(s.players[seat].usable_comps(s.turn)):
        if cards.comps[cp].op == "ignore_army" and cards.base_id(cp) not in done:
            done.add(cards.base_id(cp))
            out.extend({"type": "ignore_army", "card": cp, "army_index": i} for i in range(len(c.armies)))
    return out


def ignore_act(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    c = s.contest
    assert c is not None
    if action.get("type") == "pass":
        s.phase = "army"
        if not c.armies:
            next_army(s, cards)
        return
    cp = action.get("card")
    idx = action.get("army_index")
    p = s.players[seat]
    if action.get("type") != "ignore_army" or cp not in p.usable_comps(s.turn) or cards.comps[cp].op != "ignore_army":
        raise RuleError("TH-10.3", "ignore_army needs a usable ignore_army card")
    if not isinstance(idx, int) or not 0 <= idx < len(c.armies):
        raise RuleError("TH-10.3", "army_index must name a revealed army")
    i = p.comps.index(cp)
    del p.comps[i]
    del p.comp_turns[i]
    s.comp_discard.append(cp)
    gone = c.armies.pop(idx)
    s.log_events and s.note(f"seat {seat} plays {cards.card_name(cp)} against army {cards.armies[gone].strength}")
    if not c.armies:
        next_army(s, cards)
    elif not any(cards.comps[x].op == "ignore_army" for x in p.usable_comps(s.turn)):
        s.phase = "army"


def army_act(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    c = s.contest
    assert c is not None
    choice = action.get("choice")
    if action.get("type") != "army" or choice not in ("fight", "flee"):
        raise RuleError("TH-10.3", "army: fight or flee")
    if choice == "flee":  # TH-10.7
        s.log_events and s.note(f"seat {seat} flees the army; the city is discarded")
        discard_city(s)
        finish_catch(s, cards)
        return
    c.ship_mods, c.cancelled, c.group_mods, c.dice = {}, [], {}, {}  # TH-D15: one army fight is one contest
    roll(s, [seat])
    c.passed = []  # open_window, written out
    next_offer(s, cards)


def close_army_window(s: TState, cards: CardSet) -> None:
    c = s.contest
    assert c is not None
    seat = c.winner
    army = cards.armies[c.armies[c.army_pos]].strength
    tot = strength(s, cards, seat, True) + c.dice[seat]
    if tot >= army:  # TH-10.4: a tie beats the army
        s.log_events and s.note(f"seat {seat} total {tot} beats army {army}")
        c.army_pos += 1
        c.beaten += 1
        next_army(s, cards)
        return
    s.log_events and s.note(f"seat {seat} total {tot} loses to army {army}")
    c.losers = [seat]
    start_losses(s, cards, [seat])


def army_failed(s: TState, cards: CardSet) -> None:
    """TH-10.6 / TH-D2: no humans, no trophy, city discarded, later armies not fought, no compensation."""
    discard_city(s)
    finish_catch(s, cards)


def discard_city(s: TState) -> None:
    """The city goes to the city discard unless a loser already took it (TH-D27)."""
    c = s.contest
    if c is None or c.claim < 0:
        s.city_discard.append(s.slots[s.slot])


def finish_catch(s: TState, cards: CardSet) -> None:
    c = s.contest
    assert c is not None
    s.army_discard.extend(c.revealed)
    _turns.end_slot(s, cards)


# Late import: ``turns`` imports this module (an import cycle); bound once every function above exists.
from . import turns as _turns  # noqa: E402
