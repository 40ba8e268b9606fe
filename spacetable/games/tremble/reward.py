"""Reward and armies (TH-10): raid or catch, army cards, ``ignore_army``, army fights and flights.

The rule steps of a reward: the choices offered, the raid, the army reveal (TH-10.3, TH-10.8), an
``army_peek`` station, ``ignore_army`` cards, the army fight's verdict (TH-10.4) and the city's
fate. The windows that follow one another (``reward``, ``ignore_army``, ``army``, an army's
response window and loss) are sequenced by :mod:`.flow`.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .battle import roll, spend_comp, strength
from .cards import CardSet
from .state import TState, new_contest


def open_reward(s: TState, winner: int) -> None:
    """TH-9.10, TH-10.1: the sole attacker or battle winner is rewarded (a contest of kind ``army`` that
    remembers a loss-window claim, TH-D27)."""
    c = s.contest
    claim = c.claim if c is not None else -1
    s.contest = new_contest("army", [], [winner], winner, claim)


def reward_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """TH-10.1: raid or catch, or first an untapped ``army_peek`` station (TH-11.2)."""
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


def peek(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-11.2 (TH-C3 ``army_peek``): privately see the top k army cards before choosing the reward."""
    p = s.players[seat]
    st = action["station"]
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


def raid(s: TState, cards: CardSet, seat: int) -> None:
    """TH-10.2: gain the raid value (plus the group's ``raid_bonus``) and the city card as a trophy, unless a
    loser took it (TH-D27)."""
    c = s.contest
    assert c is not None
    slot = s.slot
    city = cards.cities[s.slots[slot]]
    p = s.players[seat]
    p.peek = []
    ships = cards.ships
    bonus = 0
    for x in s.groups[slot].get(seat, ()):
        bonus += ships[x].raid_bonus
    p.humans += city.raid + bonus
    s.log_events and s.note(f"seat {seat} raids {city.name}: +{city.raid + bonus:,}")
    take_trophy(s, seat)


def start_catch(s: TState, cards: CardSet, seat: int) -> None:
    """TH-10.3: reveal k army cards (the city's ×k); "no army" cards are set aside."""
    c = s.contest
    assert c is not None
    s.players[seat].peek = []
    city = cards.cities[s.slots[s.slot]]
    revealed = draw_armies(s, city.catch_draw, [])
    c.revealed = revealed
    c.armies = [a for a in revealed if cards.armies[a].strength > 0]
    s.log_events and s.note(
        f"seat {seat} tries to catch {city.name}: armies " + ", ".join(str(cards.armies[a].strength or "none") for a in revealed)
    )


def take_trophy(s: TState, seat: int) -> None:
    """TH-10.2, TH-10.5, TH-10.9: the city card becomes the seat's trophy, unless a loser claimed it (TH-D27)."""
    c = s.contest
    assert c is not None
    if c.claim >= 0:
        return
    s.players[seat].trophies.append(s.slots[s.slot])


def catch_succeeds(s: TState, cards: CardSet, seat: int) -> None:
    """TH-10.5: every army beaten (or none revealed): the catch value and the trophy."""
    city = cards.cities[s.slots[s.slot]]
    s.players[seat].humans += city.catch
    s.log_events and s.note(f"seat {seat} catches {city.name}: +{city.catch:,}")
    take_trophy(s, seat)


def may_ignore(s: TState, cards: CardSet, seat: int) -> bool:
    """TH-10.3: the captain holds a usable ``ignore_army`` card (offered before the first army fight)."""
    p = s.players[seat]
    return bool(p.comps) and any(cards.comps[x].op == "ignore_army" for x in p.usable_comps(s.turn))


def ignore_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """TH-10.3: pass, or discard one revealed army with a usable ``ignore_army`` card (one per kind)."""
    c = s.contest
    assert c is not None
    out: list[dict[str, Any]] = [{"type": "pass"}]
    done: set[str] = set()
    for cp in sorted(s.players[seat].usable_comps(s.turn)):
        if cards.comps[cp].op == "ignore_army" and cards.base_id(cp) not in done:
            done.add(cards.base_id(cp))
            out.extend({"type": "ignore_army", "card": cp, "army_index": i} for i in range(len(c.armies)))
    return out


def ignore_army(s: TState, cards: CardSet, seat: int, action: dict[str, Any]) -> None:
    """TH-10.3, TH-12.2: a usable ``ignore_army`` card discards one revealed army unfought."""
    c = s.contest
    assert c is not None
    cp = action["card"]
    idx = action["army_index"]
    p = s.players[seat]
    if cp not in p.usable_comps(s.turn) or cards.comps[cp].op != "ignore_army":
        raise RuleError("TH-10.3", "ignore_army needs a usable ignore_army card")
    if not 0 <= idx < len(c.armies):
        raise RuleError("TH-10.3", "army_index must name a revealed army")
    spend_comp(s, seat, cp)
    gone = c.armies.pop(idx)
    s.log_events and s.note(f"seat {seat} plays {cards.card_name(cp)} against army {cards.armies[gone].strength}")


def army_actions(s: TState, cards: CardSet, seat: int) -> list[dict[str, Any]]:
    """TH-10.3: fight or flee before each army."""
    return [{"type": "army", "choice": "fight"}, {"type": "army", "choice": "flee"}]


def army_choice(s: TState, seat: int, action: dict[str, Any]) -> None:
    """TH-10.7: fleeing discards the city (even after beaten armies); TH-10.4, TH-D15: fighting starts one
    army fight, a fresh contest with its own 2d6."""
    c = s.contest
    assert c is not None
    if action["choice"] == "flee":
        s.log_events and s.note(f"seat {seat} flees the army; the city is discarded")
        discard_city(s)
        return
    c.ship_mods, c.cancelled, c.group_mods, c.dice = {}, [], {}, {}
    roll(s, [seat])


def army_beaten(s: TState, cards: CardSet) -> bool:
    """TH-10.4: after the window, total ≥ the army's strength beats it (a tie beats the army); a beaten army
    moves the catch on to the next one."""
    c = s.contest
    assert c is not None
    seat = c.winner
    army = cards.armies[c.armies[c.army_pos]].strength
    tot = strength(s, cards, seat, True) + c.dice[seat]
    if tot >= army:
        s.log_events and s.note(f"seat {seat} total {tot} beats army {army}")
        c.army_pos += 1
        c.beaten += 1
        return True
    s.log_events and s.note(f"seat {seat} total {tot} loses to army {army}")
    c.losers = [seat]
    return False


def discard_city(s: TState) -> None:
    """TH-8.2, TH-10.6, TH-10.7: the city goes to the city discard unless a loser already took it (TH-D27)."""
    c = s.contest
    if c is None or c.claim < 0:
        s.city_discard.append(s.slots[s.slot])


def discard_revealed(s: TState) -> None:
    """TH-10.8: the revealed army cards go face up to the army discard once the catch is over."""
    c = s.contest
    assert c is not None
    s.army_discard.extend(c.revealed)
