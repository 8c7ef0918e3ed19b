"""Hex-grid geometry for flat-topped hexes in axial coordinates (pure maths, no Pillow).

Conventions match the arena rules: axial ``(q, r)`` with ``s = -q - r``; six directions clockwise
with screen y pointing down, ``0 N (0,-1)``, ``1 NE (+1,-1)``, ``2 SE (+1,0)``, ``3 S (0,+1)``,
``4 SW (-1,+1)``, ``5 NW (-1,0)``. Direction ``d`` is also the index of the hexside a figure facing
``d`` looks through, so every renderer and engine can share one numbering.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Hex = tuple[int, int]
Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
FACINGS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def facing_index(facing: str | int) -> int:
    """Direction index for a facing given as a name (``"NE"``) or already as an index."""
    if isinstance(facing, int):
        return facing % 6
    return FACINGS.index(facing.upper())


def as_hex(value: Sequence[int]) -> Hex:
    """Normalise a JSON ``[q, r]`` list (or tuple) into a hashable ``(q, r)``."""
    return int(value[0]), int(value[1])


def neighbor(h: Hex, direction: int) -> Hex:
    dq, dr = DIRECTIONS[direction % 6]
    return h[0] + dq, h[1] + dr


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def in_radius(h: Hex, radius: int) -> bool:
    return distance(h, (0, 0)) <= radius


def hexagon(radius: int) -> list[Hex]:
    """All hexes within ``radius`` of the origin, row by row (top to bottom on screen)."""
    cells = [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if in_radius((q, r), radius)
    ]
    # Sort by screen y then x so painters that overlap slightly (outlines) layer predictably.
    return sorted(cells, key=lambda h: (2 * h[1] + h[0], h[0]))


def ring(radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from the origin (empty ring for radius 0 is the origin)."""
    if radius == 0:
        return [(0, 0)]
    return [h for h in hexagon(radius) if distance(h, (0, 0)) == radius]


def edge_angle(direction: int) -> float:
    """Screen angle in degrees (y down) from a hex centre to the middle of hexside ``direction``."""
    return -90.0 + 60.0 * (direction % 6)


def unit(angle_deg: float) -> Point:
    a = math.radians(angle_deg)
    return math.cos(a), math.sin(a)


@dataclass(frozen=True)
class Layout:
    """Axial hexes to pixels: ``size`` is the centre-to-corner radius, ``origin`` hex (0, 0)."""

    size: float
    origin: Point

    @property
    def apothem(self) -> float:
        """Centre-to-hexside distance (half the flat-to-flat height)."""
        return self.size * SQRT3 / 2.0

    def center(self, h: Sequence[int]) -> Point:
        q, r = h[0], h[1]
        return (
            self.origin[0] + self.size * 1.5 * q,
            self.origin[1] + self.size * SQRT3 * (r + q / 2.0),
        )

    def corners(self, h: Sequence[int], inset: float = 0.0) -> list[Point]:
        """Six corners clockwise from the east one; ``inset`` pulls the hexsides in (px)."""
        cx, cy = self.center(h)
        radius = self.size - inset * 2.0 / SQRT3  # keep hexsides ``inset`` px in, not corners
        return [
            (
                cx + radius * math.cos(math.radians(60 * i)),
                cy + radius * math.sin(math.radians(60 * i)),
            )
            for i in range(6)
        ]

    def edge(self, h: Sequence[int], direction: int, inset: float = 0.0) -> tuple[Point, Point]:
        """Endpoints of hexside ``direction`` (clockwise), optionally pulled inside the hex."""
        pts = self.corners(h, inset)
        d = direction % 6
        # Hexside d lies between corners at angles edge_angle(d) -/+ 30, i.e. indices d+4, d+5.
        return pts[(d + 4) % 6], pts[(d + 5) % 6]

    def edge_mid(self, h: Sequence[int], direction: int, inset: float = 0.0) -> Point:
        cx, cy = self.center(h)
        ux, uy = unit(edge_angle(direction))
        reach = self.apothem - inset
        return cx + ux * reach, cy + uy * reach

    def bounds(self, cells: Iterable[Sequence[int]]) -> tuple[float, float, float, float]:
        """Pixel bounding box ``(x0, y0, x1, y1)`` of the given hexes."""
        xs: list[float] = []
        ys: list[float] = []
        for h in cells:
            for x, y in self.corners(h):
                xs.append(x)
                ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)
