"""Monster focus and movement for the hex dungeon, as a pure function. No discord, no storage, no
randomness, no clock.

:func:`solve` takes a :class:`Situation` (the map, the active monster, its allies, the characters
and this turn's :class:`MonsterAction`) and a rules variant, and returns every equally good
:class:`Outcome` (where the monster ends its move and whom it attacks); the players choose among
them. The procedure is the digest's (``shared/rules/dungeon.md``, from the seed's モンスターの移動),
with the points the seed marks as disputed settled as the reference answers settle them:

1. **Reach.** Movement points to every hex, preferring paths over fewer traps and hazardous hexes
   first (they count as obstacles unless needed; then the fewest). Difficult terrain costs 2.
   Walking monsters slide across icy hexes; allies may be passed, enemies (and invisible
   characters) may not. Jumping passes figures and obstacles and feels only its last hex; flying
   passes everything but walls and feels no terrain; teleporting also passes wall hexes.
2. **Focus.** The character that needs the fewest (traps, movement points) to reach a hex the
   monster can end on and attack it from (with line of sight; a monster with no attack plans as if
   melee), then the nearest by proximity (steps around walls), then the earliest initiative. Ties
   stay ties: each tied focus contributes its outcomes.
3. **Destination.** Among the hexes from which the monster attacks its focus, in order: the fewest
   traps on the way, reachable this turn, no disadvantage against the focus (a ranged attacker
   steps back unless muddled), the most targets, the least movement, then extra targets ranked as
   foci (proximity, initiative); then, for the chosen target groups, the fewest targets at
   disadvantage and the least movement.
4. **Cannot attack this turn.** Move to the reachable hex that leaves the fewest (traps, movement
   points) to the chosen attack hex, spending as little as possible; staying put when nothing is
   better.

Variants (``RULES``) differ where the reference answers differ: Gloomhaven sees vertex to vertex and
charges a jump its last difficult hex; Frosthaven sees hex to hex, ranks target count above
disadvantage against the focus, does not rank secondary targets, and when it cannot attack this
turn heeds only its focus; Jaws of the Lion sees hex to hex and ignores proximity in focus ties.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

from bot.ruleset import RuleError
from cogs.dungeon.hexes import DIRECTIONS, Hex, Sight, orientations, rectangle

RULES: tuple[str, ...] = ("gloomhaven", "frosthaven", "jotl")
DEFAULT_RULES = "gloomhaven"
TERRAIN_KINDS: tuple[str, ...] = ("wall", "obstacle", "trap", "hazardous", "difficult", "icy")
ALL_TARGETS = 6  # "targets: 6" attacks every enemy in reach

_INF = 1 << 30


class MonsterAIError(RuleError):
    """A situation the monster AI cannot work on (``key`` names the message)."""


# --- inputs and outputs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """What a rules variant changes in the AI."""

    name: str
    vertex_los: bool  # line of sight between vertices (else hex to hex)
    jump_feels_last_difficult: bool  # a jump pays for difficult terrain on its last hex
    focus_ignores_proximity: bool  # focus ties skip proximity, straight to initiative
    focus_disadvantage_first: bool  # avoiding disadvantage on the focus outranks target count
    plan_future_multiattack: bool  # when it cannot attack now, still aim for the best attack
    rank_secondary_targets: bool  # extra targets are ranked like foci


VARIANTS: Mapping[str, Variant] = {
    "gloomhaven": Variant("gloomhaven", True, True, False, True, True, True),
    "frosthaven": Variant("frosthaven", False, False, False, False, False, False),
    "jotl": Variant("jotl", False, False, True, True, True, True),
}


@dataclass(frozen=True)
class MonsterAction:
    """This turn's monster card, as the AI needs it.

    ``range`` 0 is melee; ``targets`` 0 means no attack (the monster moves as if to attack in
    melee), 6 every enemy in reach; ``aoe`` is an area pattern: offsets from the monster's hex for
    a melee area attack, from one marked hex of the pattern for a ranged one.
    """

    move: int
    range: int = 0
    targets: int = 1
    jump: bool = False
    flying: bool = False
    teleport: bool = False
    muddled: bool = False
    aoe: tuple[Hex, ...] = ()


@dataclass(frozen=True)
class Character:
    """An enemy of the monsters (a character or a summon). Lower initiative acts first."""

    hex: Hex
    initiative: int
    invisible: bool = False


@dataclass(frozen=True)
class DungeonMap:
    """The hexes that exist, their overlay terrain (``TERRAIN_KINDS``) and thin walls."""

    hexes: frozenset[Hex]
    terrain: Mapping[Hex, str] = field(default_factory=dict)
    thin_walls: frozenset[frozenset[Hex]] = frozenset()
    _derived: dict[str, Any] = field(
        init=False, default_factory=dict, compare=False, repr=False, hash=False
    )

    @classmethod
    def rectangle(
        cls,
        columns: int,
        rows: int,
        terrain: Mapping[Hex, str] | None = None,
        thin_walls: Iterable[Iterable[Hex]] = (),
    ) -> DungeonMap:
        return cls(
            rectangle(columns, rows),
            dict(terrain or {}),
            frozenset(frozenset(p) for p in thin_walls),
        )

    @property
    def sight(self) -> Sight:
        """The map's line-of-sight oracle (built once, cached on the map)."""
        sight = self._derived.get("sight")
        if sight is None:
            walls = [h for h, kind in self.terrain.items() if kind == "wall"]
            sight = self._derived["sight"] = Sight(walls, [tuple(p) for p in self.thin_walls])
        return sight

    @property
    def grid(self) -> _Grid:
        """The map indexed for the solver (built once, cached on the map)."""
        grid = self._derived.get("grid")
        if grid is None:
            grid = self._derived["grid"] = _Grid(self)
        return grid


class _Grid:
    """A map's hexes numbered ``0..n-1`` (sorted), their terrain, and neighbours by edge (``-1``
    off the map or across a thin wall)."""

    def __init__(self, m: DungeonMap) -> None:
        hexes, index, nb = _layout(m.hexes)
        self.hexes, self.index, self.n = hexes, index, len(hexes)
        self.kind = [m.terrain.get(h, "") for h in self.hexes]
        for k in self.kind:
            if k and k not in TERRAIN_KINDS:
                raise MonsterAIError("dungeon.ai.unknown_terrain", terrain=k)
        self.wall = [k == "wall" for k in self.kind]
        self.not_wall = [not w for w in self.wall]
        self.nb = [list(row) for row in nb]
        for pair in m.thin_walls:  # no movement, no proximity across a thin wall
            if len(pair) != 2 or not pair <= index.keys():
                continue
            a, b = (index[h] for h in pair)
            for i, j in ((a, b), (b, a)):
                self.nb[i] = [-1 if k == j else k for k in self.nb[i]]


@lru_cache(maxsize=16)
def _layout(hexes: frozenset[Hex]) -> tuple[list[Hex], dict[Hex, int], list[tuple[int, ...]]]:
    """Numbering and neighbour table of a set of hexes (maps share their shapes; cached)."""
    ordered = sorted(hexes)
    index = {h: i for i, h in enumerate(ordered)}
    nb = [tuple(index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in ordered]
    return ordered, index, nb


@dataclass(frozen=True)
class Situation:
    map: DungeonMap
    monster: Hex
    allies: frozenset[Hex]
    characters: tuple[Character, ...]
    action: MonsterAction


@dataclass(frozen=True, order=True)
class Outcome:
    """Where the monster ends its move, and the hexes of the enemies it attacks (sorted)."""

    move_to: Hex
    attacks: tuple[Hex, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"move_to": list(self.move_to), "attacks": [list(h) for h in self.attacks]}


def solve(situation: Situation, rules: str = DEFAULT_RULES) -> tuple[Outcome, ...]:
    """Every equally good outcome of the monster's turn, sorted."""
    variant = VARIANTS.get(rules)
    if variant is None:
        raise MonsterAIError("dungeon.ai.unknown_rules", rules=rules)
    return _Solver(situation, variant).run()


# --- the solver ----------------------------------------------------------------------------------


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Solver:
    """One monster turn. Hexes are indexed ``0..n-1``; sets of characters are bit masks."""

    def __init__(self, situation: Situation, variant: Variant) -> None:
        self.v = variant
        m = situation.map
        act = situation.action
        self.act = act
        grid = m.grid
        self.hexes, self.index, self.n = grid.hexes, grid.index, grid.n
        self.kind, self.wall, self.nb = grid.kind, grid.wall, grid.nb
        self.passable_prox = grid.not_wall
        index, n = self.index, self.n
        if situation.monster not in index:
            raise MonsterAIError("dungeon.ai.monster_off_map", hex=situation.monster)
        if act.move < 0 or act.range < 0 or not 0 <= act.targets <= ALL_TARGETS:
            raise MonsterAIError("dungeon.ai.bad_action")
        self.monster = index[situation.monster]
        self.ally = [False] * n
        for a in situation.allies:
            if a in index:
                self.ally[index[a]] = True
        # characters: visible ones are targets; invisible ones are only in the way
        self.enemy = [False] * n
        chars = []
        for c in situation.characters:
            if c.hex not in index:
                raise MonsterAIError("dungeon.ai.character_off_map", hex=c.hex)
            self.enemy[index[c.hex]] = True
            if not c.invisible:
                chars.append(c)
        figures = [situation.monster, *situation.allies, *(c.hex for c in situation.characters)]
        if len(set(figures)) != len(figures):
            raise MonsterAIError("dungeon.ai.figures_overlap")
        if any(self.wall[index[h]] for h in figures if h in index):
            raise MonsterAIError("dungeon.ai.figure_on_wall")
        self.chars = chars
        self.char_hex = [index[c.hex] for c in chars]
        self.char_at = {h: k for k, h in enumerate(self.char_hex)}

        # attack shape
        self.melee = act.range == 0 or act.targets == 0
        self.attack_range = 1 if self.melee else act.range
        self.susceptible = not self.melee and not act.muddled
        self.plus_target = act.targets - 1
        self.all_targets = act.targets == ALL_TARGETS
        aoe = tuple(o for o in act.aoe if act.range > 0 or o != (0, 0))
        self.aoe_action = act.targets > 0 and bool(aoe)
        self.aoe_melee = self.aoe_action and act.range == 0
        self.aoe = aoe

        self._los_cache: dict[tuple[int, int], bool] = {}
        self._prox_cache: dict[int, list[int]] = {}
        self._range_cache: dict[int, int] = {}
        self._rev_cache: dict[int, tuple[list[int], list[int]]] = {}
        self._options_cache: dict[tuple[int, int], tuple[int, list[int]]] = {}
        self._rank_mask_list: list[int] | None = None
        self.sight = m.sight

    # --- terrain and figures ---------------------------------------------------------------------

    def _setup_movement(self) -> None:
        act, n = self.act, self.n
        kind, enemy, ally = self.kind, self.enemy, self.ally
        me = self.monster
        occupied = [(enemy[i] or ally[i]) and i != me for i in range(n)]
        if act.flying:
            self.can_end = [kind[i] != "wall" and not occupied[i] for i in range(n)]
        else:
            self.can_end = [
                kind[i] not in ("wall", "obstacle") and not occupied[i] for i in range(n)
            ]
        if act.teleport:
            self.travel = [True] * n
        elif act.flying or act.jump:
            self.travel = [kind[i] != "wall" for i in range(n)]
        else:
            self.travel = [kind[i] not in ("wall", "obstacle") and not enemy[i] for i in range(n)]
        feels = not act.flying
        self.trap = [feels and kind[i] in ("trap", "hazardous") for i in range(n)]
        self.icy = [
            not (act.flying or act.jump or act.teleport) and kind[i] == "icy" for i in range(n)
        ]
        self.difficult = [kind[i] == "difficult" for i in range(n)]
        # Walking pays difficult terrain, slides on ice and adds up the traps along its path.
        # Flying, jumping and teleporting pay one point a hex; a jump or teleport feels only its
        # last hex (a trap there; in Gloomhaven, a jump also pays for difficult terrain there).
        self.walking = not (act.flying or act.jump or act.teleport)
        self.jump_last_difficult = (
            act.jump and not act.teleport and self.v.jump_feels_last_difficult
        )
        self._succ: list[list[tuple[int, int, int]] | None] = [None] * n
        self._pred_list: list[list[tuple[int, int, int]]] | None = None

    def _steps_from(self, i: int) -> list[tuple[int, int, int]]:
        """Walking moves out of hex ``i``: (hex reached, movement points, traps sprung)."""
        out = []
        nb, travel, icy, ally = self.nb, self.travel, self.icy, self.ally
        for edge in range(6):
            j = nb[i][edge]
            if j < 0 or not travel[j]:
                continue
            slid = False
            while icy[j]:
                k = nb[j][edge]
                if k < 0 or not travel[k] or ally[k]:
                    break
                j = k
                slid = True
            cost = 1 if slid else 1 + self.difficult[j]
            out.append((j, cost, int(self.trap[j])))
        return out

    # --- distances -------------------------------------------------------------------------------

    def _reach(self) -> tuple[list[int], list[int]]:
        """(traps, movement points) of the best path from the monster to every hex."""
        n, start = self.n, self.monster
        traps, dist = [_INF] * n, [_INF] * n
        traps[start] = dist[start] = 0
        if self.walking:
            heap = [(0, 0, start)]
            while heap:
                t, d, i = heapq.heappop(heap)
                if (t, d) != (traps[i], dist[i]):
                    continue
                steps = self._succ[i]
                if steps is None:
                    steps = self._succ[i] = self._steps_from(i)
                for j, cost, trap in steps:
                    nt, nd = t + trap, d + cost
                    if nt < traps[j] or (nt == traps[j] and nd < dist[j]):
                        traps[j], dist[j] = nt, nd
                        heapq.heappush(heap, (nt, nd, j))
            return traps, dist
        hops = self._bfs([start], self.travel)
        for i in range(n):
            if hops[i] < _INF:
                dist[i] = hops[i]
                if i != start:
                    traps[i] = int(self.trap[i])
                    if self.jump_last_difficult:
                        dist[i] += self.difficult[i]
        return traps, dist

    def _bfs(
        self, sources: Sequence[int], passable: Sequence[bool], limit: int = _INF
    ) -> list[int]:
        dist = [_INF] * self.n
        queue = deque()
        for s in sources:
            dist[s] = 0
            queue.append(s)
        nb = self.nb
        while queue:
            i = queue.popleft()
            d = dist[i] + 1
            if d > limit:
                continue
            for j in nb[i]:
                if j >= 0 and dist[j] == _INF and passable[j]:
                    dist[j] = d
                    queue.append(j)
        return dist

    def _to_destination(self, dest: int) -> tuple[list[int], list[int]]:
        """(traps, movement points) of the best path from every hex to ``dest``."""
        cached = self._rev_cache.get(dest)
        if cached is not None:
            return cached
        n = self.n
        traps, dist = [_INF] * n, [_INF] * n
        traps[dest] = dist[dest] = 0
        if self.walking:
            pred = self._pred
            heap = [(0, 0, dest)]
            while heap:
                t, d, j = heapq.heappop(heap)
                if (t, d) != (traps[j], dist[j]):
                    continue
                for i, cost, trap in pred[j]:
                    nt, nd = t + trap, d + cost
                    if nt < traps[i] or (nt == traps[i] and nd < dist[i]):
                        traps[i], dist[i] = nt, nd
                        heapq.heappush(heap, (nt, nd, i))
        else:
            hops = self._bfs([dest], self.travel)
            last_trap = int(self.trap[dest])
            last_cost = self.difficult[dest] if self.jump_last_difficult else 0
            for i in range(n):
                if hops[i] < _INF and i != dest:
                    dist[i] = hops[i] + last_cost
                    traps[i] = last_trap
        self._rev_cache[dest] = (traps, dist)
        return traps, dist

    @property
    def _pred(self) -> list[list[tuple[int, int, int]]]:
        """Walking moves into each hex: (hex left, movement points, traps sprung)."""
        pred = self._pred_list
        if pred is None:
            pred = [[] for _ in range(self.n)]
            for i in range(self.n):
                steps = self._succ[i]
                if steps is None:
                    steps = self._succ[i] = self._steps_from(i)
                for j, cost, trap in steps:
                    pred[j].append((i, cost, trap))
            self._pred_list = pred
        return pred

    def _proximity(self, i: int) -> list[int]:
        """Steps from hex ``i`` to every hex, around wall hexes and thin walls."""
        d = self._prox_cache.get(i)
        if d is None:
            d = self._bfs([i], self.passable_prox)
            self._prox_cache[i] = d
        return d

    def _within_range(self, i: int) -> int:
        """Hexes (as a mask of indices) within attack range of hex ``i``, around walls."""
        mask = self._range_cache.get(i)
        if mask is None:
            d = self._bfs([i], self.passable_prox, self.attack_range)
            mask = 0
            for j, dj in enumerate(d):
                if dj <= self.attack_range:
                    mask |= 1 << j
            self._range_cache[i] = mask
        return mask

    def _los(self, c: int, loc: int) -> bool:
        key = (c, loc)
        seen = self._los_cache.get(key)
        if seen is None:
            seen = self.sight.los(self.chars[c].hex, self.hexes[loc], vertex=self.v.vertex_los)
            self._los_cache[key] = seen
        return seen

    # --- attack geometry -------------------------------------------------------------------------

    def _setup_attacks(self) -> None:
        n, index = self.n, self.index
        # characters within range of each hex: from each character's side (range is symmetric)
        self.char_range = [self._within_range(h) for h in self.char_hex]
        # adjacency (for disadvantage): neighbours not behind a thin wall
        self.adjacent_chars = [0] * n
        for c, h in enumerate(self.char_hex):
            for j in self.nb[h]:
                if j >= 0:
                    self.adjacent_chars[j] |= 1 << c
        if not self.aoe_action:
            return
        if self.aoe_melee:
            shapes = sorted(set(orientations(self.aoe)))
            self.melee_shapes = shapes
            # per hex: the character masks of each placement (filled lazily)
            self._melee_cache: dict[int, list[int]] = {}
            return
        # ranged: every placement of the pattern that covers a character, grouped by the set of
        # characters it covers; a group is in range of a hex when any of its hexes is
        pins = set()
        for pin in self.aoe:
            for shape in orientations([(o[0] - pin[0], o[1] - pin[1]) for o in self.aoe]):
                pins.add(shape)
        placements: dict[frozenset[Hex], None] = {}
        for c in self.chars:
            for shape in sorted(pins):
                cells = frozenset(
                    (c.hex[0] + dq, c.hex[1] + dr)
                    for dq, dr in shape
                    if (c.hex[0] + dq, c.hex[1] + dr) in index
                )
                placements.setdefault(cells, None)
        groups: dict[int, set[int]] = {}
        for cells in placements:
            mask = 0
            for h in cells:
                cc = self.char_at.get(index[h])
                if cc is not None:
                    mask |= 1 << cc
            if not mask:
                continue
            sources = groups.setdefault(mask, set())
            sources.update(index[h] for h in cells if not self.wall[index[h]])
        self.ranged_groups: list[tuple[int, int]] = []  # (characters, hexes in range of them)
        for mask in sorted(groups):
            d = self._bfs(sorted(groups[mask]), self.passable_prox, self.attack_range)
            region = 0
            for j, dj in enumerate(d):
                if dj <= self.attack_range:
                    region |= 1 << j
            self.ranged_groups.append((mask, region))

    def _melee_placements(self, loc: int) -> list[int]:
        out = self._melee_cache.get(loc)
        if out is None:
            q, r = self.hexes[loc]
            out = []
            for shape in self.melee_shapes:
                mask = 0
                for dq, dr in shape:
                    j = self.index.get((q + dq, r + dr))
                    if j is not None:
                        c = self.char_at.get(j)
                        if c is not None:
                            mask |= 1 << c
                out.append(mask)
            self._melee_cache[loc] = out
        return out

    def _los_mask(self, mask: int, loc: int) -> int:
        out = 0
        for c in _bits(mask):
            if self._los(c, loc):
                out |= 1 << c
        return out

    def _focus_candidates(self, loc: int) -> int:
        """Characters the monster could attack from ``loc`` (line of sight not yet checked)."""
        bit = 1 << loc
        mask = 0
        if not self.aoe_action or self.plus_target > 0:
            for c, region in enumerate(self.char_range):
                if region & bit:
                    mask |= 1 << c
        if self.aoe_action:
            if self.aoe_melee:
                for placed in self._melee_placements(loc):
                    mask |= placed
            else:
                for chars, region in self.ranged_groups:
                    if region & bit:
                        mask |= chars
        return mask

    def _options(self, loc: int, heeded: int) -> tuple[int, list[int]]:
        """(characters targetable by single attacks, area target sets) from ``loc``."""
        key = (loc, heeded)
        cached = self._options_cache.get(key)
        if cached is None:
            cached = self._options_cache[key] = self._compute_options(loc, heeded)
        return cached

    def _compute_options(self, loc: int, heeded: int) -> tuple[int, list[int]]:
        bit = 1 << loc
        targetable = 0
        for c in _bits(heeded):
            if self.char_range[c] & bit and self._los(c, loc):
                targetable |= 1 << c
        if not self.aoe_action:
            return targetable, [0]
        areas: set[int] = set()
        if self.aoe_melee:
            for placed in self._melee_placements(loc):
                hit = self._los_mask(placed & heeded, loc)
                if hit:
                    areas.add(hit)
        else:
            for chars, region in self.ranged_groups:
                if region & bit:
                    hit = self._los_mask(chars & heeded, loc)
                    if hit:
                        areas.add(hit)
        return targetable, sorted(areas)

    # --- the turn --------------------------------------------------------------------------------

    def run(self) -> tuple[Outcome, ...]:
        self._setup_movement()
        self._setup_attacks()
        traps, travel = self._reach()
        self.traps, self.travel_dist = traps, travel
        self._spots = [i for i in range(self.n) if self.can_end[i] and travel[i] < _INF]
        actions: set[tuple[int, int]] = set()
        if self.chars:
            for focus in self._foci():
                actions |= self._actions_for(focus)
        if not actions:
            actions = {(self.monster, 0)}
        return tuple(
            sorted(
                Outcome(
                    self.hexes[loc],
                    tuple(sorted(self.chars[c].hex for c in _bits(group))),
                )
                for loc, group in actions
            )
        )

    def _foci(self) -> list[int]:
        traps, travel = self.traps, self.travel_dist
        proximity = self._proximity(self.monster)
        self.focus_key = [
            (0 if self.v.focus_ignores_proximity else proximity[h], c.initiative)
            for h, c in zip(self.char_hex, self.chars, strict=True)
        ]
        spots = sorted(
            (traps[i], travel[i], i) for i in range(self.n) if self.can_end[i] and travel[i] < _INF
        )
        best: tuple[int, int] | None = None
        found: dict[int, tuple[int, int]] = {}
        for t, d, loc in spots:
            if best is not None and (t, d) != best:
                break
            for c in _bits(self._focus_candidates(loc)):
                if c not in found and self._los(c, loc):
                    found[c] = self.focus_key[c]
                    best = (t, d)
        if not found:
            return []
        self.focus_reach = best
        top = min(found.values())
        return sorted(c for c, key in found.items() if key == top)

    def _rank_masks(self) -> list[int]:
        """Characters by rank as a focus (masks, best rank first); one rank when unranked."""
        masks = self._rank_mask_list
        if masks is None:
            if not self.v.rank_secondary_targets:
                masks = [(1 << len(self.chars)) - 1]
            else:
                keys = sorted(set(self.focus_key))
                dense = {k: r for r, k in enumerate(keys)}
                masks = [0] * len(keys)
                for c, k in enumerate(self.focus_key):
                    masks[dense[k]] |= 1 << c
            self._rank_mask_list = masks
        return masks

    def _actions_for(self, focus: int) -> set[tuple[int, int]]:
        v, act = self.v, self.act
        traps, travel = self.traps, self.travel_dist
        can_attack_focus = self.focus_reach[1] <= act.move
        heeded = (
            1 << focus
            if not v.plan_future_multiattack and not can_attack_focus
            else (1 << len(self.chars)) - 1
        )
        rank_masks = self._rank_masks()
        fbit = 1 << focus
        spots = self._spots
        extra = self.plus_target if self.aoe_action else 1 + max(0, self.plus_target)
        susceptible = self.susceptible

        # 1. the best target groups
        best: tuple[int, ...] | None = None
        groups: set[int] = set()
        for loc in spots:
            reach = travel[loc] <= act.move
            if best is not None and (
                traps[loc] > best[0] or (traps[loc] == best[0] and not reach and best[1] == -1)
            ):
                continue
            adjacent = self.adjacent_chars[loc] if susceptible else 0
            dis_focus = int(bool(adjacent & fbit))
            targetable, areas = self._options(loc, heeded)
            if not self.aoe_action and not targetable & fbit:
                continue
            for pre in areas:
                picks = self._best_picks(pre, targetable, fbit, extra, adjacent)
                if picks is None:
                    continue
                base, tied, take, tied_rank, tied_adjacent = picks
                size = _popcount(base) + take
                if v.focus_disadvantage_first:
                    key = (traps[loc], -reach, dis_focus, -size, travel[loc])
                else:
                    dis = _popcount(base & adjacent) + (take if tied_adjacent else 0)
                    key = (traps[loc], -reach, -size, dis, travel[loc])
                counts = [-_popcount(base & rm) for rm in rank_masks]
                if take:
                    counts[tied_rank] -= take
                key += tuple(counts)
                if best is not None and key > best:
                    continue
                if best is None or key < best:
                    best, groups = key, set()
                for combo in combinations(tied, take):
                    mask = base
                    for bit in combo:
                        mask |= bit
                    groups.add(mask)
        if best is None:
            return set()
        best_size = -best[3] if v.focus_disadvantage_first else -best[2]

        # 2. the best hexes to attack the chosen groups from
        top: tuple[int, int] | None = None
        destinations: set[tuple[int, int]] = set()
        group_list = sorted(groups)
        for loc in spots:
            if traps[loc] != best[0] or -(travel[loc] <= act.move) != best[1]:
                continue
            adjacent = self.adjacent_chars[loc] if susceptible else 0
            if v.focus_disadvantage_first and int(bool(adjacent & fbit)) != best[2]:
                continue
            targetable, areas = self._options(loc, heeded)
            if not self.aoe_action and not targetable & fbit:
                continue
            reachable = targetable
            for pre in areas:
                reachable |= pre
            candidates = [g for g in group_list if not g & ~reachable]
            if not candidates:
                continue
            for pre in areas:
                available = targetable & ~pre
                count = _popcount(available)
                k = count if self.all_targets else min(extra, count)
                if _popcount(pre) + k != best_size:
                    continue
                for group in candidates:
                    if group & pre != pre:
                        continue
                    rest = group & ~pre
                    if rest & ~available or _popcount(rest) != k:
                        continue
                    key2 = (_popcount(group & adjacent), travel[loc])
                    if top is None or key2 < top:
                        top, destinations = key2, {(loc, group)}
                    elif key2 == top:
                        destinations.add((loc, group))

        if best[1] == -1:  # attacks this turn
            if self.plus_target >= 0:
                return destinations
            return {(loc, 0) for loc, _ in destinations}
        # 3. cannot attack this turn: close in on each chosen attack hex
        out: set[tuple[int, int]] = set()
        moves = [i for i in spots if travel[i] <= act.move]
        for dest in sorted({loc for loc, _ in destinations}):
            to_traps, to_dist = self._to_destination(dest)
            best_move: tuple[int, int, int] | None = None
            chosen: list[int] = []
            for loc in moves:
                if to_traps[loc] >= _INF:
                    continue
                key3 = (to_traps[loc] + traps[loc], to_dist[loc], travel[loc])
                if best_move is None or key3 < best_move:
                    best_move, chosen = key3, [loc]
                elif key3 == best_move:
                    chosen.append(loc)
            out.update((loc, 0) for loc in chosen)
        return out

    def _best_picks(
        self, pre: int, targetable: int, fbit: int, extra: int, adjacent: int
    ) -> tuple[int, list[int], int, int, bool] | None:
        """The best extra targets beyond the area's ``pre``: every best set is ``base`` plus
        ``take`` of ``tied`` (single bits), all of rank ``tied_rank`` and alike in adjacency
        (``tied_adjacent``). None when the focus cannot be among the targets."""
        available = targetable & ~pre
        count = _popcount(available)
        k = count if self.all_targets else min(extra, count)
        base = pre
        if not pre & fbit:
            if not available & fbit or k < 1:
                return None
            base |= fbit
            k -= 1
        pool = available & ~fbit
        if k == 0:
            return base, [], 0, 0, False
        if k >= _popcount(pool):
            return base | pool, [], 0, 0, False
        if self.v.rank_secondary_targets:
            layers = self._rank_masks()
        else:
            layers = (pool & ~adjacent, pool & adjacent)
        for rank, layer in enumerate(layers):
            here = pool & layer
            size = _popcount(here)
            if size <= k:
                base |= here
                k -= size
                if k == 0:
                    return base, [], 0, 0, False
                continue
            tied = [1 << c for c in _bits(here)]
            if self.v.rank_secondary_targets:
                return base, tied, k, rank, False
            return base, tied, k, 0, rank == 1
        raise AssertionError("unreachable: the layers cover the pool")
