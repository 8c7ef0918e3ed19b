"""What the resolve + render benchmarks share (``bench/apeiron.py``, ``esper.py``, ``tactics.py``,
``dungeon.py``): positions from AI games, one resolve and render timed per position, and the
median printed against the target. Not a benchmark itself; each bench imports it (``python
bench/X.py`` puts this folder on the path).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.dice import NO_SECRET, Dice, DiceStream
from bot.ruleset import Engine, Presenter

Case = tuple[Any, dict[str, Any]]  # a state awaiting orders, and the orders given to it
PNG = b"\x89PNG\r\n\x1a\n"


def ai_positions(
    count: int,
    engine: Engine[Any, Any],
    setup: Callable[[int], tuple[Any, Dice, Dice]],
    choose: Callable[[Any, str, random.Random], str],
    wanted: Callable[[Any], bool],
    *,
    seed: int = 7,
    steps: int = 10**6,
) -> list[Case]:
    """The first ``count`` open steps that are ``wanted``, each with the AI's orders, from AI
    games 1, 2, … (``setup(game)``: its first state, its dice, its secret dice) played to their end
    or for ``steps`` steps at most."""
    rng = random.Random(seed)
    found: list[Case] = []
    game = 0
    while len(found) < count:
        game += 1
        state, dice, secret = setup(game)
        for _ in range(steps):
            if engine.outcome(state).finished or len(found) >= count:
                break
            state, _ = engine.start_step(state, dice, secret)
            orders = {
                s: engine.parse(state, s, choose(state, s, rng)) for s in engine.awaiting(state)
            }
            if wanted(state):
                found.append((state, orders))
            state, _ = engine.resolve(state, orders, dice, secret)
    return found


def resolve_and_render(
    engine: Engine[Any, Any], presenter: Presenter, names: dict[str, str]
) -> Callable[[Case, Dice, str], bytes]:
    """What is timed: a case resolved by the pure engine, then its public board rendered."""

    def run(case: Case, dice: Dice, lang: str) -> bytes:
        after, _ = engine.resolve(*case, dice, NO_SECRET)
        return presenter.render_board(engine.view(after, None), lang, names)

    return run


def median_ms(cases: Sequence[Case], resolve_render: Callable[[Case, Dice, str], bytes]) -> float:
    """The median time (ms) of ``resolve_render(case, dice, lang)`` (the board's PNG), in English
    and Japanese by turns, after three untimed runs that warm the font caches, as a running bot
    has."""
    for case in cases[:3]:
        resolve_render(case, DiceStream(b"\0" * 32, "w"), "ja")
    timings = []
    for index, case in enumerate(cases):
        lang = "ja" if index % 2 else "en"
        start = time.perf_counter()
        png = resolve_render(case, DiceStream(b"\0" * 32, "b"), lang)
        timings.append((time.perf_counter() - start) * 1000)
        assert png[:8] == PNG
    return statistics.median(timings)


def main(
    doc: str,
    positions: Callable[[int], list[Case]],
    resolve_render: Callable[[Case, Dice, str], bytes],
    target_ms: float,
    label: str | Callable[[list[Case]], str],
    unit: str,
) -> int:
    """Run one bench (``--samples N`` positions): print ``label`` (or ``label(cases)``), the
    median over the ``unit`` and the target; 0 if the target is met, else 1."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100)
    args = parser.parse_args()
    cases = positions(args.samples)
    median = median_ms(cases, resolve_render)
    ok = median < target_ms
    print(
        f"{label if isinstance(label, str) else label(cases)}: median {median:.1f} ms "
        f"over {args.samples} {unit} (target < {target_ms:.0f} ms) {'OK' if ok else 'MISSED'}"
    )
    return 0 if ok else 1
