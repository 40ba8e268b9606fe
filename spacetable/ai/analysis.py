"""Post-game analysis: every seat's winning chances move by move, and the decisions that cost most.

Generic over the game protocol; a game's own strength enters through its AI players
(:meth:`Game.agents`): the strongest one (the first ``hard`` player, else the default one) proposes the
move it prefers at each decision, and playouts estimate the chances.

**What a seat knew.** Hidden-information games are analysed once per seat (``viewer``). Every estimate for
a viewer is made on worlds sampled with ``game.determinize(state, viewer, rng)``, never on the true state,
and the move the evaluator prefers is asked from the viewer's own legal actions on such a sampled world; the
true state is read only through what the viewer itself may read (its legal actions, ``action_view`` of other
seats' moves). So an analysis for a seat tells it nothing it could not know at the time. Only the viewer's own
decisions are judged (another seat's would need that seat's knowledge).

**Estimates.** The chances of a position are ``(mean return + 1) / 2`` per seat over ``samples`` playouts,
each on a fresh sampled world, played by uniformly random legal moves for at most ``max_steps`` actions (an
unfinished playout counts as the game's ``returns`` of that state: a draw by default). The loss of a decision
is ``Q(preferred) - Q(played)`` for the acting seat, both measured on the same sampled worlds (common random
numbers), so dice rolled by the move itself are averaged, not read from the record.

**What the game lends** (:meth:`Game.analysis_hooks`): its exact values where it knows them (Cosmic Arena's
solved endgame tables) replace the playouts of a sampled world, and a decision whose position and result both
have exact values is judged exactly (a move that keeps the value loses nothing: no suggestion is asked); a fast
playout move (Tremble draws its random actions without listing thousands of sealed plans); its own evaluation of a
position in place of random playouts (Full Metal Planète, whose random playouts never reach the end of a game); its
suggesting player (Worlds & Suns: the WS-10 advisor's best response on exact odds). Playouts step in place on
their own copy of the world when the game can (:class:`~spacetable.ai.mcts.InPlaceGame`), and one suggesting player
serves a whole analysis.

**Chance events.** A move after which the state's random generator moved on (it rolled dice, drew or
shuffled) is marked as a chance event.

Everything is seeded (:func:`~spacetable.core.rng.mix_seed` of the seed, the viewer and the move number), so
an analysis is repeatable whenever the game's suggesting player counts its budget in iterations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from spacetable.core.errors import RuleError, SpacetableError
from spacetable.core.game import Action, Game
from spacetable.core.hooks import AnalysisHooks
from spacetable.core.match import Match
from spacetable.core.moves import agent_actions
from spacetable.core.rng import Rng, mix_seed
from spacetable.core.serial import action_key

from .agents import agent_specs
from .mcts import InPlaceGame

Progress = Callable[[int, int], None]
#: Bumped whenever the analysis would give other figures for the same match and budget (stored analyses made
#: by another version are not handed out).
ENGINE_VERSION = 3


class AnalysisRefused(SpacetableError):
    """The match cannot be analysed (it is still running)."""


@dataclass(frozen=True)
class Budget:
    """What one position may cost: ``samples`` playouts of at most ``max_steps`` actions for the chances, and
    the suggesting player's ``seconds`` (0: its own iteration budget) at each of the viewer's decisions."""

    samples: int = 4
    max_steps: int = 150
    seconds: float = 0.0
    #: Decisions whose loss is at least this (in chances, 0..1) are flagged.
    threshold: float = 0.05
    #: At most this many flagged decisions per seat, largest first.
    flags: int = 10
    #: The suggesting player's name (``""``: the game's strongest, see :func:`suggester`).
    agent: str = ""


@dataclass
class Point:
    """One move of the match, as the viewer may know it."""

    index: int
    seat: int
    move: str
    chance: bool
    before: list[float]
    after: list[float]
    preferred: str | None = None
    loss: float = 0.0


@dataclass
class Analysis:
    """The analysis of a finished match for one viewer (``None``: every seat sees the same, no hidden
    information)."""

    game: str
    viewer: int | None
    seats: int
    points: list[Point] = field(default_factory=list)
    flagged: list[int] = field(default_factory=list)

    def chances(self) -> list[list[float]]:
        """Each seat's chances before the first move, then after each move."""
        if not self.points:
            return []
        return [self.points[0].before] + [p.after for p in self.points]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "viewer": self.viewer, "seats": self.seats,
                "points": [asdict(p) for p in self.points], "flagged": list(self.flagged)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        return cls(game=data["game"], viewer=data["viewer"], seats=data["seats"],
                   points=[Point(**p) for p in data["points"]], flagged=list(data["flagged"]))


def suggester(game: Game[Any], seed: int, seconds: float, name: str = "") -> Any:
    """The player ``name``, by default the one the game names for analysis (:class:`AnalysisHooks`), else its
    strongest (its first ``hard`` one, else its default one)."""
    specs = agent_specs(game)
    hooks = game.analysis_hooks()
    options: dict[str, Any] = {}
    if not name and hooks.suggester:
        name, options = hooks.suggester, dict(hooks.suggester_options)
    spec = next((s for s in specs if s.name == name), None) if name else None
    spec = spec or next((s for s in specs if s.level == "hard"), specs[0])
    return spec.make(seed=seed, seconds=seconds, **options)


def _rng_mark(state: Any) -> Any:
    rng = getattr(state, "rng", None)
    return (rng.state, tuple(rng.forced)) if isinstance(rng, Rng) else None


def _playout(game: Game[Any], hooks: AnalysisHooks, world: Any, rng: Rng, max_steps: int,
             own: bool = False) -> list[float]:
    """The returns of a random playout from ``world`` (never changed; ``own``: the caller hands it over, so it
    may be stepped in place). The game's exact value ends it where it has one."""
    exact = hooks.exact(world) if hooks.exact is not None else None
    if exact is not None:
        return [2.0 * v - 1.0 for v in exact]
    if hooks.evaluate is not None and not game.is_terminal(world):
        return [2.0 * v - 1.0 for v in hooks.evaluate(world)]
    in_place = isinstance(game, InPlaceGame)
    state = world if own or not in_place else game.clone(world)
    for _ in range(max_steps):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        if hooks.playout is not None:
            action = hooks.playout(state, seat, rng)
        else:
            legal = agent_actions(game.legal_actions(state, seat))
            if not legal:
                break
            action = legal[rng.randbelow(len(legal))]
        if in_place:
            game.apply_in_place(state, seat, action)  # type: ignore[attr-defined]
        else:
            state = game.apply(state, seat, action)
    return list(game.returns(state))


def _chances(total: list[float], n: int) -> list[float]:
    return [round((t / n + 1.0) / 2.0, 4) for t in total] if n else [0.5] * len(total)


class _Judge:
    """Estimates from one viewer's knowledge (see the module doc)."""

    def __init__(self, game: Game[Any], viewer: int, seats: int, budget: Budget, seed: int) -> None:
        self.game, self.viewer, self.seats, self.budget, self.seed = game, viewer, seats, budget, seed
        self.hooks = game.analysis_hooks()

    def exact(self, worlds: list[Any]) -> list[float] | None:
        """The exact chances of a position when the game knows them on every sampled world and they agree."""
        if self.hooks.exact is None or not worlds:
            return None
        first = self.hooks.exact(worlds[0])
        if first is None or any(self.hooks.exact(w) != first for w in worlds[1:]):
            return None
        return first

    def worlds(self, state: Any, index: int) -> list[Any]:
        rng = Rng.from_seed(mix_seed(self.seed, "worlds", self.viewer, index))
        return [self.game.determinize(state, self.viewer, rng) for _ in range(self.budget.samples)]

    def value(self, worlds: list[Any], index: int, action: Action | None = None) -> tuple[list[float], int]:
        """Mean returns per seat over the worlds (after ``action`` by the viewer when given), and how many
        worlds counted (a move that a sampled world refuses is not counted there)."""
        total = [0.0] * self.seats
        n = 0
        for k, world in enumerate(worlds):
            rng = Rng.from_seed(mix_seed(self.seed, "playout", self.viewer, index, k))
            state, own = world, False
            if action is not None:
                try:
                    state, own = self.game.apply(world, self.viewer, action), True  # pure: a new state
                except RuleError:
                    continue
            for i, r in enumerate(_playout(self.game, self.hooks, state, rng, self.budget.max_steps, own)):
                total[i] += r
            n += 1
        return total, n


def analyse(match: Match, viewer: int | None = None, budget: Budget | None = None, seed: int = 0,
            progress: Progress | None = None) -> Analysis:
    """The analysis of a finished ``match`` for ``viewer`` (a seat; ``None`` only for games without hidden
    information). Raises :class:`AnalysisRefused` for a match that is not over."""
    game = match.game_obj()
    budget = budget or Budget()
    states = list(match.states())
    final = states[-1]
    if not game.is_terminal(final):
        raise AnalysisRefused("a running match cannot be analysed; analyse it once it is over")
    seats = game.seats(final)
    if viewer is None and game.hidden_information:
        raise AnalysisRefused("this game hides information: analyse it for one seat (what that seat knew)")
    if viewer is not None and not 0 <= viewer < seats:
        raise AnalysisRefused(f"no seat {viewer} in this match")
    out = Analysis(game=game.id, viewer=viewer, seats=seats)
    judged = range(seats) if viewer is None else (viewer,)
    entries = match.log
    # chances from each position, from the viewer's knowledge (a perfect-information game: anybody's)
    series: list[list[float]] = []
    judges = {s: _Judge(game, s, seats, budget, seed) for s in judged}
    eye = judges[viewer if viewer is not None else 0]
    total_steps = len(states)
    cache_worlds: dict[int, list[Any]] = {}
    for i, state in enumerate(states):
        if game.is_terminal(state):
            series.append([round((r + 1.0) / 2.0, 4) for r in game.returns(state)])
        else:
            worlds = eye.worlds(state, i)
            cache_worlds[i] = worlds
            total, n = eye.value(worlds, i)
            series.append(_chances(total, n))
        if progress is not None:
            progress(i + 1, total_steps * 2)
    agent = suggester(game, mix_seed(seed, "suggest", viewer if viewer is not None else -1), budget.seconds,
                      budget.agent)
    for i, entry in enumerate(entries):
        state, after = states[i], states[i + 1]
        chance = _rng_mark(state) != _rng_mark(after)
        seen = entry.action if viewer is None or entry.player == viewer else game.action_view(
            state, entry.player, entry.action, viewer)
        text = "?" if seen is None else game.action_text(state, entry.player, seen) if seen == entry.action \
            else action_key(seen)
        point = Point(index=i, seat=entry.player, move=text, chance=chance, before=series[i], after=series[i + 1])
        if entry.player in judges:
            _judge(game, judges[entry.player], agent, state, entry.player, entry.action, i, point,
                   cache_worlds.get(i))
        out.points.append(point)
        if progress is not None:
            progress(total_steps + i + 1, total_steps * 2)
    bad = sorted((p for p in out.points if p.loss >= budget.threshold), key=lambda p: (-p.loss, p.index))
    out.flagged = sorted(p.index for p in bad[: budget.flags])
    if progress is not None:
        progress(total_steps * 2, total_steps * 2)
    return out


def _judge(game: Game[Any], judge: _Judge, agent: Any, state: Any, seat: int, played: Action, index: int,
           point: Point, worlds: list[Any] | None) -> None:
    """Fill ``point.preferred`` and ``point.loss`` for a decision of the judged seat ``seat``."""
    legal = agent_actions(game.legal_actions(state, seat))  # the seat's own choices: part of its view
    if len(legal) < 2:
        return
    worlds = worlds if worlds is not None else judge.worlds(state, index)
    before = judge.exact(worlds)
    if before is not None:  # a solved position: a move that keeps its value loses nothing
        try:
            after = judge.exact([game.apply(w, seat, played) for w in worlds])
        except RuleError:
            after = None
        if after is not None and after[seat] >= before[seat]:
            return
    rng = Rng.from_seed(mix_seed(judge.seed, "suggest", seat, index))
    world = game.determinize(state, seat, rng)
    try:
        preferred = agent.choose(game, world, seat)
    except (RuleError, ValueError):
        return
    keys = {action_key(a) for a in legal}
    if action_key(preferred) not in keys or action_key(preferred) == action_key(played):
        return
    q_played, n_played = judge.value(worlds, index, played)
    q_best, n_best = judge.value(worlds, index, preferred)
    if not n_played or not n_best:
        return
    gain = _chances(q_best, n_best)[seat] - _chances(q_played, n_played)[seat]
    point.preferred = game.action_text(state, seat, preferred)
    point.loss = round(max(0.0, gain), 4)


def analyse_match(match: Match, budget: Budget | None = None, seed: int = 0,
                  progress: Progress | None = None) -> dict[str, Any]:
    """Every viewer's analysis of a finished match: ``{"shared": ...}`` for a game without hidden information,
    else ``{"seats": [analysis of seat 0, ...]}`` (each seat's from its own knowledge)."""
    game = match.game_obj()
    if not game.hidden_information:
        return {"shared": analyse(match, None, budget, seed, progress).to_json()}
    seats = game.seats(match.replay())
    done: list[dict[str, Any]] = []
    for s in range(seats):
        def step(i: int, n: int, s: int = s) -> None:
            if progress is not None:
                progress(s * n + i, seats * n)
        done.append(analyse(match, s, budget, seed, step).to_json())
    return {"seats": done}


def for_viewer(result: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """What ``seat`` may see of :func:`analyse_match`'s result (``None``: nothing, a spectator of a game
    with hidden information)."""
    if "shared" in result:
        return dict(result["shared"])
    if seat is None or not 0 <= seat < len(result["seats"]):
        return None
    return dict(result["seats"][seat])
