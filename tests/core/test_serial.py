"""JSON round trip of states and actions (core serial codec)."""

from dataclasses import dataclass, field
from enum import Enum

from spacetable.core import Rng, SealedCommits, action_key, dumps, from_jsonable, loads, to_jsonable


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Inner:
    cells: tuple[int, ...]
    pair: tuple[int, str]
    tags: frozenset[str] = frozenset()


@dataclass
class Outer:
    name: str
    colour: Colour
    inner: Inner
    maybe: Inner | None
    by_seat: dict[int, list[int]]
    by_cell: dict[tuple[int, int], str]
    rng: Rng
    commits: SealedCommits = field(default_factory=SealedCommits)
    ratio: float = 0.5


def test_round_trip_nested_dataclasses() -> None:
    obj = Outer(
        name="x",
        colour=Colour.BLUE,
        inner=Inner((1, 2, 3), (4, "a"), frozenset({"b", "a"})),
        maybe=None,
        by_seat={0: [1], 3: []},
        by_cell={(1, 2): "sea"},
        rng=Rng(123, [4]),
        commits=SealedCommits([0, 1], {1: {"amount": 3}}),
        ratio=1.5,
    )
    text = dumps(obj)
    back = loads(Outer, text)
    assert back == obj
    assert dumps(back) == text


def test_action_key_is_canonical() -> None:
    assert action_key({"b": 1, "a": [1, 2]}) == action_key({"a": [1, 2], "b": 1})
    assert action_key({"a": 1}) != action_key({"a": 2})


def test_to_jsonable_outputs_plain_json() -> None:
    data = to_jsonable({"k": (1, 2), 5: {"x"}})
    assert data == {"k": [1, 2], "5": ["x"]}
    assert from_jsonable(dict[int, list[str]], {"5": ["x"]}) == {5: ["x"]}


def test_int_read_as_float_where_typed_float() -> None:
    assert from_jsonable(float, 1) == 1.0 and isinstance(from_jsonable(float, 1), float)
