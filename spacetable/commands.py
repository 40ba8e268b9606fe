"""Building blocks for the commands a game contributes (:meth:`Game.commands`).

:func:`check_command` turns a game's ``check_file(name, data) -> failures`` into its ``check``
command: scenario step files given by path, by bundled name, or all the bundled ones (the
``spacetable check`` command hands each game its files). :func:`agent_names` reads a comma
list of AI players for simulations. :func:`seconds` and :func:`count` are argparse types that refuse
negative and absurd numbers with a usage error (never a traceback, never a silent clamp).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from spacetable.ai.agents import agent_specs, find_agent
from spacetable.core.errors import ConfigError
from spacetable.core.game import Game
from spacetable.core.hooks import Command

CheckFile = Callable[[str, dict[str, Any]], int]


def bundled_files(folder: Traversable) -> list[Traversable]:
    """The ``*.json`` scenario files of a package folder, by name."""
    if not folder.is_dir():
        return []
    return sorted((f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)


def check_command(game_id: str, check_file: CheckFile, folder: Traversable) -> Command:
    """The game's ``check`` command. Its ``run`` returns the number of files that failed."""

    def add_arguments(p: argparse.ArgumentParser) -> None:
        names = ", ".join(f.name[:-5] for f in bundled_files(folder)) or "none"
        p.add_argument("files", nargs="*", metavar="FILE|NAME",
                       help=f"scenario files, or names of bundled ones ({names}); default: every bundled one")

    def run(ns: argparse.Namespace) -> int:
        failed = 0
        for name, text in _sources(game_id, folder, list(ns.files)):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{name}: not JSON ({exc})") from exc
            if not isinstance(data, dict) or data.get("game") != game_id:
                raise ConfigError(f"{name}: not a {game_id} scenario file (its 'game' field must be {game_id!r})")
            failed += 1 if check_file(name, data) else 0
        return failed

    return Command("check", f"run {game_id} scenario step files, pass/fail per step", add_arguments, run)


def _sources(game_id: str, folder: Traversable, files: list[str]) -> list[tuple[str, str]]:
    bundled = {f.name[:-5]: f for f in bundled_files(folder)}
    if not files:
        return [(f"{game_id}/{name}", f.read_text(encoding="utf-8")) for name, f in bundled.items()]
    out = []
    for item in files:
        path = Path(item)
        if path.is_file():
            out.append((item, path.read_text(encoding="utf-8")))
        elif item.removesuffix(".json") in bundled:
            name = item.removesuffix(".json")
            out.append((f"{game_id}/{name}", bundled[name].read_text(encoding="utf-8")))
        else:
            raise ConfigError(f"no file {item!r} and no bundled {game_id} scenario of that name "
                              f"(bundled: {', '.join(bundled) or 'none'})")
    return out


def agent_list(game: Game[Any]) -> str:
    """The AI players a command's help names, from the registered ones (never a hand-written list)."""
    return ", ".join(spec.name for spec in agent_specs(game))


def agent_names(game: Game[Any], text: str) -> list[str]:
    """A comma list of AI players of ``game``; an unknown name is a :class:`ConfigError` naming the choices."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise ConfigError("name at least one AI player")
    return [find_agent(game, n).name for n in names]


#: The longest AI thinking time per move a command accepts (an hour).
MAX_SECONDS = 3600.0


def seconds(text: str) -> float:
    """An argparse type: a thinking time in seconds, more than 0 and at most :data:`MAX_SECONDS`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected more than 0 and at most {MAX_SECONDS:g} seconds, got {text}")
    return value


def count(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no upper bound when ``None``)."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise argparse.ArgumentTypeError(f"expected a whole number {bounds}, got {text}")
        return value

    convert.__name__ = "number"  # argparse names the type in its messages
    return convert
