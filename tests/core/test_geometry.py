"""Shared hex and square geometry."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from spacetable.core import hexgrid as hx

coords = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


@given(coords, coords)
def test_hex_distance_metric(a: hx.Axial, b: hx.Axial) -> None:
    assert hx.distance(a, b) == hx.distance(b, a) >= 0
    assert (hx.distance(a, b) == 0) == (a == b)
    line = hx.line(a, b)
    assert line[0] == a and line[-1] == b and len(line) == hx.distance(a, b) + 1
    assert all(hx.distance(p, q) == 1 for p, q in itertools.pairwise(line))


@given(coords, st.integers(0, 6))
def test_rings_and_spirals(c: hx.Axial, r: int) -> None:
    ring = hx.ring(c, r)
    assert len(ring) == (1 if r == 0 else 6 * r) == len(set(ring))
    assert all(hx.distance(c, p) == r for p in ring)
    assert sorted(hx.spiral(c, r)) == sorted(hx.within(c, r))
    assert len(hx.spiral(c, r)) == 1 + 3 * r * (r + 1)


@given(coords, st.integers(0, 5))
def test_rotation_keeps_distance(a: hx.Axial, k: int) -> None:
    assert hx.distance(hx.rotate(a, (0, 0), k), (0, 0)) == hx.distance(a, (0, 0))
    assert hx.rotate(a, (0, 0), 6) == a


@given(st.integers(0, 40), st.integers(0, 40), st.sampled_from(list(hx.OffsetLayout)))
def test_offset_round_trip(x: int, y: int, layout: hx.OffsetLayout) -> None:
    assert layout.from_axial(layout.to_axial(x, y)) == (x, y)
    for n in layout.neighbours(x, y):
        assert layout.distance((x, y), n) == 1


def test_odd_q_neighbours_match_table() -> None:
    """Flat-topped odd-q: even columns N, NE, SE, S, SW, NW; odd columns sit half a hex lower."""
    lay = hx.OffsetLayout.ODD_Q
    assert lay.neighbours(2, 2) == [(2, 1), (3, 1), (3, 2), (2, 3), (1, 2), (1, 1)]
    assert lay.neighbours(3, 2) == [(3, 1), (4, 2), (4, 3), (3, 3), (2, 3), (2, 2)]


def test_hexmap_with_holes() -> None:
    exists = [True] * 12
    exists[5] = False
    m = hx.HexMap(4, 3, hx.OffsetLayout.ODD_Q, exists)
    assert 5 not in m.adjacent(1) and all(j >= -1 for j in m.neighbours(0))
    assert m.neighbours(5) == (-1,) * 6
    assert m.distance(0, 11) == hx.OffsetLayout.ODD_Q.distance((0, 0), (3, 2))
    assert sorted(m.within(0, 1)) == sorted([0, *m.adjacent(0)])
    assert hx.connected([(0, 0), (1, 0), (1, 1)]) and not hx.connected([(0, 0), (2, 0)])

