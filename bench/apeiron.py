"""Apeiron benchmark, with its target (issue 19). Run: ``python bench/apeiron.py``.

Resolve + render: one activation (the demo AI's order for the acting unit) resolved by the pure
engine, then its public board rendered to PNG. Target: median under 30 ms. Positions come from
AI games on shuffled fields with event panels, taken at every activation of the play step.

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

from typing import Any

import _timing

from bot.dice import Dice, DiceStream
from cogs.apeiron import ai, present, rules

TARGET_MS = 30.0
NAMES = {"A": "Aurora", "B": "ボレアリス"}


def setup(game: int) -> tuple[Any, Dice, Dice]:
    secret = DiceStream(game.to_bytes(32, "big"), "secret")
    dice = DiceStream(game.to_bytes(32, "little"), "bench")
    options = {"events": ["poison", "arrow"]}
    return rules.new_game("g-bench", rules.SEATS, options, dice, secret), dice, secret


def positions(count: int) -> list[_timing.Case]:
    """(open activation, its order) pairs from AI games."""
    return _timing.ai_positions(count, rules, setup, ai.choose, lambda s: s.step == rules.PLAY)


if __name__ == "__main__":
    label = "apeiron resolve + render, one activation"
    run = _timing.resolve_and_render(rules, present.PRESENTER, NAMES)
    raise SystemExit(_timing.main(__doc__, positions, run, TARGET_MS, label, "activations"))
