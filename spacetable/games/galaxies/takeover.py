"""Take-over (BG-16, D-17).

The taker gains the card, all its attachments and all its ships, pegs unchanged; the card's cargo
is destroyed at once (BG-16.1, BG-8.10). If the taker's fleet (screen, holds, in play) already has
a ship card of the same name, the taken card is destroyed instead (BG-16.2). If the taker already
has in play a hero of the same name as one attached to the taken card, one of the two is
discarded (BG-16.2): the engine discards the taken card's copy (the taker's own keeps its place).
The taken card counts as already activated for the taker in that turn (D-17); attachments keep
their original owner for discarding (BG-16.3). In teams the seat that played the take-over
commands the card.
"""

from __future__ import annotations

from .damage import destroy_cargo, destroy_piece
from .state import GState


def same_name_in_fleet(s: GState, side: int, key: str) -> bool:
    """BG-16.2 does ``side`` field (screen, hold or in play) a ship card named ``key``?"""
    return any(c.side == side and c.key == key and c.zone in ("screen", "hold", "play") for c in s.cards.values())


def take_over(s: GState, card_id: str, taker: int, seat: int) -> str:
    """Transfer control of an in-play card; returns ``taken`` or ``destroyed``."""
    card = s.cards[card_id]
    if card.cargo:
        destroy_cargo(s, card_id)
    if same_name_in_fleet(s, taker, card.key):
        s.log({"t": "take_over", "card": card_id, "side": taker, "result": "destroyed"})
        for pid in list(card.pieces):
            destroy_piece(s, pid, "take_over")
        return "destroyed"
    heroes_in_play = {s.tactics[t].key for c in s.cards.values() if c.side == taker and c.zone == "play"
                      for t in c.attachments if s.tdata(t).type == "hero"}
    for tid in list(card.attachments):
        t = s.tactics[tid]
        if s.tdata(tid).type == "hero" and t.key in heroes_in_play:
            card.attachments.remove(tid)
            t.zone, t.on = "discard", ""
            s.sides[t.owner].discard.append(tid)
    card.side = taker
    card.seat = seat
    card.activated = True
    s.mods = [m for m in s.mods if m.card != card_id]
    s.log({"t": "take_over", "card": card_id, "side": taker, "result": "taken"})
    return "taken"
