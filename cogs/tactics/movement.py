"""Square-grid movement geometry (pure): distance, the zone-of-control walk, reach and paths.

A unit walks orthogonally, never onto an obstacle or a square held by the other side (zone of
control), through its own side's squares; it may end only on a free square (or where it stood).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass

Square = tuple[int, int]


def distance(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class Ground:
    """What a walk of one unit sees: the map's size, blocked squares, and who holds the rest."""

    width: int
    height: int
    blocked: Collection[Square]
    holders: Mapping[Square, str]  # every other unit's square → its side
    side: str  # the walker's side: its holders are passable, the others are not

    def walk(self, start: Square, steps: int) -> dict[Square, Square | None]:
        """Breadth-first orthogonal walk of at most ``steps`` steps from ``start``: never onto
        an obstacle, never into a square an enemy holds (zone of control), through allies.
        Returns each square reached with the square it was reached from (shortest paths)."""
        back: dict[Square, Square | None] = {start: None}
        depth = {start: 0}
        queue = deque([start])
        while queue:
            sq = queue.popleft()
            if depth[sq] >= steps:
                continue
            for dx, dy in STEPS:
                nxt = (sq[0] + dx, sq[1] + dy)
                if nxt in back or not (0 <= nxt[0] < self.width and 0 <= nxt[1] < self.height):
                    continue
                if nxt in self.blocked or self.holders.get(nxt, self.side) != self.side:
                    continue
                back[nxt] = sq
                depth[nxt] = depth[sq] + 1
                queue.append(nxt)
        return back

    def reach(self, start: Square, steps: int) -> set[Square]:
        """Squares a move of ≤ ``steps`` from ``start`` may end on: free ones, or ``start``."""
        found = self.walk(start, steps)
        return {sq for sq in found if sq == start or sq not in self.holders}

    def path(self, start: Square, dest: Square) -> list[Square]:
        """One shortest legal path from ``start`` to ``dest`` (both included), for the board's
        arrow; ``[start, dest]`` if there is none (the rules never ask for one that does not
        exist)."""
        back = self.walk(start, self.width * self.height)
        if dest not in back:
            return [start, dest]
        found = [dest]
        while back[found[-1]] is not None:
            found.append(back[found[-1]])  # type: ignore[arg-type]
        return found[::-1]
