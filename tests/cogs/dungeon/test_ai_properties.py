"""Monster-AI invariants on generated small maps (Hypothesis): a monster never ends on another
figure, never passes a wall, never spends more movement than it has, and only attacks characters
it can see."""

from __future__ import annotations

import heapq
from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.dungeon.ai import RULES, Character, DungeonMap, MonsterAction, Situation, solve
from cogs.dungeon.hexes import DIRECTIONS, Hex, distance, neighbours, rectangle

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = ["", "", "", "", "", "wall", "obstacle", "trap", "hazardous", "difficult", "icy"]
PATTERNS = {
    "melee": [(1, 0), (1, -1)],
    "melee-line": [(1, 0), (2, 0)],
    "ranged": [(0, 0), (1, 0)],
    "ranged-triangle": [(0, 0), (1, 0), (0, 1)],
}


@st.composite
def situations(draw) -> Situation:
    cols, rows = draw(st.integers(3, 6)), draw(st.integers(3, 5))
    board = sorted(rectangle(cols, rows))
    terrain = {h: k for h in board if (k := draw(st.sampled_from(KINDS)))}
    on_board = set(board)
    edges = sorted({tuple(sorted((h, n))) for h in board for n in neighbours(h) if n in on_board})
    thin = draw(st.lists(st.sampled_from(edges), max_size=4, unique=True))
    free = [h for h in board if terrain.get(h) != "wall"]
    figures = draw(st.lists(st.sampled_from(free), min_size=2, max_size=6, unique=True))
    monster, rest = figures[0], figures[1:]
    n_chars = draw(st.integers(1, len(rest)))
    characters = tuple(
        Character(h, draw(st.integers(1, 99)), draw(st.booleans()) and draw(st.booleans()))
        for h in rest[:n_chars]
    )
    mode = draw(st.sampled_from(["walk", "walk", "walk", "jump", "fly", "teleport"]))
    shape = draw(st.sampled_from([None, None, *PATTERNS]))
    ranged = draw(st.booleans()) if shape is None else shape.startswith("ranged")
    action = MonsterAction(
        move=draw(st.integers(0, 4)),
        range=draw(st.integers(2, 3)) if ranged else 0,
        targets=draw(st.sampled_from([0, 1, 1, 2, 3, 6])),
        jump=mode == "jump",
        flying=mode == "fly",
        teleport=mode == "teleport",
        muddled=draw(st.booleans()),
        aoe=tuple(PATTERNS[shape]) if shape else (),
    )
    return Situation(
        DungeonMap(frozenset(board), terrain, frozenset(frozenset(p) for p in thin)),
        monster,
        frozenset(rest[n_chars:]),
        characters,
        action,
    )


def cheapest_moves(s: Situation) -> dict[Hex, int]:
    """Movement points to every hex the monster can stand in after moving, by an independent
    reading of the movement rules (for jumps and flight, a lower bound: one point per hex)."""
    m, act = s.map, s.action
    enemies = {c.hex for c in s.characters}

    def kind(h: Hex) -> str:
        return m.terrain.get(h, "")

    def open_edge(a: Hex, b: Hex) -> bool:
        return b in m.hexes and frozenset((a, b)) not in m.thin_walls

    def passable(h: Hex) -> bool:
        if kind(h) == "wall":
            return False
        if act.flying or act.jump:
            return True
        return kind(h) != "obstacle" and h not in enemies

    best = {s.monster: 0}
    heap = [(0, s.monster)]
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > best[h]:
            continue
        for dq, dr in DIRECTIONS:
            n = (h[0] + dq, h[1] + dr)
            if not open_edge(h, n) or not passable(n):
                continue
            slid = False
            walking = not (act.flying or act.jump)
            while walking and kind(n) == "icy":
                nxt = (n[0] + dq, n[1] + dr)
                if not open_edge(n, nxt) or not passable(nxt) or nxt in s.allies:
                    break
                n, slid = nxt, True
            step = 1 if (slid or not walking or kind(n) != "difficult") else 2
            if cost + step < best.get(n, 1 << 30):
                best[n] = cost + step
                heapq.heappush(heap, (cost + step, n))
    return best


def proximity(m: DungeonMap, a: Hex, b: Hex) -> int:
    seen = {a: 0}
    queue = deque([a])
    while queue:
        h = queue.popleft()
        if h == b:
            return seen[h]
        for dq, dr in DIRECTIONS:
            n = (h[0] + dq, h[1] + dr)
            if (
                n in m.hexes
                and n not in seen
                and m.terrain.get(n) != "wall"
                and frozenset((h, n)) not in m.thin_walls
            ):
                seen[n] = seen[h] + 1
                queue.append(n)
    return 1 << 30


@SETTINGS
@given(situations(), st.sampled_from(RULES))
def test_monster_moves_legally(s: Situation, rules: str) -> None:
    outcomes = solve(s, rules)
    assert outcomes and list(outcomes) == sorted(set(outcomes))
    assert solve(s, rules) == outcomes  # deterministic
    occupied = {c.hex for c in s.characters} | set(s.allies)
    moves = None if s.action.teleport else cheapest_moves(s)
    for o in outcomes:
        h = o.move_to
        assert h in s.map.hexes
        assert s.map.terrain.get(h) != "wall"
        if not s.action.flying:
            assert s.map.terrain.get(h) != "obstacle" or h == s.monster
        assert h == s.monster or h not in occupied  # never ends on another figure
        if h == s.monster:
            continue
        if moves is None:  # teleport: at least its distance in hexes
            assert distance(s.monster, h) <= s.action.move
        else:  # reached without crossing a wall, within its movement points
            assert h in moves and moves[h] <= s.action.move


@SETTINGS
@given(situations(), st.sampled_from(RULES))
def test_monster_attacks_only_what_it_can(s: Situation, rules: str) -> None:
    act = s.action
    visible = {c.hex for c in s.characters if not c.invisible}
    for o in solve(s, rules):
        if act.targets == 0:
            assert o.attacks == ()
        assert set(o.attacks) <= visible
        for target in o.attacks:
            assert s.map.sight.los(o.move_to, target, vertex=rules == "gloomhaven")
        if not act.aoe and act.targets:
            assert len(o.attacks) <= (len(visible) if act.targets == 6 else act.targets)
            reach = act.range or 1
            assert all(proximity(s.map, o.move_to, t) <= reach for t in o.attacks)


@SETTINGS
@given(situations())
def test_without_visible_enemies_the_monster_stays(s: Situation) -> None:
    hidden = tuple(Character(c.hex, c.initiative, invisible=True) for c in s.characters)
    quiet = Situation(s.map, s.monster, s.allies, hidden, s.action)
    for rules in RULES:
        assert [(o.move_to, o.attacks) for o in solve(quiet, rules)] == [(s.monster, ())]
