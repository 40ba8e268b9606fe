"""Credits (TH-13.1, TH-13.2, TH-13.3, TH-13.4, TH-D5, TH-D12): +50,000 now, a 60,000 debt; taken only
inside a buy commit, before the purchases."""

from __future__ import annotations

from typing import Any

from spacetable.core.errors import RuleError

from .state import PlayerState


def credit_allowed(p: PlayerState, humans: int, rules: dict[str, Any]) -> bool:
    """TH-13.1: humans <= 50,000 and ships owned <= 2 (training saucer counts, stations do not)."""
    cr = rules["credit"]
    return humans <= cr["max_humans"] and len(p.hand) <= cr["max_ships"]


def take_credits(p: PlayerState, humans: int, count: int, rules: dict[str, Any]) -> int:
    """Apply ``count`` credits one at a time (TH-13.2, TH-13.3), each checked; returns the new balance."""
    for i in range(count):
        if not credit_allowed(p, humans, rules):
            raise RuleError(
                "TH-13.1",
                f"credit {i + 1} refused: needs humans <= {rules['credit']['max_humans']:,} "
                f"and <= {rules['credit']['max_ships']} ships (have {humans:,}, {len(p.hand)} ships)",
            )
        humans += rules["credit"]["amount"]
    return humans


def max_credits(p: PlayerState, humans: int, rules: dict[str, Any]) -> int:
    """How many credits in a row TH-13.1 allows from ``humans`` (TH-13.3 chaining; at most 10 listed)."""
    n = 0
    while credit_allowed(p, humans, rules) and n < 10:
        humans += rules["credit"]["amount"]
        n += 1
    return n


def settle(p: PlayerState, rules: dict[str, Any]) -> int:
    """TH-13.4 / TH-D5: each unpaid credit costs its repayment at the end; may go negative."""
    return -p.credits * int(rules["credit"]["repay"])
