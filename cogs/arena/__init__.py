"""HEXSYSTEM Arena Duel: two gladiators, secret moves, dice comparisons.

``rules`` (pure engine) and ``board`` (pure renderer) import no discord; the cog is loaded lazily so
that importing the engine never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.arena.cog import ArenaCog

    await bot.add_cog(ArenaCog(bot))
