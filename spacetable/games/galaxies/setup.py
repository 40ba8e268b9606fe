"""Set-up: fleets, decks, board, tiles, hands and the roll-off (BG-4, BG-5, D-18, D-21).

The mission fixes each side's fleet or gives a budget spent on fleet costs (BG-4.1); a fleet uses
its own faction's ships only, each named ship at most once and in one version (D-21). Decks are
fixed by the mission or constructed: exactly 30 own-faction cards, at most 3 per name (D-18);
prepped cards named by the mission sit outside the 30 (BG-4.3). Fleets and decks that are chosen
are committed secretly and at the same time (BG-4.4: ``submit_fleet`` then ``submit_deck``, sealed,
by each side's lead seat).

Then (BG-5): face-down tiles are shuffled and dealt to face-down slots (nobody sees them); ship
cards go behind the screen unless the mission pre-places them (full shields, no ECM); each side
shuffles its deck, sets energy to 15 and draws 5 (BG-5.3); each side rolls the number die, ties re-roll, and
the high roller chooses who starts (``choose_first``). Sides then alternate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.rng import Rng
from spacetable.core.simultaneous import SealedCommits

from .packs import MissionData, Pack, deck_problem
from .state import SIDES, GState, Piece, ShipCard, Side, Tactic, Tile
from .teams import default_commanders
from .tiles import flip_under


def card_id(mission: MissionData, side: int, key: str) -> str:
    """Ship card ids are the ship keys; in a mirror mission side B's carry a ``-b`` suffix."""
    return f"{key}-b" if mission.mirror and side == 1 else key


def new_state(config: dict[str, Any], pack: Pack, rng: Rng) -> GState:
    """The state after the mission's fixed parts; chosen fleets and decks wait for commits."""
    mission = pack.missions[config["mission"]]
    board = config.get("board") or mission.boards[0]
    if board not in mission.boards:
        raise ConfigError(f"mission {mission.id} is played on {', '.join(mission.boards)}")
    seat_side = [SIDES.index(x.side) for x in sorted(mission.seats, key=lambda x: x.seat)]
    sides = []
    for i, letter in enumerate(SIDES):
        seats = sorted(x.seat for x in mission.seats if x.side == letter)
        faction = next(x.faction for x in mission.seats if x.side == letter)
        sides.append(Side(i, faction, seats, energy=mission.start.get("energy", 15)))
    s = GState(num_players=len(seat_side), config=config, mission=mission.id, board=board, seat_side=seat_side,
               sides=sides, rng=rng, digest=pack.digest)
    deal_tiles(s)
    waiting = []
    for i, letter in enumerate(SIDES):
        rule = mission.fleets[letter]
        if rule.mode == "fixed":
            build_fleet(s, i, [e.model_dump() for e in rule.entries or []], public=True)
        else:
            waiting.append(s.lead(i))
    if waiting:
        s.phase = "fleet"
        s.sealed = SealedCommits.open(waiting)
    else:
        after_fleets(s)
    return s


def deal_tiles(s: GState) -> None:
    """BG-5.1 face-up tiles as printed; face-down tiles shuffled among the face-down slots."""
    slots = s.geo.slots
    down = [kind for _, kind, face in slots if face == "down"]
    s.rng.shuffle(down)
    k = 0
    for h, kind, face in slots:
        if face == "down":
            s.tiles.append(Tile(h, down[k], "down"))
            k += 1
        else:
            s.tiles.append(Tile(h, kind, "up"))


def fleet_problem(s: GState, side: int, entries: list[dict[str, Any]]) -> str | None:
    """BG-4.1, BG-4.2 (D-21): a chosen fleet within budget, own faction, one copy per name."""
    mission = s.missiondata
    rule = mission.fleets[SIDES[side]]
    pack = s.pack
    if not entries:
        return "a fleet needs at least one ship card"
    seen: set[str] = set()
    total = 0
    seats = s.sides[side].seats
    for e in entries:
        key, version = e.get("ship"), e.get("version", "standard")
        ship = pack.ships.get(str(key))
        if ship is None or ship.faction != s.sides[side].faction:
            return f"{key} is not a {s.sides[side].faction} ship (D-21)"
        if version not in ship.versions:
            return f"{key} has no {version} version"
        if key in seen:
            return f"{key} appears twice: one miniature per named ship (D-21)"
        seen.add(str(key))
        if e.get("seat") is not None and e["seat"] not in seats:
            return f"seat {e['seat']} does not play side {SIDES[side]}"
        total += ship.versions[version].cost  # type: ignore[index]
    if rule.budget is not None and total > rule.budget:
        return f"the fleet costs {total}; the budget is {rule.budget} (BG-4.1)"
    return None


def build_fleet(s: GState, side: int, entries: list[dict[str, Any]], public: bool = False) -> None:
    """Create the side's ship cards behind its screen (commanders per BG-18.1)."""
    mission = s.missiondata
    seats = s.sides[side].seats
    free = [e for e in entries if e.get("seat") is None]
    auto = iter(default_commanders(seats, len(free)))
    for e in entries:
        key = e["ship"]
        ship = s.pack.ships[key]
        cid = card_id(mission, side, key)
        pieces = [cid] if ship.squadron_size == 1 else [f"{cid}#{k + 1}" for k in range(ship.squadron_size)]
        seat = e["seat"] if e.get("seat") is not None else next(auto)
        s.cards[cid] = ShipCard(cid, key, e.get("version") or "standard", side, side, seat, pieces=pieces)
        for pid in pieces:
            s.pieces[pid] = Piece(pid, cid)
        s.sides[side].fleet.append(cid)
    if public:
        s.log({"t": "fleet", "side": side, "fleet": [[s.cards[c].key, s.cards[c].version] for c in s.sides[side].fleet]})


def submit_fleet(s: GState, seat: int, a: dict) -> None:
    """BG-4.4 a side's lead seat seals its chosen fleet."""
    side = s.side_of(seat)
    entries = [dict(e) for e in a["fleet"]]
    problem = fleet_problem(s, side, entries)
    if problem:
        raise RuleError("BG-4.1" if "budget" in problem else "D-21", problem)
    _seal(s, seat, entries, build_fleet, after_fleets)


def _seal(s: GState, seat: int, choice: Any, build: Callable[[GState, int, Any], None],
          then: Callable[[GState], None]) -> None:
    """BG-4.4 seal a lead seat's choice; once every lead has sealed, reveal them all, ``build`` each side's
    choice in seat order and go on with ``then``."""
    s.sealed.submit(seat, choice, "BG-4.4")
    if s.sealed.complete():
        commits = s.sealed.revealed()
        s.sealed = SealedCommits()
        for lead, value in sorted(commits.items()):
            build(s, s.side_of(lead), value)
        then(s)


def after_fleets(s: GState) -> None:
    mission = s.missiondata
    waiting = []
    for i, letter in enumerate(SIDES):
        rule = mission.decks[letter]
        if rule.mode == "fixed":
            build_deck(s, i, list(rule.cards or []))
        else:
            waiting.append(s.lead(i))
    if waiting:
        s.phase = "deck"
        s.sealed = SealedCommits.open(waiting)
    else:
        begin(s)


def build_deck(s: GState, side: int, cards: list[str]) -> None:
    letter = SIDES[side].lower()
    sd = s.sides[side]
    for k, key in enumerate(cards):
        tid = f"{letter}{k + 1:02d}"
        s.tactics[tid] = Tactic(tid, key, side, "deck")
        sd.deck.append(tid)
    for k, key in enumerate(s.missiondata.prepped.get(SIDES[side], [])):
        tid = f"{letter}p{k + 1}"
        s.tactics[tid] = Tactic(tid, key, side, "prepped")
        sd.prepped.append(tid)


def submit_deck(s: GState, seat: int, a: dict) -> None:
    """D-18 a constructed deck: exactly 30 own-faction cards, at most 3 per name (sealed)."""
    side = s.side_of(seat)
    cards = list(a["cards"])
    problem = deck_problem(s.pack, s.sides[side].faction, cards)
    if problem:
        raise RuleError("D-18", problem)
    _seal(s, seat, cards, build_deck, begin)


def begin(s: GState) -> None:
    """BG-5.2, BG-5.3, BG-5.4: pre-placed ships, shuffled decks, 15 energy and 5 cards, the roll-off."""
    mission = s.missiondata
    for pre in mission.preplaced:
        side = SIDES.index(pre.side)
        cid = card_id(mission, side, pre.ship)
        card = s.cards[cid]
        shields = s.vdata(cid).shields
        for pid, hexes in zip(card.pieces, pre.hexes, strict=True):
            p = s.pieces[pid]
            p.hexes, p.shields = [tuple(h) for h in hexes], shields  # type: ignore[misc]
            flip_under(s, p.hexes)
        card.zone, card.public, card.launched_turn = "play", True, 0
    hand = mission.start.get("hand", 5)
    for i, sd in enumerate(s.sides):
        s.rng.shuffle(sd.deck)
        for _ in range(hand):
            if sd.deck:
                tid = sd.deck.pop(0)
                sd.hand.append(tid)
                s.tactics[tid].zone = "hand"
        s.log({"t": "draws", "side": i, "n": len(sd.hand)})
    while True:  # BG-5.4 roll-off, ties re-roll
        rolls = [s.rng.die(8), s.rng.die(8)]
        s.log({"t": "roll_off", "rolls": rolls})
        if rolls[0] != rolls[1]:
            break
    s.rolloff = rolls
    s.phase = "first"
