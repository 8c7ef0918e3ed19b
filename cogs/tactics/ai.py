"""A built-in tactics player for ``python -m bot demo tactics`` (pure).

It sees only the public board. Rosters and lineups are random within the rules; each turn every
unit that may act goes, in order, to the square from which it hits the weakest enemy hardest (or
heals a hurt ally, or uses its ability when the mana allows), and otherwise closes in on the
nearest enemy. On turns 3 and 7 it summons the dearest reserve unit it can pay for. The sheet is
checked by the real parser; a line the parser refuses is dropped.
"""

from __future__ import annotations

import random

from bot.ruleset import OrderRejected
from cogs.tactics import master, rules, units
from cogs.tactics.effects import distance
from cogs.tactics.rules import SUMMON_TURNS, TacticsState, Unit
from cogs.tactics.units import Ability

Square = tuple[int, int]
HARMFUL = ("damage", "area_damage")


def choose(state: TacticsState, seat: str, rng: random.Random) -> str:
    if state.step == "roster":
        return _roster(rng)
    if state.step == "deploy":
        return _deploy(state, seat, rng)
    return _sheet(state, seat, rng)


def _roster(rng: random.Random) -> str:
    boss = rng.choice(master.presets())
    pool = list(units.pool())
    chosen = rng.sample(pool, rng.randint(6, 9))
    return " ".join([boss.id, *(u.id for u in chosen)])


def _deploy(state: TacticsState, seat: str, rng: random.Random) -> str:
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


def _sheet(state: TacticsState, seat: str, rng: random.Random) -> str:
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
    reach = rules._reach(state, unit, start, positions)
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
    low, high = ability.range
    if ability.effect in HARMFUL:
        for enemy in enemies:
            if enemy.square and low <= distance(sq, enemy.square) <= high:
                return ability.power + 1.5, f"ability {rules.label(enemy.square)}"
    if ability.effect in ("heal", "area_heal"):
        for ally in state.side_units(unit.side):
            hurt = ally.on_board and ally.square and ally.hp <= ally.type.hp // 2
            if hurt and low <= distance(sq, ally.square) <= high:  # type: ignore[arg-type]
                return 6.0, f"ability {rules.label(ally.square)}"  # type: ignore[arg-type]
    if ability.effect == "stat" and ability.power > 0 and ability.target == "self":
        near = any(e.square and distance(sq, e.square) <= 3 for e in enemies)
        return (3.0, "ability") if near else None
    return None
