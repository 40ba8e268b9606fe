"""The skirmish around the combats (WS-8, house rules): setup, the turn, the end and the score.

Setup comes from a scenario (WS-8.1). At the start of its turn the active side receives its
income; it may declare combats one after another, each card at most once, and then ends its turn
(WS-8.2). The skirmish ends when no card can be fought over, after two consecutive turns without
a combat, or after ``max_rounds`` rounds (WS-8.3). Material decides: 2 per Population, 1 per
Factory (WS-8.4). Dice come from the seeded RNG or a ``dice_script`` (WS-8.5). Resignation is the
core move: the other side wins (WS-D20); a draw agreed with the core draw offer ends it drawn (WS-D25).
There is no movement and no production, since none is known (WS-D11).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.game import Action, Outcome
from spacetable.core.rng import Rng

from .events import deck_list, event_number
from .pieces import FACTORY, NOTICE, POPULATION, SUN, TITLE, WORLD, Card, Piece, System
from .state import WorldsState


# ------------------------------------------------------------------------------ setup (WS-8.1)
def _place_pieces(st: WorldsState, sides: list[str], system: dict[str, Any]) -> None:
    """The system's cards and their pieces, ids ``<side>.<card>.<P|F><n>`` (WS-8.1)."""
    owner = system.get("starting_system_of")
    st.systems.append(System(system["id"], system["sun"]["id"], [w["id"] for w in system["worlds"]],
                             None if owner is None else sides.index(owner)))
    for kind, cd in [(SUN, system["sun"])] + [(WORLD, w) for w in system["worlds"]]:
        st.cards.append(Card(cd["id"], kind, system["id"]))
        for side, pcs in (cd.get("pieces") or {}).items():
            seat = sides.index(side)
            for k in (POPULATION, FACTORY):
                for n in range(1, int(pcs.get(k, 0)) + 1):
                    st.pieces.append(Piece(f"{side}.{cd['id']}.{k}{n}", seat, k, cd["id"]))


def _deal_hands(st: WorldsState, data: dict[str, Any], hands_rng: Rng) -> None:
    """Listed hands as given; ``{"random": n}`` hands drawn in seat order from the house deck shuffled with the
    match seed (WS-D17)."""
    deck = deck_list()
    hands_rng.shuffle(deck)
    hands: list[list[str]] = [[], []]
    given = data.get("hands") or {}
    for seat, side in enumerate(st.sides):
        if isinstance(given.get(side, []), list):
            hands[seat] = list(given.get(side, []))
    for seat, side in enumerate(st.sides):
        h = given.get(side, [])
        if isinstance(h, dict):
            for _ in range(int(h["random"])):
                if deck:
                    hands[seat].append(deck.pop(0))
    st.hands = [sorted(h, key=event_number) for h in hands]
    st.deck = deck


def new_state(data: dict[str, Any], hands_rng: Rng, dice_rng: Rng) -> WorldsState:
    """WS-8.1: the state of a validated scenario before its first turn starts."""
    sides = list(data["sides"])
    st = WorldsState(scenario_id=str(data.get("id", "scenario")), label=str(data.get("label", TITLE)), sides=sides)
    for system in data["systems"]:
        _place_pieces(st, sides, system)
    st.energy = [int((data.get("energy") or {}).get(s, 0)) for s in sides]
    st.income = [int((data.get("energy_income") or {}).get(s, 0)) for s in sides]
    _deal_hands(st, data, hands_rng)
    st.first_player = st.active = sides.index(data.get("first_player", sides[0]))
    st.max_rounds = int(data.get("max_rounds", 10))
    st.dice_script = [list(p) for p in data["dice_script"]] if data.get("dice_script") else None
    st.rng = dice_rng
    st.log.append(TITLE + ". " + NOTICE)
    return st


# ------------------------------------------------------------------------------ turn (WS-8.2)
def start_turn(s: WorldsState) -> None:
    """WS-8.2: the active side receives its income; no card fought over yet this turn."""
    s.fought = []
    s.combats_this_turn = 0
    s.energy[s.active] += s.income[s.active]


def end_turn(s: WorldsState, seat: int, action: Action) -> None:
    """WS-8.2: end the turn, with or without a combat; a turn without one counts towards WS-8.3(b)."""
    s.quiet_turns = 0 if s.combats_this_turn else s.quiet_turns + 1
    s.log.append(f"{s.sides[seat]} ends its turn")


def legal_end_turn(s: WorldsState, seat: int) -> list[Action]:
    return [{"type": "end_turn"}]


# ------------------------------------------------------------------------------ end and score
def material(s: WorldsState) -> list[int]:
    """WS-8.4 material per seat (house rule): 2 per Population, 1 per Factory."""
    m = [0, 0]
    for p in s.pieces:
        m[p.owner] += 2 if p.kind == POPULATION else 1
    return m


def finish(s: WorldsState, reason: str) -> None:
    """WS-8.3: the skirmish is over; the log states the material (WS-8.4)."""
    s.over = True
    s.end_reason = reason
    s.combat = None
    m = material(s)
    s.log.append(f"skirmish over: {reason}; material {s.sides[0]} {m[0]}, {s.sides[1]} {m[1]} (house rule WS-8.4)")


def resign(s: WorldsState, seat: int, action: Action) -> None:
    """The core resign move (WS-D20): the skirmish ends at once and the other side wins."""
    s.resigned = seat
    finish(s, f"{s.sides[seat]} resigns")


def agree_draw(s: WorldsState, seat: int, action: Action) -> None:
    """The core draw agreement (WS-D25, house rule): both sides agreed, the skirmish ends drawn at once."""
    finish(s, "the sides agree to a draw")


def outcome(s: WorldsState) -> Outcome | None:
    """WS-8.4 (house rule): higher material wins, equal material is a draw; a resignation loses (WS-D20); an
    agreed draw is a draw whatever the material (WS-D25)."""
    if not s.over:
        return None
    m = material(s)
    details = {"reason": s.end_reason, "material": m, "lost": s.lost, "combats_won": s.combats_won,
               "converted": s.converted, "notice": NOTICE, "label": "house rule (WS-8.4)"}
    if s.resigned is not None:
        winner = 1 - s.resigned
        return Outcome(scores=(float(m[0]), float(m[1])), winners=(winner,), kind="resignation",
                       ranking=(winner, s.resigned), details=details)
    if s.draw.agreed:
        return Outcome(scores=(float(m[0]), float(m[1])), winners=(), kind="agreement", ranking=(0, 1),
                       details=details)
    winners: tuple[int, ...] = () if m[0] == m[1] else ((0,) if m[0] > m[1] else (1,))
    ranking = (0, 1) if m[0] >= m[1] else (1, 0)
    return Outcome(scores=(float(m[0]), float(m[1])), winners=winners, kind="material" if winners else "draw",
                   ranking=ranking, details=details)


def material_returns(s: WorldsState) -> list[float] | None:
    """Search rewards of an unfinished skirmish: the material lead over the total material, per seat."""
    if s.over:
        return None
    m = material(s)
    total = max(1, m[0] + m[1])
    return [(m[0] - m[1]) / total, (m[1] - m[0]) / total]
