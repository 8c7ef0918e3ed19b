"""Several ``python -m bot`` shard processes on one PostgreSQL schema, for the end-to-end tests and
the benchmarks (issue 21).

- :func:`postgres_schema` makes a fresh schema on the test server (``TEST_DATABASE_URL``) and
  gives the ``DATABASE_URL`` that puts the bot there (``?search_path=…``, passed by asyncpg as a
  server setting); dropped afterwards.
- :class:`Cluster` starts one :class:`~tests.e2e.harness.BotProcess` per shard (``SHARD_COUNT``,
  ``SHARD_IDS``) and looks like one bot to :class:`~tests.e2e.harness.Table` (``up`` while every
  process is, ``deaths`` counting any process's).
- :func:`dump_postgres` is :func:`~tests.e2e.harness.dump` for that schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import (
    DUMP_QUERIES,
    BotProcess,
    RunResult,
    Script,
    Table,
    named_fault,
    normalized,
    posted_view,
)
from tests.fakediscord import FakeDiscord
from tests.storage.backends import postgres_required, postgres_unavailable, postgres_url


@contextlib.asynccontextmanager
async def postgres_schema(
    prefix: str = "pbp_e2e", url: str | None = None
) -> AsyncIterator[tuple[str, str]]:
    """(schema, DATABASE_URL) of a fresh schema on ``url`` (the test server by default);
    skipped (or failed under ``PBP_REQUIRE_POSTGRES``) where no server answers."""
    import asyncpg

    url = url or postgres_url()
    reason = await postgres_unavailable(url)
    if reason is not None:
        if postgres_required():
            pytest.fail(f"PBP_REQUIRE_POSTGRES is set but {reason}")
        pytest.skip(reason)
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    sep = "&" if "?" in url else "?"
    try:
        yield schema, f"{url}{sep}search_path={schema}"
    finally:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()


async def dump_postgres(url: str) -> dict[str, Any]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return {
            key: normalized(key, [dict(r) for r in await conn.fetch(sql)])
            for key, sql in DUMP_QUERIES.items()
        }
    finally:
        await conn.close()


async def pending_postgres(url: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT COUNT(*) FROM outbox WHERE status = 'pending'"))
    finally:
        await conn.close()


class Cluster:
    """N shard processes (one shard each) sharing the fake's token and one database."""

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        database_url: str,
        *,
        shards: int,
        entropy_seed: str = "e2e",
        log_level: str = "WARNING",
    ) -> None:
        self.fake = fake
        self.database_url = database_url
        self.processes = [
            BotProcess(
                fake,
                workdir,
                entropy_seed=entropy_seed,
                log_level=log_level,
                shards=(n,),
                log_name=f"shard{n}.log",
                extra_env={
                    "DATABASE_URL": database_url,
                    "SHARD_COUNT": str(shards),
                    "SHARD_IDS": str(n),
                },
            )
            for n in range(shards)
        ]
        # To the players (tests.e2e.harness.Table) the cluster is one bot: up while every
        # process is, dead (``died``, ``deaths``) when any one dies.
        self.up = asyncio.Event()
        self.died = asyncio.Event()
        for process in self.processes:
            process.on_death = self._on_death

    def _on_death(self, process: BotProcess) -> None:
        self.up.clear()
        self.died.set()

    @property
    def deaths(self) -> int:
        return sum(p.deaths for p in self.processes)

    @property
    def kills(self) -> int:
        return sum(p.kills for p in self.processes)

    @property
    def self_kills(self) -> int:
        return sum(p.self_kills for p in self.processes)

    async def start(self) -> None:
        # Shard 0's process first: it syncs the commands the players' slash commands use.
        for process in self.processes:
            await process.start()
        self._all_up()

    async def restart(self, process: BotProcess, fault: str | None = None) -> None:
        await process.start(fault=fault)
        self._all_up()

    def _all_up(self) -> None:
        if all(p.up.is_set() for p in self.processes):
            self.died.clear()
            self.up.set()

    async def stop(self) -> None:
        self.up.clear()
        for process in self.processes:
            process.on_death = None
        await asyncio.gather(*(p.stop() for p in self.processes))

    def errors(self) -> list[str]:
        return [e for p in self.processes for e in p.errors()]

    async def settle(self, timeout: float = 30.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while await pending_postgres(self.database_url):
            if loop.time() > deadline:
                raise TimeoutError("the outbox did not drain")
            await asyncio.sleep(0.05)


# --- whole runs: the same games without a fault, and while processes are killed ------------------


@dataclass
class ShardWorld:
    """Servers on every shard, a channel per game, two players per game; created in the same
    order in every run (so that ids, and everything stored, compare equal)."""

    pairs: list[tuple[int, int, int]]  # (challenger, opponent, channel)

    @classmethod
    def create(cls, fake: FakeDiscord, games: int, shards: int) -> ShardWorld:
        guilds = [fake.add_guild(f"club-{n}", shard=n) for n in range(shards)]
        pairs = []
        for i in range(games):
            a, b = fake.add_user(f"p{i}a"), fake.add_user(f"p{i}b")
            pairs.append((a, b, fake.add_channel(f"duels-{i}", guild_id=guilds[i % shards])))
        return cls(pairs)

    @property
    def users(self) -> list[int]:
        return [u for a, b, _c in self.pairs for u in (a, b)]

    @property
    def channels(self) -> list[int]:
        return [c for _a, _b, c in self.pairs]


async def restart_postgres(after: float) -> None:
    """Restart the local PostgreSQL server (every connection dropped, as a failover does) after
    ``after`` seconds: the development machines' cluster, by the command that starts it."""
    await asyncio.sleep(after)
    version = sorted(p.name for p in Path("/etc/postgresql").iterdir())[-1]
    process = await asyncio.create_subprocess_exec(
        "pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await process.communicate()
    if process.returncode:
        raise RuntimeError(f"pg_ctlcluster restart failed: {err.decode().strip()}")
    print(f"PostgreSQL restarted {after:.1f} s into play", flush=True)


async def cluster_run(
    workdir: Path,
    database_url: str,
    *,
    games: int,
    seed: int,
    shards: int,
    kills: int,
    script: Script,
    fake_options: dict[str, Any],
    named_share: float = 0.5,
    max_delay: float = 0.6,
    restart_db_after: float | None = None,
) -> RunResult:
    """Play ``games`` on ``shards`` processes; with ``kills``, a random process is SIGKILLed
    that many times (at a named crash point of its next start, or from outside after a random
    delay) and restarted each time. ``restart_db_after``: the PostgreSQL server itself is
    restarted that many seconds into play (:func:`restart_postgres`)."""
    started = time.monotonic()
    rng = random.Random(f"cluster:{seed}")
    fake = await FakeDiscord(shard_count=shards, **fake_options).start()
    cluster = Cluster(fake, workdir, database_url, shards=shards, entropy_seed=str(seed))
    done = asyncio.Event()
    deaths = 0
    timers: set[asyncio.Future[None]] = set()

    async def timer_kill() -> None:
        await asyncio.sleep(rng.uniform(0.0, max_delay))
        victim = rng.choice(cluster.processes)
        if victim.up.is_set() and not done.is_set():
            await victim.kill()

    async def supervise() -> None:
        nonlocal deaths
        while not done.is_set():
            await cluster.died.wait()
            if done.is_set():
                return
            for process in cluster.processes:
                if process.up.is_set() or done.is_set():
                    continue
                deaths += 1
                if deaths < kills and rng.random() < named_share:
                    await cluster.restart(process, fault=named_fault(rng))
                else:
                    await cluster.restart(process)
                    if deaths < kills:
                        timers.add(asyncio.ensure_future(timer_kill()))

    try:
        world = ShardWorld.create(fake, games, shards)
        table = Table(fake, cluster)  # type: ignore[arg-type]  # one bot to the players
        await cluster.start()
        runs = [
            await table.start_game(script, c, a, b, seed=seed * 1000 + i)
            for i, (a, b, c) in enumerate(world.pairs)
        ]
        supervisor = asyncio.create_task(supervise())
        if kills:
            timers.add(asyncio.ensure_future(timer_kill()))
        if restart_db_after is not None:
            timers.add(asyncio.ensure_future(restart_postgres(restart_db_after)))
        await asyncio.gather(*(table.play(run, script) for run in runs))
        done.set()
        supervisor.cancel()
        for process in cluster.processes:
            if not process.up.is_set():
                await cluster.restart(process)
        await cluster.settle()
        if restart_db_after is not None:
            print(f"processes restarted by the supervisor: {deaths}", flush=True)
        return RunResult(
            table,
            runs,
            await dump_postgres(database_url),
            posted_view(fake, world.channels, world.users),
            time.monotonic() - started,
        )
    finally:
        done.set()
        await cluster.stop()
        await fake.stop()
