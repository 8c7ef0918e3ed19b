"""Leagues: the roster ledger, the entry draft, ante picks and standings.

``ledger``, ``draft``, ``ante``, ``standings``, ``season`` and ``board`` are the pure core (no
discord, no storage, no clock: times are passed in as floats), with the formats and ratings a
league can run on: ``swiss`` (pairings by weighted matching), ``cup`` (single elimination) and
``ratings`` (OpenSkill); ``service`` keeps them in storage
and the outbox, and ``cog`` adapts Discord to the service. The cog is loaded lazily so that
importing the core never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any

from bot.ruleset import CliCommand, Ref

DEMOS = (
    CliCommand(
        "league", "a whole league season between AI players, offline", Ref("cogs.league.demo")
    ),
)


async def setup(bot: Any) -> None:
    from cogs.league.cog import LeagueCog

    await bot.add_cog(LeagueCog(bot))
