"""One terminal play loop for every game: ``spacetable play GAME``.

The loop shows each person the view of their own seat (``Game.render_text``), lists the
legal actions numbered from 1 and reads one line at a time: a number from the list, an
action in the game's notation (``Game.parse_action``) or as JSON, or one of the commands
below. AI seats play the game's agents (``Game.agents()`` plus the generic ones), each
from a copy of the state determinised for its seat. Piped input works (one line per
action or command; the end of input stops the loop).

With several people at one keyboard (hot seat) in a game that hides information, the
screen is cleared and the next seat is named before its private view is shown.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spacetable.ai.agents import agent_specs, choose_for_seat, find_agent
from spacetable.ai.ladder import describe
from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.game import Action, Game, Option
from spacetable.core.match import LogEntry, Match
from spacetable.core.rng import mix_seed
from spacetable.core.undo import UndoRefused, undo_point

#: Legal actions listed after each view; longer lists are listed by ``legal`` only.
LIST_LIMIT = 40
#: Clears the screen and the scrollback (hot seat: the previous seat's private view).
CLEAR = "\033[2J\033[3J\033[H"

COMMANDS = """Commands at the prompt:
  NUMBER       play the action with that number in the list (numbered from 1)
  ACTION       an action in the game's notation (below) or as JSON, e.g. {"type": "resign"}
  legal        list every legal action, numbered
  view         show your view of the game again
  auto         let the default AI choose your action this time
  hint         the move the strongest AI would play (casual games against the computer only; counted)
  undo         take back your last action (and the AI replies after it) when no dice were
               rolled, no card drawn and nothing hidden revealed since
  save FILE    save the match; `spacetable replay FILE` shows it, `spacetable play GAME --load FILE` resumes it
  help         this help
  quit         leave (with --save the match is saved first)"""

HUMAN = "human"


@dataclass
class Terminal:
    """A match played in the terminal: ``seats[i]`` is ``"human"`` or the name of an AI player."""

    game: Game[Any]
    match: Match
    seats: list[str]
    seconds: float = 1.0
    save_path: str | None = None
    agents: dict[int, Any] = field(default_factory=dict)
    helper: Any = None
    #: loop state: the (log length, seat) last shown, the log length whose result was shown, the listed actions
    shown: tuple[int, int] | None = None
    finished: int | None = None
    legal: list[Action] = field(default_factory=list)

    def __post_init__(self) -> None:
        for seat, name in enumerate(self.seats):
            if name != HUMAN:
                self.agents[seat] = find_agent(self.game, name).make(seed=mix_seed(self.match.seed, "ai", seat),
                                                                      seconds=self.seconds)
        self.humans = [s for s, name in enumerate(self.seats) if name == HUMAN]
        #: several people share the screen and the game hides things: clear it between them
        self.private = len(self.humans) > 1 and self.game.hidden_information
        self.match.meta["seats"] = list(self.seats)

    # ------------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def label(self, seat: int) -> str:
        who = "you" if len(self.humans) == 1 and seat in self.humans else self.seats[seat]
        return f"seat {seat} ({who})"

    def viewer(self) -> int | None:
        """Whose view the shared screen shows outside a seat's turn: the one person, else nobody's."""
        return self.humans[0] if len(self.humans) == 1 else None

    def action_text(self, state: Any, seat: int, action: Action, viewer: int | None) -> str:
        shown = self.game.action_view(state, seat, action, viewer)
        if shown is None:
            return "(hidden)"
        if shown != action:
            return f"{shown.get('type', 'action')} (sealed)"
        return self.game.action_text(state, seat, action)

    def show(self, state: Any, seat: int) -> list[Action]:
        self.say(self.game.render_text(state, seat))
        legal = self.game.legal_actions(state, seat)
        if len(legal) <= LIST_LIMIT:
            for i, action in enumerate(legal, 1):
                self.say(f"  {i:3}. {self.game.action_text(state, seat, action)}")
        else:
            self.say(f"  {len(legal)} legal actions: 'legal' lists them numbered; 'help' explains the notation")
        return legal

    def hand_over(self, state: Any, seat: int) -> None:
        """Hot seat: hide the previous seat's private view and name the seat whose view comes next."""
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        if interactive:
            print(CLEAR, end="")
        what = "a sealed decision, made in secret" if self.sealed(state, seat) else "your turn"
        cleared = "the screen was cleared; " if interactive else ""
        self.say(f"==== {self.label(seat)}: {what} ({cleared}everybody else looks away) ====")
        if interactive:
            input(f"press Enter when only seat {seat} is looking... ")

    def sealed(self, state: Any, seat: int) -> bool:
        """Whether ``seat``'s decision is hidden from the others (a sealed commit)."""
        legal = self.game.legal_actions(state, seat)
        other = next((h for h in self.humans if h != seat), None)
        return bool(legal) and self.game.action_view(state, seat, legal[0], other) != legal[0]

    def result(self, state: Any) -> None:
        out = self.game.outcome(state)
        assert out is not None
        self.say(self.game.render_text(state, self.viewer()))
        scores = ", ".join(f"seat {i} {_number(x)}" for i, x in enumerate(out.scores))
        winners = ", ".join(self.label(w) for w in out.winners) or "nobody (a draw)"
        self.say(f"Game over ({out.kind}): winner {winners}; scores {scores}")
        if len(self.humans) == 1:
            me = self.humans[0]
            self.say("You win." if me in out.winners else ("Draw." if not out.winners else "You lose."))
        if self.humans:
            self.say("The game is over: 'undo' takes back your last action, 'save FILE' saves, 'quit' leaves.")

    # ------------------------------------------------------------------- state
    def replay(self) -> Any:
        state = self.game.initial_state(self.match.config, self.match.seed)
        for entry in self.match.log:
            state = self.game.apply(state, entry.player, entry.action)
        return state

    def play(self, state: Any, seat: int, action: Action) -> Any:
        new = self.game.apply(state, seat, action)
        self.match.log.append(LogEntry(seat, action))
        self.autosave()
        return new

    def autosave(self) -> None:
        if self.save_path:
            self.match.save(self.save_path)

    def ai_move(self, state: Any, seat: int) -> Any:
        seed = mix_seed(self.match.seed, "terminal-ai", seat, len(self.match.log))
        action = choose_for_seat(self.game, state, seat, self.agents[seat], seed)
        who = f"AI ({self.seats[seat]})" if len(self.seats) == 2 else f"seat {seat} AI ({self.seats[seat]})"
        self.say(f"{who} plays: {self.action_text(state, seat, action, self.viewer())}")
        return self.play(state, seat, action)

    # -------------------------------------------------------------------- loop
    def run(self) -> int:
        """Play until the people quit or the input ends (with no people: until the game ends)."""
        people = f"people at seats {', '.join(str(s) for s in self.humans)}" if self.humans else "no people"
        ais = ", ".join(f"seat {s} {n}" for s, n in enumerate(self.seats) if n != HUMAN)
        self.say(f"{self.game.name} (seed {self.match.seed}) — {people}" + (f"; AI: {ais}" if ais else "")
                 + ". Type 'help' for commands.")
        state = self.replay()
        focus = self.humans[0] if self.humans else None
        handed: int | None = None  # the seat the shared screen was last handed to (hot seat)
        while True:
            over = self.game.outcome(state) is not None
            if over:
                if self.finished != len(self.match.log):
                    self.result(state)
                    self.finished = len(self.match.log)
                    self.autosave()
                if focus is None:
                    return 0
            else:
                seats = self.game.to_act(state)
                ai = next((s for s in seats if s in self.agents), None)
                if ai is not None:
                    state = self.ai_move(state, ai)
                    continue
                focus = seats[0]
                if focus != handed and self.private:
                    self.hand_over(state, focus)
                handed = focus
                if self.shown != (len(self.match.log), focus):
                    self.legal = self.show(state, focus)
                    self.shown = (len(self.match.log), focus)
            assert focus is not None
            line = self.read(f"{self.label(focus)}> " if len(self.humans) > 1 else "your action> ")
            if line is None:
                self.say("" if over else "input ended")
                break
            if line.lower() in ("quit", "exit", "q"):
                break
            if line:
                state = self.command(state, focus, line, over)
        if self.game.outcome(state) is None:
            resume = (f"; saved to {self.save_path}, continue with --load {self.save_path} "
                      f"(spacetable play {self.game.id} --load {self.save_path})" if self.save_path else "")
            self.say(f"Game not finished{resume}.")
        self.autosave()
        return 0

    def command(self, state: Any, seat: int, line: str, over: bool) -> Any:
        """One line typed by ``seat``: a prompt command, or an action to play. Returns the new state."""
        game = self.game
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("help", "h", "?"):
            self.say(COMMANDS + "\n\n" + game.notation_help())
        elif word in ("legal", "moves", "list"):
            self.legal = [] if over else game.legal_actions(state, seat)
            self.say(f"{len(self.legal)} legal actions:")
            for i, action in enumerate(self.legal, 1):
                self.say(f"  {i:3}. {game.action_text(state, seat, action)}")
        elif word in ("view", "board"):
            self.shown = None
            if over:
                self.say(game.render_text(state, self.viewer()))
        elif word == "save":
            target = rest.strip() or self.save_path
            if not target:
                self.say("usage: save FILE")
            else:
                self.match.save(target)
                self.say(f"saved to {target}")
        elif word == "hint":
            if over:
                self.say("the game is over; try undo, save FILE or quit")
            elif len(self.humans) > 1:
                self.say("no hint: hints are given only in casual games against the computer")
            else:
                action = choose_for_seat(game, state, seat, self.auto_player(),
                                         mix_seed(self.match.seed, "hint", len(self.match.log)))
                hints = self.match.meta.setdefault("hints", {})
                hints[str(seat)] = int(hints.get(str(seat), 0)) + 1
                self.say(f"hint: {game.action_text(state, seat, action)} (hints used: {hints[str(seat)]})")
        elif word == "undo":
            state = self.undo(state, seat)
            self.shown = self.finished = None
        elif over:
            self.say("the game is over; try undo, save FILE or quit")
        else:
            try:
                if word == "auto":
                    action = choose_for_seat(game, state, seat, self.auto_player(),
                                             mix_seed(self.match.seed, "auto", len(self.match.log)))
                elif line.isdigit():
                    if not 1 <= int(line) <= len(self.legal):
                        raise RuleError("CORE-ACTION", f"choose a number from 1 to {len(self.legal)}")
                    action = self.legal[int(line) - 1]
                else:
                    action = game.parse_action(state, seat, line)
                text = game.action_text(state, seat, action)
                state = self.play(state, seat, action)
                self.say(f"played: {text}")
            except RuleError as exc:
                self.say(f"illegal: {exc}")
        return state

    def auto_player(self) -> Any:
        if self.helper is None:
            spec = agent_specs(self.game)[0]
            self.helper = spec.make(seed=mix_seed(self.match.seed, "auto"), seconds=self.seconds)
        return self.helper

    def undo(self, state: Any, seat: int) -> Any:
        log = [(e.player, e.action) for e in self.match.log]
        initial = self.game.initial_state(self.match.config, self.match.seed)
        try:
            point = undo_point(self.game, initial, log, seat, along=set(self.agents), seed=self.match.seed)
        except UndoRefused as exc:
            self.say(f"cannot undo: {exc}")
            return state
        taken = len(log) - point
        del self.match.log[point:]
        self.autosave()
        self.say(f"taken back ({taken} action{'s' if taken != 1 else ''})")
        return self.replay()

    def read(self, prompt: str) -> str | None:
        print(prompt, end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return None
        line = line.strip()
        if not sys.stdin.isatty():
            print(line)  # piped input: keep the transcript readable
        return line


# ---------------------------------------------------------------------------------- the play command
def add_play_arguments(parser: argparse.ArgumentParser, game: Game[Any]) -> None:
    """``spacetable play GAME`` options: seats and AI, seed, files, and every game option as a flag."""
    names = ", ".join(f"{s.name} ({describe(s)})" if describe(s) else s.name for s in agent_specs(game))
    seats = parser.add_argument_group("seats")
    if game.min_players != game.max_players:
        seats.add_argument("--players", type=int, help=f"number of seats, {game.min_players}-{game.max_players} "
                                                       f"(default {game.min_players})")
    seats.add_argument("--vs", metavar="AI", help=f"you at --seat, this AI at every other seat: {names}; 'ai' is "
                                                  "the first; 'human' seats people everywhere (hot seat)")
    seats.add_argument("--seat", type=int, default=0, help="your seat with --vs (default 0)")
    seats.add_argument("--seats", metavar="LIST", help="comma list, one entry per seat: 'human' or an AI name "
                                                       "(the last entry repeats)")
    seats.add_argument("--seconds", type=float, default=1.0, help="AI thinking time per move (default 1)")
    match = parser.add_argument_group("match")
    match.add_argument("--seed", type=int, help="match seed (default: a random one, printed)")
    match.add_argument("--save", metavar="FILE", help="save the match here after every action (spacetable-match/1)")
    match.add_argument("--load", metavar="FILE", help="continue a saved match (its options, seed and seats) and keep "
                                                     "saving to it unless --save names another file")
    match.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="any game option (VALUE read as JSON when it parses)")
    options = parser.add_argument_group(f"{game.id} options")
    for opt in game.options():
        flag = "--" + opt.name.replace("_", "-")
        options.add_argument(flag, dest=f"opt_{opt.name}", metavar=_metavar(opt), type=_option_type(opt),
                             help=_option_help(opt))


def _metavar(opt: Option) -> str:
    if opt.choices is not None and len(opt.choices) <= 6:
        return "{" + ",".join(str(c) for c in opt.choices) + "}"
    return {"int": "N", "float": "X", "bool": "yes|no", "json": "JSON|FILE"}.get(opt.kind, "TEXT")


def _option_help(opt: Option) -> str:
    text = opt.help or opt.name.replace("_", " ")
    bounds = ""
    if opt.minimum is not None or opt.maximum is not None:
        bounds = f", {opt.minimum if opt.minimum is not None else ''}..{opt.maximum if opt.maximum is not None else ''}"
    default = "" if opt.default in (None, "") else f" (default {opt.default}{bounds})"
    return (text + default).replace("%", "%%")


def _option_type(opt: Option) -> Any:
    """The argparse converter of an option: bad values end in a usage error, never a traceback."""
    if opt.kind == "int":
        return int
    if opt.kind == "float":
        return float
    if opt.kind == "bool":
        return _yes_no
    if opt.kind == "json":
        return _json_or_file
    return str


def _yes_no(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on", "y"):
        return True
    if low in ("0", "false", "no", "off", "n"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes or no, got {text!r}")


def _json_or_file(text: str) -> Any:
    path = Path(text)
    if path.suffix == ".json" and path.is_file():
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise argparse.ArgumentTypeError(f"cannot read {text}: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``--option KEY=VALUE`` items as config entries: a value is read as JSON when it is JSON, else as text."""
    cfg: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--option takes KEY=VALUE, got {item!r}")
        try:
            cfg[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            cfg[key.strip()] = value
    return cfg


def config_from_args(game: Game[Any], ns: argparse.Namespace) -> dict[str, Any]:
    """The match config given by the option flags, ``--option`` and ``--players`` (not yet normalised)."""
    cfg: dict[str, Any] = {}
    if getattr(ns, "players", None) is not None:
        cfg["players"] = ns.players
    cfg.update(parse_options(ns.option))
    for opt in game.options():
        value = getattr(ns, f"opt_{opt.name}", None)
        if value is not None:
            cfg[opt.name] = value
    return cfg


def seat_list(game: Game[Any], players: int, ns: argparse.Namespace, saved: list[str] | None = None) -> list[str]:
    """Who plays each seat: ``human`` or an AI name, from ``--seats``, ``--vs``/``--seat`` or a saved match."""
    if ns.seats:
        names = [x.strip() for x in ns.seats.split(",") if x.strip()]
        if not names or len(names) > players:
            raise ConfigError(f"--seats lists 1 to {players} entries for this match, got {len(names)}")
        names += [names[-1]] * (players - len(names))
    elif ns.vs is None and saved and len(saved) == players:
        names = list(saved)
    else:
        vs = ns.vs or "ai"
        if not 0 <= ns.seat < players:
            raise ConfigError(f"--seat must be in 0..{players - 1}")
        names = [HUMAN] * players if vs in (HUMAN, "humans") else [vs] * players
        names[ns.seat] = HUMAN
    return [HUMAN if n in (HUMAN, "humans") else find_agent(game, n).name for n in names]


def run_play(game: Game[Any], ns: argparse.Namespace) -> int:
    """``spacetable play GAME``: a new match from the flags, or ``--load FILE``."""
    if ns.load:
        match = Match.load(ns.load)
        if match.game != game.id:
            raise ConfigError(f"{ns.load} is a {match.game} match; use `spacetable play {match.game} --load {ns.load}`")
        if config_from_args(game, ns) or ns.seed is not None:
            print("note: a loaded match keeps its own options and seed", file=sys.stderr)
    else:
        seed = ns.seed if ns.seed is not None else secrets.randbelow(1 << 31)
        match = Match(game=game.id, config=game.normalize_config(config_from_args(game, ns)), seed=seed)
    saved = match.meta.get("seats")
    seats = seat_list(game, game.num_players(match.config), ns, saved if isinstance(saved, list) else None)
    return Terminal(game, match, seats, seconds=ns.seconds, save_path=ns.save or ns.load).run()


def _number(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


__all__ = ["COMMANDS", "Terminal", "add_play_arguments", "config_from_args", "run_play", "seat_list"]

