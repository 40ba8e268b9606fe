"""One terminal play loop for every game: ``spacetable play GAME``.

The loop shows each person the view of their own seat (``Game.render_text``), lists the
legal actions numbered from 1 and reads one line at a time: a number from the list, an
action in the game's notation (``Game.parse_action``) or as JSON, or one of the commands
below. AI seats play the game's agents (``Game.agents()`` plus the generic ones), each
from a copy of the state determinised for its seat. At a terminal the prompt edits the line
(arrows, Home/End), keeps a history (up/down) and completes commands and actions in the game's
notation (Tab), with prompt_toolkit; piped input works too (one line per action or command; the
end of input stops the loop). A save that fails (a missing folder, a full disk) is said and the
game goes on.

With several people at one keyboard (hot seat) in a game that hides information, the
screen is cleared and the next seat is named before its private view is shown.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spacetable.ai.agents import agent_specs, choose_for_seat, find_agent
from spacetable.ai.ladder import describe
from spacetable.commands import count, seconds
from spacetable.core.errors import ConfigError, RuleError, SpacetableError
from spacetable.core.game import Action, Game, Option, Outcome
from spacetable.core.match import FORMAT as MATCH_FORMAT
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
  quit         leave (with --save the match is saved first); Ctrl-D too"""
#: Said after the commands (and the game's own) at a terminal.
EDITING = "At a terminal: arrows edit the line, up/down recall earlier lines, Tab completes commands and actions."

HUMAN = "human"
#: The prompt's own commands, as completion offers them.
PROMPT_WORDS = ("help", "legal", "view", "auto", "undo", "save", "quit")


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
    #: whether the last save to ``save_path`` failed (said once, not after every action)
    save_failed: bool = False
    #: a prompt_toolkit session (line editing, history, completion) on a terminal; None reads plain lines
    editor: Any = None
    #: the state, seat and game-over flag of the prompt being read (what completion offers)
    prompt_at: tuple[Any, int, bool] = (None, 0, False)
    #: the completions of ``prompt_at``: its state (by identity) and seat, and the words
    _completion: tuple[Any, int, list[str]] = (None, -1, [])

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

    def who_plays(self) -> str:
        """``you at seat 0; AI: seat 1 random`` for the opening line."""
        people = [str(s) for s in self.humans]
        if len(people) == 1:
            who = f"you at seat {people[0]}"
        elif people:
            who = f"people at seats {', '.join(people[:-1])} and {people[-1]}"
        else:
            who = "no people"
        ais = ", ".join(f"seat {s} {n}" for s, n in enumerate(self.seats) if n != HUMAN)
        return who + (f"; AI: {ais}" if ais else "")

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
            own = "".join(f", '{c.name}' {c.help}" for c in self.game.prompt_commands())
            self.say(f"  {len(legal)} legal actions: 'legal' lists them numbered{own}; 'help' explains the notation")
        return legal

    def hand_over(self, state: Any, seat: int) -> bool:
        """Hot seat: hide the previous seat's private view and name the seat whose view comes next.
        False when the input ended at the "press Enter" prompt."""
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        if interactive:
            print(CLEAR, end="")
        what = "a sealed decision, made in secret" if self.sealed(state, seat) else "your turn"
        cleared = "the screen was cleared; " if interactive else ""
        self.say(f"==== {self.label(seat)}: {what} ({cleared}everybody else looks away) ====")
        return not interactive or self.ask(f"press Enter when only seat {seat} is looking... ") is not None

    def sealed(self, state: Any, seat: int) -> bool:
        """Whether ``seat``'s decision is hidden from the others (a sealed commit)."""
        legal = self.game.legal_actions(state, seat)
        other = next((h for h in self.humans if h != seat), None)
        return bool(legal) and self.game.action_view(state, seat, legal[0], other) != legal[0]

    def result(self, state: Any) -> None:
        out = self.game.outcome(state)
        assert out is not None
        screen = self.game.render_text(state, self.viewer())
        self.say(screen)
        self.say(outcome_text(out, self.label, shown=screen))
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
        """Save to ``--save`` after each action; a failed save is said once (and again after a success),
        and the game goes on."""
        if not self.save_path:
            return
        try:
            self.match.save(self.save_path)
        except OSError as exc:
            if not self.save_failed:
                self.say(f"{save_problem(self.save_path, exc)}; the game goes on unsaved ('save FILE' saves "
                         "elsewhere and saves there from then on)")
            self.save_failed = True
        else:
            self.save_failed = False

    def ai_move(self, state: Any, seat: int) -> Any:
        seed = mix_seed(self.match.seed, "terminal-ai", seat, len(self.match.log))
        action = choose_for_seat(self.game, state, seat, self.agents[seat], seed)
        who = f"AI ({self.seats[seat]})" if len(self.seats) == 2 else f"seat {seat} AI ({self.seats[seat]})"
        self.say(f"{who} plays: {self.action_text(state, seat, action, self.viewer())}")
        return self.play(state, seat, action)

    # -------------------------------------------------------------------- loop
    def run(self) -> int:
        """Play until the people quit or the input ends (with no people: until the game ends)."""
        self.say(f"{self.game.name} (seed {self.match.seed}) — {self.who_plays()}. Type 'help' for commands.")
        state = self.replay()
        focus = self.humans[0] if self.humans else None
        handed: int | None = None  # the seat the shared screen was last handed to (hot seat)
        warned = False  # told that quitting loses an unsaved match
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
                if focus != handed and self.private and not self.hand_over(state, focus):
                    self.say("input ended")
                    break
                handed = focus
                if self.shown != (len(self.match.log), focus):
                    self.legal = self.show(state, focus)
                    self.shown = (len(self.match.log), focus)
            assert focus is not None
            self.prompt_at = (state, focus, over)
            line = self.read(f"{self.label(focus)}> " if len(self.humans) > 1 else "your action> ")
            if line is None:
                self.say("" if over else "input ended")
                break
            if line.lower() in ("quit", "exit", "q"):
                if self.save_failed and not over and not warned:
                    warned = True
                    self.say(f"the match is not saved ({self.save_path} could not be written): 'save FILE' saves it "
                             "elsewhere; 'quit' again leaves without saving")
                    continue
                break
            if line:
                state = self.command(state, focus, line, over)
        self.autosave()
        if self.game.outcome(state) is None:
            resume = (f"; saved to {self.save_path}, continue with --load {self.save_path} "
                      f"(spacetable play {self.game.id} --load {self.save_path})" if self.save_path else "")
            if self.save_failed:
                resume = f"; not saved ({self.save_path} could not be written)"
            self.say(f"Game not finished{resume}.")
        return 0

    def command(self, state: Any, seat: int, line: str, over: bool) -> Any:
        """One line typed by ``seat``: a prompt command, or an action to play. Returns the new state."""
        game = self.game
        word, _, rest = line.partition(" ")
        word = word.lower()
        extra = {c.name: c for c in game.prompt_commands()}
        if word in ("help", "h", "?"):
            own = "".join(f"\n  {c.name:12} {c.help}" for c in extra.values())
            self.say(COMMANDS + own + "\n" + EDITING + "\n\n" + game.notation_help())
        elif word in extra:
            self.say(extra[word].run(state, seat))
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
                try:
                    self.match.save(target)
                except OSError as exc:
                    self.say(save_problem(target, exc) + "; the game goes on (try another FILE)")
                else:
                    self.say(f"saved to {target}")
                    self.save_path, self.save_failed = target, False
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
        """One line typed at the prompt (stripped), or None when the input ends (Ctrl-D, Ctrl-C, end of a pipe)."""
        line = self.ask(prompt)
        return None if line is None else line.strip()

    def ask(self, prompt: str) -> str | None:
        if self.editor is not None:
            try:
                return str(self.editor.prompt(prompt))
            except (EOFError, KeyboardInterrupt):
                return None
        print(prompt, end="", flush=True)
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            line = ""
        if not line:
            print()
            return None
        if not sys.stdin.isatty():
            print(line.strip())  # piped input: keep the transcript readable
        return line

    def completions(self) -> list[str]:
        """What the prompt completes: its commands, then each legal action as typed in the game's notation
        (only actions whose text reads back as the same action)."""
        state, seat, over = self.prompt_at
        cached_state, cached_seat, words = self._completion
        if cached_state is not state or cached_seat != seat:
            words = [*PROMPT_WORDS, *(c.name for c in self.game.prompt_commands())]
            if state is not None and not over:
                for action in self.game.legal_actions(state, seat):
                    text = self.game.typed_action(state, seat, action)
                    try:
                        if self.game.parse_action(state, seat, text) == action:
                            words.append(text)
                    except (RuleError, ValueError, KeyError, TypeError):
                        continue
            self._completion = (state, seat, words)
        return words


# ---------------------------------------------------------------------------------- reading matches
def read_match(path: str | Path) -> Match:
    """A saved match (``spacetable-match/1``) read from ``path``; any problem is one clear :class:`ConfigError`."""
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"cannot read {path}: no such file") from exc
    except IsADirectoryError as exc:
        raise ConfigError(f"cannot read {path}: it is a folder, not a saved match") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"cannot read {path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    if not isinstance(data, dict) or data.get("format") != MATCH_FORMAT:
        raise ConfigError(f"cannot read {path}: not a saved match (a {MATCH_FORMAT} file has "
                          f'"format": "{MATCH_FORMAT}")')
    missing = [k for k in ("game", "config", "seed", "log") if k not in data]
    if missing:
        names = [repr(k) for k in missing]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        raise ConfigError(f"cannot read {path}: the saved match lacks its {listed} field{'s' if len(names) > 1 else ''}")
    try:
        return Match.from_json(data)
    except (KeyError, TypeError, ValueError, SpacetableError) as exc:
        raise ConfigError(f"cannot read {path}: a malformed saved match ({_reason(exc)})") from exc


def _reason(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"an entry lacks its {exc.args[0]!r} field"
    return str(exc)


def save_problem(path: str, exc: OSError) -> str:
    """One line for a save that failed (a missing folder, no permission, a full disk)."""
    reason = exc.strerror or str(exc)
    if isinstance(exc, FileNotFoundError):
        reason = f"no folder {str(Path(path).parent)!r}"
    elif isinstance(exc, IsADirectoryError):
        reason = "it is a folder"
    return f"cannot save to {path}: {reason}"


# ---------------------------------------------------------------------------------- the play command
def add_play_arguments(parser: argparse.ArgumentParser, game: Game[Any]) -> None:
    """``spacetable play GAME`` options: seats and AI, seed, files, and every game option as a flag."""
    names = ", ".join(f"{s.name} ({describe(s)})" if describe(s) else s.name for s in agent_specs(game))
    seats = parser.add_argument_group("seats")
    if game.min_players != game.max_players:
        seats.add_argument("--players", type=count(game.min_players, game.max_players),
                           help=f"number of seats, {game.min_players}-{game.max_players} (default: as many as "
                                f"--seats lists, else {game.min_players})")
    seats.add_argument("--vs", metavar="AI", help=f"you at --seat, this AI at every other seat: {names}; 'ai' is "
                                                  "the first; 'human' seats people everywhere (hot seat)")
    seats.add_argument("--seat", type=count(0, game.max_players - 1), default=0, help="your seat with --vs (default 0)")
    seats.add_argument("--seats", metavar="LIST", help="comma list, one entry per seat: 'human' or an AI name "
                                                       "(the last entry repeats)")
    seats.add_argument("--seconds", type=seconds, default=1.0, help="AI thinking time per move, more than 0 "
                                                                   "(default 1)")
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
        match = read_match(ns.load)
        if match.game != game.id:
            raise ConfigError(f"{ns.load} is a saved match of another game ({match.game}); use "
                              f"`spacetable play {match.game} --load {ns.load}`")
        if config_from_args(game, ns) or ns.seed is not None:
            print("note: a loaded match keeps its own options and seed", file=sys.stderr)
    else:
        seed = ns.seed if ns.seed is not None else secrets.randbelow(1 << 31)
        cfg = config_from_args(game, ns)
        listed = len([x for x in (ns.seats or "").split(",") if x.strip()])
        if "players" not in cfg and game.min_players < game.max_players and listed > game.min_players:
            if listed > game.max_players:
                raise ConfigError(f"--seats lists {listed} seats; {game.name} has {game.min_players} to "
                                  f"{game.max_players} players")
            cfg["players"] = listed  # `--seats human,medium,medium` is a three-player match
        match = Match(game=game.id, config=game.normalize_config(cfg), seed=seed)
    saved = match.meta.get("seats")
    seats = seat_list(game, game.num_players(match.config), ns, saved if isinstance(saved, list) else None)
    term = Terminal(game, match, seats, seconds=ns.seconds, save_path=ns.save or ns.load)
    if sys.stdin.isatty() and sys.stdout.isatty():
        term.editor = make_editor(term)
    return term.run()


# ---------------------------------------------------------------------------------- line editing
def completions_for(terminal: Terminal, before_cursor: str) -> list[tuple[str, int]]:
    """What Tab offers: ``(word, start)`` pairs completing the word being typed from the prompt's
    commands and the legal actions in the game's notation, one word at a time (``mo`` -> ``move``,
    ``move 7`` -> ``move 71``); ``start`` is where the word begins, counted back from the cursor."""
    typed = before_cursor.lstrip()
    start = typed.rfind(" ") + 1
    word = typed[start:]
    seen: dict[str, None] = {}
    for line in terminal.completions():
        if line.startswith(typed):
            token = line[start:].split(" ", 1)[0]
            if token:
                seen.setdefault(token)
    return [(token, -len(word)) for token in seen]


def make_editor(terminal: Terminal, **io: Any) -> Any:
    """A prompt_toolkit session for ``terminal``: line editing (arrows, Home/End, Ctrl-A/E/K...), history
    (up/down) and completion (Tab); ``io`` passes ``input``/``output`` to prompt_toolkit (tests). Imported
    here: only a person at a terminal needs it."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.shortcuts import CompleteStyle

    class PromptCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterator[Completion]:
            for token, start in completions_for(terminal, document.text_before_cursor):
                yield Completion(token, start_position=start)

    return PromptSession(history=InMemoryHistory(), completer=PromptCompleter(), complete_while_typing=False,
                         complete_style=CompleteStyle.MULTI_COLUMN, **io)


def outcome_text(out: Outcome, label: Callable[[int], str] = lambda seat: f"seat {seat}", shown: str = "") -> str:
    """The end of a game in words: ``Game over (corvette): winner seat 0; scores seat 0 1, seat 1 0`` and a
    line of the game's details (``points 1–0, plies 12``); a detail text already on the ``shown`` screen is
    left out (Worlds' notice)."""
    scores = ", ".join(f"seat {i} {_number(x)}" for i, x in enumerate(out.scores))
    if len(out.winners) > 1:
        winners = "first place shared by " + " and ".join(label(w) for w in out.winners)
    else:
        winners = "winner " + (label(out.winners[0]) if out.winners else "nobody (a draw)")
    text = f"Game over ({out.kind.replace('_', ' ')}): {winners}; scores {scores}"
    details = [f"{key.replace('_', ' ')} {_detail(value)}" for key, value in out.details.items()
               if not (isinstance(value, str) and len(value) >= 20 and value in shown)]
    return text + ("\n  " + "; ".join(details) if details else "")


def _detail(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, list | tuple):
        return " / ".join(_detail(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_detail(v)}" for k, v in value.items()) or "none"
    return "none" if value is None else str(value)


def _number(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


__all__ = ["COMMANDS", "Terminal", "add_play_arguments", "config_from_args", "run_play", "seat_list"]

