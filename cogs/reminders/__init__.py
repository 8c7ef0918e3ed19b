"""``/reminders``: when and how each player is reminded before a deadline (issue 34).

The schedule is pure (``bot/reminders.py``), the deadline worker's part and the stored settings
are ``bot/reminding.py``; this cog only reads the command's options and answers privately. It is
loaded lazily so that importing the package never pulls in discord.py.
"""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from cogs.reminders.cog import RemindersCog

    await bot.add_cog(RemindersCog(bot))
