"""A built-in tactics player for ``python -m bot demo tactics`` (pure).

It sees only the public board. Rosters and lineups are random within the rules; each turn every
unit that may act goes, in order, to the square from which it hits the weakest enemy hardest (or
heals a hurt ally, or uses its ability when the mana allows), and otherwise closes in on the
nearest enemy. On turns 3 and 7 it summons the dearest reserve unit it can pay for. The sheet is
checked by the real parser; a line the parser refuses is dropped.

Its only chance is the ``dice`` it is handed: a :class:`bot.dice.Dice` (``roll(sides)``), or
any object with ``randrange`` (the demo hands it a ``random.Random``); no ``random`` import.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

from bot.ruleset import OrderRejected
from cogs.tactics import master, rules, sheet, units
from cogs.tactics.movement import distance
from cogs.tactics.rules import SUMMON_TURNS
from cogs.tactics.state import TacticsState, Unit
from cogs.tactics.units import Ability

Square = tuple[int, int]
HARMFUL = ("damage", "area_damage")
T = TypeVar("T")


class Chance:
    """The few draws the AI makes, from Dice or from a ``random.Random``-like source."""

    def __init__(self, source: Any) -> None:
        self.source = source

    def below(self, n: int) -> int:
        """0 ≤ x < n."""
        if hasattr(self.source, "roll"):
            return int(self.source.roll(n)) - 1
        return int(self.source.randrange(n))

    def random(self) -> float:
        return self.below(1000) / 1000

    def randint(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]


def league_master(dice: Any) -> dict[str, str]:
    """A league master for ``python -m bot demo league``: one of the preset masters."""
    return {"preset": Chance(dice).choice(master.presets()).id}


def choose(state: TacticsState, seat: str, dice: Any) -> str:
    """Order text for ``seat`` in the current step (roster, deploy or play) that parses."""
    rng = dice if isinstance(dice, Chance) else Chance(dice)
    if state.step == "roster":
        return _roster(rng)
    if state.step == "deploy":
        return _deploy(state, seat, rng)
    return _sheet(state, seat, rng)


def _roster(rng: Chance) -> str:
    boss = rng.choice(master.presets())
    pool = list(units.pool())
    chosen = rng.sample(pool, rng.randint(6, 9))
    return " ".join([boss.id, *(u.id for u in chosen)])


def _deploy(state: TacticsState, seat: str, rng: Chance) -> str:
    mine = state.side_units(seat)
    boss = [u for u in mine if u.type.master]
    others = [u for u in mine if not u.type.master]
    rng.shuffle(others)
    lineup: list[Unit] = []
    cost = 0
    for unit in boss + others:
        if len(lineup) < 5 and cost + unit.type.cost <= state.cap:
            lineup.append(unit)
            cost += unit.type.cost
    enemy_zone = state.map.zones[rules._other(seat)]
    zone = [sq for sq in state.map.zones[seat] if sq not in state.obstacles()]
    zone.sort(key=lambda sq: (min(distance(sq, e) for e in enemy_zone), rng.random()))
    # Fragile and long-ranged units stand behind: they take the squares furthest forward last.
    lineup.sort(key=lambda u: (u.type.range[1] > 1, -u.type.hp))
    return ", ".join(f"{u.id} {rules.label(sq)}" for u, sq in zip(lineup, zone, strict=False))


def _score_target(unit: Unit, target: Unit, hp: int) -> float | None:
    """How good hitting ``target`` (expected to have ``hp`` left) is; None when pointless."""
    damage = max(0, unit.stat("atk") - target.stat("def"))
    if damage == 0 or hp <= 0:
        return None
    kill = damage >= hp
    return damage + (10 if kill else 0) + (4 if target.type.master else 0)


def _sheet(state: TacticsState, seat: str, rng: Chance) -> str:
    lines: list[str] = []
    mana = min(state.turn, 10)
    positions = {u.id: u.square for u in state.units.values() if u.on_board}
    if state.turn in SUMMON_TURNS:
        reserve = sorted(
            (u for u in state.side_units(seat) if u.status == "reserve"),
            key=lambda u: -u.type.cost,
        )
        free = [
            sq
            for sq in state.map.zones[seat]
            if sq not in state.obstacles() and sq not in positions.values()
        ]
        for unit in reserve:
            if unit.type.cost <= mana and free:
                lines.append(f"summon {unit.id} {rules.label(free[0])}")
                mana -= unit.type.cost
                break
    enemies = [u for u in state.units.values() if u.on_board and u.side != seat]
    expected = {e.id: e.hp for e in enemies}  # HP left after the lines planned so far
    movers = [state.units[uid] for uid in rules.own_units(state, seat)]
    movers.sort(key=lambda u: (-u.type.range[1], rng.random()))
    for unit in movers:
        line, spent = _plan(state, unit, positions, enemies, mana, expected)
        candidate = [*lines, line]
        try:
            rules.parse(state, seat, "\n".join(candidate))
        except OrderRejected:
            continue
        lines = candidate
        mana -= spent
    return "\n".join(lines) or "wait"


def _plan(
    state: TacticsState,
    unit: Unit,
    positions: dict[str, Square | None],
    enemies: list[Unit],
    mana: int,
    expected: dict[str, int],
) -> tuple[str, int]:
    start = unit.square
    assert start is not None
    reach = sheet.reach(state, unit, start, positions)
    taken = {sq for uid, sq in positions.items() if uid != unit.id}
    reach = {sq for sq in reach if sq not in taken} | {start}
    best: tuple[float, Square, str, int] | None = None
    victim: Unit | None = None
    ability = unit.type.ability
    for sq in reach:
        if unit.type.atk > 0:
            low, high = unit.type.range
            for enemy in enemies:
                if enemy.square and low <= distance(sq, enemy.square) <= high:
                    score = _score_target(unit, enemy, expected[enemy.id])
                    if score is not None and (best is None or score > best[0]):
                        best = (score, sq, f"attack {rules.label(enemy.square)}", 0)
                        victim = enemy
        if ability is not None and ability.mana <= mana:
            found = _ability_use(state, unit, sq, ability, enemies)
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], sq, found[1], ability.mana)
                victim = None
    if best is None and enemies:
        # Close in: the reachable square nearest to the nearest enemy.
        goal = min(enemies, key=lambda e: distance(start, e.square))  # type: ignore[arg-type]
        sq = min(reach, key=lambda s: (distance(s, goal.square), distance(s, start)))  # type: ignore[arg-type]
        best = (0.0, sq, "wait", 0)
    if best is None:
        return f"{unit.id} wait", 0
    _, sq, action, spent = best
    if victim is not None:
        expected[victim.id] -= max(0, unit.stat("atk") - victim.stat("def"))
    positions[unit.id] = sq
    move = f" >{rules.label(sq)}" if sq != start else ""
    return f"{unit.id}{move} {action}", spent


def _ability_use(
    state: TacticsState, unit: Unit, sq: Square, ability: Ability, enemies: list[Unit]
) -> tuple[float, str] | None:
    """The best use of the unit's ability from ``sq`` (score, action text), or None."""
    low, high = ability.range

    def in_range(target: Square | None) -> bool:
        return target is not None and low <= distance(sq, target) <= high

    allies = [a for a in state.side_units(unit.side) if a.on_board and a is not unit]

    def at(other: Unit) -> Square:
        return sq if other is unit else other.square  # type: ignore[return-value]

    if ability.effect in HARMFUL:
        centres = [e.square for e in enemies if in_range(e.square)]
        if ability.target == "self" or (low == 0 and ability.effect == "area_damage"):
            centres.append(sq)
        if ability.effect == "area_damage":
            # Never splash more friends than foes (the actor itself is never hit).
            def splash(target: Square) -> int:
                foes = sum(1 for e in enemies if distance(at(e), target) <= ability.radius)
                friends = sum(1 for f in allies if distance(at(f), target) <= ability.radius)
                return foes - friends

            best_sq = max(centres, key=splash, default=None)
            if best_sq is not None and splash(best_sq) > 0:
                text = "ability" if best_sq == sq else f"ability {rules.label(best_sq)}"
                return ability.power * splash(best_sq) + 1.5, text
            return None
        hit = [e for e in enemies if in_range(e.square)]
        weakest = min(hit, key=lambda e: e.hp, default=None)
        if weakest is not None:
            bonus = 10 if ability.power >= weakest.hp else 0
            return ability.power + 1.5 + bonus, f"ability {rules.label(at(weakest))}"
        return None
    if ability.effect in ("heal", "area_heal"):
        hurt = [a for a in [unit, *allies] if a.hp <= a.type.hp // 2 and in_range(at(a))]
        if hurt:
            ally = min(hurt, key=lambda a: a.hp)
            return 6.0, f"ability {rules.label(at(ally))}"
        return None
    if ability.effect == "stat":
        near = any(e.square and distance(sq, e.square) <= 3 for e in enemies)
        if ability.power > 0 and ability.target == "self":
            return (3.0, "ability") if near else None
        if ability.power > 0:
            fighters = [
                a
                for a in [unit, *allies]
                if in_range(at(a)) and any(distance(at(a), at(e)) <= 2 for e in enemies)
            ]
            if fighters:
                best = max(fighters, key=lambda a: a.stat("atk"))
                return 2.5, f"ability {rules.label(at(best))}"
            return None
        foes = [e for e in enemies if in_range(e.square)]
        if foes:
            best = max(foes, key=lambda e: e.stat(ability.stat or "atk"))
            return 2.5, f"ability {rules.label(at(best))}"
        return None
    if ability.effect == "revive":
        fallen = [u for u in state.side_units(unit.side) if u.status == "dead"]
        if not fallen:
            return None
        free = _free_squares(state, sq, low, high)
        return (8.0, f"ability {rules.label(free[0])}") if free else None
    if ability.effect in ("push", "pull"):
        foes = [e for e in enemies if in_range(e.square)]
        return (1.5, f"ability {rules.label(foes[0].square)}") if foes else None  # type: ignore[arg-type]
    return None


def _free_squares(state: TacticsState, centre: Square, low: int, high: int) -> list[Square]:
    m = state.map
    taken = {u.square for u in state.units.values() if u.on_board}
    found = [
        (c, r)
        for r in range(m.height)
        for c in range(m.width)
        if low <= distance(centre, (c, r)) <= high
        and (c, r) not in taken
        and (c, r) not in state.obstacles()
        and (c, r) != centre
    ]
    found.sort(key=lambda s: (distance(centre, s), s[1], s[0]))
    return found
