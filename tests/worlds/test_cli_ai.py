"""CLI commands and the advisor AI (WS-8 play, WS-9 odds, WS-10 advise, WS-10.9 re-planning AI)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from spacetable.ai.base import RandomAgent, play_game
from spacetable.cli import main
from spacetable.core.match import Match
from spacetable.games.worlds import GAME
from spacetable.games.worlds.ai import AGENTS, DEFAULT_AGENT, AdvisorAgent
from spacetable.games.worlds.cli import check_file
from spacetable.games.worlds.scenario import load

SCEN = Path(__file__).resolve().parents[2] / "spacetable/games/worlds/scenarios/s1-example.json"
CHECKS = Path(__file__).resolve().parents[2] / "spacetable/games/worlds/checks"


@pytest.mark.rule("WS-9.4", "WS-A2")
def test_ws_9_odds_cli_prints_the_seed_example(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """WS-9.4 / WS-A2 through the CLI: fractions, percentages and a plot."""
    png = tmp_path / "odds.png"
    assert main(["odds", "worlds", "--scenario", str(SCEN), "--side", "grey", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "47/72" in out and "5/324" in out and "215/648" in out and "65.28%" in out
    assert "combat chapter" in out
    assert png.exists() and png.stat().st_size > 1000


@pytest.mark.rule("WS-9.1", "WS-A11")
def test_ws_9_odds_cli_json_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """WS-9.1: a worlds-odds/1 file with explicit battles (WS-A11 numbers)."""
    f = tmp_path / "sun.json"
    f.write_text(json.dumps({"format": "worlds-odds/1", "sides": ["A", "D"], "battles": [{"s": {"P": 2}, "o": {"P": 1}}]}))
    assert main(["odds", "worlds", "--scenario", str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["p_s_wins"]["fraction"] == "13/18" and data["p_no_winner"]["fraction"] == "1/9"


@pytest.mark.rule("WS-10.8", "WS-A4", "WS-A6")
def test_ws_10_advise_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """WS-10.8 through the CLI: WS-A4 (grey, given allocation) and WS-A6 (white, best-response)."""
    assert main(["advise", "worlds", "--scenario", "s1-example", "--side", "grey", "--json"]) == 0
    a4 = json.loads(capsys.readouterr().out)
    assert a4["value"]["objective"] == "47/72"
    assert [b["event"] for b in a4["battles"]] == ["MG", None] and [b["energy"] for b in a4["battles"]] == [3, 0]
    assert main(["advise", "worlds", "--scenario", "s1-example", "--opponent", "best-response", "--json"]) == 0
    a6 = json.loads(capsys.readouterr().out)
    assert a6["value"]["objective"] == "215/648" and a6["opponent_response"][0]["event"] == "MG"
    assert main(["advise", "worlds", "--scenario", "s1-example", "--objective", "losses"]) == 0
    assert "co-optimal" in capsys.readouterr().out


@pytest.mark.rule("WS-8.1", "WS-A1", "WS-0.3", "WS-D19")
def test_ws_8_play_cli_with_piped_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """WS-8 / WS-A1: the seed's example played hot seat through the terminal with piped input, then saved
    and replayable; a scenario file is given with --scenario-json."""
    scen = load("s1-example")
    scen["dice_script"] = [[2, 3], [2, 6]]
    f = tmp_path / "s1.json"
    f.write_text(json.dumps(scen))
    alloc = "alloc grey.X.w1.P1=white.X.w1.P1,white.X.w1.P2,white.X.w1.F1;grey.X.w1.F1=white.X.w1.P3,white.X.w1.F2"
    lines = [
        "declare X.w1",
        alloc,
        "event MG",
        "energy 0",
        "energy 9",
        "energy 3",
        "retreat",
        "convert white.X.w1.F1",
        "end",
        "end",
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    save = tmp_path / "match.json"
    assert main(["play", "worlds", "--scenario-json", str(f), "--vs", "human", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "illegal: [WS-5.3]" in out  # energy 9 was rejected, then 3 accepted
    assert "grey wins" in out and "converts Factory white.X.w1.F1" in out
    assert "combat chapter" in out and "==== seat 1 (human)" in out

    saved = Match.load(save)
    assert saved.config["scenario_json"]["dice_script"] == [[2, 3], [2, 6]]
    final = GAME.initial_state(saved.config, saved.seed)
    for e in saved.log:
        final = GAME.apply(final, e.player, e.action)
    assert sorted(p.id for p in final.pieces if p.owner == 1) == ["grey.X.w1.F1", "white.X.w1.F1"]


@pytest.mark.rule("WS-8.2")
def test_ws_8_play_cli_vs_ai_stops_at_end_of_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """WS-8: --vs ai; end of piped input stops cleanly."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert main(["play", "worlds", "--scenario", "sun-orbit", "--vs", "ai", "--seat", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "AI (advised) plays: amber:" in out and "input ended" in out


@pytest.mark.rule("WS-10.9")
def test_ws_10_9_ai_registry_and_default() -> None:
    """WS-10.9: the hard level (search with the advisor in the combats) is the default agent (issue 13: the advisor
    alone rates below it); the advisor AI plays legal moves to the end."""
    assert DEFAULT_AGENT == "advised" and set(AGENTS) >= {"advised", "search", "advisor", "random"}
    assert AGENTS[DEFAULT_AGENT](1, 0.5).name == "advised" and AGENTS["advisor"](1, 0.5).name == "advisor"
    for scenario in ("s1-example", "native-uprising", "border-worlds"):
        final, log = play_game(GAME, [AGENTS["advisor"](1, 0.5), RandomAgent(2)], {"scenario": scenario}, seed=4)
        assert GAME.outcome(final) is not None and log


@pytest.mark.rule("WS-10.9", "WS-D12")
def test_ws_10_9_ai_replans_and_follows_the_advisor_in_the_seed_example() -> None:
    """WS-10.9: as grey in A1 (white allocated S1's split), the AI plays MG in battle 1 and re-plans the energy."""
    st = GAME.from_scenario(load("s1-example"))
    st = GAME.apply(st, 0, {"type": "declare_combat", "card": "X.w1"})
    st = GAME.apply(
        st,
        0,
        {
            "type": "allocate",
            "battles": [
                {"anchor": "grey.X.w1.P1", "pieces": ["white.X.w1.P1", "white.X.w1.P2", "white.X.w1.F1"]},
                {"anchor": "grey.X.w1.F1", "pieces": ["white.X.w1.P3", "white.X.w1.F2"]},
            ],
        },
    )
    ai = AdvisorAgent(0)
    assert ai.choose(GAME, st, 1) == {"type": "play_event", "card": "MG"}
    st = GAME.apply(st, 1, {"type": "play_event", "card": "MG"})
    energy = ai.choose(GAME, st, 1)
    assert energy["type"] == "commit_energy" and energy["amount"] in (0, 3)
    assert ai.last_advice is not None and ai.last_advice.value["p_win"] > 0


@pytest.mark.rule("WS-10.9")
def test_ws_10_9_ai_beats_random_on_average() -> None:
    """WS-10.9: over a few seeded skirmishes the advisor AI scores at least as much material as a random player."""
    diff = 0.0
    for seed in range(4):
        for ai_seat in (0, 1):
            agents = [RandomAgent(seed), RandomAgent(seed + 7)]
            agents[ai_seat] = AdvisorAgent(seed)  # type: ignore[call-overload]
            final, _ = play_game(GAME, agents, {"scenario": "native-uprising"}, seed=seed)
            m = GAME.material(final)
            diff += m[ai_seat] - m[1 - ai_seat]
    assert diff >= 0


@pytest.mark.rule("WS-A1")
def test_ws_a1_check_file(capsys: pytest.CaptureFixture[str]) -> None:
    """WS-A1 as a `spacetable check` step file: every step passes, and a wrong expectation fails."""
    assert main(["check", "worlds"]) == 0
    assert "FAIL" not in capsys.readouterr().out
    path = CHECKS / "ws_a1.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert check_file(str(path), data) == 0
    assert "FAIL" not in capsys.readouterr().out
    data["steps"][-1]["expect"]["pieces"]["X.w1"]["grey"]["F"] = 1
    assert check_file(str(path), data) == 1
    assert "FAIL" in capsys.readouterr().out
