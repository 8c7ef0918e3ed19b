"""Dungeon round benchmark. Run: ``python bench/dungeon.py``.

Resolve + render: one dungeon step (a character's turn or the round's picks, followed by every
monster turn the engine then runs with the monster AI) resolved by the pure engine, then its
public board rendered to PNG. Positions come from demo-player games of three characters in both
shipped scenarios, once the second room is open (the most monsters on the board). Target: median
under 50 ms, the tactics board's target (a step is posted the same way).

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

import statistics
from typing import Any

import _timing

from bot.dice import NO_SECRET, Dice, DiceStream
from cogs.dungeon import players, present, rules

TARGET_MS = 50.0
NAMES = {"A": "Aurora", "B": "ボレアリス", "C": "Cirrus"}


def setup(game: int) -> tuple[Any, Dice, Dice]:
    scenario = ("crypt", "frozen-gallery")[game % 2]
    dice = DiceStream(game.to_bytes(32, "big"), "bench")
    state = rules.new_game("g-bench", ["A", "B", "C"], {"scenario": scenario}, dice)
    return state, dice, NO_SECRET


def positions(count: int) -> list[_timing.Case]:
    """(state awaiting orders, the orders) pairs after a door has opened (300 steps a game at
    most: the demo players need not finish)."""
    return _timing.ai_positions(
        count,
        rules,
        setup,
        players.choose,
        lambda s: bool(s.open_doors and len(s.living_monsters()) >= 3),
        steps=300,
    )


def label(cases: list[_timing.Case]) -> str:
    monsters = statistics.mean(len(state.living_monsters()) for state, _ in cases)
    return (
        "dungeon step resolve (monster AI turns included) + render, "
        f"{monsters:.1f} monsters on average"
    )


if __name__ == "__main__":
    run = _timing.resolve_and_render(rules, present.PRESENTER, NAMES)
    raise SystemExit(_timing.main(__doc__, positions, run, TARGET_MS, label, "steps"))
