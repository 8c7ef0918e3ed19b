"""Apeiron benchmark, with its target (issue 19). Run: ``python bench/apeiron.py``.

Resolve + render: one activation (the demo AI's order for the acting unit) resolved by the pure
engine, then its public board rendered to PNG. Target: median under 30 ms. Positions come from
AI games on shuffled fields with event panels, taken at every activation of the play step.

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bot.dice import DiceStream
from cogs.apeiron import ai, present, rules

TARGET_MS = 30.0
NAMES = {"A": "Aurora", "B": "ボレアリス"}


def positions(count: int, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """(open activation, its order) pairs from AI games."""
    rng = random.Random(seed)
    found: list[tuple[Any, dict[str, Any]]] = []
    game = 0
    while len(found) < count:
        game += 1
        secret = DiceStream(game.to_bytes(32, "big"), "secret")
        dice = DiceStream(game.to_bytes(32, "little"), "bench")
        options = {"events": ["poison", "arrow"]}
        state = rules.new_game("g-bench", rules.SEATS, options, dice, secret)
        while not rules.outcome(state).finished and len(found) < count:
            state, _ = rules.start_turn(state, dice, secret)
            orders = {
                s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)
            }
            if state.step == rules.PLAY:
                found.append((state, orders))
            state, _ = rules.resolve(state, orders, dice, secret)
    return found


def bench(samples: int) -> float:
    cases = positions(samples, seed=7)
    for state, orders in cases[:3]:  # warm the font caches, as a running bot has
        after, _ = rules.resolve(state, orders, DiceStream(b"\0" * 32, "w"))
        present.PRESENTER.render_board(rules.view(after, None), "ja", NAMES)
    timings = []
    for index, (state, orders) in enumerate(cases):
        lang = "ja" if index % 2 else "en"
        start = time.perf_counter()
        after, _ = rules.resolve(state, orders, DiceStream(b"\0" * 32, "b"))
        png = present.PRESENTER.render_board(rules.view(after, None), lang, NAMES)
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
        f"apeiron resolve + render, one activation: median {median:.1f} ms "
        f"over {args.samples} activations (target < {TARGET_MS:.0f} ms) {'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
