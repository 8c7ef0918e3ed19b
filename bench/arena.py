"""Arena benchmarks, with their targets (issue 2). Run: ``python bench/arena.py``.

1. Resolve + render: one Arena turn resolved by the pure engine, then its public board rendered
   to PNG, over positions taken from real AI games. Target: median under 30 ms.
2. Order handling with 1,000 active games in one SQLite file (WAL, on disk): parse, seal (salt and
   receipt), store in one transaction with the channel's progress edit queued, and the localized
   acknowledgement text. Target: p99 under 20 ms.

Not a test: it prints figures against targets and exits non-zero when one is missed, so it can
gate a release by hand without making the test suite timing-dependent.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot import replies
from bot.dice import ScriptedDice
from bot.ruleset import RuleError
from bot.storage import SqliteRepository
from bot.table import Player, Table
from cogs.arena import ai, present, rules

RESOLVE_RENDER_TARGET_MS = 30.0
ORDER_P99_TARGET_MS = 20.0
NAMES = {"A": "Aurora", "B": "ボレアリス"}


def percentile(samples: Sequence[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def positions(count: int, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """(state awaiting orders, orders) pairs from AI games, as a referee would meet them."""
    rng = random.Random(seed)
    found: list[tuple[Any, dict[str, Any]]] = []
    while len(found) < count:
        state = rules.new_game("g-bench", rules.SEATS, {}, ScriptedDice([]))
        while not rules.outcome(state).finished and len(found) < count:
            dice = ScriptedDice([rng.randint(1, 6) for _ in range(6)])
            state, _ = rules.start_step(state, dice)
            orders = {s: rules.parse(state, s, ai.choose(state, s, rng)) for s in rules.SEATS}
            found.append((state, orders))
            state, _ = rules.resolve(state, orders, ScriptedDice([]))
    return found


def bench_resolve_render(samples: int) -> float:
    cases = positions(samples, seed=7)
    for state, orders in cases[:5]:  # warm the font and layer caches, as a running bot has
        present.PRESENTER.render_board(
            rules.view(rules.resolve(state, orders, ScriptedDice([]))[0], None), "ja", NAMES
        )
    timings = []
    for index, (state, orders) in enumerate(cases):
        lang = "ja" if index % 2 else "en"
        start = time.perf_counter()
        after, _events = rules.resolve(state, orders, ScriptedDice([]))
        png = present.PRESENTER.render_board(rules.view(after, None), lang, NAMES)
        timings.append((time.perf_counter() - start) * 1000)
        assert png.startswith(b"\x89PNG")
    return statistics.median(timings)


async def bench_orders(games: int, orders: int, db: Path) -> tuple[float, float]:
    repo = SqliteRepository(db)
    await repo.open()
    try:
        table = Table(repo)
        game_ids: list[tuple[str, int]] = []
        for number in range(games):
            a, b = (
                Player(10_000 + 2 * number, f"a{number}"),
                Player(10_001 + 2 * number, f"b{number}"),
            )
            game = await table.challenge("arena", guild_id=1, channel_id=number, players=[a, b])
            game = await table.accept(game.id, b.user_id)
            game_ids.append((game.id, a.user_id))
        rng = random.Random(11)
        texts = ["forward left", "stay none", "前進 右を向く", "fr none", "右前 左回転"]
        timings = []
        for _ in range(orders):
            game_id, user_id = rng.choice(game_ids)
            text = rng.choice(texts)
            start = time.perf_counter()
            try:
                result = await table.submit(game_id, user_id, text)
                ack = replies.order_ack(result, "ja")
            except RuleError as exc:  # a move the position forbids is answered too
                ack = replies.reason(exc, "ja")
            timings.append((time.perf_counter() - start) * 1000)
            assert ack
        return statistics.median(timings), percentile(timings, 0.99)
    finally:
        await repo.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300, help="turns resolved and rendered")
    parser.add_argument("--games", type=int, default=1000, help="active games in the SQLite file")
    parser.add_argument("--orders", type=int, default=2000, help="orders handled")
    args = parser.parse_args(argv)

    median = bench_resolve_render(args.samples)
    ok_render = median < RESOLVE_RENDER_TARGET_MS
    print(
        f"arena resolve + render: median {median:.1f} ms over {args.samples} turns "
        f"(target < {RESOLVE_RENDER_TARGET_MS:.0f} ms) {'OK' if ok_render else 'MISSED'}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        order_median, p99 = asyncio.run(
            bench_orders(args.games, args.orders, Path(tmp) / "bench.sqlite3")
        )
    ok_orders = p99 < ORDER_P99_TARGET_MS
    print(
        f"order handling with {args.games} active games: median {order_median:.2f} ms, "
        f"p99 {p99:.2f} ms over {args.orders} orders "
        f"(target p99 < {ORDER_P99_TARGET_MS:.0f} ms) {'OK' if ok_orders else 'MISSED'}"
    )
    return 0 if ok_render and ok_orders else 1


if __name__ == "__main__":
    raise SystemExit(main())
