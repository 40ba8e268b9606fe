"""Errors raised by game engines.

Every rejected action raises :class:`RuleError` naming the rule it breaks, so the
CLI, the server and the tests can show *why* an action was refused. Engines never
change a state when they raise: ``Game.apply`` is pure.
"""

from __future__ import annotations


class SpacetableError(Exception):
    """Base class of all spacetable errors."""


class RuleError(SpacetableError):
    """An action breaks a rule. ``rule`` is the rule id (``AR-4.3``, ``TH-9.2`` ...)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message}


class ConfigError(SpacetableError):
    """A match configuration is invalid (unknown option, bad value)."""


class NotYourTurn(RuleError):
    """The player is not among those who must act now."""

    def __init__(self, player: int, to_act: tuple[int, ...]) -> None:
        super().__init__("CORE-TURN", f"player {player} may not act now; waiting for {list(to_act)}")


class MalformedAction(RuleError):
    """The action is not of a shape the game understands."""

    def __init__(self, message: str) -> None:
        super().__init__("CORE-ACTION", message)
