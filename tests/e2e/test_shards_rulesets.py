"""Tactics and dungeon games (not only arena) on three real ``python -m bot`` shard processes on
one PostgreSQL schema against the fake Discord, in servers spread over the three shards: every DM
arrives on shard 0, each result is posted exactly once, every accepted order is kept (issue 21)."""

from __future__ import annotations

import asyncio
import os
from collections import defaultdict

from tests.e2e.conftest import FAST_LIMITS, ID_START
from tests.e2e.harness import SCRIPTS, Table, check, posted_view
from tests.e2e.shards import Cluster, dump_postgres, postgres_schema
from tests.fakediscord import FakeDiscord

SHARDS = 3
# One game of each ruleset in each server (so each ruleset is played on every shard).
# E2E_RULESETS narrows the run to some rulesets while debugging one.
RULESETS = tuple(os.environ.get("E2E_RULESETS", "arena tactics dungeon").split())


async def test_every_ruleset_on_three_shards_posts_each_result_once(tmp_path):
    async with postgres_schema() as (_schema, url):
        fake = await FakeDiscord(
            id_start=ID_START, rate_limits=FAST_LIMITS, shard_count=SHARDS, global_limit=1000
        ).start()
        cluster = Cluster(fake, tmp_path, url, shards=SHARDS)
        try:
            guilds = [fake.add_guild(f"club-{n}", shard=n) for n in range(SHARDS)]
            games = []  # (ruleset, challenger, opponent, channel)
            for n, guild in enumerate(guilds):
                for ruleset in RULESETS:
                    a, b = fake.add_user(f"{ruleset}{n}a"), fake.add_user(f"{ruleset}{n}b")
                    channel = fake.add_channel(f"{ruleset}-{n}", guild_id=guild)
                    games.append((ruleset, a, b, channel))
            await cluster.start()
            table = Table(fake, cluster)  # type: ignore[arg-type]  # one bot to the players
            table.timeout = 60.0
            runs = [
                (ruleset, await table.start_game(SCRIPTS[ruleset], channel, a, b, seed=i))
                for i, (ruleset, a, b, channel) in enumerate(games)
            ]
            await asyncio.gather(*(table.play(run, SCRIPTS[ruleset]) for ruleset, run in runs))
            await cluster.settle()
            db = await dump_postgres(url)
            channels = [c for *_x, c in games]
            users = [u for _r, a, b, _c in games for u in (a, b)]
            report = check(table, db, posted_view(fake, channels, users))

            assert all(run.finished for _r, run in runs)
            assert report.orders_lost == [], "every accepted order kept"
            assert report.double_resolutions == []
            assert report.duplicate_posts == [] and report.missing_posts == []
            played = {r: sum(run.turns_played for x, run in runs if x == r) for r in RULESETS}
            assert all(played.values()), played
            for ruleset, run in runs:
                titles = [
                    m.embeds[0]["title"]
                    for m in fake.posted(run.channel)
                    if m.embeds and m.interaction_id is None
                ]
                assert titles and titles[-1].endswith(f"{run.game} · Final"), (ruleset, titles)
                assert len(titles) == len(set(titles)), (ruleset, titles)
            assert {row["status"] for row in db["games"]} == {"finished"}
            by_event: dict[str, set[int]] = defaultdict(set)
            dm_channels = set(fake.dm_channels.values())
            for shard, event, channel in fake.dispatch_log:
                by_event["dm" if channel in dm_channels else event].add(shard)
            assert by_event["dm"] == {0}
            assert by_event["INTERACTION_CREATE"] == {0, 1, 2}
            assert fake.violations == []
            assert cluster.errors() == []
        finally:
            await cluster.stop()
            await fake.stop()
