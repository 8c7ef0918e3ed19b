"""Point discord.py at another REST base or gateway (a rate-limit proxy, or a fake Discord)."""

from __future__ import annotations

import discord
import yarl
from discord.gateway import DiscordWebSocket

from bot.config import Config


def configure_endpoints(config: Config) -> None:
    """Apply ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` (process-wide, before connecting)."""
    if config.api_base:
        discord.http.Route.BASE = config.api_base.rstrip("/")
    if config.gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)
