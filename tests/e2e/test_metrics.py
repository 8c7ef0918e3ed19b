"""Metrics and health of a running bot process (issue 37): ``METRICS_PORT`` set, an Arena game
played through the fake Discord, ``/metrics`` scraped twice during it (the resolved steps and
the acknowledgement latency buckets move), then ``/healthz`` 503 while the fake's gateway is
down and 200 again once the bot has resumed. One bot start for all of it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.harness import SCRIPTS, BotProcess, Table, settle
from tests.fakediscord import FakeDiscord

ARENA = SCRIPTS["arena"]
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200, text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


async def until_health(port: int, ok: Callable[[int], bool]) -> str:
    """Poll ``/healthz`` until its status is ``ok``; its body then."""
    bodies: list[str] = []
    for _ in range(600):  # 20 times a second, for up to 30 s
        status, body = await get(port, "/healthz")
        bodies.append(body)
        if ok(status):
            return body
        await asyncio.sleep(0.05)
    raise AssertionError(f"/healthz never changed: {bodies[-3:]}")


async def test_metrics_during_a_game_and_healthz_through_a_gateway_outage(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    port = free_port()
    bot = BotProcess(fake, tmp_path, extra_env={"METRICS_PORT": str(port)})
    table = Table(fake, bot)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    try:
        await bot.start()
        await until_health(port, lambda status: status == 200)
        run = await table.start_game(ARENA, fake.default_channel_id, alice, bob, seed=1)
        # Scraped during the game: once after the first turn's orders, and again once a turn
        # after the next has orders in (so a turn more has resolved, whatever the timing).
        seen: list[Samples] = []

        async def scrapes() -> None:
            await fake.wait_for(lambda: len(table.acks) >= 2, 60)
            seen.append(await scrape(port))
            turn = max(a.turn for a in table.acks)
            await fake.wait_for(lambda: any(a.turn >= turn + 2 for a in table.acks), 60)
            seen.append(await scrape(port))

        watcher = asyncio.create_task(scrapes())
        await table.play(run, ARENA)
        await asyncio.wait_for(watcher, 30)
        first, second = seen

        steps = "pbp_steps_resolved_total"
        assert value(second, steps, ruleset="arena") > value(first, steps, ruleset="arena") >= 0
        acks, every = "pbp_order_ack_seconds_count", "pbp_order_ack_seconds_bucket"
        assert value(second, acks) > value(first, acks) >= 2
        assert value(second, every, le="+Inf") == value(second, acks)
        assert value(second, "pbp_games", state="active") == 1
        assert value(second, "pbp_gateway_connected", shard="0") == 1
        assert value(second, "pbp_shard_info", shard_ids="0", shard_count="1") == 1
        # Paced requests (every board post, DM and acknowledgement) went through the budget.
        assert value(second, "pbp_rate_budget_wait_seconds_count", priority="background") > 0
        assert value(second, "pbp_render_seconds_count") > 0
        await settle(bot)
        done = await scrape(port)
        assert value(done, "pbp_outbox_backlog") == 0
        assert value(done, "pbp_outbox_oldest_age_seconds") == 0
        assert value(done, steps, ruleset="arena") == run.turns_played
        assert value(done, "pbp_games", state="finished") == 1

        # The gateway goes down: unhealthy, with the reason; back: healthy again (resumed).
        resumes = fake.resumes
        await fake.gateway_outage()
        body = await until_health(port, lambda status: status == 503)
        assert body == "gateway: shard 0 disconnected\n"
        assert value(await scrape(port), "pbp_gateway_connected", shard="0") == 0
        fake.gateway_back()
        assert await until_health(port, lambda status: status == 200) == "ok\n"
        assert fake.resumes == resumes + 1 and bot.starts == 1
    finally:
        await bot.stop()
    # discord.py logs each refused reconnection as an error; the bot itself logged none.
    assert [line for line in bot.errors() if " ERROR bot." in line] == []
