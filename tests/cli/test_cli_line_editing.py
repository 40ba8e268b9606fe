"""Issue 23, "Terminal": the play prompt edits the line, keeps a history and completes commands and actions
(prompt_toolkit, driven in-process through a pipe input and through a real pseudo-terminal); Full Metal's map
has a legend and a `landing` command; Galaxies' map labels q and r and never says `active None`."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import re
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from spacetable.core.match import Match
from spacetable.games import get_game
from spacetable.games.galaxies.board import axial_to_offset
from spacetable.terminal import Terminal, completions_for, make_editor

pytestmark = pytest.mark.boards

ROOT = Path(__file__).resolve().parents[2]
LEFT, HOME, UP, TAB, ENTER, CTRL_D = "\x1b[D", "\x1b[H", "\x1b[A", "\t", "\r", "\x04"


def terminal(game_id: str, seats: list[str], seed: int = 1, **config: Any) -> Terminal:
    game = get_game(game_id)
    return Terminal(game, Match(game=game_id, config=game.normalize_config(config), seed=seed), seats, seconds=0.05)


def run_with_keys(term: Terminal, keys: list[str]) -> str:
    """Play ``term`` with a prompt_toolkit editor fed ``keys``, one chunk per prompt: each chunk is typed once
    the prompt is up with its history loaded (prompt_toolkit loads it in the background; a person types
    slower than that). A condition, not a sleep."""
    out = io.StringIO()
    with create_pipe_input() as pipe:
        term.editor = make_editor(term, input=pipe, output=DummyOutput())
        done = threading.Event()

        def play() -> None:
            try:
                with contextlib.redirect_stdout(out):
                    term.run()
            finally:
                done.set()

        prompts = []  # one entry per prompt shown
        original = term.editor.prompt
        term.editor.prompt = lambda *args, **kw: (prompts.append(1), original(*args, **kw))[1]
        threading.Thread(target=play, daemon=True).start()
        for typed, chunk in enumerate(keys):
            deadline = time.monotonic() + 600  # generous: the condition is what counts
            while not done.is_set() and not (len(prompts) > typed and _ready(term.editor)):
                assert time.monotonic() < deadline, "the prompt never came back"
                time.sleep(0.01)
            pipe.send_text(chunk)
        assert done.wait(timeout=600), "the play loop did not end"
    return out.getvalue()


def _ready(editor: Any) -> bool:
    """The prompt is reading, empty, with its history loaded into the buffer."""
    buffer = editor.default_buffer
    return bool(editor.app.is_running and buffer.text == ""
                and len(buffer._working_lines) >= len(list(editor.history.get_strings())) + 1)


def test_arrows_and_home_edit_the_line_and_up_recalls_it():
    """`2-a3`, Home, `a`: the line reads `a2-a3` (typed at the start); Left moves inside the line; Up brings
    back the previous line."""
    term = terminal("arena", ["human", "random"])
    out = run_with_keys(term, ["2-a3" + HOME + "a" + ENTER, "b5" + LEFT + LEFT + "a5-" + "\x1b[F" + "a4" + ENTER,
                               UP + ENTER, CTRL_D])
    # Blue (seat 0 after the random red reply) has no ship on a2: the edited line was read whole
    assert "illegal: [AR-3.2] no own ship on a2" in out
    # `b5`, Left Left, `a5-`, End, `a4`: "a5-b5a4" is not an action; the point is that the text was edited
    assert "cannot read 'a5-b5a4'" in out
    assert out.count("cannot read 'a5-b5a4'") == 2  # Up + Enter: the same line again from the history
    assert "input ended" in out  # Ctrl-D ends the game cleanly


def test_tab_completes_commands_and_actions_one_word_at_a_time():
    term = terminal("fullmetal", ["human", "greedy"], seed=4)
    game = term.game
    state = term.replay()
    seat = game.to_act(state)[0]
    term.prompt_at = (state, seat, False)
    words = [w for w, _ in completions_for(term, "le")]
    assert words == ["legal"]
    assert [w for w, _ in completions_for(term, "lan")] == ["landing", "land"]  # the prompt command, then the action
    cells = [w for w, _ in completions_for(term, "land ")]
    sites = {f"{a['dome'][0]},{a['dome'][1]}" for a in game.legal_actions(state, seat)}
    assert set(cells) == sites  # the next word: every landing cell, once
    x, y = sorted(sites)[0].split(",")
    orientations = [w for w, start in completions_for(term, f"land {x},{y} ")]
    assert set(orientations) <= {"north", "south"} and orientations
    assert completions_for(term, "land 2,2 so") in ([("south", -2)], [])
    # through prompt_toolkit's own completer interface
    assert term.editor is None
    editor = make_editor(term, output=DummyOutput())
    got = [c.text for c in editor.completer.get_completions(Document("lega"), None)]
    assert got == ["legal"]


def test_tab_in_the_prompt_inserts_the_only_completion():
    """Tab then Enter: `le` + Tab is `legal` (the list of every legal action is printed)."""
    term = terminal("arena", ["human", "random"])
    out = io.StringIO()
    with create_pipe_input() as pipe:
        term.editor = make_editor(term, input=pipe, output=DummyOutput())
        done = threading.Event()

        def play() -> None:
            with contextlib.redirect_stdout(out):
                term.run()
            done.set()

        threading.Thread(target=play, daemon=True).start()
        pipe.send_text("le" + TAB)
        deadline = time.monotonic() + 600  # generous: the condition is what counts
        while term.editor.default_buffer.text != "legal" and time.monotonic() < deadline and not done.is_set():
            time.sleep(0.01)
        assert term.editor.default_buffer.text == "legal"
        pipe.send_text(ENTER + CTRL_D)
        assert done.wait(timeout=600)
    assert "22 legal actions:" in out.getvalue()


def _pty_session(argv: list[str], steps: list[tuple[str, str]]) -> tuple[str, int]:
    """Run ``spacetable`` on a pseudo-terminal: for each step wait for ``expect`` in the output (after the
    previous step's), then type ``send``. Keys go to a prompt that is up (raw mode): between prompts the
    terminal is in line mode, where Ctrl-D is not a key. Returns the whole output and the exit status."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "spacetable.cli", *argv], stdin=follower, stdout=follower,
                            stderr=follower, cwd=ROOT, close_fds=True,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "TERM": "xterm", "COLUMNS": "120",
                                 "LINES": "40"})
    os.close(follower)
    seen = b""

    def read_until(done: Any, what: str) -> None:
        """Read (answering cursor position requests like a terminal) until ``done()``."""
        nonlocal seen
        deadline = time.monotonic() + 600  # generous: the condition is what counts
        while not done():
            assert time.monotonic() < deadline, f"never {what}: {seen[-2000:]!r}"
            if not select.select([leader], [], [], 0.5)[0]:
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the process ended and closed the terminal
                chunk = b""
            if not chunk:
                proc.wait(timeout=600)
                return
            seen += chunk
            if b"\x1b[6n" in chunk:  # prompt_toolkit asks where the cursor is
                os.write(leader, b"\x1b[1;1R")

    try:
        mark = 0  # each step waits for output after the previous step's
        for expect, send in steps:
            found = lambda expect=expect, mark=mark: seen.find(expect.encode(), mark) >= 0  # noqa: E731
            read_until(lambda found=found: found() or proc.poll() is not None, f"saw {expect!r}")
            assert found(), f"ended before {expect!r}: {seen[-2000:]!r}"
            mark = seen.find(expect.encode(), mark) + len(expect)
            os.write(leader, send.encode())
        read_until(lambda: proc.poll() is not None, "ended")
        rc = proc.wait(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode(errors="replace")), rc


def test_a_real_terminal_gets_line_editing_and_ctrl_d_ends_cleanly():
    out, rc = _pty_session(["play", "arena", "--vs", "random", "--seed", "1", "--seconds", "0.05"], [
        ("your action>", "2-a3" + HOME + "a" + ENTER),
        ("no own ship on a2", ""),
        ("your action>", CTRL_D),
    ])
    assert rc == 0 and "Traceback" not in out and "^[[" not in out
    assert "input ended" in out


def test_ctrl_d_at_the_hot_seat_press_enter_prompt_ends_cleanly():
    out, rc = _pty_session(["play", "tremble", "--players", "2", "--vs", "human", "--seed", "1"], [
        ("press Enter when only seat 0 is looking", CTRL_D),
    ])
    assert rc == 0 and "Traceback" not in out and "EOFError" not in out
    assert "input ended" in out


# ------------------------------------------------------------------------------------------- maps
def test_full_metal_map_has_a_legend_and_landing_lists_the_sites():
    game = get_game("fullmetal")
    state = game.initial_state(game.normalize_config({}), 4)
    text = game.render_text(state, 0)
    lines = text.splitlines()
    legend = next(i for i, line in enumerate(lines) if line.startswith("legend:"))
    assert all(re.match(r"^\s*\d+ ", line) for line in lines[legend - 3:legend])  # right under the map rows
    legend_text = " ".join(lines[legend:legend + 4])
    for words in (". sea", "* reef", "% swamp", "$ plain", "# mountain", "= pontoon", "o ore", "T tank",
                  "G super tank", "M motor boat", "B barge", "C crab", "W weather layer", "P pontoon", "S its dome"):
        assert words in legend_text, words
    seat = game.to_act(state)[0]
    out = io.StringIO()
    term = terminal("fullmetal", ["human", "human"], seed=4)
    with contextlib.redirect_stdout(out):
        term.command(state, seat, "landing", over=False)
    shown = out.getvalue()
    sites = {tuple(a["dome"]) for a in game.legal_actions(state, seat) if a["type"] == "land"}
    assert f"{len(sites)} cells where your ship's dome may land" in shown
    listed = set(re.findall(r"\b(\d+),(\d+)\b", shown.split("(the sites by row:)")[1]))
    assert {(int(x), int(y)) for x, y in listed} == sites
    grid = [line for line in shown.splitlines() if re.match(r"^\s*\d+ [^\d]", line)]
    assert sum(line[4:].count("L") + line[4:].count("n ") + line[4:].count("s ") for line in grid) >= len(sites) // 2
    # the list of actions points to it instead of listing 242 landings
    with contextlib.redirect_stdout(io.StringIO()) as listing:
        term.show(state, seat)
    assert "'landing' where your ship may land" in listing.getvalue()
    # after landing, the command says there is nothing to land
    with contextlib.redirect_stdout(io.StringIO()) as later:
        term.command(state, 1 - seat, "landing", over=False)
    assert "no landing now" in later.getvalue() or "cells where your ship's dome may land" in later.getvalue()


def test_galaxies_map_labels_q_and_r_and_never_says_active_none():
    game = get_game("galaxies")
    state = game.initial_state(game.normalize_config({}), 1)
    text = game.render_text(state, 0)
    assert "active None" not in text and "None" not in text and "to act [" not in text
    assert "hexes are typed q,r" in text
    rows = {int(m.group(1)): (int(m.group(2)), int(m.group(3)))
            for m in re.finditer(r"^\s*(\d+)\s+(-?\d+)\s.*?\s(-?\d+)$", text, flags=re.M)}
    full = state.geo.full
    for r, (first, last) in rows.items():
        qs = sorted(q for q, rr in full if rr == r)
        assert (first, last) == (qs[0], qs[-1]), r
    assert set(rows) == {r for _, r in full}
    rulers = [line for line in text.splitlines() if line.strip().startswith("q ")]
    assert len(rulers) == 2
    # a ruler's label sits above its hex: the column of q=5 on the top row is where that hex's symbol is drawn
    top_r = min(rows)
    top_line = next(line for line in text.splitlines() if re.match(rf"^\s*{top_r}\s+-?\d+\s", line))
    cols = {h: axial_to_offset(h)[0] for h in full}
    lo = min(cols.values())
    hex5 = (5, top_r)
    assert hex5 in full
    at = 10 + (1 if top_r & 1 else 0) + 2 * (cols[hex5] - lo)
    assert rulers[0][at] == "5" and top_line[at] != " "



@pytest.mark.parametrize(("game_id", "config"), [("worlds", {}), ("tremble", {"players": 2})], ids=["worlds", "tremble"])
def test_tab_completes_worlds_and_tremble_actions_that_read_back(game_id: str, config: dict[str, Any]) -> None:
    """Tab in Worlds & Suns and Tremble, Humans! (whose printed notation is not what the prompt reads): at each of a
    few decisions the legal actions are offered in their typed form, each word of an action is offered from its first
    letter, and the whole line reads back as that legal action."""
    from spacetable.terminal import PROMPT_WORDS

    term = terminal(game_id, ["human", "random"], seed=2, **config)
    game = term.game
    state = term.replay()
    fixed = {*PROMPT_WORDS, *(c.name for c in game.prompt_commands())}
    decisions = 0
    for turn in range(30):
        if game.is_terminal(state):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        term.prompt_at = (state, seat, False)
        offered = [w for w in term.completions() if w not in fixed]
        assert offered, f"{game_id}: nothing completes at decision {turn}"
        for line in (offered[0], offered[-1]):
            typed = ""
            for word in line.split(" "):
                assert word in [w for w, _ in completions_for(term, typed + word[:1])], (typed, word)
                typed += word + " "
            assert game.parse_action(state, seat, typed.strip()) in legal, typed
        if game_id == "worlds":  # every Worlds action reads back from its typed form
            assert len(offered) == len(legal)
        decisions += 1
        state = game.apply(state, seat, legal[turn % len(legal)])
    assert decisions >= 5

def test_worlds_typed_form_reads_back_for_every_kind():
    """Each kind of Worlds & Suns action has a typed form that its reader turns back into the same action."""
    from spacetable.games.worlds.notation import parse_action, typed

    for action in [{"type": "declare_combat", "card": "X.w1"}, {"type": "play_event", "card": "MG"},
                   {"type": "play_event", "card": None}, {"type": "commit_energy", "amount": 2},
                   {"type": "choose_tie_loss", "piece": "red.M.w1.P2"}, {"type": "retreat", "pieces": ["a.P1", "a.F1"]},
                   {"type": "retreat", "pieces": []}, {"type": "convert", "factory": "red.M.w1.F1"},
                   {"type": "convert", "factory": None}, {"type": "end_turn"}, {"type": "offer_draw"},
                   {"type": "allocate", "battles": [{"anchor": "g.P1", "pieces": ["w.F1"]}, {"anchor": "g.F1", "pieces": []}]}]:
        assert parse_action(typed(action)) == action, typed(action)


def test_tremble_reads_an_action_as_listed_and_asks_for_the_number_when_two_read_alike():
    """Tremble, Humans!: a legal action typed as `legal` lists it is that action (spaces and case aside); where two
    copies of a card make the same words, the reader asks for the number instead of guessing."""
    import random

    from spacetable.core.errors import RuleError

    game = get_game("tremble")
    state = game.initial_state(game.normalize_config({"players": 2}), 1)
    rng = random.Random(1)
    read = alike = 0
    for _ in range(80):
        if game.is_terminal(state):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        texts: dict[str, list[dict[str, Any]]] = {}
        for a in legal:
            texts.setdefault(game.action_text(state, seat, a), []).append(a)
        for text, acts in list(texts.items())[:5]:
            if len(acts) == 1:
                assert game.parse_action(state, seat, "  " + text.upper() + " ") == acts[0]
                read += 1
        for text, acts in texts.items():
            if len(acts) > 1 and any(a != acts[0] for a in acts):
                with pytest.raises(RuleError, match="number"):
                    game.parse_action(state, seat, text)
                alike += 1
                break
        state = game.apply(state, seat, rng.choice(legal))
    assert read >= 20 and alike >= 1
