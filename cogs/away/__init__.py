"""``/away``: a player's absences, and a server's bound on them (issue 34). The rules are in
:mod:`bot.absences`, the work in :mod:`bot.away` (``Table.absences``); the cog is loaded lazily
so that importing the package never pulls in discord.py."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.away.cog import AwayCog

    await bot.add_cog(AwayCog(bot))
