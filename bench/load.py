"""Load: N simultaneous Arena games against the real bot process, through the fake Discord.

Run: ``python bench/load.py`` (200 games) or ``python bench/load.py --games 2000``.

Scripted players (``tests/e2e/harness.py``) challenge and accept by slash command and button,
then order by DM (gateway MESSAGE_CREATE) after a short think, turn after turn. Discord's
per-channel buckets are on (5 messages per 5 s), every message the bot posts is echoed back on
the gateway as Discord does. Prints, against the targets of issue 6:

- order → acknowledgement latency p50 / p99 (the DM's MESSAGE_CREATE to the bot's reply POST,
  timed by the fake), target p99 < 100 ms with 2,000 active games;
- turns resolved per second;
- the bot's peak RSS (its process and its board-rendering child), target < 300 MB;
- requests per resolved turn: channel messages per turn (target ≤ 1), prompt DMs per seat per
  turn (target ≤ 1), and, reported beside them, the acknowledgement replies (one per order: the
  answer to the player's own DM), progress edits and any other request.

Not a test (figures depend on the machine): exits non-zero when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.harness import SCRIPTS, BotProcess, Table, World, dump
from tests.fakediscord import FakeDiscord

P99_TARGET_MS = 100.0
RSS_TARGET_MB = 300.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def rss_mb(pid: int) -> float:
    """The process's resident memory plus its children's (the board renderer is one)."""
    total = 0.0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += rss_mb(int(child))
    except (FileNotFoundError, ProcessLookupError):
        pass  # it exited between the listing and the read
    return total


async def main(args: argparse.Namespace) -> int:
    script = SCRIPTS["arena"]
    fake = await FakeDiscord(keep_buffer=20000).start()
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(fake, Path(tmp), entropy_seed="load")
        table = Table(fake, bot, timeout=300.0, reply_timeout=120.0)
        table.think = (args.think_min, args.think_max)
        table.max_turns = args.turns
        world = World.create(fake, args.games)
        peak = [0.0]
        try:
            await bot.start()
            sampler_stop = asyncio.Event()

            async def sample() -> None:
                while not sampler_stop.is_set():
                    if bot.pid:
                        peak[0] = max(peak[0], rss_mb(bot.pid))
                    await asyncio.sleep(0.5)

            sampler = asyncio.create_task(sample())
            t0 = time.monotonic()
            gate = asyncio.Semaphore(args.start_concurrency)

            async def start(i: int, a: int, b: int, channel: int):
                async with gate:
                    return await table.start_game(script, channel, a, b, seed=i)

            runs = await asyncio.gather(
                *(start(i, a, b, c) for i, (a, b, c) in enumerate(world.pairs))
            )
            started = time.monotonic()
            print(f"{len(runs)} games started in {started - t0:.1f} s", flush=True)
            first_request = len(fake.requests)
            await asyncio.gather(*(table.play(run, script) for run in runs))
            # Let the last resolutions go out before counting.
            await asyncio.sleep(2.0)
            played = time.monotonic() - started
            sampler_stop.set()
            await sampler
            peak[0] = max(peak[0], rss_mb(bot.pid)) if bot.pid else peak[0]
        finally:
            await bot.stop()
            await fake.stop()
            if args.log:
                shutil.copyfile(bot.log_path, args.log)
        versions = [g["version"] for g in dump(bot.db_path)["games"]]

    requests = fake.requests[first_request:]
    guild_channels = set(world.channels)
    # Every state version after the first (set at accept) is one resolved turn.
    resolved = sum(v - 1 for v in versions)
    # Each game's first channel post and first two DMs are turn 1's prompt (sent at accept).
    channel_posts = sum(
        1 for c in guild_channels for m in fake.posted(c) if m.interaction_id is None
    ) - len(runs)
    dm_posts = [m for c in fake.dm_channels.values() for m in fake.posted(c)]
    prompt_dms = sum(1 for m in dm_posts if m.reference_id is None) - 2 * len(runs)
    acks_posted = sum(1 for m in dm_posts if m.reference_id is not None)
    channel_edits = sum(1 for r in requests if r.route == "PATCH /channels/{}/messages/{}")
    others: dict[str, int] = {}
    for r in requests:
        if r.route not in ("POST /channels/{}/messages", "PATCH /channels/{}/messages/{}"):
            others[r.route] = others.get(r.route, 0) + 1
    latencies = [a.latency * 1000 for a in table.acks]
    seats = 2
    p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
    per_turn_channel = channel_posts / max(resolved, 1)
    per_seat_dm = prompt_dms / max(resolved * seats, 1)
    ok = {
        "p99": p99 < P99_TARGET_MS,
        "rss": peak[0] < RSS_TARGET_MB,
        "channel": per_turn_channel <= 1.0,
        "dm": per_seat_dm <= 1.0,
    }
    mark = {True: "ok  ", False: "MISS"}
    print()
    print(f"games                            {len(runs)} (turns per game: {args.turns or 'all'})")
    print(f"orders acknowledged              {len(latencies)}")
    print(f"ack latency p50                  {p50:.1f} ms")
    print(
        f"{mark[ok['p99']]} ack latency p99             {p99:.1f} ms"
        f"   (target < {P99_TARGET_MS:.0f})"
    )
    print(f"ack latency max                  {max(latencies):.1f} ms")
    print(
        f"turns resolved                   {resolved} in {played:.1f} s: {resolved / played:.1f}/s"
    )
    print(
        f"{mark[ok['rss']]} bot peak RSS (+ renderer)   {peak[0]:.0f} MB"
        f"   (target < {RSS_TARGET_MB:.0f})"
    )
    print(
        f"{mark[ok['channel']]} channel messages per turn   {per_turn_channel:.2f}   (target <= 1)"
    )
    print(f"{mark[ok['dm']]} prompt DMs per seat per turn {per_seat_dm:.2f}   (target <= 1)")
    print(f"     acknowledgement replies      {acks_posted / max(len(latencies), 1):.2f} per order")
    print(f"     progress edits per turn      {channel_edits / max(resolved, 1):.2f}")
    for route, count in sorted(others.items(), key=lambda kv: -kv[1]):
        print(f"     {route:<40} {count / max(resolved, 1):.2f} per turn ({count})")
    print(f"     429s earned (buckets)        {len(fake.violations)}")
    print(f"     requests per second          {len(requests) / played:.0f}")
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=3, help="turns each game plays (0: all)")
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--start-concurrency", type=int, default=20)
    parser.add_argument("--log", type=Path, help="keep the bot's log (stdout and stderr) here")
    args = parser.parse_args()
    args.turns = args.turns or None
    sys.exit(asyncio.run(main(args)))
