"""Movement on the dungeon's hexes, for characters and monsters alike (the digest's
移動の基本ルール): normal, jump and flying moves, icy slides, difficult terrain, traps and
hazards, and forced movement (push and pull). Pure.

The monster AI (:mod:`cogs.dungeon.ai`) decides *where* a monster ends its move; this module finds
the path it takes there by the same costs the AI uses (fewest traps and hazardous hexes first,
then fewest movement points), so that the engine can spring what lies on the way and draw the
arrow. It is not a second AI: it never chooses a destination.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass

from cogs.dungeon.hexes import DIRECTIONS, Hex, distance

MODES = ("normal", "jump", "flying")
PAINFUL = ("trap", "hazardous")


@dataclass(frozen=True)
class Ground:
    """What can be walked on now.

    ``hexes``: revealed room hexes and open doors; ``closed_doors``: doors a character may step
    onto (opening them), never a monster; ``terrain``: overlay kinds of the revealed hexes (a
    sprung trap is gone); ``thin_walls``: pairs of hexes no one moves between.
    """

    hexes: frozenset[Hex]
    closed_doors: frozenset[Hex]
    terrain: Mapping[Hex, str]
    thin_walls: frozenset[frozenset[Hex]]

    def kind(self, h: Hex) -> str:
        return self.terrain.get(h, "")

    def neighbour(self, h: Hex, edge: int) -> Hex | None:
        dq, dr = DIRECTIONS[edge]
        n = (h[0] + dq, h[1] + dr)
        if frozenset((h, n)) in self.thin_walls:
            return None
        if n in self.hexes or n in self.closed_doors:
            return n
        return None


@dataclass(frozen=True)
class Mover:
    """Who moves: their side's figures may be passed, the other side's may not (unless jumping or
    flying); ``opens_doors``: characters may step onto a closed door (and stop there)."""

    start: Hex
    mode: str
    friends: frozenset[Hex]
    foes: frozenset[Hex]
    opens_doors: bool
    jump_pays_last_difficult: bool = True  # the digest: a jump's last hex is normal movement

    @property
    def occupied(self) -> frozenset[Hex]:
        return (self.friends | self.foes) - {self.start}


@dataclass(frozen=True)
class Path:
    """Hexes entered in order (the start not included), movement points spent, painful hexes
    (traps and hazardous terrain) whose effect the move springs."""

    hexes: tuple[Hex, ...]
    cost: int
    painful: tuple[Hex, ...]

    @property
    def end(self) -> Hex | None:
        return self.hexes[-1] if self.hexes else None


def _passable(ground: Ground, mover: Mover, h: Hex) -> bool:
    """May the move pass through ``h`` (not necessarily end there)?"""
    if h in ground.closed_doors:
        return False  # a character stops on the door it opens; a monster never enters
    kind = ground.kind(h)
    if kind == "wall":
        return False
    if mover.mode == "normal":
        return kind != "obstacle" and h not in mover.foes
    return True


def can_end(ground: Ground, mover: Mover, h: Hex) -> bool:
    if h in mover.occupied:
        return False
    if h in ground.closed_doors:
        return mover.opens_doors
    kind = ground.kind(h)
    if kind == "wall" or h not in ground.hexes:
        return False
    return kind != "obstacle" or mover.mode == "flying"


def walk_step(ground: Ground, mover: Mover, h: Hex, edge: int) -> tuple[Hex, int, tuple[Hex, ...]]:
    """One walking step out of ``h`` across ``edge``: (hex reached, cost, hexes entered), or a
    cost of -1 when the step is impossible. Stepping onto ice slides on in the same direction
    while the next hex is open (as the AI slides): a slide costs one point in all."""
    n = ground.neighbour(h, edge)
    if n is None:
        return h, -1, ()
    if n in ground.closed_doors:
        return (n, 1, (n,)) if mover.opens_doors and n not in mover.occupied else (h, -1, ())
    if not _passable(ground, mover, n):
        return h, -1, ()
    entered = [n]
    while ground.kind(n) == "icy":
        k = ground.neighbour(n, edge)
        if (
            k is None
            or k in ground.closed_doors
            or not _passable(ground, mover, k)
            or k in mover.friends
        ):
            break
        n = k
        entered.append(n)
    slid = len(entered) > 1
    cost = 1 if slid else 1 + (ground.kind(n) == "difficult")
    return n, cost, tuple(entered)


def paths(ground: Ground, mover: Mover, budget: int) -> dict[Hex, Path]:
    """The best path (fewest painful hexes, then fewest points, then the first found in edge
    order) to every hex the mover can end on within ``budget`` movement points."""
    start = mover.start
    best: dict[Hex, tuple[int, int]] = {start: (0, 0)}
    came: dict[Hex, tuple[Hex, tuple[Hex, ...]]] = {}
    heap: list[tuple[int, int, int, Hex]] = [(0, 0, 0, start)]
    counter = 0
    walking = mover.mode == "normal"
    while heap:
        pain, cost, _, h = heapq.heappop(heap)
        if best.get(h) != (pain, cost) or h in ground.closed_doors:
            continue
        for edge in range(6):
            if walking:
                n, step, entered = walk_step(ground, mover, h, edge)
                if step < 0:
                    continue
                hurt = int(ground.kind(n) in PAINFUL)
            else:
                n = ground.neighbour(h, edge)
                if n is None:
                    continue
                if n in ground.closed_doors:
                    if not (mover.opens_doors and n not in mover.occupied):
                        continue
                elif not _passable(ground, mover, n):
                    continue
                step, entered, hurt = 1, (n,), 0
            key = (pain + hurt, cost + step)
            if cost + step > budget + (0 if walking else 1):
                continue  # a jump may still pay for a difficult last hex below
            if n not in best or key < best[n]:
                best[n] = key
                came[n] = (h, entered)
                counter += 1
                heapq.heappush(heap, (key[0], key[1], counter, n))
    out: dict[Hex, Path] = {}
    for h in best:
        if h == start or not can_end(ground, mover, h):
            continue
        path = _unwind(came, start, h)
        out_path = _finish(ground, mover, path, best[h][1])
        if out_path.cost <= budget:
            out[h] = out_path
    return out


def _unwind(came: Mapping[Hex, tuple[Hex, tuple[Hex, ...]]], start: Hex, end: Hex) -> list[Hex]:
    chunks: list[tuple[Hex, ...]] = []
    h = end
    while h != start:
        prev, entered = came[h]
        chunks.append(entered)
        h = prev
    return [x for chunk in reversed(chunks) for x in chunk]


def _finish(ground: Ground, mover: Mover, hexes: list[Hex], cost: int) -> Path:
    """The path of entered hexes with its cost (a jump's difficult last hex added) and the
    painful hexes whose effect it springs (every one walking, the last one jumping)."""
    if mover.mode == "normal":
        painful = tuple(h for h in hexes if ground.kind(h) in PAINFUL)
        return Path(tuple(hexes), cost, painful)
    last = hexes[-1]
    if mover.mode == "jump":
        if mover.jump_pays_last_difficult and ground.kind(last) == "difficult":
            cost += 1
        painful = (last,) if ground.kind(last) in PAINFUL else ()
        return Path(tuple(hexes), cost, painful)
    return Path(tuple(hexes), cost, ())


def follow(ground: Ground, mover: Mover, steps: list[Hex], budget: int) -> Path | None:
    """A path the player wrote step by step (each hex a neighbour of the one before; on ice,
    the hex where the slide stops), or None when it breaks a movement rule."""
    h = mover.start
    entered: list[Hex] = []
    cost = 0
    for target in steps:
        edge = _edge(h, target)
        if edge is None:
            if mover.mode != "normal":
                return None
            # on ice the player may name where the slide stops: find the step that gets there
            for e in range(6):
                n, step, hexes = walk_step(ground, mover, h, e)
                if step >= 0 and n == target:
                    break
            else:
                return None
        else:
            e = edge
        if h in ground.closed_doors:
            return None  # the move ends on the door it opens
        if mover.mode == "normal":
            n, step, hexes = walk_step(ground, mover, h, e)
            if step < 0 or n != target:
                return None
        else:
            n = ground.neighbour(h, e)
            if n is None or n != target:
                return None
            if n in ground.closed_doors:
                if not mover.opens_doors:
                    return None
            elif not _passable(ground, mover, n):
                return None
            step, hexes = 1, (n,)
        cost += step
        entered.extend(hexes)
        h = n
    if not entered or not can_end(ground, mover, h):
        return None
    path = _finish(ground, mover, entered, cost)
    return path if path.cost <= budget else None


def _edge(a: Hex, b: Hex) -> int | None:
    d = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(d) if d in DIRECTIONS else None


def forced(
    ground: Ground, target: Hex, source: Hex, hexes: int, *, away: bool, blocked: frozenset[Hex]
) -> tuple[Hex, ...]:
    """Push (``away``) or pull the figure on ``target`` up to ``hexes`` hexes from or towards
    ``source``: each step to an open neighbour strictly farther (nearer), the farthest (nearest)
    first, then in edge order. Forced movement ignores difficult terrain and ice; it stops where
    no hex qualifies. Returns the hexes entered."""
    h = target
    moved: list[Hex] = []
    for _ in range(hexes):
        here = distance(h, source)
        options = []
        for edge in range(6):
            n = ground.neighbour(h, edge)
            if n is None or n in ground.closed_doors or n in blocked or n == source:
                continue
            if ground.kind(n) in ("wall", "obstacle") or n not in ground.hexes:
                continue
            d = distance(n, source)
            if (d > here) if away else (d < here):
                options.append((-d if away else d, edge, n))
        if not options:
            break
        h = min(options)[2]
        moved.append(h)
    return tuple(moved)
