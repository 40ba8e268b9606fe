"""The game protocol every spacetable game implements.

A game is a stateless object (one instance per game id) whose methods are pure
functions of a state. The shape follows three ideas:

* **Authoritative reducer** – ``apply(state, player, action)`` returns a *new* state
  or raises :class:`RuleError`; the old state is never touched, so a rejected
  action changes nothing.
* **Explicit randomness** – all chance comes from an :class:`~spacetable.core.rng.Rng`
  stored in the state, so ``config + seed + action log`` replays bit-exactly.
* **Views** – ``view(state, player)`` is everything that player may see, nothing
  more (``player=None`` is a spectator). The server and AI players only ever see
  views; ``action_view`` filters what others learn about an action.

Simultaneous secret decisions (buying, planning, turn-21 departure) are modelled
by ``to_act`` returning several players at once: each submits with ``apply`` in
any order, the game stores the sealed commits in its state (see
:class:`~spacetable.core.simultaneous.SealedCommits`) and resolves when all are in.
Multi-action turns (action points) are many ``apply`` calls by the same player
until it plays an ``end_turn`` action. Nobody to act means the game is over.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from .errors import ConfigError, NotYourTurn, RuleError
from .hooks import AgentSpec, AnalysisHooks, BalanceHooks, Calculator, Command, MapHooks, PromptCommand
from .i18n import remembered, render_cached
from .moves import MoveTable, check_json_action
from .rng import Rng, mix_seed
from .serial import action_key, from_jsonable, to_jsonable

Action = dict[str, Any]
"""An action is a JSON object, as written in the game's spec (``{"type": "move", ...}``)."""

S = TypeVar("S")


@dataclass(frozen=True)
class Option:
    """One configuration option of a game, as listed by the lobby and the CLI."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    kind: str = "str"  # "str" | "int" | "bool" | "float" | "json"
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The option as a fresh JSON object, fields in declaration order, tuples as lists. Field by field rather
        than ``dataclasses.asdict``, which walked every value and took about a millisecond for the five games'
        options on every lobby request; a default that is a container is still copied."""
        out: dict[str, Any] = {}
        for f in _OPTION_FIELDS:
            v = getattr(self, f.name)
            if isinstance(v, tuple):
                v = list(v)
            elif isinstance(v, (dict, list)):
                v = copy.deepcopy(v)
            out[f.name] = v
        return out


_OPTION_FIELDS = dataclasses.fields(Option)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``scores`` are the game's own points per seat (arena: 1, ½ or 0; fullmetal: ore
    points); ``winners`` the seats that won (several for a shared win, none for a
    draw); ``ranking`` seats best first; ``kind`` names the ending (``corvette``,
    ``resignation``, ...); ``details`` holds anything else worth showing.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    kind: str
    ranking: tuple[int, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(self)  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return from_jsonable(cls, data)  # type: ignore[no-any-return]


@functools.cache
def _text_packages(cls: type) -> tuple[str, str]:
    """Where a game's sentences come from: its own package's catalogue, then core's."""
    return (cls.__module__.rsplit(".", 1)[0], "spacetable.core")


class Game(ABC, Generic[S]):
    """Base class of every game. Subclasses set the class attributes and implement
    the abstract methods; the rest has sensible defaults."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    state_type: ClassVar[type]
    #: True when some information is hidden from some player (hands, forecasts, sealed commits).
    hidden_information: ClassVar[bool] = False
    #: True when dice/decks are used after setup.
    stochastic: ClassVar[bool] = False
    #: True when ``legal_actions`` may take long (tens of milliseconds or more: thousands of composite actions).
    #: A server then lists them in a worker thread, off its event loop, before it publishes the new state.
    slow_legal_actions: ClassVar[bool] = False
    #: The declared moves (see :mod:`spacetable.core.moves`); ``None`` only for games not yet converted.
    moves: ClassVar[MoveTable[Any] | None] = None

    # ----------------------------------------------------------- configuration
    def options(self) -> list[Option]:
        """Configuration options (lobby and CLI). ``players`` is implied by min/max."""
        return []

    def normalize_config(self, config: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and validate; raise :class:`ConfigError` on bad input."""
        config = dict(config or {})
        out: dict[str, Any] = {}
        opts = {o.name: o for o in self.options()}
        if self.min_players != self.max_players or "players" in config:
            players = config.pop("players", self.min_players)
            if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
                raise ConfigError(f"players must be an integer in {self.min_players}..{self.max_players}")
            out["players"] = players
        for key, value in config.items():
            if key not in opts:
                raise ConfigError(f"unknown option {key!r} for {self.id}; known: {sorted(opts)}")
            opt = opts[key]
            if opt.choices is not None and value not in opt.choices:
                raise ConfigError(f"option {key} must be one of {list(opt.choices)}, got {value!r}")
            if opt.kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
                raise ConfigError(f"option {key} must be an integer")
            if opt.kind == "bool" and not isinstance(value, bool):
                raise ConfigError(f"option {key} must be true or false")
            if opt.kind in ("int", "float"):
                if opt.minimum is not None and value < opt.minimum:
                    raise ConfigError(f"option {key} must be >= {opt.minimum}")
                if opt.maximum is not None and value > opt.maximum:
                    raise ConfigError(f"option {key} must be <= {opt.maximum}")
            out[key] = value
        for name, opt in opts.items():
            out.setdefault(name, opt.default)
        return out

    def num_players(self, config: dict[str, Any]) -> int:
        return int(config.get("players", self.min_players))

    def player_names(self, config: dict[str, Any]) -> list[str]:
        return [f"Player {i + 1}" for i in range(self.num_players(config))]

    # ----------------------------------------------------------------- protocol
    @abstractmethod
    def initial_state(self, config: dict[str, Any], seed: int) -> S:
        """The state before the first action. ``config`` is already normalised."""

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that must act now: one, several (simultaneous), or none (game over)."""

    @abstractmethod
    def legal_actions(self, state: S, player: int) -> list[Action]:
        """Every legal action of ``player`` now, in a canonical order; ``[]`` if none."""

    def apply(self, state: S, player: int, action: Action) -> S:
        """Return the state after ``player`` plays ``action``. Pure: raises
        :class:`RuleError` (naming the rule) and leaves ``state`` untouched on an
        illegal or malformed action. The default plays the move table."""
        if self.moves is None:
            raise NotImplementedError(f"{self.id} declares no move table and does not override apply")
        new, _ = self.moves.play(state, player, action, to_act=self.to_act(state), copy=self.clone)
        return new

    def apply_normal(self, state: S, player: int, action: Action) -> S:
        """``apply`` for an action in normal form, exactly as :meth:`normalize_action` returned it: a server
        validates each action once, before it takes the match's lock, and the move table does not validate it a
        second time (every rule is still checked). A game that overrides ``apply`` is called through it, with its
        own checks. Anything else calls ``apply``."""
        if self.moves is not None and type(self).apply is Game.apply:
            new, _ = self.moves.play(state, player, action, to_act=self.to_act(state), copy=self.clone, normal=True)
            return new
        return self.apply(state, player, action)

    def normalize_action(self, action: object) -> Action:
        """The action checked against the game's declared schema and put in normal form
        (what servers store and broadcast). Unknown fields, wrong types, non-finite
        numbers, over-long or over-deep values raise ``CORE-ACTION``."""
        if self.moves is not None:
            return self.moves.normalize(action)
        return check_json_action(action)

    def action_schema(self) -> dict[str, Any]:
        """JSON Schema of the game's actions (published by the API)."""
        if self.moves is not None:
            return self.moves.json_schema()
        return {"type": "object", "properties": {"type": {"type": "string"}}, "required": ["type"]}

    #: What the game's package declared with :meth:`provide` (kept on the class).
    _provided: ClassVar[dict[str, Any]] = {}

    @classmethod
    def provide(cls, *, agents: Iterable[AgentSpec] | Callable[[], Iterable[AgentSpec]] = (),
                commands: Iterable[Command] = (), notation_help: str = "",
                calculators: Iterable[Calculator] = (), prompt_commands: Iterable[PromptCommand] = (),
                analysis: AnalysisHooks | Callable[[], AnalysisHooks] | None = None,
                balance: BalanceHooks | Callable[[], BalanceHooks] | None = None,
                maps: MapHooks | Callable[[], MapHooks] | None = None) -> None:
        """Declare what the game offers the tools around it: its AI players (or a function
        returning them, for players whose module is slow to import), its extra ``spacetable``
        commands, the plain-text help of its typed notation, its calculators (what-if
        computations the browser asks the server for), the words it adds to the terminal's
        play prompt, and what it lends the post-game analysis and the designer's workbench
        (balance runs of a content kind, the map editor's operations).

        A game package calls this in its ``__init__`` once the facade, ``ai`` and ``cli``
        modules are imported (those import the facade, so the facade cannot import them).
        The declarations are kept on the class, so copies of the game object unpickled in
        worker processes see them too."""
        cls._provided = {"agents": agents, "commands": tuple(commands), "notation_help": notation_help,
                         "calculators": tuple(calculators), "prompt_commands": tuple(prompt_commands),
                         "analysis": analysis, "balance": balance, "maps": maps}

    def agents(self) -> list[AgentSpec]:
        """The game's own AI players (levels, names, factories), the default one first; the
        generic ones in :mod:`spacetable.ai` are added by whoever lists them."""
        source = self._provided.get("agents", ())
        return list(source() if callable(source) else source)

    def analysis_hooks(self) -> AnalysisHooks:
        """What the game lends the post-game analysis (exact values, a fast playout move, its suggesting player;
        declared with :meth:`provide`, or a function returning it for hooks whose module is slow to import)."""
        source = self._provided.get("analysis")
        got = source() if callable(source) else source
        return got if isinstance(got, AnalysisHooks) else AnalysisHooks()

    def balance_hooks(self) -> BalanceHooks | None:
        """How the workbench's balance runs play a content kind of the game (declared with :meth:`provide`, or a
        function returning it for a simulation slow to import); ``None``: the game has none."""
        source = self._provided.get("balance")
        got = source() if callable(source) else source
        return got if isinstance(got, BalanceHooks) else None

    def map_hooks(self) -> MapHooks | None:
        """The operations of the game's map editor (declared with :meth:`provide`, or a function returning them);
        ``None``: the game has no map editor."""
        source = self._provided.get("maps")
        got = source() if callable(source) else source
        return got if isinstance(got, MapHooks) else None

    def commands(self) -> list[Command]:
        """Extra ``spacetable`` sub-commands the game contributes (``odds``, ``advise``...)."""
        return list(self._provided.get("commands", ()))

    def prompt_commands(self) -> list[PromptCommand]:
        """Words the game adds to the terminal's play prompt (``landing``...)."""
        return list(self._provided.get("prompt_commands", ()))

    def calculators(self) -> dict[str, Calculator]:
        """The game's calculators by name (``POST /api/games/<game>/calc/<name>``)."""
        return {c.name: c for c in self._provided.get("calculators", ())}

    def notation_help(self) -> str:
        """Plain text telling a player how to type this game's actions at a prompt (the
        terminal's ``help``). The default lists the declared moves."""
        if self._provided.get("notation_help"):
            return str(self._provided["notation_help"])
        if self.moves is None:
            return "Type an action as a JSON object, e.g. {\"type\": \"end_turn\"}."
        lines = ["Actions (type one as a JSON object with these fields):"]
        for move in self.moves:
            fields = ", ".join(move.schema.model_fields)
            doc = (move.doc or move.schema.__doc__ or "").strip().splitlines()
            lines.append(f"  {move.type}" + (f" ({fields})" if fields else "") + (f": {doc[0]}" if doc else "")
                         + f" [{move.rule}]")
        return "\n".join(lines)

    @abstractmethod
    def view(self, state: S, player: int | None) -> dict[str, Any]:
        """JSON-ready view of ``state`` for ``player`` (``None``: spectator)."""

    def public_view(self, state: S) -> dict[str, Any] | None:
        """The fields of ``state``'s view that every viewer sees alike, seats and spectators, or ``None`` (the
        default: the game does not split its views). A game that splits them has ``view(state, p)`` equal to
        ``{**public_view(state), **own_view(state, p)}`` for every viewer ``p``, with no key in both: a server then
        writes the public fields, and their JSON, once per state for all its viewers (IM-1 still holds: nothing
        hidden from any viewer may be in them)."""
        return None

    def own_view(self, state: S, player: int | None) -> dict[str, Any]:
        """The fields of ``player``'s view that are not in :meth:`public_view` (all of them by default)."""
        return self.view(state, player)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    # ------------------------------------------------------------------ helpers
    def is_terminal(self, state: S) -> bool:
        return self.outcome(state) is not None

    def seats(self, state: S) -> int:
        """Number of seats in this match (states carry ``num_players``)."""
        return int(getattr(state, "num_players", self.min_players))

    def returns(self, state: S) -> list[float]:
        """Per-seat reward in [-1, 1] for search: +1 for a winner, -1 otherwise,
        0 for everybody in a draw or an unfinished game. Games with graded
        results (semi-victories, scores) override this."""
        n = self.seats(state)
        out = self.outcome(state)
        if out is None or not out.winners:
            return [0.0] * n
        return [1.0 if i in out.winners else -1.0 for i in range(n)]

    def check_turn(self, state: S, player: int) -> None:
        seats = self.to_act(state)
        if player not in seats:
            raise NotYourTurn(player, seats)

    def is_legal(self, state: S, player: int, action: Action) -> bool:
        try:
            self.apply(state, player, action)
        except RuleError:
            return False
        return True

    def timeout_action(self, state: S, player: int) -> Action | None:
        """The action played for ``player`` when its clock runs out (a server
        option). ``None`` lets the server apply its documented default (resign
        when legal, else the first legal action). Games whose spec names timeout
        defaults (no event, 0 energy, flee, stay, ...) override this."""
        return None

    def undoable(self, state: S, player: int, action: Action) -> bool:
        """Whether an undo may take back ``action`` (played by ``player`` in ``state``) as far as the
        game's rules are concerned: ``False`` when playing it rolls dice, draws, shuffles or reveals
        anything to anybody (a launched card, a played card, a flipped tile...). An undo must never
        cross such an action. The default ``True`` leaves the decision to the server's generic
        checks (the RNG unchanged, the seat's view independent of what it cannot see)."""
        return True

    def action_view(self, state: S, player: int, action: Action, viewer: int | None) -> Action | None:
        """What ``viewer`` learns of ``player`` playing ``action`` in ``state``.
        ``None`` hides it entirely. Games with sealed commits override this."""
        return action

    def action_text(self, state: S, player: int, action: Action) -> str:
        """A short human-readable form of an action in the game's notation (logs, CLI)."""
        if self.moves is not None:
            return self.moves.notation(state, player, action)
        return action_key(action)

    def typed_action(self, state: S, player: int, action: Action) -> str:
        """The action as a player types it at the terminal's prompt (what Tab completes): the notation by
        default; a game whose printed notation is not what :meth:`parse_action` reads gives its typed form."""
        return self.action_text(state, player, action)

    def describe_action(self, state: S, player: int, action: Action, lang: str = "en") -> str:
        """The action as a sentence in ``lang`` (``en``, ``fr``, ``nl``, ``ru``), from the move's
        translation key and arguments; the notation when the game declares no phrase."""
        if self.moves is None or not isinstance(action, dict):
            return self.action_text(state, player, action)
        memo = self.moves.sentence_key(state, player, action)
        if memo is not None:
            return remembered((type(self), lang, memo), lambda: self._sentence(state, player, action, lang))
        return self._sentence(state, player, action, lang)

    def _sentence(self, state: S, player: int, action: Action, lang: str) -> str:
        assert self.moves is not None
        key, args = self.moves.phrase(state, player, action)
        return render_cached(_text_packages(type(self)), key, args, lang)

    def parse_action(self, state: S, player: int, text: str) -> Action:
        """Parse a typed action (the game's notation, or JSON)."""
        return parse_json_action(text)

    def render_text(self, state: S, player: int | None) -> str:
        """A plain-text picture of what ``player`` sees (terminal, replays)."""
        return json.dumps(self.view(state, player), indent=1, sort_keys=True)

    def determinize(self, state: S, player: int, rng: Rng) -> S:
        """A full state consistent with what ``player`` sees, hidden parts sampled.
        The default reseeds the state's RNG (future dice and draws are unknown to
        everybody); games with hands or sealed commits also resample those."""
        clone = self.clone(state)
        if isinstance(getattr(clone, "rng", None), Rng):
            clone.rng = Rng(rng.next_u64())  # type: ignore[attr-defined]
        return clone

    def clone(self, state: S) -> S:
        return copy.deepcopy(state)

    def state_to_json(self, state: S) -> dict[str, Any]:
        data: dict[str, Any] = to_jsonable(state)
        return data

    def state_from_json(self, data: dict[str, Any]) -> S:
        state: S = from_jsonable(self.state_type, data)
        return state

    def seed_for(self, seed: int, label: str) -> int:
        """Derive a sub-seed (e.g. the colour draw, the deck shuffle)."""
        return mix_seed(seed, self.id, label)

    def rng_for(self, seed: int, label: str) -> Rng:
        """The one way to derive a generator from a match seed: ``Rng(seed_for(seed, label))``."""
        return Rng(self.seed_for(seed, label))


def parse_json_action(text: str) -> Action:
    """Read an action typed as JSON; malformed text or a non-object is a ``CORE-ACTION`` error."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError("CORE-ACTION", f"cannot read action {text!r}: {exc}") from exc
    if not isinstance(data, dict):
        raise RuleError("CORE-ACTION", "an action is a JSON object")
    return data


def play_actions(game: Game[S], state: S, moves: Iterable[tuple[int, Action]]) -> S:
    """Apply a sequence of ``(player, action)`` pairs."""
    for player, action in moves:
        state = game.apply(state, player, action)
    return state
