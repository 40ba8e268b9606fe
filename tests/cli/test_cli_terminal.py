"""The one terminal play loop (spacetable/terminal.py) in every game: help, numbered legal actions from 1,
save and replay, undo only when nothing was drawn or revealed since, hot seat hand-overs."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from spacetable.cli import main
from spacetable.core.match import Match
from spacetable.core.undo import UndoRefused, undo_point
from spacetable.games import available, get_game
from spacetable.terminal import Terminal
from tests.core.toygames import Nim, SealedDuel


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main(argv) == 0
    return str(capsys.readouterr().out)


@pytest.mark.parametrize("game_id", available())
def test_every_game_help_legal_numbers_save_and_replay(game_id: str, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 9: `help` works at every game's prompt (commands and notation, plain text), actions are numbered
    from 1 the same way everywhere, and every game (tremble and fullmetal included) saves a match that
    `spacetable replay` reads."""
    game = get_game(game_id)
    save = tmp_path / "m.json"
    out = play(monkeypatch, capsys, ["play", game_id, "--vs", "random", "--seed", "2", "--seconds", "0.05"],
               f"help\nlegal\n1\nsave {save}\nquit\n")
    assert "Commands at the prompt" in out and game.notation_help().splitlines()[0] in out
    assert "``" not in out and ":class:" not in out  # plain text, no reStructuredText
    assert "legal actions:\n    1. " in out and "played: " in out and f"saved to {save}" in out
    data = json.loads(save.read_text())
    assert data["format"] == "spacetable-match/1" and data["game"] == game_id and data["log"]
    assert data["log"][0]["player"] == 0 or len(data["log"]) > 1
    assert main(["replay", str(save), "--final"]) == 0
    assert "result:" in capsys.readouterr().out
    assert main(["replay", "--example", game_id, "--final"]) == 0
    assert "result:" in capsys.readouterr().out


def test_a_number_out_of_range_and_unreadable_text_are_refused(monkeypatch, capsys) -> None:
    out = play(monkeypatch, capsys, ["play", "arena", "--vs", "random", "--seed", "1"], "0\n99\n{\"type\": 3}\nquit\n")
    assert out.count("illegal: [CORE-ACTION] choose a number from 1 to 22") == 2 and out.count("illegal:") == 3


def test_auto_plays_the_default_ai_choice_for_you(monkeypatch, capsys) -> None:
    out = play(monkeypatch, capsys, ["play", "worlds", "--vs", "random", "--seed", "3"], "auto\nquit\n")
    assert "played: white:" in out


def test_undo_is_refused_once_cards_were_drawn_or_hidden_choices_revealed(monkeypatch, capsys) -> None:
    """Tremble: after both sealed buys are in, the other captain's choice is known: no undo."""
    out = play(monkeypatch, capsys, ["play", "tremble", "--players", "2", "--vs", "random", "--seed", "3"],
               "1\nundo\nquit\n")
    assert "cannot undo: hidden information was revealed to you since that action" in out


def test_undo_policy() -> None:
    """The shared undo rule: own last action plus the AI replies after it; not across drawn chance or a reveal."""
    nim = Nim()
    start = nim.initial_state(nim.normalize_config({}), 0)
    log = [(0, {"type": "take", "n": 1}), (1, {"type": "take", "n": 2})]
    assert undo_point(nim, start, log, 0, along={1}) == 0
    with pytest.raises(UndoRefused, match="own last action"):
        undo_point(nim, start, log, 0)  # seat 1 is a person: its action is not taken back for seat 0
    assert undo_point(nim, start, log, 1) == 1
    duel = SealedDuel()
    s0 = duel.initial_state(duel.normalize_config({}), 4)
    assert undo_point(duel, s0, [(0, {"type": "bid", "amount": 2})], 0) == 0  # sealed, nothing revealed yet
    with pytest.raises(UndoRefused, match="hidden information"):  # the opponent's bid is revealed in the history
        undo_point(duel, s0, [(1, {"type": "bid", "amount": 1}), (0, {"type": "bid", "amount": 3})], 0, along={1})
    with pytest.raises(UndoRefused, match="dice were rolled"):  # equal bids: a die decides
        undo_point(duel, s0, [(1, {"type": "bid", "amount": 2}), (0, {"type": "bid", "amount": 2})], 0, along={1})


def test_hot_seat_hands_the_screen_over_between_sealed_decisions(monkeypatch, capsys) -> None:
    """Two people at one keyboard in a game with sealed bids: each bid is preceded by a hand-over line naming
    the seat and saying it is sealed; the other seat's bid never appears before both are in."""
    duel = SealedDuel()
    match = Match(game=duel.id, config=duel.normalize_config({"rounds": 1}), seed=1)
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\n2\nquit\n"))
    assert Terminal(duel, match, ["human", "human"]).run() == 0
    out = capsys.readouterr().out
    first, second = out.split("==== ")[1:3]
    assert first.startswith("seat 0 (human): a sealed decision") and second.startswith("seat 1 (human): a sealed decision")
    assert "'amount': 3" not in second and '"amount": 3' not in second  # seat 0's bid (number 4 = amount 3) stays sealed
    assert "Game over (points)" in out and match.log[0].action == {"type": "bid", "amount": 3}


def test_load_continues_a_saved_match_with_its_seats(monkeypatch, capsys, tmp_path) -> None:
    save = tmp_path / "f.json"
    play(monkeypatch, capsys, ["play", "fullmetal", "--seats", "human,random", "--seed", "4", "--save", str(save)],
         "1\nquit\n")
    before = len(json.loads(save.read_text())["log"])
    out = play(monkeypatch, capsys, ["play", "fullmetal", "--load", str(save)], "view\nquit\n")
    assert "AI: seat 1 random" in out and "continue with --load" in out
    assert len(json.loads(save.read_text())["log"]) >= before
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "arena", "--load", str(save)]) == 2
    assert "is a saved match of another game (fullmetal)" in capsys.readouterr().err
