"""Hex dungeon (``dungeon``): a co-operative hex dungeon crawler whose monsters the bot runs.

``hexes`` (coordinates, distance, line of sight) and ``ai`` (monster focus and movement) are pure:
no discord, no storage, no randomness, no clock. ``scenario`` reads the shared reference situations
(``monster-ai-scenarios.json``) into the AI's own types; ``cli`` is ``python -m bot monster-ai``.
``content`` loads the data packs (scenarios, classes, monster decks), ``movement`` moves figures,
``rules`` is the co-op engine, ``board`` draws it and ``present`` words it; the cog is loaded
lazily so that importing the engine never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.dungeon.cog import DungeonCog

    await bot.add_cog(DungeonCog(bot))
