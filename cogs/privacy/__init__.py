"""``/privacy export`` and ``/privacy forget``: a player's own data (issue 37).

What is collected and erased is :mod:`bot.privacy` (pure over one transaction); this cog only
answers privately, attaches the file and asks for the confirmation. It is loaded lazily so that
importing the package never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.privacy.cog import PrivacyCog

    await bot.add_cog(PrivacyCog(bot))
