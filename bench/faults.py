"""The long fault run: the real bot process SIGKILLed many times mid-turn. Run:
``python bench/faults.py --kills 200`` (about a second per kill).

Arena games are played through the fake Discord (``tests/fakediscord``) by scripted players,
first without a fault (the reference), then again while the bot is killed ``--kills`` times: at
named crash points (``PBP_FAULT_POINT``: while storing an order, after it is stored, during
resolution, between resolution and posting, after Discord accepted a post) and by SIGKILL from
outside after a random delay. Batches of games are played until the kills are spent. Prints:
orders lost, double resolutions, duplicate or missing posts, and differences from the reference;
exits non-zero unless all are 0.

Several shard processes: ``python bench/faults.py --shards 3 --database postgresql://…`` plays the
games in servers spread over the shards against ``--shards`` ``python -m bot`` processes on one
PostgreSQL (a fresh schema per batch in that database), and SIGKILLs a random one of them each
time (``tests/e2e/shards.py``). ``--restart-db SECONDS`` restarts the PostgreSQL server itself
that far into the first batch (``--kills 0 --restart-db 3``: that fault alone): the processes
reconnect, and the same counts must come out 0.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.harness import SCRIPTS, RunResult, Script, chaos_run, check, reference_run
from tests.e2e.shards import cluster_run, postgres_schema

FAKE = {
    "id_start": 10**17,
    "rate_limits": {
        "POST /channels/{}/messages": (50, 1.0),
        "PATCH /channels/{}/messages/{}": (50, 1.0),
    },
}


async def sharded_batch(
    tmp: Path, args: argparse.Namespace, seed: int, kills: int, script: Script
) -> tuple[RunResult, RunResult]:
    """The reference and the run under fire, each on ``--shards`` processes and a fresh schema."""
    # The global limit raised (Discord raises a large bot's): the bot does not pace its
    # processes together under Discord's 50 a second yet, and this run is about crashes.
    options = {**FAKE, "global_limit": args.global_limit or None}
    common: dict[str, Any] = {
        "games": args.games,
        "seed": seed,
        "shards": args.shards,
        "script": script,
        "fake_options": options,
        "named_share": args.named_share,
    }
    (tmp / "ref").mkdir()
    (tmp / "run").mkdir()
    async with postgres_schema("pbp_faults", args.database) as (_schema, url):
        ref = await cluster_run(tmp / "ref", url, kills=0, **common)
    async with postgres_schema("pbp_faults", args.database) as (_schema, url):
        restart = args.restart_db if seed == args.seed + 1 else None  # once, in the first batch
        run = await cluster_run(tmp / "run", url, kills=kills, restart_db_after=restart, **common)
    return ref, run


async def main(args: argparse.Namespace) -> int:
    script = SCRIPTS[args.ruleset]
    totals = {"kills": 0, "lost": 0, "double": 0, "duplicate": 0, "missing": 0, "diff": 0}
    acks = resends = turns = 0
    started = time.monotonic()
    batch = 0
    while totals["kills"] < args.kills or (batch == 0 and args.restart_db is not None):
        batch += 1
        seed = args.seed + batch
        kills = min(args.per_batch, args.kills - totals["kills"])
        with tempfile.TemporaryDirectory() as tmp:
            if not args.shards:
                (Path(tmp) / "ref").mkdir()
                (Path(tmp) / "run").mkdir()
            if args.shards:
                ref, run = await sharded_batch(Path(tmp), args, seed, kills, script)
            else:
                ref = await reference_run(
                    Path(tmp) / "ref",
                    games=args.games,
                    seed=seed,
                    script=script,
                    fake_options=FAKE,
                )
                run = await chaos_run(
                    Path(tmp) / "run",
                    games=args.games,
                    seed=seed,
                    kills=kills,
                    script=script,
                    fake_options=FAKE,
                    named_share=args.named_share,
                )
            report = check(run.table, run.db, run.seen, ref.db, ref.seen)
        totals["kills"] += report.kills
        totals["lost"] += len(report.orders_lost)
        totals["double"] += len(report.double_resolutions)
        totals["duplicate"] += len(report.duplicate_posts)
        totals["missing"] += len(report.missing_posts)
        totals["diff"] += len(report.state_differences)
        acks += len(run.table.acks)
        resends += run.table.resends
        turns += sum(r.turns_played for r in run.runs)
        problems = (
            report.orders_lost
            + report.double_resolutions
            + report.duplicate_posts
            + report.missing_posts
            + report.state_differences
        )
        print(
            f"batch {batch}: {report.kills} kills over {args.games} games, {len(problems)} "
            f"problems, {time.monotonic() - started:.0f} s",
            flush=True,
        )
        for line in problems[:10]:
            print("   ", line)
        if report.kills == 0 and kills:
            print("no kill landed in a batch: stopping")
            break
    print()
    print(f"kills                         {totals['kills']}")
    print(
        f"turns played                  {turns}  (orders acknowledged {acks}, re-sent after a "
        f"crash {resends})"
    )
    print(f"orders lost                   {totals['lost']}   (target 0)")
    print(f"double resolutions            {totals['double']}   (target 0)")
    print(f"duplicate or missing posts    {totals['duplicate'] + totals['missing']}   (target 0)")
    print(f"differences from reference    {totals['diff']}   (target 0)")
    print(f"time                          {time.monotonic() - started:.0f} s")
    bad = totals["lost"] + totals["double"] + totals["duplicate"] + totals["missing"]
    return 1 if bad + totals["diff"] else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--games", type=int, default=3, help="games played at once per batch")
    parser.add_argument("--per-batch", type=int, default=20, help="kills per batch of games")
    parser.add_argument("--named-share", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--ruleset", default="arena", choices=sorted(SCRIPTS))
    parser.add_argument(
        "--shards", type=int, default=0, help="shard processes on PostgreSQL (0: one, on SQLite)"
    )
    parser.add_argument(
        "--database",
        default=None,
        help="PostgreSQL URL for --shards (default: TEST_DATABASE_URL or the local test server)",
    )
    parser.add_argument(
        "--global-limit", type=int, default=1000, help="the fake's requests per second (0: none)"
    )
    parser.add_argument(
        "--restart-db",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --shards: restart the PostgreSQL server this long into the first batch's play "
        "(--kills 0 for that fault alone)",
    )
    sys.exit(asyncio.run(main(parser.parse_args())))
