"""The discord.py Bot: opens storage, loads the cogs, syncs commands, runs the workers."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord.ext import commands, tasks

from bot import metrics, registry
from bot.config import Config
from bot.http import PacingTrace
from bot.i18n.translator import CatalogueTranslator
from bot.outbox import OutboxSender
from bot.rendering import BoardRenderer
from bot.storage import Repository, open_repository
from bot.table import Table
from bot.tree import RefereeTree
from bot.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

MAINTENANCE_SECONDS = 10.0
# The bot-wide default of every send (interaction responses and follow-ups, edits, posts).
SAFE_MENTIONS = discord.AllowedMentions.none()


def deterministic_entropy(seed: str | None) -> Callable[[int, str], bytes] | None:
    """``PBP_TEST_ENTROPY_SEED``: seeds and salts derived from the seed and what they are for.

    For end-to-end tests only: a crashed-and-restarted run then draws exactly the bytes an
    uninterrupted run draws, so both can be compared. ``None`` (production): ``secrets``.
    """
    if not seed:
        return None
    log.warning("PBP_TEST_ENTROPY_SEED is set: dice are predictable (tests only)")

    def derived(size: int, key: str) -> bytes:
        return hashlib.sha256(f"pbp-test:{seed}:{key}".encode()).digest()[:size]

    return derived


BUCKET_SWEEP_SECONDS = 60.0


def throttle_bucket_sweeps(http: discord.http.HTTPClient) -> None:
    """Sweep discord.py's idle rate-limit buckets once a minute, not on every new bucket.

    discord.py keeps a bucket per route and channel, and each time it creates one it scans them
    all for buckets idle five minutes (``HTTPClient._try_clear_expired_ratelimits``). A bot with
    a DM channel per player has thousands, and creates new ones all the time (each player's DM,
    each game channel's edits): under load that scan was a seventh of the event loop's time, in
    stalls of several milliseconds. Sweeping at most once a minute keeps the memory bound.
    """
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if sweep is None:  # a discord.py without it: nothing to throttle
        return
    last = [float("-inf")]

    def throttled() -> None:
        now = time.monotonic()
        if now - last[0] >= BUCKET_SWEEP_SECONDS:
            last[0] = now
            sweep()

    # A deliberate monkeypatch of discord.py's method: mypy forbids assigning to one.
    http._try_clear_expired_ratelimits = throttled  # type: ignore[method-assign]


class RefereeBot(commands.Bot):
    """The bot: one gateway connection. :func:`create_bot` picks :class:`ShardedRefereeBot`
    instead when ``SHARD_COUNT`` is set."""

    def __init__(
        self,
        config: Config,
        *,
        repo: Repository | None = None,
        clock: Callable[[], float] = time.time,
        extensions: Sequence[str] | None = None,
        sync_commands: bool = True,
        render_processes: int = 0,
        **options: Any,
    ) -> None:
        # No privileged intents: DM message content reaches bots without the message-content
        # intent, and that is the only text we read.
        intents = discord.Intents.default()
        # Nothing the bot sends pings anyone unless that send names them: a player's text with
        # "@everyone" or a role in it stays text. The outbox names a message's players
        # (``bot.outbox.allowed_mentions``), and the replies that ping name who they ping.
        options.setdefault("allowed_mentions", SAFE_MENTIONS)
        if config.shard_count is not None:
            # Several processes share the token: each runs its SHARD_IDS (all, when unset).
            options.setdefault("shard_count", config.shard_count)
            if config.shard_ids is not None:
                options.setdefault("shard_ids", list(config.shard_ids))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=RefereeTree,
            **options,
        )
        throttle_bucket_sweeps(self.http)
        self.config = config
        self.repo = repo or open_repository(config.database_url)
        self.table = Table(
            self.repo,
            clock=clock,
            default_language=config.default_language,
            on_outbox=self._outbox_ready,
            keyed_entropy=deterministic_entropy(config.test_entropy_seed),
        )
        # ``python -m bot`` renders boards in a worker process (see BoardRenderer); in-process
        # tests and the demo render on a thread.
        self.outbox = OutboxSender(self, self.repo, BoardRenderer(render_processes))
        # Periodic work of cogs (a league's draft clock, say), run by the one maintenance loop
        # after the table's deadlines: each is an idempotent coroutine that catches up on what
        # fell due, so a restart or a missed tick loses nothing.
        self.maintenance_hooks: list[Callable[[], Awaitable[object]]] = []
        # The shared cogs and every ruleset's (bot.registry), unless a test names its own.
        self._extensions = tuple(registry.extensions() if extensions is None else extensions)
        self._sync_commands = sync_commands
        self._started = False
        self.metrics: metrics.MetricsServer | None = None  # METRICS_PORT: /metrics, /healthz

    def _outbox_ready(self) -> None:
        if self._started:
            self.outbox.wake()

    async def setup_hook(self) -> None:
        await self.repo.open()
        if self.config.metrics_port is not None and self.metrics is None:
            # From the start: /healthz says 503 until the gateway is up.
            self.metrics = await metrics.serve(
                self,
                foreground=self.table.foreground,
                renderer=self.outbox.renderer,
                sharded=isinstance(self, commands.AutoShardedBot),
            )
        if self.repo.shared:
            # Other processes enqueue too (an order received by another shard resolves a turn
            # there): their commits wake this sender at once, not at its next maintenance tick.
            await self.repo.listen("outbox", self._outbox_ready)
        else:
            # Only this process uses the database: any claim in it was this process's before a
            # restart, and waiting for its lease to lapse would only delay the catch-up.
            async with self.repo.transaction() as tx:
                await tx.release_all_claims()
        await self.tree.set_translator(CatalogueTranslator())
        for extension in self._extensions:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.syncs_commands():
            await self._sync()
        self._started = True
        # Anything stored before a crash: turns whose orders were all in, unsent messages.
        resolved = await self.table.deadlines.recover()
        if resolved:
            log.info("recovered %d turn(s) whose orders were all in", resolved)
        self.outbox.wake()
        self.maintenance.start()

    def syncs_commands(self) -> bool:
        """One process syncs the commands: the one that runs shard 0 (or the only one)."""
        ids = self.config.shard_ids
        return self._sync_commands and (ids is None or 0 in ids)

    async def _sync(self) -> None:
        guild_id = self.config.dev_guild_id
        if guild_id:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        await self.tree.sync()

    @tasks.loop(seconds=MAINTENANCE_SECONDS)
    async def maintenance(self) -> None:
        """Deadlines and reminders, the cogs' periodic work, then any outbox retries due."""
        try:
            await self.table.tick()
        except Exception:
            log.exception("deadline tick failed")
        for hook in self.maintenance_hooks:
            try:
                await hook()
            except Exception:
                log.exception("maintenance hook %s failed", getattr(hook, "__qualname__", hook))
        self.outbox.wake()

    async def close(self) -> None:
        if self.maintenance.is_running():
            self.maintenance.cancel()
        if self.metrics is not None:
            server, self.metrics = self.metrics, None
            await server.stop()
        await self.outbox.stop()
        await super().close()
        trace = self.http.http_trace
        if isinstance(trace, PacingTrace):
            await trace.close()  # its budget's database connection, if any
        self.outbox.renderer.close()
        await self.repo.close()


class ShardedRefereeBot(RefereeBot, commands.AutoShardedBot):
    """The bot as one of several shard processes (``SHARD_COUNT``, ``SHARD_IDS``), or running
    every shard in one process (``SHARD_COUNT`` alone). Discord sends DMs to shard 0 and a
    server's events to shard ``(guild_id >> 22) % SHARD_COUNT``; whichever process receives an
    order stores it and may resolve the turn (the compare-and-set makes that exactly once),
    any process posts anywhere over REST, and the background work (outbox, deadlines, league
    maintenance) is claimed from the shared database by one process at a time. The gateway URL
    comes from ``GET /gateway/bot`` (``DISCORD_GATEWAY_URL`` is for the unsharded connection).
    """


def create_bot(config: Config, **kwargs: Any) -> RefereeBot:
    """The bot ``config`` asks for: sharded with ``SHARD_COUNT`` (and ``SHARD_IDS``), else one
    connection as always."""
    if config.shard_count is not None:
        return ShardedRefereeBot(config, **kwargs)
    return RefereeBot(config, **kwargs)
