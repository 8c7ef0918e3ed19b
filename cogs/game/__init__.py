"""The shared game commands: every ruleset's games answer to them."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.game.cog import GameCog

    await bot.add_cog(GameCog(bot))
