"""The SQL of :class:`bot.storage.handovers_store.HandoverStore`, shared by both backends."""

from __future__ import annotations

from bot.storage.handovers_store import HandoverStore
from bot.storage.sql import SqlPrimitives


class SqlHandovers(SqlPrimitives, HandoverStore):
    """:class:`HandoverStore` over the backend's primitives (``?`` placeholders)."""
