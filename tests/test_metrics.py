"""``bot.metrics`` (issue 37): each instrumented call moves its figure (a resolved step, an order's
acknowledgement, a 429 from the fake Discord, a paced request's wait, a board rendered), the
scrape reads the outbox backlog and the games from the database, ``/healthz`` answers 503 with
its reason until the gateway is up and the database answers, and nothing of it is loaded
without ``METRICS_PORT``."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot import metrics
from bot.config import Config, ConfigError
from bot.http import PacingTrace
from bot.priority import Foreground
from bot.ratebudget import Budget, LocalSlots
from bot.rendering import BoardRenderer
from bot.storage import Repository, SqliteRepository
from bot.table import Player, Table
from tests.fakediscord import FakeDiscord
from tests.storage.test_table_on_both import Clock

ALICE, BOB = 1_000_000_000_000_001, 1_000_000_000_000_002


def sample(name: str, **labels: str) -> float:
    """A figure of this process's metrics (0 when the series does not exist yet)."""
    value = metrics.instruments().registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


@pytest.fixture
async def repo(db_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = SqliteRepository(db_path)
    await repository.open()
    yield repository
    await repository.close()


def test_without_metrics_port_nothing_is_loaded_and_the_calls_do_nothing() -> None:
    code = (
        "import sys\n"
        "import bot.client, bot.metrics as m\n"
        "m.step_resolved('arena'); m.ack_served(0.1); m.board_rendered(0.1)\n"
        "m.rate_limited({'X-RateLimit-Global': 'true'}); m.budget_waited(0.1, foreground=True)\n"
        "assert m._on is None\n"
        "assert 'prometheus_client' not in sys.modules, 'prometheus_client loaded'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_metrics_port_and_host_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("METRICS_PORT", raising=False)
    monkeypatch.delenv("METRICS_HOST", raising=False)
    config = Config.from_env(env_file=None)
    assert config.metrics_port is None and config.metrics_host == "127.0.0.1"
    monkeypatch.setenv("METRICS_PORT", "9464")
    monkeypatch.setenv("METRICS_HOST", "0.0.0.0")
    config = Config.from_env(env_file=None)
    assert (config.metrics_port, config.metrics_host) == (9464, "0.0.0.0")
    for bad in ("0", "65536", "http", "-1"):
        monkeypatch.setenv("METRICS_PORT", bad)
        with pytest.raises(ConfigError) as caught:
            Config.from_env(env_file=None)
        assert caught.value.key == "config.error.metrics_port"


async def test_a_resolved_step_counts_for_its_ruleset(repo: SqliteRepository) -> None:
    metrics.instruments()
    clock = Clock()
    table = Table(repo, clock=clock)
    before = sample("pbp_steps_resolved_total", ruleset="arena")
    game = await table.challenge(
        "arena",
        guild_id=1,
        channel_id=2,
        players=[Player(ALICE, "alice"), Player(BOB, "bob")],
        turn_seconds=600,
    )
    await table.accept(game.id, BOB)
    assert sample("pbp_steps_resolved_total", ruleset="arena") == before  # nothing resolved yet
    clock.now += 601  # the deadline passes: the defaults are played, one step resolves
    assert await table.tick() == 1
    assert sample("pbp_steps_resolved_total", ruleset="arena") == before + 1


async def test_an_acknowledgement_is_timed_once_however_deeply_served() -> None:
    metrics.instruments()
    foreground = Foreground()
    foreground.on_served = metrics.ack_served
    before = sample("pbp_order_ack_seconds_count")
    # The same reply, served a level further in (a helper the handler calls serves too).
    async with foreground.serving(), foreground.serving():
        pass
    assert sample("pbp_order_ack_seconds_count") == before + 1
    assert sample("pbp_order_ack_seconds_bucket", le="10.0") == sample(
        "pbp_order_ack_seconds_count"
    )


async def test_429s_from_the_fake_by_scope_and_every_paced_request_timed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    metrics.instruments()
    fake = await FakeDiscord().start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    trace = PacingTrace(lambda _token: Budget(LocalSlots()))
    figures = {scope: sample("pbp_discord_429_total", scope=scope) for scope in metrics.SCOPES}
    paced = sample("pbp_rate_budget_wait_seconds_count", priority="background")
    try:
        fake.fail(r"^/users/@me$", status=429, times=1, retry_after=0.01, global_=True)
        fake.fail(r"^/gateway$", status=429, times=2, retry_after=0.01)
        async with aiohttp.ClientSession(trace_configs=[trace]) as session:
            for path in ("/users/@me", "/gateway", "/gateway", "/gateway"):
                headers = {"Authorization": "Bot fake"}
                async with session.get(fake.api_base + path, headers=headers) as response:
                    await response.read()
    finally:
        await trace.close()
        await fake.stop()
    assert sample("pbp_discord_429_total", scope="global") == figures["global"] + 1
    assert sample("pbp_discord_429_total", scope="bucket") == figures["bucket"] + 2
    assert sample("pbp_discord_429_total", scope="shared") == figures["shared"]
    assert sample("pbp_rate_budget_wait_seconds_count", priority="background") == paced + 4


async def test_the_render_queue_and_the_render_time(monkeypatch: pytest.MonkeyPatch) -> None:
    made = metrics.instruments()
    renderer = BoardRenderer()  # on a thread, as in-process tests render
    renderer.on_rendered = metrics.board_rendered
    made.renderer = renderer
    drawing = asyncio.Event()
    release = asyncio.Event()
    loop = asyncio.get_running_loop()

    def slow_board(*_args: object) -> bytes:
        loop.call_soon_threadsafe(drawing.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result()
        return b"png"

    monkeypatch.setattr("bot.rendering.render_board", slow_board)
    rendered = sample("pbp_render_seconds_count")
    task = asyncio.create_task(renderer.render("arena", {}, "en", {}))
    await drawing.wait()
    assert sample("pbp_render_queue") == 1
    release.set()
    assert await task == b"png"
    assert sample("pbp_render_queue") == 0
    assert sample("pbp_render_seconds_count") == rendered + 1


async def _get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def test_the_scrape_reads_the_backlog_and_healthz_says_what_is_wrong(
    repo: SqliteRepository,
) -> None:
    clock = Clock()
    table = Table(repo, clock=clock)
    game = await table.challenge(
        "arena", guild_id=1, channel_id=2, players=[Player(ALICE, "a"), Player(BOB, "b")]
    )
    await table.accept(game.id, BOB)  # the game starts: its first prompts wait in the outbox
    async with repo.read() as tx:
        figures = await tx.figures()
    assert figures.outbox_pending >= 1
    clock.now += 42
    watch = metrics.GatewayWatch([0])
    server = metrics.MetricsServer(repo, watch, clock=clock)
    await server.start("127.0.0.1", 0)
    try:
        status, text = await _get(server.port, "/metrics")
        assert status == 200
        lines = set(text.splitlines())
        assert f"pbp_outbox_backlog {float(figures.outbox_pending)}" in lines
        assert "pbp_outbox_oldest_age_seconds 42.0" in lines
        assert 'pbp_games{state="active"} 1.0' in lines
        assert 'pbp_games{state="finished"} 0.0' in lines

        assert await _get(server.port, "/healthz") == (503, "gateway: shard 0 disconnected\n")
        watch.set(0, True)
        assert await _get(server.port, "/healthz") == (200, "ok\n")
        await repo.close()  # the database gone: unhealthy, and the scrape still answers
        status, text = await _get(server.port, "/healthz")
        assert status == 503 and text.startswith("database: ")
        failures = sample("pbp_metrics_refresh_failures_total")
        assert (await _get(server.port, "/metrics"))[0] == 200
        assert sample("pbp_metrics_refresh_failures_total") == failures + 1
    finally:
        await server.stop()


class Host:
    """The part of the bot ``metrics.serve`` uses."""

    def __init__(self, config: Config, repo: Repository) -> None:
        self.config = config
        self.repo = repo
        self.listeners: dict[str, list[Callable[..., Coroutine[Any, Any, Any]]]] = {}

    def is_closed(self) -> bool:
        return False

    def add_listener(
        self, func: Callable[..., Coroutine[Any, Any, Any]], /, name: str = "on_event"
    ) -> None:
        self.listeners.setdefault(name, []).append(func)

    async def dispatch(self, name: str, *args: object) -> None:
        for listener in self.listeners.get(name, []):
            await listener(*args)


async def test_serve_hooks_the_bot_and_a_port_in_use_leaves_it_running_without(
    repo: SqliteRepository, caplog: pytest.LogCaptureFixture
) -> None:
    config = Config(
        None, "sqlite://:memory:", None, "en", None, None, "INFO", 3, (1, 2), metrics_port=0
    )
    host, foreground, renderer = Host(config, repo), Foreground(), BoardRenderer()
    server = await metrics.serve(host, foreground=foreground, renderer=renderer, sharded=True)
    assert server is not None
    try:
        assert foreground.on_served is metrics.ack_served
        assert renderer.on_rendered is metrics.board_rendered
        assert sample("pbp_shard_info", shard_ids="1,2", shard_count="3") == 1
        assert sample("pbp_gateway_connected", shard="1") == 0
        await host.dispatch("on_shard_connect", 1)
        await host.dispatch("on_shard_connect", 2)
        assert sample("pbp_gateway_connected", shard="1") == 1
        assert await _get(server.port, "/healthz") == (200, "ok\n")
        await host.dispatch("on_shard_disconnect", 2)
        assert await _get(server.port, "/healthz") == (503, "gateway: shard 2 disconnected\n")
        await host.dispatch("on_shard_resumed", 2)
        assert (await _get(server.port, "/healthz"))[0] == 200

        taken = Config(
            None, "sqlite://:memory:", None, "en", None, None, "INFO", metrics_port=server.port
        )
        with caplog.at_level(logging.ERROR, logger="bot.metrics"):
            again = await metrics.serve(
                Host(taken, repo), foreground=Foreground(), renderer=renderer, sharded=False
            )
        assert again is None
        assert f"cannot listen on 127.0.0.1:{server.port}" in caplog.text
    finally:
        await server.stop()
    # Stopped, the port is free again at once: a bot started again binds it.
    restarted = metrics.MetricsServer(repo, metrics.GatewayWatch([0]))
    await restarted.start("127.0.0.1", server.port)
    await restarted.stop()


def test_the_scope_of_a_429() -> None:
    assert metrics.scope_of({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}) == (
        "global"
    )
    assert metrics.scope_of({"X-RateLimit-Scope": "shared"}) == "shared"
    assert metrics.scope_of({"X-RateLimit-Scope": "user"}) == "bucket"
    assert metrics.scope_of({}) == "bucket"


def test_the_shards_a_process_watches() -> None:
    def config(count: int | None, ids: tuple[int, ...] | None) -> Config:
        return Config(None, "sqlite://:memory:", None, "en", None, None, "INFO", count, ids)

    assert metrics.shards_of(config(None, None)) == (0,)
    assert metrics.shards_of(config(3, None)) == (0, 1, 2)
    assert metrics.shards_of(config(3, (1,))) == (1,)
    watch = metrics.GatewayWatch([0, 2])
    watch.set(0, True)
    assert watch.problem() == "gateway: shard 2 disconnected"
    watch.set(2, True)
    assert watch.problem() is None
