"""Game flow, views and the terminal CLI (FM-6.1, FM-7.1, FM-8.1, FM-9.1, FM-20.1, hidden information)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacetable.cli import main
from spacetable.core.errors import ConfigError, RuleError
from spacetable.core.match import Match
from spacetable.core.rng import Rng
from spacetable.games import get_game
from spacetable.games.fullmetal.ai import AGENTS, DEFAULT_AGENT
from spacetable.games.fullmetal.game import GAME
from spacetable.games.fullmetal.render import cover_text, svg_board


def start(seed: int = 1, players: int = 2, **cfg: object):
    config = GAME.normalize_config({"players": players, **cfg})
    s = GAME.initial_state(config, seed)
    while s.phase in ("land", "deploy"):
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.legal_actions(s, p)[0])
    return s


def test_registry_and_presets() -> None:
    """The game is registered; presets fill options the caller did not set (rules doc, "Variants")."""
    assert get_game("fullmetal") is GAME
    fmg = GAME.normalize_config({"preset": "fmg"})
    assert fmg["tide_generator"] == "random_walk" and fmg["endgame"] == "fmg"
    assert GAME.normalize_config({"preset": "fmg", "endgame": "original"})["endgame"] == "original"
    assert GAME.normalize_config({})["landing_min_distance"] == 10
    with pytest.raises(ConfigError):
        GAME.normalize_config({"preset": "nope"})
    with pytest.raises(ConfigError):
        GAME.initial_state(GAME.normalize_config({"landing_rule": "zones"}), 1)


@pytest.mark.rule("FM-6.1", "FM-5.1", "FM-7.1", "FM-8.1", "FM-9.1")
def test_fm_6_flow_landing_deploy_and_turn_3_income() -> None:
    """FM-6.1, FM-7, FM-8, FM-9.1: lot-order landing, simultaneous deployment, turn 3 with 5 AP."""
    s = GAME.initial_state(GAME.normalize_config({"players": 3}), 4)
    assert s.phase == "land" and sorted(s.land_order) == [0, 1, 2]
    assert GAME.to_act(s) == (s.land_order[0],)
    with pytest.raises(RuleError):
        GAME.apply(s, s.land_order[0], {"type": "end_turn"})
    s = start(4, 3)
    assert s.phase == "play" and s.turn == 3
    p = s.active_player()
    assert s.pool[p] == 5
    assert sorted(s.order) == [0, 1, 2]


@pytest.mark.rule("FM-8.1", "FM-D5")
def test_fm_8_deploy_is_sealed_in_views() -> None:
    """FM-D5: a submitted deployment is hidden from the other players until reveal."""
    s = GAME.initial_state(GAME.normalize_config({}), 2)
    while s.phase == "land":
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.legal_actions(s, p)[0])
    a = GAME.legal_actions(s, 0)[0]
    s2 = GAME.apply(s, 0, a)
    assert GAME.view(s2, 1)["sealed"]["own"] is None
    assert GAME.view(s2, 0)["sealed"]["own"] == a["units"]
    assert GAME.action_view(s, 0, a, 1) == {"type": "deploy", "sealed": True}
    with pytest.raises(RuleError):
        GAME.apply(s2, 0, a)


def test_views_hide_deck_and_other_forecasts() -> None:
    """Hidden information: forecasts are private; deck order, set-aside cards and RNG never appear in a view."""
    s = start(3)
    s.forecasts[0] = {s.turn + 1: "high"}
    s.forecasts[1] = {s.turn + 1: "high", s.turn + 2: "low"}
    v0 = GAME.view(s, 0)
    v1 = GAME.view(s, 1)
    spectator = GAME.view(s, None)
    assert v0["forecast"] == {str(s.turn + 1): "high"}
    assert len(v1["forecast"]) == 2
    assert "forecast" not in spectator
    for v in (v0, v1, spectator):
        text = json.dumps(v)
        assert "pile" not in v and "aside" not in v and "rng" not in text


def test_determinize_keeps_own_forecast() -> None:
    """Hidden information: determinization keeps the seat's forecast and resamples the rest."""
    s = start(3)
    s.forecasts[0] = {s.turn + 1: s.pile[0]}
    for k in range(5):
        d = GAME.determinize(s, 0, Rng.from_seed(k))
        assert d.pile[0] == s.pile[0]
        assert sorted(d.pile + d.aside) == sorted(s.pile + s.aside)
        assert d.forecasts[1] == {}


def test_text_and_svg_views() -> None:
    """The compact text view and the SVG board render a position."""
    s = start(2)
    text = GAME.render_text(s, 0)
    assert "turn 3" in text and "S0" in text
    svg = svg_board(s, 0, cover_for=0)
    assert svg.startswith("<svg") and svg.count("<polygon") >= 828


def test_notation_round_trip() -> None:
    """Text notation parses back to the same action."""
    s = start(2)
    for a in GAME.legal_actions(s, s.active_player())[:50]:
        assert GAME.parse_action(s, 0, GAME.action_text(s, 0, a)) == a


def test_cli_play_with_piped_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`spacetable play fullmetal` works with piped stdin (AI seats play, human input ends cleanly)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("0\n0\nend\nauto\nquit\n"))
    rc = main(["play", "fullmetal", "--seats", "human,greedy", "--seed", "3"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Full Metal Planète" in out


def test_ai_registry() -> None:
    """The server's AI registry convention."""
    assert DEFAULT_AGENT in AGENTS
    agent = AGENTS[DEFAULT_AGENT](1, 0.5)
    s = start(5)
    a = agent.choose(GAME, s, s.active_player())
    GAME.apply(s, s.active_player(), a)


@pytest.mark.rule("FM-D21", "FM-20.6")
def test_resign_eliminates() -> None:
    """FM-D21: resign deactivates the player's colours and eliminates them."""
    s = start(6)
    p = s.active_player()
    s2 = GAME.apply(s, p, {"type": "resign"})
    assert s2.eliminated[p] >= 0 and p not in s2.controller
    assert s2.active_player() != p


@pytest.mark.rule("FM-22.1")
def test_fm_22_clock_expiry() -> None:
    """FM-22.1: expiry lands at a random legal site, deploys nothing, ends the turn, stays at turn 21."""
    def expire(s):
        for seat in GAME.to_act(s):
            s = GAME.apply(s, seat, GAME.timeout_action(s, seat))
        return s

    s = GAME.initial_state(GAME.normalize_config({"turn_clock_s": 180}), 8)
    s = expire(s)
    s = expire(s)
    assert s.phase == "deploy"
    s = expire(s)
    assert s.phase == "play" and s.turn == 3
    p = s.active_player()
    s = expire(s)
    assert s.active_player() != p
    assert all(u.carrier >= 0 for u in s.units.values() if u.kind == "tank")


def test_determinize_keeps_the_seat_view() -> None:
    """Hidden information: a determinized state looks the same to the seat (sealed commits still 'committed')."""
    s = GAME.initial_state(GAME.normalize_config({}), 9)
    while s.phase == "land":
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.legal_actions(s, p)[0])
    s = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    d = GAME.determinize(s, 1, Rng.from_seed(3))
    assert GAME.view(d, 1) == GAME.view(s, 1)
    assert d.sealed.commits[0] == []


def test_match_save_and_replay(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Core `Match` replays a fullmetal game bit-exactly (config + seed + log)."""
    m = Match.new(GAME, {"players": 2}, 21)
    s = m.initial_state()
    agent = AGENTS["greedy"](1, 0.1)
    for _ in range(60):
        p = GAME.to_act(s)[0]
        s = m.play(s, p, agent.choose(GAME, s, p))
    path = tmp_path / "m.json"
    m.save(path)
    again = Match.load(path).attach(GAME)
    states = list(again.states())
    assert GAME.state_to_json(states[-1]) == GAME.state_to_json(s)


@pytest.mark.rule("FM-D21", "FM-D40")
def test_resign_during_landing_lets_the_others_play() -> None:
    """FM-D21: a player who resigns before landing is out; the others land, deploy and play."""
    s = GAME.initial_state(GAME.normalize_config({"players": 3}), 12)
    quitter = GAME.to_act(s)[0]
    s = GAME.apply(s, quitter, {"type": "resign"})
    while s.phase in ("land", "deploy"):
        p = GAME.to_act(s)[0]
        assert p != quitter
        s = GAME.apply(s, p, GAME.legal_actions(s, p)[0])
    assert s.phase == "play" and quitter not in s.order and len(s.order) == 2


@pytest.mark.rule("FM-D21")
@pytest.mark.parametrize("phase", ["land", "deploy"])
def test_everyone_resigning_ends_the_game(phase: str) -> None:
    """FM-D21: when every player has resigned (here while landing, or in the sealed deployment, where nobody had
    sealed), nobody is left to act and the game is over with an outcome (it used to wait for nobody forever)."""
    s = GAME.initial_state(GAME.normalize_config({"players": 2}), 3)
    while s.phase != phase:
        p = GAME.to_act(s)[0]
        s = GAME.apply(s, p, GAME.legal_actions(s, p)[0])
    first = GAME.to_act(s)[0]
    s = GAME.apply(s, first, {"type": "resign"})
    second = 1 - first
    assert s.phase != "over" and GAME.outcome(s) is None
    s = GAME.apply(s, second, {"type": "resign"})
    assert s.phase == "over" and GAME.to_act(s) == ()
    out = GAME.outcome(s)
    assert out is not None and out.winners == (second,)  # the one who stayed longer ranks first


def test_cli_ai_game_and_simulate(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`spacetable play fullmetal` with AI seats only plays a whole game; `simulate` reports wins; SVG/.fmp outputs."""
    svg = tmp_path / "b.svg"
    assert main(["play", "fullmetal", "--seats", "greedy,commander", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    fmp = tmp_path / "m.fmp"
    assert main(["simulate", "fullmetal", "--games", "1", "--players", "3", "--seats", "commander", "--save-map", str(fmp),
                 "--svg", str(svg)]) == 0
    assert "wins per seat" in capsys.readouterr().out
    assert fmp.read_bytes().startswith(b"<FMP Format=4") and svg.read_text().startswith("<svg")


@pytest.mark.hotpath
@given(st.lists(st.integers(min_value=-3, max_value=300), max_size=64))
def test_cover_text_writes_each_count_as_its_digit_capped_at_nine(row: list[int]) -> None:
    """The view's cover grid (FM-15.2): one digit per cell, nine or more as 9, whatever the counts."""
    assert cover_text(row) == "".join(str(min(9, c)) for c in row)
