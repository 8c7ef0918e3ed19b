"""Hex coordinates, distance, area-pattern orientations and line of sight."""

from __future__ import annotations

import doctest
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.dungeon import hexes
from cogs.dungeon.hexes import (
    DIRECTIONS,
    Sight,
    distance,
    from_offset,
    mirror,
    neighbours,
    orientations,
    rectangle,
    rotate,
    segments_touch,
    to_offset,
)

FLAVOURS = pytest.mark.parametrize("vertex", [True, False], ids=["vertex", "full"])
small = st.integers(-6, 6)
offsets = st.tuples(small, small)


def test_doctests() -> None:
    assert doctest.testmod(hexes).failed == 0


# --- coordinates and distance --------------------------------------------------------------------


def test_directions_are_the_files_neighbours_counter_clockwise() -> None:
    assert set(DIRECTIONS) == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    for e, d in enumerate(DIRECTIONS):
        assert rotate(d) == DIRECTIONS[(e + 1) % 6]


def test_offset_round_trip_and_the_files_map() -> None:
    board = rectangle(16, 7)
    assert len(board) == 16 * 7
    assert from_offset(0, 0) == (0, 0) and from_offset(5, 2) == (5, 0)
    for h in board:
        col, row = to_offset(h)
        assert 0 <= col < 16 and 0 <= row < 7
        assert from_offset(col, row) == h


@given(offsets, offsets)
def test_distance_is_a_metric(a, b) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) <= distance(a, (0, 0)) + distance((0, 0), b)


def test_distance_equals_steps_on_an_open_plane() -> None:
    steps = {(0, 0): 0}
    queue = deque([(0, 0)])
    while queue:
        h = queue.popleft()
        if steps[h] == 6:
            continue
        for n in neighbours(h):
            if n not in steps:
                steps[n] = steps[h] + 1
                queue.append(n)
    assert all(distance((0, 0), h) == d for h, d in steps.items())
    assert distance((0, 0), (3, -1)) == 3 and distance((2, 1), (-1, 3)) == 3


# --- area patterns -------------------------------------------------------------------------------


@given(offsets)
def test_rotation_and_mirror_keep_distance(o) -> None:
    assert rotate(o, 6) == o
    assert mirror(mirror(o)) == o
    for k in range(6):
        assert distance((0, 0), rotate(o, k)) == distance((0, 0), o)
    assert distance((0, 0), mirror(o)) == distance((0, 0), o)


def test_twelve_orientations() -> None:
    # one hex at distance 1 visits every neighbour
    assert {shape[0] for shape in orientations([(1, 0)])} == set(DIRECTIONS)
    # a chiral pattern has 12 distinct orientations, mirror images included
    chiral = [(1, 0), (2, 0), (2, 1)]
    shapes = orientations(chiral)
    assert len(shapes) == 12 and len(set(shapes)) == 12
    assert tuple(sorted(mirror(o) for o in chiral)) in shapes
    # a line through the origin has only 3 (6 with its mirror images coinciding)
    assert len(set(orientations([(-1, 0), (0, 0), (1, 0)]))) == 3
    # rotating the pattern rotates each hex about the origin
    assert shapes[1] == tuple(sorted(rotate(o) for o in chiral))


# --- segment test --------------------------------------------------------------------------------


def test_segments_touch() -> None:
    assert segments_touch((0, 0), (4, 4), (0, 4), (4, 0))  # cross
    assert segments_touch((0, 0), (4, 4), (2, 2), (6, 0))  # an end on the other
    assert not segments_touch((0, 0), (4, 4), (3, 0), (6, 0))
    assert segments_touch((0, 0), (4, 0), (4, 0), (6, 0))  # collinear, touching ends
    assert not segments_touch((0, 0), (4, 0), (5, 0), (6, 0))  # collinear, apart
    assert not segments_touch((0, 0), (4, 0), (0, 1), (4, 1))  # parallel


# --- line of sight -------------------------------------------------------------------------------


@FLAVOURS
def test_an_empty_map_sees_everywhere(vertex: bool) -> None:
    sight = Sight([])
    for h in [(0, 0), (5, -2), (-3, 4), (1, 0), (7, 3)]:
        assert sight.los((2, 1), h, vertex=vertex)


@FLAVOURS
def test_a_wall_hex_in_line_blocks(vertex: bool) -> None:
    sight = Sight([(1, 0)])
    assert not sight.los((0, 0), (2, 0), vertex=vertex)
    assert sight.los((0, 0), (1, 1), vertex=vertex)  # beside the wall


@FLAVOURS
def test_two_walls_meeting_at_a_vertex_leave_no_gap(vertex: bool) -> None:
    assert not Sight([(1, 0), (1, -1)]).los((0, 0), (2, -1), vertex=vertex)


@FLAVOURS
def test_thin_walls(vertex: bool) -> None:
    # one thin wall between neighbours: they still see each other round its ends
    assert Sight([], [((0, 0), (1, 0))]).los((0, 0), (1, 0), vertex=vertex)
    # ... unless both ends are closed too
    closed = [((0, 0), (1, 0)), ((0, 0), (0, 1)), ((1, 0), (0, 1)), ((0, 0), (1, -1))]
    closed.append(((1, 0), (1, -1)))
    assert not Sight([], closed).los((0, 0), (1, 0), vertex=vertex)
    # a long thin wall between rows 0 and 1 of the axial plane
    line = [((q, 0), (q, 1)) for q in range(-3, 8)] + [((q, 0), (q - 1, 1)) for q in range(-3, 9)]
    sight = Sight([], line)
    assert not sight.los((2, 0), (2, 1), vertex=vertex)
    assert not sight.los((0, -1), (3, 2), vertex=vertex)
    assert sight.los((0, 0), (4, 0), vertex=vertex)  # along it, same side


def test_flavours_differ_where_the_reference_does() -> None:
    """Scenario 148 of the reference file: Frosthaven's hex-to-hex sight sees past a corner that
    no vertex-to-vertex line clears."""
    from cogs.dungeon.scenario import load

    from .test_scenarios import FILE

    sc = next(s for s in load(FILE) if s.id == 148)
    m = sc.situation.map
    target = sc.situation.characters[0].hex
    start = sc.situation.monster
    assert not m.sight.los(start, target, vertex=True)
    assert m.sight.los(start, target, vertex=False)


walls_st = st.lists(st.tuples(st.integers(0, 5), st.integers(-2, 3)), max_size=8, unique=True)


@settings(max_examples=60, deadline=None)
@given(walls_st, st.tuples(st.integers(0, 5), st.integers(-2, 3)), st.booleans())
def test_line_of_sight_is_symmetric(walls, other, vertex) -> None:
    """Computed both ways round (the cache stores one answer per unordered pair)."""
    sight = Sight(walls, [((2, 0), (2, 1)), ((4, -1), (3, 0))])
    check = sight._vertex_los if vertex else sight._full_los
    for h in [(0, 0), (3, 0), (5, -2)]:
        if h in walls or other in walls or h == other:
            continue
        assert check(h, other) == check(other, h)
