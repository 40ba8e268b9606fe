"""spacetable games as OpenSpiel Python games (see ``docs/research.md``).

Each game is registered twice:

* ``spacetable_<id>`` with the game's own dynamics: ``SEQUENTIAL`` for arena, ``SIMULTANEOUS``
  for the games with sealed decisions (worlds, tremble, fullmetal, galaxies) – the seats of a sealed
  decision choose their tokens at the same nodes; the other seats then have the single action
  ``WAIT`` (0);
* ``spacetable_<id>_turns``: always ``SEQUENTIAL``; the seats of a sealed decision choose one
  after the other, each without seeing the others' choices (imperfect information). Algorithms
  written for sequential games (IS-MCTS, CFR, sequence-form LP) use this one.

A player action is one token of the game's encoder (:mod:`spacetable.rl.encoders`): composite
decisions are short series of nodes of the same player. Chance is explicit (:mod:`.chance`).

Parameters: ``config`` (JSON object of game options, e.g. ``'{"players": 3}'``), ``seed`` (for
what is not a chance node: continuous map noise, and the whole setup when ``setup_chance`` is
``"seeded"``), ``setup_chance`` (``"explicit"``: the set-up's draws and shuffles are chance nodes
at the start; ``"seeded"``: the set-up is the engine's deal for ``seed``), ``opening`` (JSON list
of ``[seat, action]`` pairs played before the root, to study a position), ``max_actions``
(engine actions before the game is cut, returns 0; 0 = never).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyspiel

from spacetable.core.rng import Rng
from spacetable.core.serial import action_key
from spacetable.games import get_game
from spacetable.rl.decision import WAIT, Progress
from spacetable.rl.encoders import encoder_class

from .chance import ChancePending, attempt
from .observer import Observer

Action = dict[str, Any]


@dataclass(frozen=True)
class Spec:
    """What OpenSpiel needs to know about one game beyond the engine."""

    game_id: str
    sealed: bool  # has simultaneous sealed decisions
    zero_sum: bool  # with the default configuration (registration)
    max_chance: int  # largest number of outcomes of one chance node
    max_length: int  # upper bound on player actions (tokens) used for GameInfo
    #: configuration -> whether anything is hidden (default: the game's ``hidden_information``)
    hidden: Callable[[dict[str, Any]], bool] | None = None
    #: configuration -> whether the set-up draws anything
    setup_draws: Callable[[dict[str, Any]], bool] = lambda cfg: True
    #: configuration -> whether returns always sum to 0 (default: ``zero_sum``)
    zero_sum_for: Callable[[dict[str, Any]], bool] | None = None

    def is_zero_sum(self, cfg: dict[str, Any]) -> bool:
        return self.zero_sum_for(cfg) if self.zero_sum_for else self.zero_sum


def _arena_hidden(cfg: dict[str, Any]) -> bool:
    return cfg["setup"] == "free" and cfg["placement"] == "simultaneous"  # AR-2.7 sealed layouts


SPECS: dict[str, Spec] = {
    "arena": Spec("arena", sealed=False, zero_sum=True, max_chance=2, max_length=5000, hidden=_arena_hidden,
                  setup_draws=lambda cfg: cfg["red_seat"] == "random" and not cfg["position"]),
    "worlds": Spec("worlds", sealed=True, zero_sum=True, max_chance=16, max_length=20000),
    "tremble": Spec("tremble", sealed=True, zero_sum=False, max_chance=128, max_length=100000),
    "fullmetal": Spec("fullmetal", sealed=True, zero_sum=False, max_chance=1024, max_length=1000000),
    # BG-5.1, BG-5.3 tile and deck shuffles (decks of at most 40 cards), BG-1.5 d10/d8 dice; 2 sides: +1/-1
    # per seat, so zero-sum with equal teams (2 or 4 seats), not with Mission 5's 1 vs 2 seats.
    "galaxies": Spec("galaxies", sealed=True, zero_sum=True, max_chance=64, max_length=200000,
                     zero_sum_for=lambda cfg: int(cfg.get("players", 2)) % 2 == 0),
}

PARAMS: dict[str, Any] = {"config": "{}", "seed": 0, "setup_chance": "explicit", "opening": "[]", "max_actions": 0}


def _int_choice_word(opt: Any) -> tuple[bool, Any]:
    """Whether a JSON option takes integers plus one word or ``null`` (``red_seat``: ``random``, 0, 1), and that
    word: such an option is an ``int`` parameter where -1 stands for the word."""
    if opt.kind != "json" or not opt.choices:
        return False, None
    words = [c for c in opt.choices if not isinstance(c, int) or isinstance(c, bool)]
    return len(words) == 1 and len(opt.choices) > 1, (words[0] if words else None)


def option_params(game_id: str) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters with their defaults: ``players`` (OpenSpiel's usual
    parameter) and every option of the game. ``int``, ``bool`` and ``float`` options keep their type; a
    JSON option with integer choices and one word or ``null`` (``red_seat``, ``turret_ammo``, the
    clocks) is an ``int`` where -1 stands for that word; every other option is a string (for the other
    JSON options a JSON text, ``""`` meaning the default)."""
    g = get_game(game_id)
    out: dict[str, Any] = {"players": g.min_players}
    for opt in g.options():
        ints, word = _int_choice_word(opt)
        if ints:
            out[opt.name] = -1 if opt.default == word else int(opt.default)
        elif opt.kind == "int":
            out[opt.name] = int(opt.default)
        elif opt.kind == "bool":
            out[opt.name] = bool(opt.default)
        elif opt.kind == "float":
            out[opt.name] = float(opt.default)
        else:
            out[opt.name] = opt.default if isinstance(opt.default, str) else ""
    return out


def config_from_params(game_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """The game configuration of OpenSpiel parameters: the ``config`` JSON object, then every option
    parameter that is not at its default (``players=3``, ``board=5x5``). A parameter and ``config``
    that set one option to two values are refused."""
    config = json.loads(params.get("config") or "{}")
    if not isinstance(config, dict):
        raise ValueError("the config parameter is a JSON object")
    opts = {opt.name: opt for opt in get_game(game_id).options()}
    for name, default in option_params(game_id).items():
        value = params.get(name, default)
        if value == default and type(value) is type(default):
            continue  # left at its default: config (or the game's own default) decides
        opt = opts.get(name)
        if opt is not None and opt.kind == "json":
            ints, word = _int_choice_word(opt)
            if ints:
                value = word if value == -1 else value
            elif isinstance(value, str):
                value = json.loads(value)
        if name in config and config[name] != value:
            raise ValueError(f"option {name} is {value!r} as a parameter but {config[name]!r} in config")
        config[name] = value
    return config


class _Shared:
    """A value shared by every clone of a state (engine states are immutable by the protocol)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Trace:
    """Persistent list of what happened (engine states and tokens), shared between clones."""

    __slots__ = ("cache", "entry", "prev")

    def __init__(self, prev: _Trace | None, entry: tuple[Any, ...]) -> None:
        self.prev = prev
        self.entry = entry
        self.cache: dict[int, str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Trace:
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # iterative, so long games pickle without deep recursion
        entries = []
        node: _Trace | None = self
        while node is not None:
            entries.append(node.entry)
            node = node.prev
        return (_trace_from, (entries[::-1],))


def _trace_from(entries: list[tuple[Any, ...]]) -> _Trace | None:
    node = None
    for entry in entries:
        node = _Trace(node, entry)
    return node


def short_name(game_id: str, turns: bool) -> str:
    return f"spacetable_{game_id}" + ("_turns" if turns else "")


def game_type(game_id: str, turns: bool, stochastic: bool = True, imperfect: bool | None = None,
              zero_sum: bool | None = None) -> pyspiel.GameType:
    """The OpenSpiel type; registered with the default configuration, each game instance states its own."""
    spec = SPECS[game_id]
    g = get_game(game_id)
    simultaneous = spec.sealed and not turns
    if imperfect is None:
        default = g.normalize_config({})
        imperfect = spec.hidden(default) if spec.hidden else g.hidden_information
    hidden = imperfect
    GT = pyspiel.GameType
    return GT(
        short_name=short_name(game_id, turns),
        long_name=f"spacetable {g.name}" + (" (sealed decisions in turns)" if turns else ""),
        dynamics=GT.Dynamics.SIMULTANEOUS if simultaneous else GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else GT.ChanceMode.DETERMINISTIC,
        information=GT.Information.IMPERFECT_INFORMATION if hidden else GT.Information.PERFECT_INFORMATION,
        utility=GT.Utility.ZERO_SUM if (spec.zero_sum if zero_sum is None else zero_sum) else GT.Utility.GENERAL_SUM,
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=g.max_players,
        min_num_players=g.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**PARAMS, **option_params(game_id)},
    )


class SpacetableGame(pyspiel.Game):  # type: ignore[misc]
    """One spacetable game under OpenSpiel (see the module docstring)."""

    def __init__(self, game_id: str, turns: bool, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMS, **(params or {})}
        self.game_id = game_id
        self.turns = turns
        self.spec = SPECS[game_id]
        self.engine = get_game(game_id)
        self.config = self.engine.normalize_config(config_from_params(game_id, params))
        self.seed = int(params["seed"])
        if params["setup_chance"] not in ("explicit", "seeded"):
            raise ValueError("setup_chance is 'explicit' or 'seeded'")
        self.setup_chance = params["setup_chance"]
        self.opening = [(int(seat), dict(action)) for seat, action in json.loads(params["opening"])]
        self.max_actions = int(params["max_actions"])
        self.encoder = encoder_class(game_id)(self.engine, self.config)
        self.players = self.engine.num_players(self.config)
        self.simultaneous = self.spec.sealed and not turns
        stochastic = self.engine.stochastic or (self.setup_chance == "explicit" and self.spec.setup_draws(self.config))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.n_actions,
            max_chance_outcomes=self.spec.max_chance,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.spec.is_zero_sum(self.config) else None,
            max_game_length=self.spec.max_length,
        )
        hidden = self.spec.hidden(self.config) if self.spec.hidden else self.engine.hidden_information
        super().__init__(game_type(game_id, turns, stochastic, hidden, self.spec.is_zero_sum(self.config)), info, params)
        self._root: Any = None

    def new_initial_state(self) -> SpacetableState:
        return SpacetableState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, recall)

    # ---------------------------------------------------------------- helpers
    def root(self) -> Any:
        """The engine state of the seeded set-up after the opening (computed once per game)."""
        if self._root is None:
            self._root = self.after_setup(self.engine.initial_state(self.config, self.seed))
        return self._root

    def after_setup(self, state: Any) -> Any:
        """``state`` after the ``opening`` actions."""
        for seat, action in self.opening:
            state = self.engine.apply(state, seat, action)
        return state


class SpacetableState(pyspiel.State):  # type: ignore[misc]
    """A node: the engine state, the token series in progress and pending chance (see the module docstring).

    ``__init__`` is cheap (OpenSpiel clones a state by making a new initial one and deep-copying its
    attributes); the set-up runs on first use."""

    def __init__(self, game: SpacetableGame) -> None:
        super().__init__(game)
        self._engine: _Shared | None = None  # the engine state once set up
        self._setup: tuple[int, ...] | None = None  # chance outcomes of the set-up so far (explicit set-up)
        self._setup_n = 0
        self._progress: dict[int, tuple[_Shared, tuple[int, ...]]] = {}
        self._queue: tuple[tuple[int, _Shared], ...] = ()  # completed actions waiting to be applied
        self._script: tuple[int, ...] = ()  # chance outcomes of the queued head so far
        self._pending_n = 0
        self._actions = 0
        self._trace: _Trace | None = None
        self._started = False

    # ------------------------------------------------------------- internals
    @property
    def game_obj(self) -> SpacetableGame:
        return self.get_game()  # type: ignore[no-any-return]

    def _start(self) -> None:
        if self._started:
            return
        self._started = True
        g = self.game_obj
        if g.setup_chance == "seeded":
            self._set_engine(g.root())
        else:
            self._setup = ()
            self._advance_setup()

    def _advance_setup(self) -> None:
        g = self.game_obj
        assert self._setup is not None
        result = attempt(lambda: g.engine.initial_state(g.config, g.seed), self._setup)
        if isinstance(result, ChancePending):
            self._setup_n = self._chance_size(result.n)
            return
        self._setup = None
        self._setup_n = 0
        self._set_engine(g.after_setup(result))

    def _chance_size(self, n: int) -> int:
        limit = self.game_obj.spec.max_chance
        if n > limit:
            raise RuntimeError(f"a chance node with {n} outcomes exceeds max_chance_outcomes {limit}")
        return n

    def _set_engine(self, state: Any) -> None:
        self._engine = _Shared(state)
        self._trace = _Trace(self._trace, ("v", self._engine))

    @property
    def engine_state(self) -> Any:
        """The engine state (``None`` while set-up chance outcomes are pending)."""
        self._start()
        return None if self._engine is None else self._engine.value

    def _deciding(self) -> tuple[int, ...]:
        st = self.engine_state
        if st is None or self._queue or self._over():
            return ()
        return tuple(self.game_obj.engine.to_act(st))

    def _over(self) -> bool:
        st = self.engine_state
        if st is None:
            return False
        g = self.game_obj
        return g.engine.outcome(st) is not None or (g.max_actions > 0 and self._actions >= g.max_actions)

    def _prog(self, seat: int) -> Progress:
        entry = self._progress.get(seat)
        if entry is None:
            dec = self.game_obj.encoder.decision(self.engine_state, seat)
            if not len(dec):
                raise RuntimeError(f"seat {seat} must act but has no encodable legal action")
            entry = self._progress[seat] = (_Shared(dec), ())
        return Progress(entry[0].value, list(entry[1]))

    def _push(self, seat: int, token: int) -> None:
        prog = self._prog(seat)
        if not prog.allows(token):
            raise pyspiel.SpielError(f"token {token} is not legal for player {seat}")
        action = prog.push(token)
        self._trace = _Trace(self._trace, ("t", seat, token))
        if action is None:
            self._progress[seat] = (self._progress[seat][0], tuple(prog.prefix))
            return
        del self._progress[seat]
        self._queue = (*self._queue, (seat, _Shared(action)))

    def _drain(self) -> None:
        """Apply the queued actions in order; stop at a chance node."""
        g = self.game_obj
        while self._queue:
            seat, action = self._queue[0]
            state = self.engine_state
            result = attempt(lambda s=state, p=seat, a=action.value: g.engine.apply(s, p, a), self._script)
            if isinstance(result, ChancePending):
                self._pending_n = self._chance_size(result.n)
                return
            self._queue = self._queue[1:]
            self._script = ()
            self._pending_n = 0
            self._actions += 1
            self._set_engine(result)
            still = set(g.engine.to_act(result))
            for other in [s for s in self._progress if s not in still]:
                del self._progress[other]

    # ------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        self._start()
        if self._setup is not None or self._queue:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        seats = self._deciding()
        if self.game_obj.simultaneous and len(seats) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return seats[0]

    def _legal_actions(self, player: int) -> list[int]:
        seats = self._deciding()
        if player not in seats:
            return [WAIT] if self.game_obj.simultaneous and seats else []
        return self._prog(player).choices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        self._start()
        n = self._setup_n if self._setup is not None else self._pending_n
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        if self._setup is not None:
            self._setup = (*self._setup, int(action))
            self._trace = _Trace(self._trace, ("c",))
            self._advance_setup()
            return
        if self._queue:
            self._script = (*self._script, int(action))
            self._drain()
            return
        seat = self.current_player()
        self._push(seat, int(action))
        self._drain()

    def _apply_actions(self, actions: list[int]) -> None:
        for seat in self._deciding():
            self._push(seat, int(actions[seat]))
        self._drain()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self.game_obj.encoder.token_name(int(action))

    def is_terminal(self) -> bool:
        self._start()
        return self._setup is None and not self._queue and self._over()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game_obj.players
        g = self.game_obj
        if g.engine.outcome(self.engine_state) is None:
            return [0.0] * g.players  # cut by max_actions
        return [float(x) for x in g.engine.returns(self.engine_state)]

    def __str__(self) -> str:
        st = self.engine_state
        if st is None:
            return f"set-up: {len(self._setup or ())} chance outcomes chosen"
        return str(self.game_obj.engine.render_text(st, None))

    # ------------------------------------------------------------ extras
    def deciding_seats(self) -> tuple[int, ...]:
        """Seats choosing tokens now (none at chance and terminal nodes)."""
        return self._deciding()

    def own_tokens(self, player: int) -> list[int]:
        """Every token ``player`` has chosen, oldest first."""
        out = []
        node = self._trace
        while node is not None:
            if node.entry[0] == "t" and node.entry[1] == player:
                out.append(node.entry[2])
            node = node.prev
        return out[::-1]

    def prefix(self, seat: int) -> tuple[int, ...]:
        """The tokens ``seat`` has chosen in its current series."""
        entry = self._progress.get(seat)
        return entry[1] if entry is not None else ()

    def tokens_for(self, seat: int, action: Action) -> tuple[int, ...]:
        """The token series of one of ``seat``'s legal engine actions now (to play it through OpenSpiel)."""
        dec = self._prog(seat).decision
        key = action_key(action)
        for a, seq in zip(dec.actions, dec.sequences, strict=True):
            if action_key(a) == key:
                return seq
        raise KeyError(f"{action!r} is not an encoded legal action of seat {seat}")

    def info_string(self, player: int) -> str:
        """Perfect recall for ``player``: its views (digested) after every engine step and its own tokens."""
        g = self.game_obj
        parts: list[str] = []
        node = self._trace
        last = None
        while node is not None:
            kind = node.entry[0]
            if kind == "v":
                digest = node.cache.get(player)
                if digest is None:
                    view = g.engine.view(node.entry[1].value, player)
                    digest = node.cache[player] = hashlib.blake2b(
                        json.dumps(view, sort_keys=True, default=str).encode(), digest_size=10).hexdigest()
                if digest != last:
                    parts.append(digest)
                    last = digest
            elif kind == "t" and node.entry[1] == player:
                parts.append(f"t{node.entry[2]}")
                last = None
            node = node.prev
        parts.reverse()
        return f"p{player} " + " ".join(parts)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpacetableState:
        """OpenSpiel's ``ResampleFromInfostate`` (what the stock ``ISMCTSBot`` calls without a resampler): a
        state ``player_id`` cannot tell from this one, drawn by :meth:`resample` with a generator seeded
        from ``probability_sampler`` (a callable returning floats in [0, 1), e.g.
        ``pyspiel.UniformProbabilitySampler``)."""
        seed = int(float(probability_sampler()) * (1 << 53))
        return self.resample(int(player_id), Rng.from_seed(seed))

    def resample(self, player: int, rng: Rng) -> SpacetableState:
        """A state consistent with ``player``'s information (``determinize``), for IS-MCTS."""
        new = self.clone()
        st = self.engine_state
        if st is not None:
            new._engine = _Shared(self.game_obj.engine.determinize(st, player, rng))
            new._progress = {s: p for s, p in self._progress.items() if s == player}
        return new  # type: ignore[no-any-return]


def game_class(game_id: str, turns: bool) -> type[SpacetableGame]:
    """A subclass per registered name: OpenSpiel keeps the class it registers until the process ends
    (a registered closure instead crashes the interpreter's shutdown)."""

    def __init__(self: SpacetableGame, params: dict[str, Any] | None = None) -> None:
        SpacetableGame.__init__(self, game_id, turns, params)

    name = "".join(p.title() for p in short_name(game_id, turns).split("_"))
    return type(name, (SpacetableGame,), {"__init__": __init__, "__module__": __name__})


def register(game_id: str) -> list[str]:
    """Register ``spacetable_<id>`` and ``spacetable_<id>_turns`` (once per process)."""
    names = []
    registered = set(pyspiel.registered_names())
    for turns in (False, True):
        name = short_name(game_id, turns)
        if name not in registered:
            pyspiel.register_game(game_type(game_id, turns), game_class(game_id, turns))
        names.append(name)
    return names




__all__ = ["SPECS", "SpacetableGame", "SpacetableState", "register"]
