"""The ability-effect catalogue: each effect is a small pure function of the board it is handed.

An effect gets the acting unit, the target square and the ability, works only through the
:class:`Board` protocol (which the rules engine implements over its working copy of the state),
and returns the events it caused. ``valid_target`` says whether a square is a target the effect
can use at all (the rules turn "no" into the move-only fallback).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bot.ruleset import Event

Square = tuple[int, int]


class Board(Protocol):
    def unit_at(self, sq: Square) -> Any | None: ...
    def free(self, sq: Square) -> bool: ...
    def inside(self, sq: Square) -> bool: ...
    def damage(self, unit: Any, amount: int, source: Any) -> list[Event]: ...
    def heal(self, unit: Any, amount: int) -> int: ...
    def place(self, unit: Any, sq: Square) -> None: ...
    def add_obstacle(self, sq: Square) -> None: ...
    def add_effect(self, unit: Any, stat: str, delta: int, turns: int) -> None: ...
    def last_dead(self, side: str) -> Any | None: ...
    def revive(self, unit: Any, sq: Square) -> None: ...
    def label(self, sq: Square) -> str: ...


def _area(board: Board, center: Square, radius: int) -> list[Square]:
    found = []
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            sq = (center[0] + dx, center[1] + dy)
            if abs(dx) + abs(dy) <= radius and board.inside(sq):
                found.append(sq)
    return found


def damage(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    """Magic damage: ``power`` to the unit on the square, armour (DEF) does not count."""
    unit = board.unit_at(target)
    return board.damage(unit, ability.power, actor)


def area_damage(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    """``power`` to every unit within ``radius`` of the square, friends too (never the actor)."""
    events: list[Event] = []
    for sq in _area(board, target, ability.radius):
        unit = board.unit_at(sq)
        if unit is not None and unit is not actor:
            events += board.damage(unit, ability.power, actor)
    return events


def heal(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    unit = board.unit_at(target)
    healed = board.heal(unit, ability.power)
    return [Event("heal", {"unit": unit.id, "amount": healed, "hp": unit.hp})]


def area_heal(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    events = []
    for sq in _area(board, target, ability.radius):
        unit = board.unit_at(sq)
        if unit is not None and unit.side == actor.side:
            healed = board.heal(unit, ability.power)
            events.append(Event("heal", {"unit": unit.id, "amount": healed, "hp": unit.hp}))
    return events


def _shove(board: Board, actor: Any, target: Square, steps: int, away: bool) -> list[Event]:
    """Move the target unit straight away from (or towards) the actor, stopping at anything."""
    unit = board.unit_at(target)
    dx, dy = target[0] - actor.square[0], target[1] - actor.square[1]
    step = (1 if dx > 0 else -1, 0) if abs(dx) >= abs(dy) else (0, 1 if dy > 0 else -1)
    if not away:
        step = (-step[0], -step[1])
    start = where = target
    for _ in range(steps):
        nxt = (where[0] + step[0], where[1] + step[1])
        if not board.inside(nxt) or not board.free(nxt):
            break
        where = nxt
    board.place(unit, where)
    kind = "push" if away else "pull"
    return [Event(kind, {"unit": unit.id, "from": board.label(start), "to": board.label(where)})]


def push(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    return _shove(board, actor, target, ability.power, away=True)


def pull(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    return _shove(board, actor, target, ability.power, away=False)


def stat(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    """``stat`` (atk, def or move) changed by ``power`` for ``turns`` turns, this one included."""
    unit = board.unit_at(target)
    board.add_effect(unit, ability.stat, ability.power, ability.turns)
    return [
        Event(
            "stat",
            {"unit": unit.id, "stat": ability.stat, "delta": ability.power, "turns": ability.turns},
        )
    ]


def teleport(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    start = actor.square
    board.place(actor, target)
    return [
        Event(
            "teleport",
            {"unit": actor.id, "from": board.label(start), "to": board.label(target)},
        )
    ]


def revive(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    """The actor's side's most recently fallen unit returns on the square with half its HP."""
    fallen = board.last_dead(actor.side)
    board.revive(fallen, target)
    return [Event("revive", {"unit": fallen.id, "to": board.label(target), "hp": fallen.hp})]


def obstacle(board: Board, actor: Any, target: Square, ability: Any) -> list[Event]:
    board.add_obstacle(target)
    return [Event("obstacle", {"unit": actor.id, "square": board.label(target)})]


Effect = Callable[[Board, Any, Square, Any], list[Event]]
EFFECTS: dict[str, Effect] = {
    "damage": damage,
    "area_damage": area_damage,
    "heal": heal,
    "area_heal": area_heal,
    "push": push,
    "pull": pull,
    "stat": stat,
    "teleport": teleport,
    "revive": revive,
    "obstacle": obstacle,
}


def valid_target(board: Board, actor: Any, target: Square, ability: Any) -> str | None:
    """Why ``target`` cannot take this ability now (a message key), or None."""
    unit = board.unit_at(target)
    kind = ability.target
    if kind == "self" and target != actor.square:
        return "tactics.why.self_only"
    if kind == "enemy" and (unit is None or unit.side == actor.side):
        return "tactics.why.no_enemy"
    if kind == "ally" and (unit is None or unit.side != actor.side):
        return "tactics.why.no_ally"
    if kind == "unit" and (unit is None or unit is actor):
        return "tactics.why.no_unit"
    if kind == "free" and not board.free(target):
        return "tactics.why.not_free"
    if ability.effect == "revive" and board.last_dead(actor.side) is None:
        return "tactics.why.nobody_fallen"
    return None
