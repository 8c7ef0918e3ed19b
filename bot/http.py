"""Point discord.py at another REST base or gateway (a rate-limit proxy, or a fake Discord), and
keep its requests under Discord's global limit (``bot.ratebudget``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot import metrics
from bot.config import Config
from bot.priority import in_foreground
from bot.ratebudget import DISCORD_GLOBAL_LIMIT, Budget, LocalSlots, slot_cap, slot_seconds
from bot.storage import POSTGRES_SCHEMES

# Exempt from the global limit, as on Discord: interaction callbacks, follow-ups and their edits
# ("Interaction endpoints are not bound to the bot's Global Rate Limit":
# https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
EXEMPT_PATHS = ("/interactions/", "/webhooks/")
TOO_MANY_REQUESTS = 429


def configure_endpoints(config: Config) -> None:
    """Apply ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` (process-wide, before connecting)."""
    if config.api_base:
        discord.http.Route.BASE = config.api_base.rstrip("/")
    if config.gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


def pacing(config: Config) -> PacingTrace:
    """The ``http_trace`` that keeps a bot's REST requests under its token's global limit
    (``python -m bot`` passes it to the bot; closing the bot closes it)."""
    return PacingTrace(
        lambda token: budget_for(config.database_url, token, limit=config.global_limit)
    )


def budget_for(database_url: str, token: str, *, limit: int = DISCORD_GLOBAL_LIMIT) -> Budget:
    """Shard processes on PostgreSQL share the token's slots in the database; SQLite's single
    process counts them in memory. ``limit``: the token's requests per second."""
    slot = slot_seconds(limit)  # 1/45 s for Discord's 50: the margin is bot.ratebudget's
    cap = slot_cap(limit, slot)
    if database_url.startswith(POSTGRES_SCHEMES):
        # Imported here: an SQLite bot never loads asyncpg.
        from bot.storage.postgres import PostgresRateSlots

        # One grant of every odd slot is the acknowledgements' (with one grant a slot, the whole
        # slot): background requests of every process leave it, so an acknowledgement of any
        # process finds a free grant within two slots without first having to book one.
        return Budget(
            PostgresRateSlots(database_url, token, slot=slot), cap=cap, background_cap=cap - 1
        )
    return Budget(LocalSlots(slot), cap=cap)


def paced(url: str) -> bool:
    """A REST request that counts against the global limit (not the gateway, not interactions)."""
    base = discord.http.Route.BASE
    if not url.startswith(base + "/"):
        return False
    return not url[len(base) :].startswith(EXEMPT_PATHS)


class PacingTrace(aiohttp.TraceConfig):
    """aiohttp's request hook (awaited before each request, retries included, in the task that
    sends it, so an acknowledgement's context is seen) in front of the token's :class:`Budget`,
    made on the first request (in the running loop, with the token the request carries)."""

    def __init__(self, make_budget: Callable[[str], Budget]) -> None:
        super().__init__()
        self.make_budget = make_budget
        self.budget: Budget | None = None
        self.on_request_start.append(self._before_request)
        self.on_request_end.append(self._after_request)

    async def _before_request(
        self, _session: aiohttp.ClientSession, _context: SimpleNamespace, params: Any
    ) -> None:
        if not paced(str(params.url)):
            return
        if self.budget is None:
            authorization = str(params.headers.get("Authorization", ""))
            self.budget = self.make_budget(authorization.removeprefix("Bot "))
        foreground = in_foreground()
        started = time.perf_counter()
        await self.budget.acquire(foreground=foreground)
        metrics.budget_waited(time.perf_counter() - started, foreground=foreground)

    @staticmethod
    async def _after_request(
        _session: aiohttp.ClientSession, _context: SimpleNamespace, params: Any
    ) -> None:
        # Every answer, retries and unpaced requests included: discord.py waits 429s out
        # itself, so this is where they are seen.
        if params.response.status == TOO_MANY_REQUESTS:
            metrics.rate_limited(params.response.headers)

    async def close(self) -> None:
        if self.budget is not None:
            budget, self.budget = self.budget, None
            await budget.close()
