"""Tactic-card timing windows and reaction prompts (BG-14.4, D-20).

Own windows of the active side: ``own_energy``, ``own_deploy``, ``own_action`` (between
activations), ``activation_start`` (an activation is open and nothing has moved or attacked yet),
``before_attack_roll`` (the attack step, no roll pending), ``after_attack_roll`` (after the side's own
attack roll, before damage) and ``any_own_turn`` (any decision point of the own turn without a
pending roll). Reactions of the other side: ``enemy_activation`` (after an enemy pays an activation
cost) and ``enemy_hit`` (after an enemy attack roll hits, before damage).

D-20: a window that waits for a seat opens whenever that side **holds any card** (hand or prepped:
the counts are public), never depending on whether it holds a playable one, so the prompt reveals
nothing. The after-roll window of the attacker follows the same rule. A seat answers with a card
(``play_tactic``/``respond``) or ``pass``.
"""

from __future__ import annotations

from .state import GState, Window

OWN_PHASE = {"own_energy": "energy", "own_deploy": "deploy"}


def holds_cards(s: GState, side: int) -> bool:
    sd = s.sides[side]
    return bool(sd.hand or sd.prepped)


def timing_open(s: GState, side: int, timing: str) -> bool:
    """Whether a card of ``timing`` may be played by ``side`` now (BG-14.4)."""
    w = s.window
    if w is not None:
        return w.side == side and w.kind == timing
    if side != s.active or s.roll is not None or s.phase not in ("energy", "deploy", "action"):
        return False
    if timing == "any_own_turn":
        return True
    if timing in OWN_PHASE:
        return s.phase == OWN_PHASE[timing]
    act = s.activation
    if timing == "own_action":
        return s.phase == "action" and act is None
    if timing == "activation_start":
        return act is not None and act.step == "start"
    if timing == "before_attack_roll":
        return act is not None and act.step == "attack"
    return False


def open_window(s: GState, kind: str, side: int) -> bool:
    """Open ``kind`` for ``side`` if it holds any card (D-20); returns whether it opened. The
    attacker's own window is answered by the helm, reactions by the side's lead seat."""
    if not holds_cards(s, side):
        return False
    seat = s.helm if side == s.active else s.lead(side)
    s.window = Window(kind, side, seat)
    return True
