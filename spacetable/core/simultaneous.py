"""Sealed simultaneous decisions.

Several players decide at once and secretly (Tremble's buy and plan commits,
Full Metal Planète's turn-21 departure, Worlds & Suns energy bids, free placement
in arena). A game keeps a :class:`SealedCommits` in its state: ``to_act`` returns
``waiting()``; ``apply`` calls ``submit``; views show ``public()`` (who has
committed) and the viewer's own commit only; once ``complete()`` the game
resolves them together with ``revealed()`` and clears the box.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import RuleError


@dataclass
class SealedCommits:
    required: list[int] = field(default_factory=list)
    commits: dict[int, Any] = field(default_factory=dict)

    @classmethod
    def open(cls, players: list[int] | tuple[int, ...]) -> SealedCommits:
        return cls(required=sorted(players), commits={})

    def waiting(self) -> tuple[int, ...]:
        return tuple(p for p in self.required if p not in self.commits)

    def submit(self, player: int, value: Any, rule: str = "CORE-SIM") -> None:
        if player not in self.required:
            raise RuleError(rule, f"player {player} has no decision to seal now")
        if player in self.commits:
            raise RuleError(rule, f"player {player} has already committed; a sent commit is final")
        self.commits[player] = value

    def complete(self) -> bool:
        return bool(self.required) and not self.waiting()

    def public(self) -> dict[int, bool]:
        return {p: p in self.commits for p in self.required}

    def own(self, player: int | None) -> Any:
        return self.commits.get(player) if player is not None else None

    def revealed(self) -> dict[int, Any]:
        if not self.complete():
            raise RuntimeError("commits are revealed only when all are in")
        return dict(self.commits)

    def view(self, player: int | None) -> dict[str, Any]:
        return {
            "committed": {str(p): done for p, done in self.public().items()},
            "own": self.own(player),
        }
