"""Tactics board render alone, with its target. Run: ``python bench/tactics_board.py``.

The board of a play turn with 10 units on it, drawn to PNG from the public view after the turn
was resolved (its moves, attacks and effects on the board), in English and Japanese by turns.
Target: median under 40 ms, so that ``bench/tactics.py``'s resolve + render (< 50 ms) keeps room
for the engine. Positions are ``bench/tactics.py``'s (AI games on the default map).

This timing was printed by a test (``tests/render/test_tactics_board.py``) that asserted
nothing; here it has a target and, like the other benchmarks, it exits non-zero when the target
is missed. Not a test.
"""

from __future__ import annotations

import _timing
import tactics

from bot.dice import NO_SECRET, Dice, DiceStream
from cogs.tactics import present, rules

TARGET_MS = 40.0


def positions(count: int) -> list[_timing.Case]:
    """The states after ``count`` resolved play turns with 10 units on the board (no orders:
    nothing is resolved while timing)."""
    dice = DiceStream(b"\0" * 32, "tactics-board")
    resolved = [
        rules.resolve(state, orders, dice, NO_SECRET)[0]
        for state, orders in tactics.positions(count)
    ]
    return [(state, {}) for state in resolved]


def render(case: _timing.Case, dice: Dice, lang: str) -> bytes:
    """What is timed: the public board of a resolved state, drawn."""
    return present.PRESENTER.render_board(rules.view(case[0], None), lang, tactics.NAMES)


if __name__ == "__main__":
    label = f"tactics board render, {tactics.UNITS_ON_BOARD} units on the board"
    raise SystemExit(_timing.main(__doc__, positions, render, TARGET_MS, label, "boards"))
