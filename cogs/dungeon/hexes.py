"""Hex coordinates, distance, area-pattern orientations and line of sight. Pure.

Coordinates are axial ``(q, r)`` on flat-topped hexes, the convention of the shared reference file
``monster-ai-scenarios.json``: the six neighbours are ``(q, r)`` plus ``(+1, 0)``, ``(+1, -1)``,
``(0, -1)``, ``(-1, 0)``, ``(-1, +1)`` and ``(0, +1)``. The map of that file is an odd-q offset
rectangle (``col = q``, ``row = r + (q - (q & 1)) // 2``); row grows "up" the page.

Geometry. Hex ``(q, r)`` has its centre at ``x = 1.5 q + 1``, ``y = (√3 / 2) (2 r + q + 1)`` (the
constant offsets only reproduce the reference's float arithmetic). Edge ``e`` of a hex faces the
direction ``30° + 60° e`` (:data:`DIRECTIONS` lists the neighbours in that order: counter-clockwise
from north-east) and joins vertex ``e`` (at ``60° e``) to vertex ``e + 1``. Intersection tests run
on exact integer coordinates ``X = 2 x``, ``Y = y / (√3 / 2)``: an affine image of the plane, which
keeps every incidence and betweenness the tests ask about.

Line of sight, as the digest says, "follows the reference" and so has two flavours:

* ``vertex`` (Gloomhaven): some segment between a vertex of each hex — a vertex touched by a wall
  does not count — touches no wall hex and no thin wall. Touching counts as blocking.
* ``full`` (Frosthaven, Jaws of the Lion): some open bundle of straight lines joins the two hexes
  without crossing a wall hex or a thin wall (a single grazing line is not enough). As in the
  reference, the bundle is drawn between the cross sections of the two hexes most perpendicular to
  the sightline; two neighbours see each other unless a thin wall closes their shared edge and both
  ways round its ends.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from itertools import combinations, pairwise

Hex = tuple[int, int]

#: Neighbour offsets by edge index: edge ``e`` faces ``30° + 60° e`` (NE, N, NW, SW, S, SE).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

#: Vertex ``v`` of a hex relative to its centre, in integer ``(X, Y)`` coordinates.
VERTEX_OFFSETS: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))

_SQRT_3_OVER_2 = math.sqrt(3.0) / 2.0
_COS_30 = math.cos(30.0 / 180.0 * math.pi)
_EPS = 1e-9


# --- coordinates ---------------------------------------------------------------------------------


def neighbour(h: Hex, edge: int) -> Hex:
    dq, dr = DIRECTIONS[edge % 6]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours, in edge order (they may lie off a map)."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes on an open plane (no walls).

    >>> distance((0, 0), (2, -1)), distance((0, 0), (-1, 3))
    (2, 3)
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial → odd-q ``(col, row)``.

    >>> to_offset((3, -1)), from_offset(*to_offset((3, -1)))
    ((3, 0), (3, -1))
    """
    q, r = h
    return q, r + (q - (q & 1)) // 2


def from_offset(col: int, row: int) -> Hex:
    """Odd-q ``(col, row)`` → axial."""
    return col, row - (col - (col & 1)) // 2


def rectangle(columns: int, rows: int) -> frozenset[Hex]:
    """The hexes of a ``columns`` x ``rows`` odd-q map (the reference file's 16 x 7)."""
    return frozenset(from_offset(c, r) for c in range(columns) for r in range(rows))


def rotate(offset: Hex, turns: int = 1) -> Hex:
    """Turn an offset by ``turns`` x 60° counter-clockwise.

    >>> rotate((1, 0)), rotate((1, 0), 6)
    ((0, 1), (1, 0))
    """
    q, r = offset
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def mirror(offset: Hex) -> Hex:
    """Reflect an offset across the line through the hex centre and vertex 0 (the x axis).

    >>> mirror((1, 0)), mirror((0, 1))
    ((1, -1), (0, -1))
    """
    q, r = offset
    return q, -q - r


def orientations(pattern: Iterable[Hex]) -> tuple[tuple[Hex, ...], ...]:
    """The 12 orientations of an area pattern about its origin: 6 rotations, each also mirrored.

    Patterns are returned in that order (rotations 0-5, then mirrored 0-5), each sorted;
    symmetric patterns repeat.

    >>> len(orientations([(1, 0), (1, -1)])), len(set(orientations([(1, 0), (1, -1)])))
    (12, 6)
    """
    base = tuple(pattern)
    out = []
    for flip in (False, True):
        for turns in range(6):
            out.append(tuple(sorted(rotate(mirror(o) if flip else o, turns) for o in base)))
    return tuple(out)


# --- geometry ------------------------------------------------------------------------------------


def centre_xy(h: Hex) -> tuple[int, int]:
    """Integer ``(X, Y)`` of a hex centre."""
    q, r = h
    return 3 * q + 2, 2 * r + q + 1


def vertex_xy(h: Hex, v: int) -> tuple[int, int]:
    cx, cy = centre_xy(h)
    dx, dy = VERTEX_OFFSETS[v % 6]
    return cx + dx, cy + dy


def _orient(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> int:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def segments_touch(p: tuple[int, int], q: tuple[int, int], a: tuple[int, int], b: tuple[int, int]):
    """Whether closed segments ``pq`` and ``ab`` share a point (exact, integer coordinates)."""
    d1 = _orient(p[0], p[1], q[0], q[1], a[0], a[1])
    d2 = _orient(p[0], p[1], q[0], q[1], b[0], b[1])
    if (d1 > 0 and d2 > 0) or (d1 < 0 and d2 < 0):
        return False
    d3 = _orient(a[0], a[1], b[0], b[1], p[0], p[1])
    d4 = _orient(a[0], a[1], b[0], b[1], q[0], q[1])
    if (d3 > 0 and d4 > 0) or (d3 < 0 and d4 < 0):
        return False
    if d1 == 0 and d2 == 0:  # collinear: do the projections overlap?
        k = 0 if p[0] != q[0] else 1
        return max(min(p[k], q[k]), min(a[k], b[k])) <= min(max(p[k], q[k]), max(a[k], b[k]))
    return True


Segment = tuple[tuple[int, int], tuple[int, int]]


class Sight:
    """Line of sight on one map: wall hexes and thin walls (pairs of neighbouring hexes).

    Results are cached per unordered pair of hexes; the object is otherwise immutable.
    """

    def __init__(self, walls: Collection[Hex], thin_walls: Iterable[Iterable[Hex]] = ()) -> None:
        self.walls = frozenset(walls)
        self.thin = frozenset(frozenset(pair) for pair in thin_walls)
        occluders: list[tuple[int, int, int, int, tuple[int, int], tuple[int, int]]] = []

        def add(a: tuple[int, int], b: tuple[int, int]) -> None:
            box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
            occluders.append((*box, a, b))

        for w in sorted(self.walls):
            for v in range(3):
                add(vertex_xy(w, v), vertex_xy(w, v + 3))
        for pair in sorted(tuple(sorted(p)) for p in self.thin if len(p) == 2):
            a, b = pair
            if a in self.walls or b in self.walls:
                continue  # the wall hex already blocks there
            edge = _edge_towards(a, b)
            if edge is None:
                continue
            add(vertex_xy(a, edge), vertex_xy(a, edge + 1))
        self.occluders = tuple(occluders)
        self._cache: dict[tuple[bool, Hex, Hex], bool] = {}
        self._vertices: dict[Hex, list[tuple[int, int]]] = {}

    # walls on edges and at vertices

    def thin_between(self, a: Hex, b: Hex) -> bool:
        return frozenset((a, b)) in self.thin

    def edge_blocked(self, h: Hex, edge: int) -> bool:
        """Is edge ``edge`` of ``h`` a wall (a thin wall, or a side of a wall hex)?"""
        n = neighbour(h, edge)
        return h in self.walls or n in self.walls or frozenset((h, n)) in self.thin

    def vertex_at_wall(self, h: Hex, v: int) -> bool:
        """Does any of the three edges meeting at vertex ``v`` of ``h`` carry a wall?"""
        n1, n0 = neighbour(h, v), neighbour(h, v - 1)
        return (
            self.edge_blocked(h, v)
            or self.edge_blocked(h, v - 1)
            or n1 in self.walls
            or n0 in self.walls
            or frozenset((n0, n1)) in self.thin
        )

    # line of sight

    def los(self, a: Hex, b: Hex, *, vertex: bool) -> bool:
        """Line of sight between two hexes (symmetric). ``vertex``: the Gloomhaven flavour."""
        key = (vertex, a, b) if a <= b else (vertex, b, a)
        cached = self._cache.get(key)
        if cached is None:
            if a == b:
                cached = True
            elif vertex:
                cached = self._vertex_los(key[1], key[2])
            else:
                cached = self._full_los(key[1], key[2])
            self._cache[key] = cached
        return cached

    def _occluders_in(self, points: Sequence[tuple[int, int]]) -> list[Segment]:
        x0 = min(p[0] for p in points)
        y0 = min(p[1] for p in points)
        x1 = max(p[0] for p in points)
        y1 = max(p[1] for p in points)
        return [
            (a, b)
            for bx0, by0, bx1, by1, a, b in self.occluders
            if bx0 <= x1 and bx1 >= x0 and by0 <= y1 and by1 >= y0
        ]

    def _free_vertices(self, h: Hex) -> list[tuple[int, int]]:
        free = self._vertices.get(h)
        if free is None:
            free = [vertex_xy(h, v) for v in range(6) if not self.vertex_at_wall(h, v)]
            self._vertices[h] = free
        return free

    def _vertex_los(self, a: Hex, b: Hex) -> bool:
        (ax, ay), (bx, by) = centre_xy(a), centre_xy(b)
        corners = [(ax - 2, ay - 1), (ax + 2, ay + 1), (bx - 2, by - 1), (bx + 2, by + 1)]
        occluders = self._occluders_in(corners)
        if not occluders:  # nothing near: no wall touches a vertex either
            return True
        from_a, from_b = self._free_vertices(a), self._free_vertices(b)
        for p in from_a:
            for q in from_b:
                if p == q:
                    return True
                if not any(segments_touch(p, q, o0, o1) for o0, o1 in occluders):
                    return True
        return False

    def _full_los(self, a: Hex, b: Hex) -> bool:
        edge = _edge_towards(a, b)
        if edge is not None:  # neighbours: the shared edge, or round either end of its wall
            if not self.edge_blocked(a, edge):
                return True
            back = edge + 3
            if not self.edge_blocked(a, edge + 1) and not self.edge_blocked(b, back + 5):
                return True
            return not self.edge_blocked(a, edge + 5) and not self.edge_blocked(b, back + 1)
        e = _cross_section_edge(a, b)
        s0, s1, t0 = vertex_xy(a, e), vertex_xy(a, e + 3), vertex_xy(b, e)
        occluders = self._occluders_in([s0, s1, t0, vertex_xy(b, e + 3)])
        ca, cb = centre_xy(a), centre_xy(b)
        if not any(segments_touch(ca, cb, o0, o1) for o0, o1 in occluders):
            return True  # the centre line is clear, and so are the lines near it
        return _bundle_visible(s0, s1, t0, occluders)


def _edge_towards(a: Hex, b: Hex) -> int | None:
    d = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        return None


def _reference_vertex0(h: Hex) -> tuple[float, float]:
    """Vertex 0 of ``h`` in the reference's float coordinates (same arithmetic, same rounding)."""
    col, row = to_offset(h)
    vc = col + 1
    vr = 2 * row + 1 + col % 2
    x = 3 * (vc // 2) + (0.5 + vc % 2 if vr % 2 == 0 else 2.0 * (vc % 2))
    return float(x), _SQRT_3_OVER_2 * vr


def _cross_section_edge(a: Hex, b: Hex) -> int:
    """The hex diagonal (vertex e to e + 3) most perpendicular to the sightline from a to b."""
    ax, ay = _reference_vertex0(a)
    bx, by = _reference_vertex0(b)
    dx, dy = bx - ax, by - ay
    length = math.sqrt(dx * dx + dy * dy)
    up, side = dy / length, dx / length
    if up > _COS_30:
        return 0
    if up <= -_COS_30:
        return 3
    if up > 0.0:
        return 1 if side < 0.0 else 5
    return 2 if side < 0.0 else 4


def _cross(ax: float, ay: float, bx: float, by: float) -> float:
    return ax * by - ay * bx


Linear = tuple[float, float, float]  # A s + B t + C


def _bundle_visible(
    s0: tuple[int, int], s1: tuple[int, int], t0: tuple[int, int], occluders: list[Segment]
) -> bool:
    """Is there an open set of segments from ``s0 s1`` to the parallel ``t0 t1`` (``t1 = t0 + s1 -
    s0``) that crosses no occluder?

    A sightline is ``P(s) = s0 + s D`` to ``Q(t) = t0 + t D``, (s, t) in the unit square. In affine
    coordinates ``E = s0 + u D + v W`` (``W = t0 - s0``) the sightline passes E (0 ≤ v ≤ 1) where
    ``(1 - v) s + v t - u = 0``: a line in (s, t). An occluder, clipped to the strip 0 ≤ v ≤ 1,
    blocks the sightlines on which its two end lines have opposite signs. Visible when some open
    part of the square has every occluder's two signs equal.
    """
    dx, dy = s1[0] - s0[0], s1[1] - s0[1]
    wx, wy = t0[0] - s0[0], t0[1] - s0[1]
    den = dx * wy - dy * wx
    sign = 1 if den > 0 else -1
    den *= sign

    constraints: list[tuple[Linear, Linear]] = []
    for e1, e2 in occluders:
        ends = []
        for ex, ey in (e1, e2):
            rx, ry = ex - s0[0], ey - s0[1]
            vn = sign * (dx * ry - dy * rx)
            un = sign * (rx * wy - ry * wx)
            ends.append((float(un), float(vn)))
        (u1, v1), (u2, v2) = ends
        if max(v1, v2) <= 0 or min(v1, v2) >= den:
            continue
        clipped = []
        for (ua, va), (ub, vb) in ((ends[0], ends[1]), (ends[1], ends[0])):
            if va < 0:
                lam = va / (va - vb)
                ua, va = ua + lam * (ub - ua), 0.0
            elif va > den:
                lam = (va - den) / (va - vb)
                ua, va = ua + lam * (ub - ua), float(den)
            clipped.append((ua, va))
        (u1, v1), (u2, v2) = clipped
        if abs(u1 - u2) < _EPS and abs(v1 - v2) < _EPS:
            continue
        f1 = (den - v1, v1, -u1)
        f2 = (den - v2, v2, -u2)
        # both coefficients are >= 0: the least value is at (0, 0), the greatest at (1, 1)
        pos1, neg1 = f1[2] >= -_EPS, f1[0] + f1[1] + f1[2] <= _EPS
        pos2, neg2 = f2[2] >= -_EPS, f2[0] + f2[1] + f2[2] <= _EPS
        if (pos1 and pos2) or (neg1 and neg2):
            continue  # never between its ends inside the square
        if (pos1 and neg2) or (neg1 and pos2):
            return False  # spans the whole bundle
        constraints.append((f1, f2))
    if not constraints:
        return True

    def clear(s: float, t: float) -> bool:
        for (a1, b1, k1), (a2, b2, k2) in constraints:
            if (a1 * s + b1 * t + k1) * (a2 * s + b2 * t + k2) <= _EPS:
                return False
        return True

    if clear(0.5, 0.5):
        return True
    lines = [f for pair in constraints for f in pair]
    xs = {0.0, 1.0}
    for a1, b1, k1 in lines:
        if abs(a1) > _EPS:
            xs.add(-k1 / a1)
            xs.add(-(b1 + k1) / a1)
    for (a1, b1, k1), (a2, b2, k2) in combinations(lines, 2):
        det = a1 * b2 - a2 * b1
        if abs(det) > _EPS:
            xs.add((-k1 * b2 + k2 * b1) / det)
    cuts = sorted(x for x in xs if 0.0 <= x <= 1.0)
    for lo, hi in pairwise(cuts):
        if hi - lo > _EPS and _column_open((lo + hi) / 2, constraints):
            return True
    return False


def _column_open(s: float, constraints: list[tuple[Linear, Linear]]) -> bool:
    """At this ``s``, does some open interval of ``t`` in (0, 1) escape every occluder?"""
    blocked: list[tuple[float, float]] = []
    for (a1, b1, k1), (a2, b2, k2) in constraints:
        m1, m2 = a1 * s + k1, a2 * s + k2  # F(t) = b t + m, b >= 0
        flat1, flat2 = b1 <= _EPS, b2 <= _EPS
        if flat1 and flat2:
            if m1 * m2 <= 0:
                return False
            continue
        if flat1 or flat2:
            m_flat, b, m = (m1, b2, m2) if flat1 else (m2, b1, m1)
            root = -m / b
            blocked.append((-math.inf, root) if m_flat > 0 else (root, math.inf))
            continue
        r1, r2 = -m1 / b1, -m2 / b2
        blocked.append((min(r1, r2), max(r1, r2)))
    blocked.sort()
    reach = 0.0
    for lo, hi in blocked:
        if lo > reach + _EPS and reach < 1.0 - _EPS:
            return True
        reach = max(reach, hi)
        if reach >= 1.0:
            return False
    return reach < 1.0 - _EPS
