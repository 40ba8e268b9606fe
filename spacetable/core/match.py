"""Matches: config + seed + action log, and their bit-exact replay.

A :class:`Match` is the whole truth about a game in progress or finished: the
game id, the normalised config, the seed and the list of ``(player, action)``
entries. The state is never stored as the source of truth; it is always
``replay(match)``. Files use the format ``spacetable-match/1`` (JSON).

The core does not know the game registry: a match made with :meth:`Match.new` keeps the
game object it was given, and a match read from JSON gets its game from the caller, either
a resolver (``Match.load(path, get_game)``) or :meth:`Match.attach`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import SpacetableError
from .game import Action, Game
from .serial import dumps

FORMAT = "spacetable-match/1"

#: Finds the game object of a game id (``spacetable.games.get_game`` for the built-in games).
Resolver = Callable[[str], Game[Any]]


@dataclass
class LogEntry:
    player: int
    action: Action

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "action": self.action}


@dataclass
class Match:
    game: str
    config: dict[str, Any]
    seed: int
    log: list[LogEntry] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    #: The game object that replays this match (not saved; see the module docstring).
    engine: Game[Any] | None = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------------ building
    @classmethod
    def new(cls, game: Game[Any], config: dict[str, Any] | None, seed: int, **meta: Any) -> Match:
        return cls(game=game.id, config=game.normalize_config(config), seed=seed, meta=dict(meta), engine=game)

    def attach(self, game: Game[Any]) -> Match:
        """Give the match the game object that plays it (its id must be the match's)."""
        if game.id != self.game:
            raise SpacetableError(f"this match is a {self.game!r} match, not {game.id!r}")
        self.engine = game
        return self

    def game_obj(self) -> Game[Any]:
        if self.engine is None:
            raise SpacetableError(f"no game attached to this {self.game!r} match: read it with a resolver "
                                  "(Match.load(path, get_game)) or call attach(game)")
        return self.engine

    def initial_state(self) -> Any:
        return self.game_obj().initial_state(self.config, self.seed)

    def play(self, state: Any, player: int, action: Action) -> Any:
        """Apply ``action`` to ``state`` (the match's current state) and log it."""
        new_state = self.game_obj().apply(state, player, action)
        self.log.append(LogEntry(player, action))
        return new_state

    # ------------------------------------------------------------------- replay
    def states(self) -> Iterator[Any]:
        """The initial state, then the state after each logged action."""
        game = self.game_obj()
        state = game.initial_state(self.config, self.seed)
        yield state
        yield from replay_states(game, state, ((e.player, e.action) for e in self.log))

    def replay(self, upto: int | None = None) -> Any:
        """The state after the first ``upto`` actions (all of them by default)."""
        last = None
        for i, state in enumerate(self.states()):
            last = state
            if upto is not None and i >= upto:
                break
        return last

    # ------------------------------------------------------------------- files
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "config": self.config,
            "seed": self.seed,
            "log": [e.to_json() for e in self.log],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], resolve: Resolver | None = None) -> Match:
        """Read a ``spacetable-match/1`` object; ``resolve`` (a game id -> game function) attaches the game."""
        if data.get("format") != FORMAT:
            raise SpacetableError(f"not a {FORMAT} file (format={data.get('format')!r})")
        match = cls(
            game=data["game"],
            config=dict(data["config"]),
            seed=int(data["seed"]),
            log=[LogEntry(int(e["player"]), dict(e["action"])) for e in data["log"]],
            meta=dict(data.get("meta", {})),
        )
        if resolve is not None:
            match.attach(resolve(match.game))
        return match

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, resolve: Resolver | None = None) -> Match:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")), resolve)


def replay_states(game: Game[Any], state: Any, entries: Iterable[tuple[int, Action]]) -> Iterator[Any]:
    """The state after each of ``entries`` (``(player, action)``), applied in turn from ``state``: the one replay
    loop of matches (files, the terminal, the play server's history and undo)."""
    for player, action in entries:
        state = game.apply(state, player, action)
        yield state


def state_fingerprint(game: Game[Any], state: Any) -> str:
    """Canonical JSON of a full state: equal fingerprints mean equal states."""
    return dumps(game.state_to_json(state))
