"""Esper benchmark, with its target (issue 20). Run: ``python bench/esper.py``.

Resolve + render: one normal turn of an 11-player game (the demo AI's order for the active
seat) resolved by the pure engine, then its public planet board rendered to PNG. Target: median
under 50 ms. Positions come from AI games of 11, taken at every open ``turn`` step.

Not a test: it prints figures against the target and exits non-zero when it is missed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bot.dice import DiceStream
from cogs.esper import ai, present, rules

TARGET_MS = 50.0
PLAYERS = 11
NAMES = {seat: f"Player {seat}" for seat in rules.SEATS}


def positions(count: int, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """(open turn step, its order) pairs from AI games of 11."""
    rng = random.Random(seed)
    found: list[tuple[Any, dict[str, Any]]] = []
    game = 0
    while len(found) < count:
        game += 1
        secret = DiceStream(game.to_bytes(32, "big"), "secret")
        dice = DiceStream(game.to_bytes(32, "little"), "bench")
        state = rules.new_game("g-bench", rules.SEATS[:PLAYERS], {}, dice, secret)
        while not rules.outcome(state).finished and len(found) < count:
            state, _ = rules.start_turn(state, dice, secret)
            orders = {
                s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.awaiting(state)
            }
            if state.step == rules.TURN:
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
        f"esper resolve + render, one turn of {PLAYERS} players: median {median:.1f} ms "
        f"over {args.samples} turns (target < {TARGET_MS:.0f} ms) {'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
