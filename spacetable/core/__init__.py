"""Game-agnostic core: protocol, RNG, serialisation, matches, geometry."""

from .errors import ConfigError, MalformedAction, NotYourTurn, RuleError, SpacetableError
from .game import Action, Game, Option, Outcome, play_actions
from .match import LogEntry, Match, state_fingerprint
from .rng import Rng, mix_seed
from .serial import action_key, dumps, from_jsonable, loads, to_jsonable
from .simultaneous import SealedCommits

__all__ = [
    "Action",
    "ConfigError",
    "Game",
    "LogEntry",
    "MalformedAction",
    "Match",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Rng",
    "RuleError",
    "SealedCommits",
    "SpacetableError",
    "action_key",
    "dumps",
    "from_jsonable",
    "loads",
    "mix_seed",
    "play_actions",
    "state_fingerprint",
    "to_jsonable",
]
