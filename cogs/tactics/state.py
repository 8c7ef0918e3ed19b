"""Tactics' state: the units and the game as the engine keeps them (pure).

The engine (``rules.py``) makes and changes it; the order parser (``sheet.py``) reads it to check
a sheet against the board. Both import it, neither the other's types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cogs.tactics import maps
from cogs.tactics.units import UnitType

Square = tuple[int, int]

MAX_TURNS = 10  # a game's turns, unless its options say otherwise
DEFAULT_CAP = 18  # the highest total cost of a starting lineup, unless its options say otherwise


@dataclass
class StatEffect:
    stat: str
    delta: int
    turns: int


@dataclass
class Unit:
    id: str
    side: str
    type: UnitType
    hp: int
    status: str = "reserve"  # reserve | board | dead
    square: Square | None = None
    exhausted_turn: int = 0  # the turn in which it may not act (after an ability)
    effects: list[StatEffect] = field(default_factory=list)
    deaths: int = 0

    def stat(self, name: str) -> int:
        base = {"atk": self.type.atk, "def": self.type.defence, "move": self.type.move}[name]
        return max(0, base + sum(e.delta for e in self.effects if e.stat == name))

    @property
    def on_board(self) -> bool:
        return self.status == "board"


@dataclass
class TacticsState:
    game_id: str
    options: dict[str, Any]
    step: str  # roster | deploy | play | finished
    step_no: int = 0  # the framework's turn: steps opened so far
    resolved: int = 0  # steps resolved so far
    turn: int = 0  # the game turn, 1..max_turns during play
    first: str | None = None
    units: dict[str, Unit] = field(default_factory=dict)
    dp: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    mana: dict[str, list[int]] = field(default_factory=lambda: {"A": [0, 0], "B": [0, 0]})
    placed_obstacles: list[Square] = field(default_factory=list)
    fallen: list[str] = field(default_factory=list)  # unit ids in order of death
    last: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None
    end_reason: str | None = None

    @property
    def map(self) -> maps.Map:
        return maps.load(self.options.get("map", maps.DEFAULT))

    @property
    def cap(self) -> int:
        return int(self.options.get("cost_cap", DEFAULT_CAP))

    @property
    def max_turns(self) -> int:
        return int(self.options.get("turns", MAX_TURNS))

    def obstacles(self) -> set[Square]:
        return set(self.map.obstacles) | set(self.placed_obstacles)

    def unit_at(self, sq: Square) -> Unit | None:
        for unit in self.units.values():
            if unit.on_board and unit.square == sq:
                return unit
        return None

    def side_units(self, seat: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == seat]
