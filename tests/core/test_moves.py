"""The declared move table: strict schemas, windows, resign as a core move, JSON Schema."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

import pytest
from pydantic import Field

from spacetable.core.errors import RuleError
from spacetable.core.moves import Count, Move, MoveTable, Name, Params, bounded_list, check_json_action


@dataclass
class Toy:
    phase: str = "play"
    log: list[tuple[int, str]] = field(default_factory=list)
    resigned: list[int] = field(default_factory=list)


class StepParams(Params):
    unit: Count
    path: bounded_list(Name, 4, 1)  # type: ignore[valid-type]


def _step(s: Toy, seat: int, a: dict) -> None:
    if a["unit"] == 13:
        raise RuleError("TOY-2", "unit 13 never moves")
    s.log.append((seat, "step"))


def _after(s: Toy, seat: int, move: Move, a: dict) -> None:
    s.log.append((seat, "after " + move.type))


TABLE = MoveTable(
    "toy",
    [Move("step", "TOY-1", _step, StepParams, phases=("play",), notation=lambda s, p, a: f"u{a['unit']}"),
     Move("setup", "TOY-0", lambda s, p, a: None, phases=("setup",))],
    phase_of=lambda s: s.phase, after=_after, phase_rule={"play": "TOY-9"},
    resign=lambda s, p, a: s.resigned.append(p), may_resign=lambda s, p: p in (0, 1),
)


def play(state: Toy, seat: int, action: object, to_act: tuple[int, ...] = (0,)) -> Toy:
    return TABLE.play(state, seat, action, to_act=to_act, copy=copy.deepcopy)[0]


def test_normalize_puts_type_first_and_keeps_declared_fields():
    assert list(TABLE.normalize({"path": ["a1"], "unit": 2, "type": "step"})) == ["type", "unit", "path"]


@pytest.mark.parametrize("bad", [
    [], "step", {"unit": 1}, {"type": 3}, {"type": "fly"},
    {"type": "step", "unit": 1, "path": ["a"], "pad": "x"},
    {"type": "step", "unit": True, "path": ["a"]},
    {"type": "step", "unit": 1.5, "path": ["a"]},
    {"type": "step", "unit": "1", "path": ["a"]},
    {"type": "step", "unit": 1, "path": []},
    {"type": "step", "unit": 1, "path": ["a"] * 5},
    {"type": "step", "unit": 1, "path": ["x" * 65]},
    {"type": "step", "unit": 1, "path": [float("inf")]},
    {"type": "step", "unit": 1, "path": ["\ud800"]},
    {"type": "step", "unit": 10**7, "path": ["a"]},
])
def test_malformed_actions_are_core_action_errors(bad):
    with pytest.raises(RuleError) as err:
        TABLE.normalize(bad)
    assert err.value.rule == "CORE-ACTION"


def test_deep_or_huge_actions_are_refused_before_the_schema():
    deep: object = 1
    for _ in range(50):
        deep = [deep]
    with pytest.raises(RuleError, match="nests"):
        check_json_action({"type": "x", "v": deep})
    with pytest.raises(RuleError, match="at most"):
        check_json_action({"type": "x", "v": list(range(5000))})


def test_play_checks_turn_phase_rule_and_runs_the_flow_hook():
    s = Toy()
    out = play(s, 0, {"type": "step", "unit": 1, "path": ["a"]})
    assert out.log == [(0, "step"), (0, "after step")] and s.log == []
    with pytest.raises(RuleError) as err:
        play(s, 1, {"type": "step", "unit": 1, "path": ["a"]})
    assert err.value.rule == "CORE-TURN"
    with pytest.raises(RuleError) as err:
        play(s, 0, {"type": "setup"})
    assert err.value.rule == "TOY-9"
    with pytest.raises(RuleError) as err:
        play(s, 0, {"type": "step", "unit": 13, "path": ["a"]})
    assert err.value.rule == "TOY-2" and s.log == []


def test_resign_is_a_core_move_out_of_turn_and_skips_the_flow_hook():
    s = play(Toy(), 1, {"type": "resign"}, to_act=(0,))
    assert s.resigned == [1] and s.log == []
    with pytest.raises(RuleError) as err:
        play(Toy(), 5, {"type": "resign"})
    assert err.value.rule == "CORE-RESIGN"
    with pytest.raises(RuleError) as err:
        play(Toy(phase="over"), 0, {"type": "resign"})
    assert err.value.rule == "CORE-TURN"


def test_declarations_give_rules_text_phrases_and_json_schema():
    assert TABLE.rules() == {"step": "TOY-1", "setup": "TOY-0", "resign": "CORE-RESIGN"}
    assert TABLE.notation(Toy(), 0, {"type": "step", "unit": 4, "path": ["a"]}) == "u4"
    assert TABLE.phrase(Toy(), 0, {"type": "setup"}) == ("toy.move.setup", {})
    schema = TABLE.json_schema()
    step = next(v for v in schema["oneOf"] if v["title"] == "step")
    assert step["additionalProperties"] is False and step["required"] == ["type", "unit", "path"]
    assert step["properties"]["path"]["maxItems"] == 4
    with pytest.raises(ValueError):
        MoveTable("dup", [Move("a", "R", _step), Move("a", "R", _step)], phase_of=lambda s: "play")


def test_i18n_renders_nested_phrases_and_falls_back_to_english():
    from spacetable.core.i18n import LANGUAGES, catalog, phrase, render

    pk = ("spacetable.core",)
    assert render(pk, "core.move.resign", {}, "fr") == "abandonne"
    assert render(pk, "core.move.resign", {}, "xx") == "resigns"
    assert render(pk, "no.such.key", {"a": 1}, "ru") == "no.such.key a=1"
    assert render(pk, "no.such.key", {"a": phrase("core.move.resign")}, "nl") == "no.such.key a=geeft op"
    keys = set(catalog("spacetable.core", "en"))
    for lang in LANGUAGES:
        assert set(catalog("spacetable.core", lang)) == keys, lang


class HopParams(Params):
    from_: Name = Field(alias="from")
    to: Name


def test_a_field_named_after_a_keyword_keeps_its_json_name():
    table = MoveTable("hop", [Move("hop", "HOP-1", lambda s, p, a: s.log.append((p, a["from"])), HopParams)],
                      phase_of=lambda s: s.phase)
    assert table.normalize({"to": "b", "from": "a", "type": "hop"}) == {"type": "hop", "from": "a", "to": "b"}
    with pytest.raises(RuleError) as err:
        table.normalize({"type": "hop", "from_": "a", "to": "b"})
    assert err.value.rule == "CORE-ACTION"
    hop = next(v for v in table.json_schema()["oneOf"] if v["title"] == "hop")
    assert hop["required"] == ["type", "from", "to"]
    assert table.play(Toy(), 0, {"type": "hop", "from": "a", "to": "b"}, to_act=(0,), copy=copy.deepcopy)[0].log == [(0, "a")]


def test_the_core_resign_move_is_written_resign():
    assert TABLE.notation(Toy(), 0, {"type": "resign"}) == "resign"
    assert TABLE.phrase(Toy(), 0, {"type": "resign"}) == ("core.move.resign", {})


@pytest.mark.hotpath
@pytest.mark.parametrize("game_id", ["arena", "fullmetal", "galaxies", "tremble", "worlds"])
def test_apply_normal_plays_as_apply_and_validates_once(game_id, monkeypatch):
    """``Game.apply_normal`` (issue 26): for an action that ``normalize_action`` returned, the same state as
    ``apply``, with the schema checked once (by the server, before its lock) instead of twice; a game that
    overrides ``apply`` (Tremble) goes through it."""
    from spacetable.games import get_game

    game = get_game(game_id)
    state = game.initial_state(game.normalize_config({}), 7)
    calls = []
    real = MoveTable.normalize
    monkeypatch.setattr(MoveTable, "normalize", lambda self, a: (calls.append(1), real(self, a))[1])
    rng = random.Random(3)
    for _ in range(12):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        action = game.normalize_action(rng.choice(game.legal_actions(state, seat)))
        calls.clear()
        after = game.apply_normal(state, seat, action)
        again = len(calls)
        assert game.state_to_json(after) == game.state_to_json(game.apply(state, seat, action))
        assert again == (1 if "apply" in type(game).__dict__ else 0)
        state = after
