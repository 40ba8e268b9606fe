"""When a seat may take back its own last action, for every game.

A seat may take back its last action, together with the actions after it that others let
be taken back with it (AI replies), only if it learnt nothing it was not entitled to keep:

* no chance was drawn since (the state's ``rng`` is unchanged: no die rolled, no card drawn);
* the game says none of the actions taken back is barred (:meth:`Game.undoable`: an action that
  rolls, draws, shuffles or reveals something to anybody, a launched card for instance);
* nothing hidden from it was revealed: what it sees now must not depend on anything hidden
  from it. This is checked by replaying the actions from states resampled from its point of
  view (:meth:`Game.determinize`), each action it could not see replaced by an alternative
  it could not tell apart (same :meth:`Game.action_view`); its view must come out the same.

Game-agnostic: the terminal (:mod:`spacetable.terminal`) uses it; the play server applies the
same policy (SRV-U1 to SRV-U3).
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any

from .errors import RuleError, SpacetableError
from .game import Action, Game
from .rng import Rng, mix_seed


class UndoRefused(SpacetableError):
    """The seat may not take its last action back; the message says why."""


def undo_point(game: Game[Any], initial: Any, log: Sequence[tuple[int, Action]], seat: int, *,
               along: Container[int] = (), seed: int = 0, probes: int = 8) -> int:
    """Index of the first entry of ``log`` that taking back ``seat``'s last action removes.

    ``initial`` is the state before ``log``; entries after the seat's last action must all be
    by seats in ``along`` (they are taken back with it). Raises :class:`UndoRefused`."""
    i = len(log) - 1
    while i >= 0 and log[i][0] != seat and log[i][0] in along:
        i -= 1
    if i < 0 or log[i][0] != seat:
        raise UndoRefused("only your own last action (and the AI replies after it) can be taken back")
    before = initial
    for player, action in log[:i]:
        before = game.apply(before, player, action)
    states = [before]
    for player, action in log[i:]:
        states.append(game.apply(states[-1], player, action))
    now = states[-1]
    if getattr(before, "rng", None) != getattr(now, "rng", None):
        raise UndoRefused("dice were rolled or cards drawn since that action")
    for k, (player, action) in enumerate(log[i:]):  # the game's own rule (Game.undoable): rolls, draws, reveals
        if not game.undoable(states[k], player, action):
            raise UndoRefused("an action since then used chance or revealed something; it cannot be taken back")
    refused = UndoRefused("hidden information was revealed to you since that action")
    seen = [game.action_view(states[k], p, a, seat) for k, (p, a) in enumerate(log[i:])]
    target = game.view(now, seat)
    for k in range(probes if game.hidden_information else 0):
        probe = game.determinize(before, seat, Rng.from_seed(mix_seed(seed, "undo", k)))
        try:
            for (player, action), shown in zip(log[i:], seen, strict=True):
                if player != seat and shown != action:
                    alike = [a for a in game.legal_actions(probe, player) if game.action_view(probe, player, a, seat) == shown]
                    if alike:
                        action = alike[k % len(alike)]
                probe = game.apply(probe, player, action)
        except (RuleError, KeyError, IndexError, TypeError, ValueError) as exc:
            raise refused from exc
        if game.view(probe, seat) != target:
            raise refused
    return i
