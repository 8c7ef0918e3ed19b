"""Master-unit tactics: secret action sheets, mana and DP on a square grid.

``rules`` (pure engine), ``board`` (pure renderer) and ``present`` import no discord; the cog is
loaded lazily so that importing the engine never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.tactics.cog import TacticsCog

    await bot.add_cog(TacticsCog(bot))
