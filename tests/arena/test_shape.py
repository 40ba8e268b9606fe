"""The shape of the arena package (declared moves with strict schemas, sentences in four languages,
the phases of flow.py, a one-way import order, the written-out clone, rule-id traceability) and the
rules that no acceptance scenario names on its own."""

from __future__ import annotations

import ast
import copy
import itertools
import json
from pathlib import Path

import pytest

from spacetable.core.errors import RuleError
from spacetable.core.i18n import LANGUAGES, catalog
from spacetable.core.rng import Rng
from spacetable.core.serial import action_key
from spacetable.games.arena import GAME
from spacetable.games.arena.ai import AGENTS
from spacetable.games.arena.board import (
    CLASS_NAMES,
    CODES,
    CORVETTE,
    CRUISER,
    DESTROYERS,
    FACES,
    FRIGATES,
    complement,
    ship_class,
    successor,
)
from spacetable.games.arena.game import MOVES
from spacetable.games.arena.teleports import TELEPORTS, members
from spacetable.ruleindex import lint, report

from .arena_helpers import make, play, ships_on, texts

PACKAGE = Path(GAME.__class__.__module__.replace(".", "/")).parent
ROOT = Path(__file__).resolve().parents[2]


def _random_states(configs: list[dict], games: int = 3, plies: int = 60) -> list:
    out = []
    for i, (cfg, _) in enumerate(itertools.product(configs, range(games))):
        st = GAME.initial_state(GAME.normalize_config(cfg), 100 + i)
        rng = Rng(i)
        for _ in range(plies):
            out.append(st)
            seats = GAME.to_act(st)
            if not seats:
                break
            legal = GAME.legal_actions(st, seats[0])
            st = GAME.apply(st, seats[0], legal[rng.randbelow(len(legal))])
    return out


CONFIGS = [{"board": "6x4"}, {"board": "5x5"}, {"setup": "free"},
           {"board": "5x5", "setup": "free", "placement": "simultaneous", "home": "wide"}]


# ------------------------------------------------------------------------ rules without a scenario
@pytest.mark.rule("AR-1.1", "AR-1.4", "AR-1.5", "AR-1.6")
def test_components_ships_classes_and_pairs() -> None:
    assert (GAME.min_players, GAME.max_players) == (2, 2) and FACES == ("6x4", "5x5")
    st = GAME.initial_state(GAME.normalize_config({"red_seat": 0}), 1)
    assert [len(row) for row in st.loc] == [8, 8]
    assert sorted(CODES) == sorted("".join(p) for p in itertools.product("12", repeat=3))
    names = {code: CLASS_NAMES[ship_class(i)] for i, code in enumerate(CODES)}
    assert names == {"111": "corvette", "222": "cruiser", "112": "frigate", "121": "frigate", "211": "frigate",
                     "122": "destroyer", "212": "destroyer", "221": "destroyer"}
    pairs = {(CODES[i], CODES[complement(i)]) for i in range(8) if i < complement(i)}
    assert pairs == {("111", "222"), ("112", "221"), ("121", "212"), ("122", "211")}
    assert all(int(a) + int(b) == 333 for a, b in pairs)


@pytest.mark.rule("AR-7.2", "AR-7.6")
def test_rotation_cycles_never_touch_corvette_or_cruiser() -> None:
    assert [CODES[s] for s in (1, successor(1), successor(successor(1)))] == ["112", "121", "211"]
    assert [CODES[s] for s in (3, successor(3), successor(successor(3)))] == ["122", "221", "212"]
    assert set(FRIGATES) | set(DESTROYERS) == {1, 2, 3, 4, 5, 6}
    for name in TELEPORTS[4:]:
        assert CORVETTE not in members(name) and CRUISER not in members(name)
    st = make("6x4 111a1,222b1,112c1,121d1,211a2 111d6 r 0 -")
    for name in ("RF+", "RF-"):
        after = play(st, name)
        assert ships_on(after, 0)["111"] == "a1" and ships_on(after, 0)["222"] == "b1"


@pytest.mark.rule("AR-2.1", "AR-2.3")
def test_board_option_and_both_setups_are_offered() -> None:
    opts = {o.name: o for o in GAME.options()}
    assert opts["board"].default == "6x4" and set(opts["board"].choices) == {"6x4", "5x5"}
    assert set(opts["setup"].choices) == {"default", "free"}
    for board in FACES:
        assert GAME.initial_state(GAME.normalize_config({"board": board}), 1).phase == "play"
        assert GAME.initial_state(GAME.normalize_config({"board": board, "setup": "free"}), 1).phase == "place"


@pytest.mark.rule("AR-0.2")
def test_the_name_is_presented_as_a_working_title() -> None:
    doc = (ROOT / "docs" / "rules" / "arena.md").read_text(encoding="utf-8")
    assert GAME.name == "Cosmic Arena" and "working title" in doc.split("\n\n")[1]
    assert "working title" in (ROOT / PACKAGE / "__init__.py").read_text(encoding="utf-8")


@pytest.mark.rule("AR-3.1", "AR-4.6")
def test_turns_alternate_without_passing_and_moves_have_no_memory(default6) -> None:
    st = default6
    for text, mover in (("a2-a3", 0), ("a5-a4", 1), ("a3-a2", 0), ("a4-a5", 1)):
        assert st.to_move == mover and "pass" not in {a["type"] for a in GAME.legal_actions(st, st.seat_of(mover))}
        st = play(st, text)  # a3-a2 and a4-a5 return to cells left two plies earlier
    assert st.loc == default6.loc and st.plies == 4


@pytest.mark.rule("AR-D4")
def test_rotation_direction_is_the_players_choice() -> None:
    st = make("6x4 111a1,112c1,121d1,211a2 111d6 r 0 -")
    assert {"RF+", "RF-"} <= set(texts(st))
    assert play(st, "RF+").loc != play(st, "RF-").loc


@pytest.mark.rule("AR-D5", "AR-8.2")
def test_bonus_scope_sideways_capture_and_banishing_the_moved_ship() -> None:
    st = make("6x4 111a1,221c5,112b2,122d6 111a6,112c6 r 0 -")
    assert {"d6xc6/P122", "c5xc6/P112"} <= set(texts(st))  # a sideways step along the row and a capture
    recall = make("5x5 111a1,211d4,112b2 111a5,121e5 r 0 -")
    after = play(recall, "d4-d5/P122")  # the moved 211 is banished and its complement 122 takes its cell
    assert ships_on(after, 0).get("122") == "d5" and "211" not in ships_on(after, 0)


@pytest.mark.rule("AR-D6", "AR-4.4")
def test_a_move_is_origin_and_destination_whatever_the_path() -> None:
    st = make("5x5 111a1,211c3 111e5 r 0 -")
    moves = [t for t in texts(st) if t.startswith("c3")]
    assert len(moves) == len(set(moves)) == 12 and "c3-b4" in moves  # b4 is reached through b3 or c4, listed once


@pytest.mark.rule("AR-D9", "AR-10.7")
def test_repeating_positions_is_no_rule_only_the_quiet_limit_ends(default6) -> None:
    st = default6
    cycle = ["a2-a3", "a5-a4", "a3-a2", "a4-a5"]
    for i in range(39):
        st = play(st, cycle[i % 4])
        assert GAME.outcome(st) is None  # the start position has come back nine times
    st = play(st, cycle[39 % 4])
    out = GAME.outcome(st)
    assert out is not None and out.kind == "quiet_limit" and st.plies == 40


# ------------------------------------------------------------------------ declared moves
def test_every_action_type_is_declared_once_with_rule_window_schema_and_text() -> None:
    assert MOVES.types() == ["move", "permute", "rotate", "accept_end", "place", "layout", "resign"]
    assert MOVES.rules() == {"move": "AR-3.2", "permute": "AR-6.1", "rotate": "AR-7.1", "accept_end": "AR-10.4",
                             "place": "AR-2.7", "layout": "AR-2.7", "resign": "CORE-RESIGN"}
    assert all(m.notation is not None for m in MOVES)
    schema = GAME.action_schema()
    move = next(v for v in schema["oneOf"] if v["title"] == "move")
    assert move["required"] == ["type", "from", "to"] and move["additionalProperties"] is False
    assert set(move["properties"]) == {"type", "from", "to", "bonus", "offer_end"}
    json.dumps(schema)


@pytest.mark.parametrize("bad", [
    {"type": "move", "from": "a2", "to": "a3", "pad": 1},
    {"type": "move", "from": 2, "to": "a3"},
    {"type": "move", "from": "a2"},
    {"type": "move", "from": "a2", "to": "a3", "offer_end": "yes"},
    {"type": "move", "from": "a2", "to": "a3", "bonus": {"type": "move", "from": "b2", "to": "b3"}},
    {"type": "move", "from": "a2", "to": "a3", "bonus": {"type": "permute", "pair": "P111", "offer_end": True}},
    {"type": "permute", "pair": "P222"},
    {"type": "rotate", "cls": "F", "dir": "*"},
    {"type": "place", "ship": "333", "cell": "a1"},
    {"type": "layout", "cells": ["a1", "111"]},
    {"type": "accept_end", "offer_end": True},
    {"type": "resign", "why": "tired"},
    {"type": "fly"},
])
def test_schemas_are_strict(default6, bad: dict) -> None:
    with pytest.raises(RuleError) as err:
        GAME.apply(default6, 0, bad)
    assert err.value.rule == "CORE-ACTION"


def test_normal_form_keeps_the_json_names() -> None:
    assert GAME.normalize_action({"to": "a3", "from": "a2", "type": "move"}) == {"type": "move", "from": "a2", "to": "a3"}


@pytest.mark.rule("AR-2.7", "AR-10.4")
def test_windows_of_placement_and_play(default6) -> None:
    free = GAME.initial_state(GAME.normalize_config({"setup": "free", "red_seat": 0}), 1)
    for state, action, rule in (
        (free, {"type": "move", "from": "a1", "to": "a2"}, "AR-2.7"),
        (free, {"type": "accept_end"}, "AR-2.7"),
        (free, {"type": "place", "ship": "111", "cell": "a1", "offer_end": True}, "AR-10.4"),
        (free, {"type": "layout", "cells": {}}, "AR-2.7"),
        (default6, {"type": "place", "ship": "111", "cell": "a3"}, "AR-2.7"),
    ):
        with pytest.raises(RuleError) as err:
            GAME.apply(state, 0, action)
        assert err.value.rule == rule, action
    over = GAME.apply(default6, 1, {"type": "resign"})
    with pytest.raises(RuleError) as err:
        GAME.apply(over, 0, {"type": "move", "from": "a2", "to": "a3"})
    assert err.value.rule == "CORE-TURN"
    assert GAME.action_text(default6, 1, {"type": "resign"}) == "resign"


def test_sentences_exist_in_every_language_for_every_listed_action() -> None:
    keys = set(catalog("spacetable.games.arena", "en"))
    for lang in LANGUAGES:
        assert set(catalog("spacetable.games.arena", lang)) == keys, lang
    assert {f"arena.move.{t}" for t in MOVES.types() if t != "resign"} <= keys
    seen = set()
    for st in _random_states(CONFIGS, games=2, plies=40):
        for seat in GAME.to_act(st):
            for action in GAME.legal_actions(st, seat)[:40]:
                for lang in LANGUAGES:
                    text = GAME.describe_action(st, seat, action, lang)
                    assert "{" not in text and "arena." not in text and text, (lang, action, text)
                seen.add(action["type"])
    assert seen >= {"move", "permute", "rotate", "place", "layout"}
    capture = make("6x4 111a1,221c5,112b2,122d6 111a6,112c6 r 0 -")
    said = GAME.describe_action(capture, 0, GAME.parse_action(capture, 0, "c5xc6/P112="), "en")
    assert said == ("moves the destroyer 221 from c5 to c6, capturing the frigate 112, then permutes the frigate 112 "
                    "and the destroyer 221 (P112), and offers to end the game")


def test_the_written_out_clone_equals_a_deep_copy() -> None:
    for st in _random_states(CONFIGS, games=1, plies=30):
        twin = GAME.clone(st)
        assert GAME.state_to_json(twin) == GAME.state_to_json(copy.deepcopy(st))
        twin.loc[0][0] = -7
        if twin.sealed is not None:
            twin.sealed.commits[9] = [1]
        twin.rng.next_u64()
        assert GAME.state_to_json(st) == GAME.state_to_json(copy.deepcopy(st)) != GAME.state_to_json(twin)


def test_agents_hook_matches_the_registry() -> None:
    specs = GAME.agents()
    assert [s.name for s in specs] == ["endgame", "shallow", "playouts", "alphabeta", "mcts", "random"]
    assert sorted(s.name for s in specs) == sorted(AGENTS)
    assert [s.level for s in specs] == ["hard", "medium", "easy", "", "", ""]  # the levels, then the tools
    for spec in specs:
        agent = spec.make(seed=1, seconds=0.05)
        assert agent.name == spec.name and callable(agent.choose)


# ------------------------------------------------------------------------ import order
ORDER = ["board", "state", "movement", "teleports", "bonus", "endings", "setup", "turns", "flow", "keys", "notation",
         "views", "game", "fast", "solver", "tables", "analysis", "ai", "cli"]


def _imports(name: str) -> tuple[set[str], list[int]]:
    """Sibling modules a module imports at its top, and the lines of imports inside functions."""
    tree = ast.parse((ROOT / PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    inner: list[int] = []
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
        inner += [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Import | ast.ImportFrom)]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.lineno not in inner:
            out.update([node.module] if node.module else [a.name for a in node.names])
    return out, inner


def test_modules_import_only_earlier_layers() -> None:
    """state → rule modules → flow → notation/views → game facade → fast/solver/ai/cli: never backwards
    (``__init__.py`` ties the facade to ai and cli with ``Game.provide``)."""
    modules = sorted(p.stem for p in (ROOT / PACKAGE).glob("*.py") if p.stem != "__init__")
    assert sorted(ORDER) == modules, "place a new module in ORDER"
    for name in ORDER:
        deps, inner = _imports(name)
        late = [d for d in deps if ORDER.index(d) >= ORDER.index(name)]
        assert not late, f"{name} imports {late}, which come later in the import order"
        if name != "cli":  # cli.py belongs to the command-line work
            assert not inner, f"{name} imports inside a function (lines {inner})"


# ------------------------------------------------------------------------ rule ids
def test_every_rule_id_is_stated_implemented_and_tested() -> None:
    """Every AR id of docs/rules/arena.md has a one-line statement, a hyphenated citation in the package
    and a test marked with it; markers cite only stated ids; no id is written with underscores or as a range."""
    rep = report("arena")
    assert len(rep.entries) >= 94
    assert [e.id for e in rep.entries if not e.statement] == []
    assert rep.uncoded() == [] and rep.untested() == []
    assert rep.unknown == {}
    assert lint("arena") == []


def test_legal_lists_are_canonical_and_unique() -> None:
    for st in _random_states(CONFIGS[:2], games=2):
        for seat in GAME.to_act(st):
            keys = [action_key(a) for a in GAME.legal_actions(st, seat)]
            assert len(keys) == len(set(keys))
