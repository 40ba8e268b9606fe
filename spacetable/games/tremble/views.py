"""Per-seat views (IM-1, IM-2, IM-3, IM-4), text rendering and determinisation (IM-6).

A view never contains another seat's hand identities (except ships revealed in a
plan, TH-D26), drawn cards, compensation identities, army peeks, pending commits,
deck orders, hidden missions or the RNG state.
"""

from __future__ import annotations

from typing import Any

from spacetable.core.i18n import render
from spacetable.core.rng import Rng

from .battle import total
from .cards import CardSet
from .flow import SEALED, cards_of, default_action, to_act
from .notation import PACKAGE, effect_term
from .state import TState


def ship_json(cards: CardSet, sid: str) -> dict[str, Any]:
    sh = cards.ships[sid]
    return {
        "id": sid,
        "name": sh.name,
        "name_ru": sh.name_ru,
        "kind": sh.kind,
        "deck": sh.deck,
        "strength": sh.strength,
        "fuel": sh.fuel,
        "price": sh.price,
        "abilities": list(sh.abilities),
    }


def card_json(cards: CardSet, cid: str) -> dict[str, Any]:
    if cid in cards.ships:
        return {"card": "ship", **ship_json(cards, cid)}
    st = cards.stations[cid]
    return {
        "card": "station",
        "id": cid,
        "name": st.name,
        "name_ru": st.name_ru,
        "deck": st.deck,
        "price": st.price,
        "effect": st.effect,
        "token": st.token,
    }


def city_json(cards: CardSet, cid: str) -> dict[str, Any]:
    c = cards.cities[cid]
    return {
        "id": cid,
        "name": c.name,
        "name_ru": c.name_ru,
        "region": c.region,
        "city_type": c.city_type,
        "raid": c.raid,
        "catch": c.catch,
        "catch_draw": c.catch_draw,
        "deck": c.deck,
    }


def comp_json(cards: CardSet, cid: str, turn: int) -> dict[str, Any]:
    c = cards.comps[cid]
    return {"id": cid, "name": c.name, "name_ru": c.name_ru, "effect": c.effect, "received": turn}


def build_view(s: TState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` may see (IM-1 public facts, IM-2 the viewer's own private cards, IM-4 everything at
    the end; ``None`` is a spectator): the public fields with the viewer's own."""
    return {**public_view(s), **own_view(s, viewer)}


def own_view(s: TState, viewer: int | None) -> dict[str, Any]:
    """The viewer's own fields: who it is, the players (each with its public counts; the viewer's own hand,
    compensation cards, drawn cards and peeks, IM-2, and everybody's at the end, IM-4) and the sealed commits as it
    may see them."""
    cards = cards_of(s)
    over = s.phase == "over"
    players = []
    for i, p in enumerate(s.players):
        mine = viewer == i or over
        entry: dict[str, Any] = {
            "seat": i,
            "humans": p.humans,
            "credits": p.credits,
            "credits_taken": p.credits_taken,
            "stations": [{**card_json(cards, st), "tapped": st in p.tapped} for st in p.stations],
            "trophies": [city_json(cards, t) for t in p.trophies],
            "hand_count": len(p.hand),
            "comp_count": len(p.comps),
            "comp_turns": list(p.comp_turns),
            "drawn_count": len(p.drawn),
            "known_ships": [ship_json(cards, x) for x in p.known],
        }
        if mine:
            entry["hand"] = [ship_json(cards, x) for x in sorted(p.hand)]
            entry["comps"] = [comp_json(cards, c, t) for c, t in zip(p.comps, p.comp_turns, strict=True)]
            entry["drawn"] = [card_json(cards, c) for c in p.drawn]
            entry["peek"] = [cards.armies[a].strength for a in p.peek]
        players.append(entry)
    sealed = None
    if s.phase in SEALED:
        sealed = s.sealed.view(viewer)
    return {"viewer": viewer, "players": players, "sealed": sealed}


def public_view(s: TState) -> dict[str, Any]:
    """The fields every viewer sees alike (IM-1): the turn, the cities' slots and their groups, the contest, the
    missions, the piles, the events; a server writes them once per state for every seat."""
    cards = cards_of(s)
    over = s.phase == "over"
    slots = []
    for k, cid in enumerate(s.slots):
        groups = s.groups[k] if k < len(s.groups) else {}
        slots.append(
            {
                "slot": k + 1,
                "city": city_json(cards, cid),
                "groups": {str(seat): [ship_json(cards, x) for x in ships] for seat, ships in sorted(groups.items())},
                "support": {str(seat): n for seat, n in sorted(s.support[k].items())} if k < len(s.support) else {},
            }
        )
    contest = None
    c = s.contest
    if c is not None:
        contest = {
            "kind": c.kind,
            "slot": s.slot + 1,
            "order": list(c.order),
            "fighters": list(c.fight),
            "in_play": list(c.seats),
            "dice": {str(k): v for k, v in c.dice.items()},
            "ship_mods": dict(c.ship_mods),
            "cancelled": list(c.cancelled),
            "group_mods": {str(k): v for k, v in c.group_mods.items()},
            "offer": c.offer,
            "winner": c.winner,
            "losers": list(c.losers),
            "claim": c.claim,
            "armies": [cards.armies[a].strength for a in c.armies],
            "revealed": [cards.armies[a].strength for a in c.revealed],
            "army_pos": c.army_pos,
        }
        if s.phase in ("respond", "declare") or c.dice:
            contest["totals"] = {str(x): total(s, cards, x) for x in c.seats}
    view = {
        "game": "tremble",
        "card_set": cards.label,
        "card_set_source": cards.source,
        "turn": min(s.turn, int(cards.rules["turns"])),
        "turns": int(cards.rules["turns"]),
        "phase": s.phase,
        "lead": s.lead,
        "fuel_limit": s.fuel[s.turn - 1] if s.turn <= len(s.fuel) else None,
        "fuel_table": list(s.fuel),
        "to_act": list(to_act(s)),
        "missions": [
            {
                "id": m,
                "name": cards.missions[m].name,
                "name_ru": cards.missions[m].name_ru,
                "kind": cards.missions[m].kind,
                "target": cards.missions[m].target,
            }
            for m in s.missions
        ],
        "slots": slots,
        "contest": contest,
        "piles": {
            "city_deck": len(s.city_deck),
            "blue_deck": len(s.blue_deck),
            "red_deck": len(s.red_deck),
            "army_deck": len(s.army_deck),
            "comp_deck": len(s.comp_deck),
            "ship_discard": list(s.ship_discard),
            "city_discard": list(s.city_discard),
            "army_discard": [cards.armies[a].strength for a in s.army_discard],
            "comp_discard": list(s.comp_discard),
        },
        "final": dict(s.final) if over else None,
        "events": list(s.events[-20:]),
    }
    if s.resigned:  # present only once somebody resigned
        view["resigned"] = list(s.resigned)
    return view


def _effect_text(effect: dict[str, Any]) -> str:
    """An effect (a ship's ability, a station's or a compensation card's effect) in English words."""
    term = effect_term(effect)
    return render((PACKAGE,), term["key"], term["args"], "en")


def _seats(values: dict[str, Any]) -> str:
    """``seat 0 3+5, seat 1 4`` from ``{"0": [3, 5], "1": 4}``."""
    return ", ".join(f"seat {k} " + ("+".join(map(str, v)) if isinstance(v, list) else str(v))
                     for k, v in values.items()) or "none"


def _ship_line(sh: dict[str, Any]) -> str:
    ab = "; ".join(_effect_text(e) for e in sh["abilities"])
    return (
        f"{sh['name']} / {sh['name_ru']} [{sh['kind']} str {sh['strength']} fuel {sh['fuel']} price {sh['price']:,}"
        + (f"; {ab}" if ab else "")
        + "]"
    )


def render_text(s: TState, viewer: int | None) -> str:
    """A plain-text picture of ``viewer``'s view (terminal, replays); names the card set (TH-0.3)."""
    v = build_view(s, viewer)
    fuel = v["fuel_limit"] if v["fuel_limit"] is not None else "-"  # none after the last turn
    lines = [
        f"== Tremble, Humans! — {v['card_set']} ==",
        f"turn {v['turn']}/{v['turns']}  phase {v['phase']}  fuel limit {fuel}  lead seat {v['lead']}",
    ]
    lines.append("missions: " + "; ".join(f"{m['name']} / {m['name_ru']} ({m['target']})" for m in v["missions"]))
    for p in v["players"]:
        st = ", ".join(f"{x['name']}{' (tapped)' if x['tapped'] else ''}" for x in p["stations"]) or "-"
        lines.append(
            f"seat {p['seat']}: {p['humans']:,} humans, credits {p['credits']}, ships {p['hand_count']}, "
            f"comps {p['comp_count']}, trophies {len(p['trophies'])}, stations: {st}"
        )
        if "hand" in p:
            for sh in p["hand"]:
                lines.append("    hand: " + _ship_line(sh))
            for c in p["comps"]:
                lines.append(f"    compensation: {c['name']} / {c['name_ru']}: {_effect_text(c['effect'])} "
                             f"(received turn {c['received']})")
            for c in p["drawn"]:
                lines.append(
                    "    drawn: "
                    + (
                        _ship_line(c)
                        if c["card"] == "ship"
                        else f"{c['name']} / {c['name_ru']} station: {_effect_text(c['effect'])}; price {c['price']:,}"
                    )
                )
            if p["peek"]:
                lines.append(f"    army peek: {', '.join(map(str, p['peek']))}")
    for sl in v["slots"]:
        c = sl["city"]
        g = "; ".join(f"seat {seat}: " + "+".join(x["name"] for x in ships) for seat, ships in sl["groups"].items())
        lines.append(
            f"slot {sl['slot']}: {c['name']} / {c['name_ru']} ({c['region']}, {c['city_type']}) raid {c['raid']:,} "
            f"catch {c['catch']:,} x{c['catch_draw']}" + (f"  <- {g}" if g else "")
        )
    if v["contest"]:
        c = v["contest"]
        lines.append(
            f"contest ({c['kind']}) at slot {c['slot']}: dice {_seats(c['dice'])}; totals {_seats(c.get('totals', {}))}; "
            f"armies {', '.join(map(str, c['armies'])) or 'none'}"
        )
    if v["events"]:
        lines.append("recent: " + " | ".join(v["events"][-6:]))
    return "\n".join(lines)


def determinize(s: TState, seat: int, rng: Rng) -> TState:
    """IM-6: resample what ``seat`` cannot see, consistently with its view, and reseed the RNG.

    Hidden ship cards (other seats' unrevealed hands and drawn cards, the decks, blue
    cards removed at turn 6) are reshuffled among their locations within each colour,
    hands receiving ships only; other seats' compensation cards are reshuffled with the
    compensation deck; the army deck and the city deck (within colour) are reshuffled.
    Other seats' sealed commits are unknown (IM-5): each is replaced by that window's
    timeout default (TH-P3) on the resampled position, so the seats that have committed stay
    committed (TH-H6; a search may put its own guesses in their place).
    """
    cards = cards_of(s)
    d = s.clone()
    d.rng = Rng(rng.next_u64())
    if d.phase == "over":  # IM-4: at the end everything is public
        return d
    others = [i for i in range(d.num_players) if i != seat]
    for colour in ("blue", "red"):
        hand_slots: list[tuple[int, int]] = []
        pool: list[str] = []
        for i in others:
            p = d.players[i]
            for k, x in enumerate(p.hand):
                if x not in p.known and cards.deck_of[x] == colour:
                    hand_slots.append((i, k))
                    pool.append(x)
            pool.extend(x for x in p.drawn if cards.deck_of[x] == colour)
        deck = d.blue_deck if colour == "blue" else d.red_deck
        pool.extend(deck)
        if colour == "blue":
            pool.extend(x for x in d.out if cards.deck_of[x] == "blue")
        ships = [x for x in pool if x in cards.ships]
        rng.shuffle(ships)
        chosen = ships[: len(hand_slots)]
        for (i, k), x in zip(hand_slots, chosen, strict=True):
            d.players[i].hand[k] = x
        chosen_set = set(chosen)
        rest = [x for x in pool if x not in chosen_set]
        # seats waiting on a station redraw are known to hold only stations (TH-4.2)
        shown = [i for i in others if d.phase == "redraw" and i in d.queue]
        st_rest = [x for x in rest if x in cards.stations]
        rng.shuffle(st_rest)
        for i in shown:
            p = d.players[i]
            p.drawn = [st_rest.pop() if cards.deck_of[x] == colour else x for x in p.drawn]
        used = {x for i in shown for x in d.players[i].drawn}
        rest = [x for x in rest if x not in used]
        rng.shuffle(rest)
        for i in others:
            if i in shown:
                continue
            p = d.players[i]
            p.drawn = [rest.pop() if cards.deck_of[x] == colour else x for x in p.drawn]
        n_deck = len(deck)
        new_deck = [rest.pop() for _ in range(n_deck)]
        if colour == "blue":
            d.blue_deck = new_deck
            d.out = [x if cards.deck_of[x] != "blue" else rest.pop() for x in d.out]
        else:
            d.red_deck = new_deck
        assert not rest
    comp_pool = list(d.comp_deck)
    for i in others:
        comp_pool.extend(d.players[i].comps)
    rng.shuffle(comp_pool)
    for i in others:
        p = d.players[i]
        p.comps = [comp_pool.pop() for _ in p.comps]
        p.peek = []
    d.comp_deck = comp_pool
    peek = d.players[seat].peek
    known_top = len(peek)
    if len(d.army_deck) > known_top:
        hidden = d.army_deck[: len(d.army_deck) - known_top]
        rng.shuffle(hidden)
        d.army_deck = hidden + d.army_deck[len(d.army_deck) - known_top :]
    blue_c = [c for c in d.city_deck if cards.cities[c].deck == "blue"]
    red_c = [c for c in d.city_deck if cards.cities[c].deck == "red"]
    rng.shuffle(blue_c)
    rng.shuffle(red_c)
    d.city_deck = red_c + blue_c
    if d.phase in SEALED:
        for other in sorted(k for k in d.sealed.commits if k != seat):
            del d.sealed.commits[other]
            d.sealed.commits[other] = default_action(d, cards, other)
    return d
