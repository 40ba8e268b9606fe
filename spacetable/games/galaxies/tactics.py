"""Playing tactic cards (BG-14, D-19, D-20).

A card is played from the hand (or the prepped area, BG-4.3) by paying its cost, in its timing
window (:mod:`.windows`), with legal targets (BG-14.2). Its effects resolve in the order listed, in
the §6.2 vocabulary (:mod:`.effects`). **Hero**, **upgrade** and **additional weapon** cards attach to
an in-play ship card of the side that matches ``attach_to`` (BG-14.1); a side has at most one copy of
each named hero in play (BG-14.3) and at most one hero per ship card (D-19). **Events** and
**sabotage** resolve and go to the discard pile. Playing a card reveals it.

Targets are named by the card's selectors (``as``): ``friendly_ship``/``enemy_ship`` take a ship id
on the board, ``attached_card`` a ship card id; ``self_side``/``enemy_side`` need none. Filters:
``size``, ``shields`` up/down, ``within n of`` a friendly or enemy ship, ``names``, ``active`` (a ship
of the open activation's card) and ``loaded`` (its card carries cargo; the hold *count* is public).
"""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .board import Hex, distance, fp_distance, step
from .effects import Ctx, resolve
from .energy import pay
from .packs import AttachTo, Selector, TacticData
from .state import GState
from .stats import size_of
from .windows import timing_open


def _hand_card(s: GState, side: int, tid: str) -> str:
    sd = s.sides[side]
    if tid in sd.hand:
        return "hand"
    if tid in sd.prepped:
        return "prepped"
    raise RuleError("BG-14.2", f"{tid} is not in your hand or prepped area")


def _attach_ok(s: GState, t: TacticData, card_id: str, side: int) -> str | None:
    """BG-14.1 ``attach_to`` and the hero limits (BG-14.3, D-19); ``None`` when allowed."""
    c = s.cards.get(card_id)
    if c is None or c.side != side or c.zone != "play":
        return f"{card_id} is not one of your ship cards in play"
    rule: AttachTo = t.attach_to or AttachTo()
    sq = len(c.pieces) > 1
    if (rule.solo and sq) or (rule.squadron and not sq):
        return f"{t.name} attaches to {'a solo' if rule.solo else 'a squadron'} ship card"
    if rule.sizes and size_of(s, card_id) not in rule.sizes:
        return f"{t.name} attaches to {'/'.join(rule.sizes)} ships"
    if rule.names and c.key not in rule.names:
        return f"{t.name} attaches to {', '.join(rule.names)}"
    if t.type == "hero":
        if any(s.tdata(x).type == "hero" for x in c.attachments):
            return "D-19: at most one hero per ship card"
        if any(s.tactics[x].key == t.id for o in s.cards.values() if o.side == side and o.zone == "play" for x in o.attachments):
            return "BG-14.3: that hero is already in play"
    return None


def _candidates(s: GState, side: int, sel: Selector, t: TacticData) -> list[str]:
    """Ids a selector may name now, in canonical order."""
    if sel.kind in ("self_side", "enemy_side"):
        return []
    if sel.kind == "attached_card":
        return [c.id for c in s.cards.values() if c.side == side and c.zone == "play" and _attach_ok(s, t, c.id, side) is None]
    own = sel.kind == "friendly_ship"
    pool = s.on_board(side if own else 1 - side)
    out = []
    for p in pool:
        card = s.cards[p.card]
        if sel.size and size_of(s, p.card) not in sel.size:
            continue
        if (sel.shields == "up" and p.shields <= 0) or (sel.shields == "down" and p.shields > 0):
            continue
        if sel.names and card.key not in sel.names:
            continue
        if sel.active and (s.activation is None or s.activation.card != p.card):
            continue
        if sel.loaded and not card.cargo:
            continue
        if sel.within is not None:
            ref_side = side if (sel.of or "friendly_ship") == "friendly_ship" else 1 - side
            refs = [q for q in s.on_board(ref_side) if q.id != p.id]
            if not any(fp_distance(p.hexes, q.hexes) <= sel.within for q in refs):
                continue
        out.append(p.id)
    return out


def _check_targets(s: GState, side: int, t: TacticData, targets: dict[str, str]) -> None:
    names = {sel.name_as for sel in t.targets if sel.kind not in ("self_side", "enemy_side")}
    extra = set(targets) - names
    if extra:
        raise RuleError("BG-14.2", f"{t.name} has no target named {sorted(extra)[0]!r}")
    for sel in t.targets:
        if sel.kind in ("self_side", "enemy_side"):
            continue
        got = targets.get(sel.name_as)
        if got is None:
            raise RuleError("BG-14.2", f"{t.name} needs a target {sel.name_as!r}")
        if sel.kind == "attached_card":
            problem = _attach_ok(s, t, got, side)
            if problem:
                rule = "D-19" if problem.startswith("D-19") else "BG-14.3" if problem.startswith("BG-14.3") else "BG-14.1"
                raise RuleError(rule, problem)
            continue
        if got not in _candidates(s, side, sel, t):
            raise RuleError("BG-14.2", f"{got} is not a legal {sel.name_as} for {t.name}")


def play(s: GState, seat: int, a: dict, reaction: bool) -> None:
    """BG-14.2 play a tactic card: check window, cost and targets, pay, resolve, attach or discard."""
    side = s.side_of(seat)
    tid = a["card"]
    where = _hand_card(s, side, tid)
    t = s.tactics[tid]
    data = s.tdata(tid)
    is_reaction = data.timing in ("enemy_activation", "enemy_hit")
    if is_reaction != reaction:
        raise RuleError("BG-14.4", f"{data.name} is played with {'respond' if is_reaction else 'play_tactic'}")
    if not timing_open(s, side, data.timing):
        raise RuleError("BG-14.4", f"{data.name} is played at {data.timing}, which is not open now")
    targets: dict[str, str] = dict(a.get("targets") or {})
    _check_targets(s, side, data, targets)
    choices: dict[str, Any] = dict(a.get("choices") or {})
    probe = s.copy()  # effects that need choices are checked before anything is paid
    resolve(probe, data.effects, Ctx(side, seat, targets, choices, source=tid))
    pay(s.sides[side], data.cost, f"playing {data.name}")
    (s.sides[side].hand if where == "hand" else s.sides[side].prepped).remove(tid)
    s.reveals += 1
    s.log({"t": "tactic", "side": side, "card": tid, "key": t.key, "targets": targets})
    if data.attaches:
        host = targets[next(sel.name_as for sel in data.targets if sel.kind == "attached_card")]
        t.zone, t.on = "attached", host
        s.cards[host].attachments.append(tid)
    resolve(s, data.effects, Ctx(side, seat, targets, choices, source=tid))
    if not data.attaches:
        t.zone = "discard"
        s.sides[t.owner].discard.append(tid)


def play_tactic(s: GState, seat: int, a: dict) -> None:
    play(s, seat, a, reaction=False)


def respond(s: GState, seat: int, a: dict) -> None:
    play(s, seat, a, reaction=True)


# ------------------------------------------------------------------------ enumeration
def _place_choices(s: GState, piece: str, within: int) -> list[list[list[int]]]:
    """Canonical placements for ``place_ship``: small every empty hex within ``within``; medium one
    footprint per first hex."""
    p = s.pieces[piece]
    size = size_of(s, p.card)
    board = s.geo
    occ = s.occupied(exclude=piece)
    cur = set(p.hexes)

    seen: dict[Hex, bool] = {}  # each hex is tested once (a medium ship's second hexes repeat)

    def free(h: Hex) -> bool:
        got = seen.get(h)
        if got is None:
            got = seen[h] = board.open(h) and h not in occ and min(distance(h, o) for o in p.hexes) <= within
        return got

    out: list[list[list[int]]] = []
    for h in board.order:
        if not free(h):
            continue
        if size == "small":
            if h not in cur:
                out.append([list(h)])
            continue
        for d in range(6):
            h2 = step(h, d)
            if free(h2) and {h, h2} != cur:
                out.append([list(h), list(h2)])
                break
    return out


def tactic_actions(s: GState, seat: int, reaction: bool) -> list[dict]:
    """Legal ``play_tactic`` (or ``respond``) actions: one instance per card name, every target
    combination, canonical placements for ``place_ship`` cards."""
    side = s.side_of(seat)
    sd = s.sides[side]
    out: list[dict] = []
    seen: set[str] = set()
    kind = "respond" if reaction else "play_tactic"
    for tid in sd.hand + sd.prepped:
        t = s.tactics[tid]
        if t.key in seen:
            continue
        seen.add(t.key)
        data = s.tdata(tid)
        if (data.timing in ("enemy_activation", "enemy_hit")) != reaction or data.cost > sd.energy:
            continue
        if not timing_open(s, side, data.timing):
            continue
        if data.timing == "enemy_hit" and any(e.op in ("cancel_hit", "reroll") for e in data.effects) and s.roll is None:
            continue
        combos: list[dict[str, str]] = [{}]
        for sel in data.targets:
            if sel.kind in ("self_side", "enemy_side"):
                continue
            cands = _candidates(s, side, sel, data)
            combos = [{**c, sel.name_as: x} for c in combos for x in cands]
        place = next((e for e in data.effects if e.op == "place_ship"), None)
        for combo in combos:
            if place is not None:
                subject = combo.get(place.on or "ship", "")
                if subject not in s.pieces:
                    continue
                for hexes in _place_choices(s, subject, place.within or 0):
                    out.append({"type": kind, "card": tid, "targets": combo, "choices": {"hexes": hexes}})
                continue
            out.append({"type": kind, "card": tid, "targets": combo, "choices": {}})
    return out
