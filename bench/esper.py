"""Esper benchmark, with its target (issue 20). Run: ``python bench/esper.py``.

Resolve + render: one normal turn of an 11-player game (the demo AI's order for the active
seat) resolved by the pure engine, then its public planet board rendered to PNG. Target: median
under 50 ms. Positions come from AI games of 11, taken at every open ``turn`` step.

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

from typing import Any

import _timing

from bot.dice import Dice, DiceStream
from cogs.esper import ai, present, rules

TARGET_MS = 50.0
PLAYERS = 11
NAMES = {seat: f"Player {seat}" for seat in rules.SEATS}


def setup(game: int) -> tuple[Any, Dice, Dice]:
    secret = DiceStream(game.to_bytes(32, "big"), "secret")
    dice = DiceStream(game.to_bytes(32, "little"), "bench")
    return rules.new_game("g-bench", rules.SEATS[:PLAYERS], {}, dice, secret), dice, secret


def positions(count: int) -> list[_timing.Case]:
    """(open turn step, its order) pairs from AI games of 11."""
    return _timing.ai_positions(count, rules, setup, ai.choose, lambda s: s.step == rules.TURN)


if __name__ == "__main__":
    label = f"esper resolve + render, one turn of {PLAYERS} players"
    run = _timing.resolve_and_render(rules, present.PRESENTER, NAMES)
    raise SystemExit(_timing.main(__doc__, positions, run, TARGET_MS, label, "turns"))
