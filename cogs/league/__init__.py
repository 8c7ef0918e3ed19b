"""Leagues: the roster ledger, the entry draft, ante picks and standings.

``ledger``, ``draft``, ``ante``, ``standings``, ``season`` and ``board`` are the pure core (no
discord, no storage, no clock: times are passed in as floats); ``service`` keeps them in storage
and the outbox, and ``cog`` adapts Discord to the service. The cog is loaded lazily so that
importing the core never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.league.cog import LeagueCog

    await bot.add_cog(LeagueCog(bot))
