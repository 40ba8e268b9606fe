"""AI players of Full Metal Planète, as the lobby, the terminal and the tournaments list them.

* ``planner`` (hard) — the searching commander (:mod:`.planner`): plans each turn as a whole among
  commander-style candidate plans, judged after the opponents' replies over sampled tides;
* ``commander`` (medium) — the rule-of-thumb planner (:mod:`.commander`);
* ``greedy`` (easy) — the best-looking action of each moment;
* ``random`` — random legal actions (a baseline, not an opponent).

Ratings and seconds per move come from the ladder (``ladder.json``, rebuilt by ``bench/ai_ladder.py``)
and are filled in by :func:`spacetable.ai.agents.agent_specs`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spacetable.core.hooks import AgentSpec

from .commander import CommanderAgent, GreedyAgent, RandomFMAgent, Style
from .planner import PlannerAgent

AGENTS: dict[str, Callable[[int, float], Any]] = {
    "planner": lambda seed=0, seconds=1.0, **_: PlannerAgent(seed, seconds),
    "commander": lambda seed=0, seconds=1.0, **_: CommanderAgent(seed, seconds),
    "greedy": lambda seed=0, seconds=1.0, **_: GreedyAgent(seed, seconds),
    "random": lambda seed=0, seconds=1.0, **_: RandomFMAgent(seed, seconds),
}
DEFAULT_AGENT = "planner"

#: The players offered by the lobby and the terminal (:meth:`Game.agents`), the default first.
AGENT_SPECS = (
    AgentSpec("planner", AGENTS["planner"], level="hard",
              description="searching commander: plans whole turns, judged after the opponents' replies"),
    AgentSpec("commander", AGENTS["commander"], level="medium", description="heuristic planner: ore, threats, take-off"),
    AgentSpec("greedy", AGENTS["greedy"], level="easy", description="takes the best-looking action of each moment"),
    AgentSpec("random", AGENTS["random"], description="a random legal action, ending turns now and then (a baseline)"),
)

__all__ = ["AGENTS", "AGENT_SPECS", "DEFAULT_AGENT", "CommanderAgent", "GreedyAgent", "PlannerAgent", "RandomFMAgent",
           "Style"]
