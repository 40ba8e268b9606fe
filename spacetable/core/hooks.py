"""What a game declares for the tools around it: its AI players, its extra commands and its
calculators.

The server, the CLI and the tournament runner find a game's agents, commands and calculators
through :meth:`Game.agents`, :meth:`Game.commands` and :meth:`Game.calculators`, never by importing
``<package>.ai`` or ``<package>.cli`` by naming convention.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AgentSpec:
    """One AI player a game offers.

    ``make(seed=..., **options)`` returns an object with ``choose(game, state, seat) -> action``. Every
    factory takes keywords only, all optional: ``make()``, ``make(seed=s)`` and ``make(seed=s, seconds=t)``
    work (``seconds``: the clock per move of players on the clock; fixed-budget levels ignore it), and
    options a factory does not use are ignored.
    ``level`` is the name shown to players (``easy``, ``medium``, ``hard``) or ``""`` for agents
    that are tools rather than opponents (baselines); ``rating`` and ``seconds_per_move`` are
    the measured figures published in the lobby (``None`` until measured).
    """

    name: str
    make: Callable[..., Any]
    level: str = ""
    description: str = ""
    rating: float | None = None
    seconds_per_move: float | None = None
    #: former names still found in stored matches (a renamed player keeps playing them); never listed
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Command:
    """A sub-command a game adds to ``spacetable`` (``spacetable odds worlds ...``)."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class PromptCommand:
    """A word a game adds to the terminal's play prompt (``landing`` in Full Metal Planète).

    ``run(state, seat)`` returns the text to print for the person at ``seat``; it shows only
    what that seat's view shows."""

    name: str
    help: str
    run: Callable[[Any, int], str]


@dataclass(frozen=True)
class Calculator:
    """A pure computation a game offers to players' tools: the browser asks it through
    ``POST /api/games/<game>/calc/<name>`` (a what-if the client cannot know the answer to, such
    as exact odds). ``run(query) -> answer`` takes and returns JSON-ready data and sees no match:
    it knows only what the query says, so it reveals nothing hidden. A bad query raises
    ``ValueError`` (pydantic's ``ValidationError`` is one); the query's size is bounded by its
    schema, so an answer takes milliseconds."""

    name: str
    run: Callable[[dict[str, Any]], dict[str, Any]]
    help: str = ""


@dataclass(frozen=True)
class AnalysisHooks:
    """What a game lends the post-game analysis (:mod:`spacetable.ai.analysis`) beyond its rules: each part is
    optional, and what a game leaves out the analysis does generically.

    ``suggester``: the name of the player (one of the game's agents) that proposes the move a seat should
    have played, with ``suggester_options`` for its factory (a smaller fixed budget, say); default the game's
    strongest. ``exact(state)``: each seat's chances (0..1) of a position when the game knows them exactly
    (solved endgame tables), else ``None``; asked only of states that a seat's determinisation produced, so it
    reads nothing hidden. ``playout(state, seat, rng)``: a legal action of ``seat`` drawn quickly (without
    listing every legal action), for the playouts that estimate chances; ``None``: uniformly among the legal
    actions. ``evaluate(state)``: each seat's chances as the game's own evaluation of a running position judges
    them, used instead of random playouts (for games whose random playouts end nowhere near the end of a game)."""

    suggester: str = ""
    suggester_options: tuple[tuple[str, Any], ...] = ()
    exact: Callable[[Any], list[float] | None] | None = None
    playout: Callable[[Any, int, Any], dict[str, Any]] | None = None
    evaluate: Callable[[Any], list[float]] | None = None


@dataclass(frozen=True)
class BalanceHooks:
    """What a game lends the designer's workbench for balance runs of one of its content kinds (the server's
    ``/api/workbench/runs``): N seeded simulated games of an edited set beside the bundled set's with the same seeds.

    ``kind``: the content kind's name within the game (``card_sets``); ``bundled``: the name of the bundled set;
    ``players``: the seat counts (min, max, default); ``ais``: the players a run may seat, ``default_ai`` among them.
    ``content_key(document)``: the config key of a content document (the bundled set's own content gives
    ``bundled``; raises ``ValueError`` with the problems when it is not a valid set); ``label(key)``: a set's name.
    ``tasks(players, games, seed, ai, key)``: the run's tasks, one a game, each a picklable tuple whose second item
    is the game's seed; ``play(task)``: the JSON record of one game, with that ``seed`` (a module-level function:
    it runs in worker processes or on Ray, and the same task always gives the same record);
    ``summarize(records, label)``: the run's figures (JSON) from its records in task order."""

    kind: str
    bundled: str
    players: tuple[int, int, int]
    ais: tuple[str, ...]
    default_ai: str
    content_key: Callable[[Any], str]
    label: Callable[[str], str]
    tasks: Callable[[int, int, int, str, str], list[Any]]
    play: Callable[[Any], dict[str, Any]]
    summarize: Callable[[list[dict[str, Any]], str], dict[str, Any]]


@dataclass(frozen=True)
class MapTool:
    """One operation of a game's map editor (``POST /api/workbench/<game>/map/<name>``).

    ``body``: the pydantic model of its request (unknown fields refused, every size bounded: the server validates
    the request against it, 422 otherwise); ``run(body) -> answer``: JSON-ready data from the validated body, run on
    a worker thread; a map it cannot use raises ``ValueError`` with the reason (422)."""

    name: str
    body: type[Any]
    run: Callable[[Any], dict[str, Any]]
    help: str = ""


@dataclass(frozen=True)
class MapHooks:
    """What a game lends the designer's map editor: its operations (start a map, check one, lay its ore, read and
    write the game's map file...), each a :class:`MapTool`."""

    tools: tuple[MapTool, ...] = ()

    def tool(self, name: str) -> MapTool | None:
        return next((t for t in self.tools if t.name == name), None)
