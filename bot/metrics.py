"""What an operator can scrape: Prometheus metrics and a health check (``METRICS_PORT``).

Opt-in and per process. Unset, nothing here runs: the calls the rest of the bot makes at the
points that count (:func:`step_resolved`, :func:`ack_served`, :func:`rate_limited`,
:func:`budget_waited`, :func:`board_rendered`) return at once, and ``prometheus_client`` is
never imported. Set, :func:`serve` builds the instruments, hooks them to the bot and answers on
``METRICS_HOST:METRICS_PORT`` (127.0.0.1 unless told otherwise):

``/metrics``
    Counted by this process (sum them over processes): ``pbp_steps_resolved_total{ruleset}``;
    ``pbp_order_ack_seconds`` (histogram), from the moment the bot takes a player's order up
    (their DM, ``/order``, a button or a builder's seal) to its acknowledgement sent (Discord
    has answered the reply's request; an order refused with its reason counts too);
    ``pbp_discord_429_total{scope}`` (``global``, ``bucket``: a route's bucket, ``shared``: a
    shared resource's); ``pbp_rate_budget_wait_seconds{priority}`` (histogram: every request
    paced under the token's global limit, ``foreground`` acknowledgements and ``background``
    posts, with the seconds it waited for its grant); ``pbp_render_queue`` (boards asked for
    and not drawn yet) and ``pbp_render_seconds`` (histogram, from asking to the PNG, the
    worker process's queue included); ``pbp_gateway_connected{shard}``; ``pbp_shard_info``
    (``shard_ids``, ``shard_count``), and the process's own (``process_*``: memory, CPU).
    Read from the database at each scrape, the same in every process sharing it (take the
    max, not the sum): ``pbp_games{state}``, ``pbp_outbox_backlog`` (rows not yet posted) and
    ``pbp_outbox_oldest_age_seconds`` (0 when there are none).

``/healthz``
    200 ``ok`` while every gateway connection of this process is up (READY or RESUMED, not
    disconnected since) and the database answers a ping within :data:`PING_TIMEOUT`; else 503
    with a one-line reason (``gateway: shard 0 disconnected``, ``database: …``).

The rules, renderers and the rate budget import nothing from here: each figure is measured by
its caller (the table, ``bot.http``, ``bot.rendering``, ``bot.priority`` through a callback).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot import registry

if TYPE_CHECKING:
    from aiohttp import web
    from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info

    from bot.config import Config
    from bot.priority import Foreground
    from bot.rendering import BoardRenderer
    from bot.storage import Repository

log = logging.getLogger(__name__)

PING_TIMEOUT = 2.0  # seconds the health check waits for the database
REFRESH_TIMEOUT = 5.0  # seconds a scrape waits for the database's figures
# An order's acknowledgement is one or two database hops and one request: tens of milliseconds
# (bench/load.py: p99 under 100 ms); a second is the alert.
ACK_BUCKETS = (0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A grant is immediate, or waits a slot (50 ms) or several; seconds mean Discord's limit is near.
WAIT_BUCKETS = (0.001, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
RENDER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GAME_STATES = ("lobby", "setup", "active", "paused", "finished", "abandoned")
SCOPES = ("global", "bucket", "shared")
PRIORITIES = ("foreground", "background")


@dataclass
class Instruments:
    """The process's metrics, in a registry of their own (nothing of other libraries')."""

    registry: CollectorRegistry
    steps: Counter
    ack: Histogram
    rate_limited: Counter
    budget_wait: Histogram
    render_queue: Gauge
    render: Histogram
    gateway: Gauge
    games: Gauge
    outbox_backlog: Gauge
    outbox_oldest: Gauge
    refresh_failures: Counter
    shard: Info
    renderer: BoardRenderer | None = None  # the bot's (its queue is read at each scrape)


_on: Instruments | None = None


def instruments() -> Instruments:
    """The instruments, built on first use (once per process: a bot started again reuses them,
    so counters keep counting)."""
    global _on
    if _on is None:
        _on = _build()
    return _on


def _build() -> Instruments:
    # Imported here: a bot without METRICS_PORT never loads it.
    from prometheus_client import (
        CollectorRegistry,
        Counter,
        Gauge,
        Histogram,
        Info,
        ProcessCollector,
    )

    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    made = Instruments(
        registry=registry,
        steps=Counter(
            "pbp_steps_resolved", "Steps resolved by this process", ["ruleset"], registry=registry
        ),
        ack=Histogram(
            "pbp_order_ack_seconds",
            "From taking a player's order up to its acknowledgement sent",
            buckets=ACK_BUCKETS,
            registry=registry,
        ),
        rate_limited=Counter(
            "pbp_discord_429", "429 answers from Discord, by scope", ["scope"], registry=registry
        ),
        budget_wait=Histogram(
            "pbp_rate_budget_wait_seconds",
            "Seconds each paced request waited for a grant under the global limit",
            ["priority"],
            buckets=WAIT_BUCKETS,
            registry=registry,
        ),
        render_queue=Gauge(
            "pbp_render_queue", "Boards asked for and not drawn yet", registry=registry
        ),
        render=Histogram(
            "pbp_render_seconds",
            "From asking for a board to its PNG",
            buckets=RENDER_BUCKETS,
            registry=registry,
        ),
        gateway=Gauge(
            "pbp_gateway_connected", "1 while a shard's gateway is up", ["shard"], registry=registry
        ),
        games=Gauge("pbp_games", "Games in the database, by state", ["state"], registry=registry),
        outbox_backlog=Gauge(
            "pbp_outbox_backlog", "Outbox rows not yet posted (database-wide)", registry=registry
        ),
        outbox_oldest=Gauge(
            "pbp_outbox_oldest_age_seconds",
            "Age of the oldest outbox row not yet posted (0: none)",
            registry=registry,
        ),
        refresh_failures=Counter(
            "pbp_metrics_refresh_failures",
            "Scrapes whose database figures could not be read",
            registry=registry,
        ),
        shard=Info("pbp_shard", "The shards this process runs", registry=registry),
    )
    # Every series exists from the start at 0, so that rate() sees its first increase.
    for scope in SCOPES:
        made.rate_limited.labels(scope)
    for priority in PRIORITIES:
        made.budget_wait.labels(priority)
    for state in GAME_STATES:
        made.games.labels(state).set(0)
    made.render_queue.set_function(lambda: made.renderer.pending if made.renderer else 0)
    return made


# --- the calls at the points that count (no-ops until METRICS_PORT starts the server) ---------


def step_resolved(ruleset: str) -> None:
    """A step's resolution committed (``bot.table``)."""
    if _on is not None:
        _on.steps.labels(ruleset).inc()


def ack_served(seconds: float) -> None:
    """An order taken up and acknowledged (``Foreground.serving``, via its ``on_served``)."""
    if _on is not None:
        _on.ack.observe(seconds)


def scope_of(headers: Mapping[str, str]) -> str:
    """A 429's scope from its headers: ``global`` (``X-RateLimit-Global``), ``shared``
    (``X-RateLimit-Scope: shared``), else ``bucket`` (``user``: the route's own bucket)."""
    if headers.get("X-RateLimit-Global", "").lower() == "true":
        return "global"
    scope = headers.get("X-RateLimit-Scope", "")
    return scope if scope in ("global", "shared") else "bucket"


def rate_limited(headers: Mapping[str, str]) -> None:
    """Discord answered 429 (``bot.http``, for every request, retries included)."""
    if _on is not None:
        _on.rate_limited.labels(scope_of(headers)).inc()


def budget_waited(seconds: float, *, foreground: bool) -> None:
    """A paced request got its grant after ``seconds`` (``bot.http``)."""
    if _on is not None:
        _on.budget_wait.labels(PRIORITIES[0] if foreground else PRIORITIES[1]).observe(seconds)


def board_rendered(seconds: float) -> None:
    """A board drawn (``BoardRenderer``, via its ``on_rendered``)."""
    if _on is not None:
        _on.render.observe(seconds)


# --- the gateway, as this process's shards see it -----------------------------------------------


class GatewayWatch:
    """Which of this process's gateway connections are up, from discord.py's events: up at
    READY (``connect``) or RESUMED, down at each disconnect (a failed reconnection attempt
    included)."""

    def __init__(self, shards: Iterable[int]) -> None:
        self.up: dict[int, bool] = dict.fromkeys(shards, False)
        self.gauge: Gauge | None = None

    def set(self, shard: int, up: bool) -> None:
        self.up[shard] = up
        if self.gauge is not None:
            self.gauge.labels(str(shard)).set(1 if up else 0)

    def problem(self) -> str | None:
        """Why the gateway is not healthy (None: every shard is up)."""
        down = [str(shard) for shard, up in sorted(self.up.items()) if not up]
        if not down:
            return None
        return f"gateway: shard {', '.join(down)} disconnected"


def shards_of(config: Config) -> tuple[int, ...]:
    """The shards this process runs (0 alone when unsharded)."""
    if config.shard_count is None:
        return (0,)
    if config.shard_ids is not None:
        return config.shard_ids
    return tuple(range(config.shard_count))


class Host(Protocol):
    """What :func:`serve` needs of the bot (``bot.client.RefereeBot``), named by its shape so
    that this module does not import the client (the client imports it)."""

    config: Config
    repo: Repository

    def is_closed(self) -> bool: ...

    def add_listener(
        self, func: Callable[..., Coroutine[Any, Any, Any]], /, name: str = ...
    ) -> None: ...


def watch_gateway(bot: Host, watch: GatewayWatch, *, sharded: bool) -> None:
    """Feed ``watch`` from the bot's events (per shard when sharded: discord.py also sends the
    unsharded names then, without saying which shard)."""
    if sharded:

        async def shard_up(shard: int) -> None:
            watch.set(shard, True)

        async def shard_down(shard: int) -> None:
            watch.set(shard, False)

        bot.add_listener(shard_up, "on_shard_connect")
        bot.add_listener(shard_up, "on_shard_resumed")
        bot.add_listener(shard_down, "on_shard_disconnect")
        return

    async def up() -> None:
        watch.set(0, True)

    async def down() -> None:
        watch.set(0, False)

    bot.add_listener(up, "on_connect")
    bot.add_listener(up, "on_resumed")
    bot.add_listener(down, "on_disconnect")


# --- the server ---------------------------------------------------------------------------------


class MetricsServer:
    """``/metrics`` and ``/healthz`` on an aiohttp server of the bot's own event loop."""

    def __init__(
        self,
        repo: Repository,
        watch: GatewayWatch,
        *,
        closed: Callable[[], bool] = lambda: False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.repo = repo
        self.watch = watch
        self.closed = closed
        self.clock = clock
        self.instruments = instruments()
        self._runner: web.AppRunner | None = None
        self.port = 0

    def app(self) -> web.Application:
        from aiohttp import web  # here: the bot without METRICS_PORT never loads the server

        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        return app

    async def start(self, host: str, port: int) -> None:
        from aiohttp import web

        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        try:
            # SO_REUSEADDR (asyncio's default here): a restarted process binds at once.
            site = web.TCPSite(runner, host, port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        addresses = runner.addresses  # the port bound, when asked for 0 (tests)
        self.port = int(addresses[0][1]) if addresses else port

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def refresh(self) -> None:
        """The database-wide figures, read now (one short read transaction)."""
        made = self.instruments
        async with asyncio.timeout(REFRESH_TIMEOUT):
            async with self.repo.read() as tx:
                figures = await tx.figures()
        for state in set(GAME_STATES) | set(figures.games):
            made.games.labels(state).set(figures.games.get(state, 0))
        made.outbox_backlog.set(figures.outbox_pending)
        oldest = figures.oldest_pending_at
        made.outbox_oldest.set(0.0 if oldest is None else max(0.0, self.clock() - oldest))

    async def metrics(self, _request: web.Request) -> web.Response:
        from aiohttp import web
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        try:
            await self.refresh()
        except Exception as exc:  # the figures stay as last read; the rest is still worth it
            self.instruments.refresh_failures.inc()
            log.warning("metrics: the database figures could not be read: %s", _reason(exc))
        body = generate_latest(self.instruments.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def problem(self) -> str | None:
        """Why this process is not healthy (None: it is)."""
        if self.closed():
            return "closing"
        gateway = self.watch.problem()
        if gateway is not None:
            return gateway
        try:
            async with asyncio.timeout(PING_TIMEOUT):
                async with self.repo.read() as tx:
                    await tx.ping()
        except TimeoutError:
            return f"database: no answer in {PING_TIMEOUT:g} s"
        except Exception as exc:
            return f"database: {_reason(exc)}"
        return None

    async def healthz(self, _request: web.Request) -> web.Response:
        from aiohttp import web

        problem = await self.problem()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=problem + "\n")


def _reason(exc: BaseException) -> str:
    return (" ".join(str(exc).split()) or type(exc).__name__)[:200]


async def serve(
    bot: Host, *, foreground: Foreground, renderer: BoardRenderer, sharded: bool
) -> MetricsServer | None:
    """Hook the instruments to the bot and start the server on ``METRICS_HOST:METRICS_PORT``.

    A port that cannot be bound (taken by another process) is logged as an error and the bot
    runs on without metrics: its players matter more than its dashboard (``/healthz`` then
    does not answer, which a probe notices).
    """
    config = bot.config
    assert config.metrics_port is not None
    made = instruments()
    for ruleset in registry.rulesets():  # each series from 0, as in _build
        made.steps.labels(ruleset)
    foreground.on_served = ack_served
    renderer.on_rendered = board_rendered
    made.renderer = renderer
    shards = shards_of(config)
    made.shard.info(
        {"shard_ids": ",".join(map(str, shards)), "shard_count": str(config.shard_count or 1)}
    )
    watch = GatewayWatch(shards)
    watch.gauge = made.gateway
    for shard in shards:
        watch.set(shard, False)
    watch_gateway(bot, watch, sharded=sharded)
    server = MetricsServer(bot.repo, watch, closed=bot.is_closed)
    try:
        await server.start(config.metrics_host, config.metrics_port)
    except OSError as exc:
        log.error(
            "metrics: cannot listen on %s:%s (%s); running without /metrics and /healthz",
            config.metrics_host,
            config.metrics_port,
            _reason(exc),
        )
        return None
    log.info("metrics: /metrics and /healthz on %s:%s", config.metrics_host, server.port)
    return server
