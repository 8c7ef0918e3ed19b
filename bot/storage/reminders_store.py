"""Each player's reminder settings (when, how, quiet hours, a daily digest) and the reminders the
deadline worker has scheduled and sent (issue 34).

The abstract part of :class:`bot.storage.base.Transaction`; the SQL both backends share is in
``reminders_sql.py``. Kept apart from ``base.py`` (which imports this) so that each part of the
schema has one place; nothing here imports the rest of the storage package.
"""

from __future__ import annotations

from abc import ABC


class ReminderStore(ABC):  # noqa: B024  (its methods come with the feature: issue 34)
    """Each player's reminder settings (when, how, quiet hours, a daily digest) and the reminders
    the deadline worker has scheduled and sent (issue 34)."""
