"""Dungeon monster-AI benchmark, with its target. Run: ``python bench/dungeon_ai.py``.

Solves every situation of the shared reference file (``monster-ai-scenarios.json``, 182 of them)
under each rules variant and checks every answer against the file's ``expected`` set. Target: the
reference Python solver on this machine takes a median of 1.7 ms per scenario and under 1 s for
all 182; ours must be faster on both counts, with every answer right.

Each timing is of a cold solve: a freshly loaded scenario (its map's line-of-sight cache empty),
as the bot meets a new monster turn. Not a test: it prints figures against the target and exits
non-zero when one is missed (or an answer is wrong).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cogs.dungeon.ai import RULES, solve  # noqa: E402
from cogs.dungeon.scenario import load  # noqa: E402

DEFAULT_FILE = ROOT / "tests" / "data" / "monster-ai-scenarios.json"
MEDIAN_TARGET_MS = 1.7
TOTAL_TARGET_S = 1.0


def bench(path: Path, rules: str, repeat: int) -> tuple[list[float], float, list[int]]:
    """Per-scenario best-of-``repeat`` times (ms), total of one pass (s), wrong scenario ids."""
    best: dict[int, float] = {}
    wrong: set[int] = set()
    total = 0.0
    for attempt in range(repeat):
        scenarios = load(path)  # fresh maps: no warm line-of-sight caches
        start_pass = time.perf_counter()
        for sc in scenarios:
            t0 = time.perf_counter()
            got = solve(sc.situation, rules)
            elapsed = (time.perf_counter() - t0) * 1000.0
            best[sc.id] = min(best.get(sc.id, elapsed), elapsed)
            if got != sc.expected[rules]:
                wrong.add(sc.id)
        pass_time = time.perf_counter() - start_pass
        total = pass_time if attempt == 0 else min(total, pass_time)
    return list(best.values()), total, sorted(wrong)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--rules", choices=RULES, default=None, help="one variant (default: all)")
    parser.add_argument("--repeat", type=int, default=5, help="passes; the best is reported")
    args = parser.parse_args(argv)
    ok = True
    for rules in [args.rules] if args.rules else RULES:
        times, total, wrong = bench(args.file, rules, args.repeat)
        median = statistics.median(times)
        slowest = max(times)
        good = median < MEDIAN_TARGET_MS and total < TOTAL_TARGET_S and not wrong
        ok = ok and good
        print(
            f"{rules:10s} {len(times)} scenarios: median {median:.3f} ms "
            f"(target < {MEDIAN_TARGET_MS} ms), max {slowest:.1f} ms, "
            f"total {total * 1000:.0f} ms (target < {TOTAL_TARGET_S * 1000:.0f} ms), "
            f"wrong {len(wrong)}{' ' + str(wrong) if wrong else ''} "
            f"{'OK' if good else 'MISSED'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
