"""The SQL of :class:`bot.storage.reminders_store.ReminderStore`, shared by both backends."""

from __future__ import annotations

from bot.storage.reminders_store import ReminderStore
from bot.storage.sql import SqlPrimitives


class SqlReminders(SqlPrimitives, ReminderStore):
    """:class:`ReminderStore` over the backend's primitives (``?`` placeholders)."""
