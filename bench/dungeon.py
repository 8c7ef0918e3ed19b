"""Dungeon round benchmark. Run: ``python bench/dungeon.py``.

Resolve + render: one dungeon step (a character's turn or the round's picks, followed by every
monster turn the engine then runs with the monster AI) resolved by the pure engine, then its
public board rendered to PNG. Positions come from demo-player games of three characters in both
shipped scenarios, once the second room is open (the most monsters on the board). Target: median
under 50 ms, the tactics board's target (a step is posted the same way).

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bot.dice import DiceStream
from cogs.dungeon import players, present, rules

TARGET_MS = 50.0
NAMES = {"A": "Aurora", "B": "ボレアリス", "C": "Cirrus"}


def positions(count: int, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """(state awaiting orders, the orders) pairs after a door has opened."""
    rng = random.Random(seed)
    found: list[tuple[Any, dict[str, Any]]] = []
    game = 0
    while len(found) < count:
        game += 1
        scenario = ("crypt", "frozen-gallery")[game % 2]
        dice = DiceStream(game.to_bytes(32, "big"), "bench")
        state = rules.new_game("g-bench", ["A", "B", "C"], {"scenario": scenario}, dice)
        for _ in range(300):
            if rules.outcome(state) is not None or len(found) >= count:
                break
            state, _ = rules.start_turn(state, dice)
            orders = {
                s: rules.parse(state, s, players.choose(state, s, rng))
                for s in rules.awaiting(state)
            }
            if state.open_doors and len(state.living_monsters()) >= 3:
                found.append((state, orders))
            state, _ = rules.resolve(state, orders, dice)
    return found


def bench(samples: int) -> tuple[float, float]:
    cases = positions(samples, seed=7)
    for state, orders in cases[:3]:  # warm the font caches, as a running bot has
        after, _ = rules.resolve(state, orders, DiceStream(b"\0" * 32, "w"))
        present.render_board(rules.view(after, None), "ja", NAMES)
    timings, monsters = [], []
    for index, (state, orders) in enumerate(cases):
        lang = "ja" if index % 2 else "en"
        start = time.perf_counter()
        after, _ = rules.resolve(state, orders, DiceStream(b"\0" * 32, "b"))
        png = present.render_board(rules.view(after, None), lang, NAMES)
        timings.append((time.perf_counter() - start) * 1000)
        monsters.append(len(state.living_monsters()))
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return statistics.median(timings), statistics.mean(monsters)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100)
    args = parser.parse_args()
    median, monsters = bench(args.samples)
    ok = median < TARGET_MS
    print(
        f"dungeon step resolve (monster AI turns included) + render, {monsters:.1f} monsters on "
        f"average: median {median:.1f} ms over {args.samples} steps (target < {TARGET_MS:.0f} ms) "
        f"{'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
