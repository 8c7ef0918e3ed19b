"""Tactics benchmark, with its target (issue 3). Run: ``python bench/tactics.py``.

Resolve + render: one full play turn (both phases, AI sheets for every unit) with 10 units on the
board, resolved by the pure engine, then its public board rendered to PNG. Target: median under
50 ms. Positions come from AI games on the default map, taken when exactly 10 units stand.

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

from typing import Any

import _timing

from bot.dice import NO_SECRET, Dice, DiceStream
from cogs.tactics import ai, present, rules

TARGET_MS = 50.0
UNITS_ON_BOARD = 10
NAMES = {"A": "Aurora", "B": "ボレアリス"}


def setup(game: int) -> tuple[Any, Dice, Dice]:
    dice = DiceStream(game.to_bytes(32, "big"), "bench")
    # Lineups of 5 a side: a cap high enough that any 5 fit.
    return rules.new_game("g-bench", rules.SEATS, {"cost_cap": 60}, dice), dice, NO_SECRET


def wanted(state: Any) -> bool:
    standing = sum(1 for u in state.units.values() if u.on_board)
    return bool(state.step == "play" and standing == UNITS_ON_BOARD)


def positions(count: int) -> list[_timing.Case]:
    """(open play turn with 10 units on the board, both sheets) pairs from AI games."""
    return _timing.ai_positions(count, rules, setup, ai.choose, wanted)


if __name__ == "__main__":
    label = f"tactics resolve + render, {UNITS_ON_BOARD} units on the board"
    run = _timing.resolve_and_render(rules, present.PRESENTER, NAMES)
    raise SystemExit(_timing.main(__doc__, positions, run, TARGET_MS, label, "turns"))
