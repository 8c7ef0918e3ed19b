"""Tactics benchmark, with its target (issue 3). Run: ``python bench/tactics.py``.

Resolve + render: one full play turn (both phases, AI sheets for every unit) with 10 units on the
board, resolved by the pure engine, then its public board rendered to PNG. Target: median under
50 ms. Positions come from AI games on the default map, taken when exactly 10 units stand.

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bot.dice import DiceStream
from cogs.tactics import ai, present, rules

TARGET_MS = 50.0
UNITS_ON_BOARD = 10
NAMES = {"A": "Aurora", "B": "ボレアリス"}


def positions(count: int, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """(open play turn with 10 units on the board, both sheets) pairs from AI games."""
    rng = random.Random(seed)
    found: list[tuple[Any, dict[str, Any]]] = []
    game = 0
    while len(found) < count:
        game += 1
        dice = DiceStream(game.to_bytes(32, "big"), "bench")
        # Lineups of 5 a side: a cap high enough that any 5 fit.
        state = rules.new_game("g-bench", rules.SEATS, {"cost_cap": 60}, dice)
        while rules.outcome(state) is None and len(found) < count:
            state, _ = rules.start_turn(state, dice)
            orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.SEATS}
            standing = sum(1 for u in state.units.values() if u.on_board)
            if state.step == "play" and standing == UNITS_ON_BOARD:
                found.append((state, orders))
            state, _ = rules.resolve(state, orders, dice)
    return found


def bench(samples: int) -> float:
    cases = positions(samples, seed=7)
    for state, orders in cases[:3]:  # warm the font caches, as a running bot has
        after, _ = rules.resolve(state, orders, DiceStream(b"\0" * 32, "w"))
        present.render_board(rules.view(after, None), "ja", NAMES)
    timings = []
    for index, (state, orders) in enumerate(cases):
        lang = "ja" if index % 2 else "en"
        start = time.perf_counter()
        after, _ = rules.resolve(state, orders, DiceStream(b"\0" * 32, "b"))
        png = present.render_board(rules.view(after, None), lang, NAMES)
        timings.append((time.perf_counter() - start) * 1000)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return statistics.median(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100)
    args = parser.parse_args()
    median = bench(args.samples)
    ok = median < TARGET_MS
    print(
        f"tactics resolve + render, {UNITS_ON_BOARD} units on the board: median {median:.1f} ms "
        f"over {args.samples} turns (target < {TARGET_MS:.0f} ms) {'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
