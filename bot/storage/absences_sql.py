"""The SQL of :class:`bot.storage.absences_store.AbsenceStore`, shared by both backends."""

from __future__ import annotations

from bot.storage.absences_store import AbsenceStore
from bot.storage.sql import SqlPrimitives


class SqlAbsences(SqlPrimitives, AbsenceStore):
    """:class:`AbsenceStore` over the backend's primitives (``?`` placeholders)."""
